import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { authEndpoints, type InvitePreview, inviteEndpoints, registerBody } from '@/contracts/auth';
import { ROLE_LABELS } from '@/contracts/roles';
import { AccountFields } from '@/web/components/account-fields';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput } from '@/web/components/form-controls';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { api } from '@/web/lib/api';
import { applyServerError, NEW_PASSWORD_HINT } from '@/web/lib/forms';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

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

  const invite = useQuery({
    queryKey: queryKeys.auth.invite(inviteToken ?? ''),
    queryFn: () => api(inviteEndpoints.lookup, { query: { token: inviteToken ?? '' } }),
    enabled: !!inviteToken,
  });
  const lockedEmail = invite.data?.email ?? null;
  // An invitation for an address fixes it.
  const email = {
    label: 'Work email',
    hint: lockedEmail ? 'This invitation is for this address.' : undefined,
    readOnly: !!lockedEmail,
  };
  useEffect(() => {
    if (lockedEmail) form.setValue('email', lockedEmail, { shouldValidate: true });
  }, [lockedEmail, form]);

  const mutation = useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...values }: RegisterFormOutput) =>
      api(authEndpoints.register, { body: { ...values, ...(inviteToken ? { inviteToken } : {}) } }),
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
        <AccountFields form={form} idPrefix="register" testIdPrefix="input" email={email} />
        <FormInput
          form={form}
          name="password"
          id="register-password"
          label="Password"
          hint={NEW_PASSWORD_HINT}
          type="password"
          autoComplete="new-password"
          data-testid="input-password"
        />
        <FormInput
          form={form}
          name="confirmPassword"
          id="register-confirm-password"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          data-testid="input-confirm-password"
        />
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
