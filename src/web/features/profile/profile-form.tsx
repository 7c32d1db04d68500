import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { User } from '@/contracts/auth';
import { ERROR_CODES } from '@/contracts/errors';
import { profileUpdateBody } from '@/contracts/profile';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { toast } from '@/web/hooks/use-toast';
import { applyServerError } from '@/web/lib/forms';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, apiJson, errorMessage } from '@/web/lib/queryClient';

const FIELDS = ['firstName', 'lastName', 'email', 'currentPassword'] as const;

/** The shared schema, plus: a new e-mail address needs the current password. */
function profileSchema(currentEmail: string) {
  return profileUpdateBody.superRefine((values, context) => {
    if (values.email !== currentEmail.toLowerCase() && !values.currentPassword) {
      context.addIssue({
        code: 'custom',
        path: ['currentPassword'],
        message: 'Enter your current password to change your email',
      });
    }
  });
}
type ProfileInput = z.input<typeof profileUpdateBody>;
type ProfileOutput = z.output<typeof profileUpdateBody>;

/** Name and e-mail address; the current password is asked only when the address changes. */
export function ProfileDetailsCard({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const schema = useMemo(() => profileSchema(user.email), [user.email]);
  const form = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      currentPassword: '',
    },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  const emailChanged = form.watch('email').trim().toLowerCase() !== user.email.toLowerCase();

  const save = useMutation({
    mutationFn: (body: ProfileOutput) => apiJson<User>('PATCH', '/api/user/profile', body),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.auth.user(), updated);
      form.reset({
        firstName: updated.firstName,
        lastName: updated.lastName,
        email: updated.email,
        currentPassword: '',
      });
      toast({ title: 'Profile saved', description: 'Your name and email address are up to date.' });
    },
    onError: (error) => {
      if (apiError(error)?.code === ERROR_CODES.EMAIL_TAKEN) {
        form.setError('email', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
        setAlert(null);
        return;
      }
      setAlert(applyServerError(form, error, FIELDS));
    },
  });

  const onSubmit = form.handleSubmit(({ currentPassword, ...values }) => {
    setAlert(null);
    save.mutate(emailChanged ? { ...values, currentPassword } : values);
  });

  return (
    <Card data-testid="card-profile-details">
      <CardHeader>
        <CardTitle>Name and email</CardTitle>
        <CardDescription>How colleagues see you, and the address you sign in with.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4" aria-label="Name and email">
          <FormAlert message={alert} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField id="profile-first-name" label="First name" error={errors.firstName?.message}>
              {(control) => (
                <Input
                  {...control}
                  autoComplete="given-name"
                  data-testid="input-profile-first-name"
                  {...form.register('firstName')}
                />
              )}
            </FormField>
            <FormField id="profile-last-name" label="Last name" error={errors.lastName?.message}>
              {(control) => (
                <Input
                  {...control}
                  autoComplete="family-name"
                  data-testid="input-profile-last-name"
                  {...form.register('lastName')}
                />
              )}
            </FormField>
          </div>
          <FormField
            id="profile-email"
            label="Email"
            error={errors.email?.message}
            hint={emailChanged ? 'You will sign in with the new address from now on.' : undefined}
          >
            {(control) => (
              <Input
                {...control}
                type="email"
                autoComplete="email"
                inputMode="email"
                spellCheck={false}
                data-testid="input-profile-email"
                {...form.register('email')}
              />
            )}
          </FormField>
          {emailChanged && (
            <FormField
              id="profile-current-password"
              label="Current password"
              error={errors.currentPassword?.message}
              hint="Needed to change the address you sign in with."
            >
              {(control) => (
                <Input
                  {...control}
                  type="password"
                  autoComplete="current-password"
                  data-testid="input-profile-current-password"
                  {...form.register('currentPassword')}
                />
              )}
            </FormField>
          )}
          <div>
            <Button type="submit" disabled={save.isPending || !isDirty} data-testid="button-save-profile">
              {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" />}
              {save.isPending ? 'Saving…' : 'Save changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
