import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { type InvitePreview, registerBody, type User } from '@/contracts/auth';
import { ROLE_LABELS } from '@/contracts/roles';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { applyServerError } from '@/web/lib/forms';
import { queryKeys } from '@/web/lib/query-keys';
import { apiJson, errorMessage } from '@/web/lib/queryClient';

/** The shared register schema (same messages as the server) plus a confirmation of the password. */
export const registerFormSchema = registerBody
  .omit({ inviteToken: true })
  .extend({ confirmPassword: z.string().min(1, 'Confirm your password') })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
type RegisterFormInput = z.input<typeof registerFormSchema>;
type RegisterFormOutput = z.output<typeof registerFormSchema>;

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'] as const;

export function RegisterForm({ inviteToken }: { inviteToken: string | null }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const invite = useQuery({
    queryKey: ['/api/invites/lookup', inviteToken],
    queryFn: () =>
      apiJson<InvitePreview>('GET', `/api/invites/lookup?token=${encodeURIComponent(inviteToken ?? '')}`),
    enabled: !!inviteToken,
  });
  const lockedEmail = invite.data?.email ?? null;
  useEffect(() => {
    if (lockedEmail) form.setValue('email', lockedEmail, { shouldValidate: true });
  }, [lockedEmail, form]);

  const mutation = useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...values }: RegisterFormOutput) =>
      apiJson<User>('POST', '/api/register', { ...values, ...(inviteToken ? { inviteToken } : {}) }),
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.auth.user(), user);
      navigate('/');
    },
    onError: (error) => setAlert(applyServerError(form, error, FIELDS)),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    mutation.mutate(values);
  });

  return (
    <div className="grid grid-cols-1 gap-4">
      {inviteToken && <InviteNotice loading={invite.isLoading} error={invite.error} invite={invite.data} />}
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4" aria-label="Create account">
        <FormAlert message={alert} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField id="register-first-name" label="First name" error={errors.firstName?.message}>
            {(control) => (
              <Input
                {...control}
                autoComplete="given-name"
                data-testid="input-first-name"
                {...form.register('firstName')}
              />
            )}
          </FormField>
          <FormField id="register-last-name" label="Last name" error={errors.lastName?.message}>
            {(control) => (
              <Input
                {...control}
                autoComplete="family-name"
                data-testid="input-last-name"
                {...form.register('lastName')}
              />
            )}
          </FormField>
        </div>
        <FormField
          id="register-email"
          label="Work email"
          error={errors.email?.message}
          hint={lockedEmail ? 'This invitation is for this address.' : undefined}
        >
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="email"
              inputMode="email"
              spellCheck={false}
              readOnly={!!lockedEmail}
              data-testid="input-email"
              {...form.register('email')}
            />
          )}
        </FormField>
        <FormField
          id="register-password"
          label="Password"
          error={errors.password?.message}
          hint="At least 10 characters. A short phrase is easier to remember than symbols."
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              data-testid="input-password"
              {...form.register('password')}
            />
          )}
        </FormField>
        <FormField
          id="register-confirm-password"
          label="Confirm password"
          error={errors.confirmPassword?.message}
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              data-testid="input-confirm-password"
              {...form.register('confirmPassword')}
            />
          )}
        </FormField>
        <Button
          type="submit"
          className="mt-1 w-full"
          disabled={mutation.isPending}
          data-testid="button-submit"
        >
          {mutation.isPending ? (
            <>
              <Spinner className="size-4" />
              Creating account…
            </>
          ) : (
            'Create account'
          )}
        </Button>
      </form>
    </div>
  );
}

function InviteNotice({
  loading,
  error,
  invite,
}: {
  loading: boolean;
  error: Error | null;
  invite: InvitePreview | undefined;
}) {
  if (loading) {
    return (
      <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
        <Spinner className="size-4" /> Checking your invitation…
      </p>
    );
  }
  if (error || !invite) {
    return (
      <FormAlert
        message={
          <>
            <strong className="font-semibold">This invitation cannot be used.</strong> {errorMessage(error)}
          </>
        }
      />
    );
  }
  return (
    <div
      className="flex items-start gap-3 rounded-md border border-primary/30 bg-primary/5 px-3 py-2.5 text-sm"
      data-testid="text-invite-role"
    >
      <MailCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <p>
        You have been invited to join as <strong className="font-semibold">{ROLE_LABELS[invite.role]}</strong>
        {invite.email ? (
          <>
            {' '}
            with <strong className="font-semibold">{invite.email}</strong>
          </>
        ) : null}
        .
      </p>
    </div>
  );
}
