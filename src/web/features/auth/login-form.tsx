import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { authEndpoints, LoginBody, LoginInput } from '@/contracts/auth';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { api } from '@/web/lib/api';
import { applyServerError } from '@/web/lib/forms';
import { lazyZodResolver } from '@/web/lib/lazy-zod-resolver';
import { queryKeys } from '@/web/lib/query-keys';
import { fieldErrors } from '@/web/lib/queryClient';

interface LoginFormProps {
  /** `authEndpoints.login` for staff, `authEndpoints.adminLogin` for the administrator sign-in. */
  endpoint: typeof authEndpoints.login | typeof authEndpoints.adminLogin;
  /** Show the two-factor code field from the start (optional); otherwise it appears on TOTP_REQUIRED. */
  totpAlwaysVisible?: boolean;
  idPrefix?: string;
}

const FIELDS = ['email', 'password', 'totp'] as const;

/** The shared login schema (same messages as the server), loaded when the form is first used. */
const validation = lazyZodResolver<LoginBody, LoginInput>(() =>
  import('@/contracts/auth').then((module) => module.loginBody),
);
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export function LoginForm({ endpoint, totpAlwaysVisible = false, idPrefix = 'login' }: LoginFormProps) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [totpVisible, setTotpVisible] = useState(totpAlwaysVisible);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<LoginBody, unknown, LoginInput>({
    resolver: validation.resolver,
    defaultValues: { email: '', password: '' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const mutation = useMutation({
    mutationFn: (body: LoginInput) => api(endpoint, { body }),
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.auth.user(), user);
      navigate('/');
    },
    onError: (error) => {
      if (fieldErrors(error).totp && !totpVisible) setTotpVisible(true);
      setAlert(applyServerError(form, error, FIELDS));
    },
  });

  // When the server asks for the code, move to the field that just appeared.
  useEffect(() => {
    if (totpVisible && !totpAlwaysVisible) form.setFocus('totp');
  }, [totpVisible, totpAlwaysVisible, form]);

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    mutation.mutate(values);
  });

  return (
    <form
      onSubmit={onSubmit}
      onFocus={validation.preload}
      onPointerDown={validation.preload}
      noValidate
      className="grid grid-cols-1 gap-4"
      aria-label="Sign in"
    >
      <FormAlert message={alert} />
      <FormField id={`${idPrefix}-email`} label="Email" error={errors.email?.message}>
        {(control) => (
          <Input
            {...control}
            type="email"
            autoComplete="username"
            inputMode="email"
            spellCheck={false}
            data-testid="input-email"
            {...form.register('email')}
          />
        )}
      </FormField>
      <FormField id={`${idPrefix}-password`} label="Password" error={errors.password?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="current-password"
            data-testid="input-password"
            {...form.register('password')}
          />
        )}
      </FormField>
      {totpVisible && (
        <FormField
          id={`${idPrefix}-totp`}
          label={totpAlwaysVisible ? 'Two-factor code (if enabled)' : 'Two-factor code'}
          hint="The 6-digit code from your authenticator app, or one of your recovery codes (xxxxx-xxxxx)."
          error={errors.totp?.message}
        >
          {(control) => (
            <Input
              {...control}
              type="text"
              autoComplete="one-time-code"
              maxLength={11}
              spellCheck={false}
              autoCapitalize="none"
              placeholder="123456"
              className="font-mono tracking-[0.3em]"
              data-testid="input-totp"
              {...form.register('totp', totpAlwaysVisible ? { setValueAs: emptyToUndefined } : {})}
            />
          )}
        </FormField>
      )}
      <Button type="submit" className="mt-1 w-full" disabled={mutation.isPending} data-testid="button-submit">
        {mutation.isPending ? (
          <>
            <Spinner className="size-4" />
            Signing in…
          </>
        ) : (
          'Sign in'
        )}
      </Button>
    </form>
  );
}
