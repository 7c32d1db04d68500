import { Link } from 'wouter';
import { authEndpoints } from '@/contracts/auth';
import { AuthCard } from '@/web/features/auth/auth-card';
import { LoginForm } from '@/web/features/auth/login-form';
import { useDocumentTitle } from '@/web/hooks/use-document-title';

export default function AdminLoginPage() {
  useDocumentTitle('Administrator sign-in');
  return (
    <AuthCard
      title="Administrator sign-in"
      description="For administrators and the owner of the organisation. Other staff use the staff sign-in."
      footer={
        <p>
          Not an administrator?{' '}
          <Link
            href="/login"
            className="font-medium text-primary hover:underline"
            data-testid="link-staff-login"
          >
            Go to the staff sign-in
          </Link>
        </p>
      }
    >
      <LoginForm endpoint={authEndpoints.adminLogin} totpAlwaysVisible idPrefix="admin-login" />
    </AuthCard>
  );
}
