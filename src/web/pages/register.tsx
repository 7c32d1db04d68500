import { Link, useSearch } from 'wouter';
import { AuthCard } from '@/web/features/auth/auth-card';
import { RegisterForm } from '@/web/features/auth/register-form';
import { useDocumentTitle } from '@/web/hooks/use-document-title';

export default function RegisterPage() {
  useDocumentTitle('Create your account');
  const inviteToken = new URLSearchParams(useSearch()).get('invite')?.trim() || null;
  return (
    <AuthCard
      title="Create your account"
      description={
        inviteToken
          ? 'Complete your details to accept the invitation.'
          : 'Staff accounts are created from an invitation link sent by an administrator. The very first account of a new organisation becomes its owner.'
      }
      footer={
        <p>
          Already have an account?{' '}
          <Link href="/login" className="font-medium text-primary hover:underline" data-testid="link-login">
            Sign in
          </Link>
        </p>
      }
    >
      <RegisterForm inviteToken={inviteToken} />
    </AuthCard>
  );
}
