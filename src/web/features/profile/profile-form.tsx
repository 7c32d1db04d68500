import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { User } from '@/contracts/auth';
import { ERROR_CODES } from '@/contracts/errors';
import { profileEndpoints, profileUpdateBody } from '@/contracts/profile';
import { AccountFields } from '@/web/components/account-fields';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput } from '@/web/components/form-controls';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { applyServerError } from '@/web/lib/forms';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage } from '@/web/lib/queryClient';

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
  const { isDirty } = form.formState;
  const emailChanged = form.watch('email').trim().toLowerCase() !== user.email.toLowerCase();
  const email = {
    label: 'Email',
    hint: emailChanged ? 'You will sign in with the new address from now on.' : undefined,
  };

  const save = useMutation({
    mutationFn: (body: ProfileOutput) => api(profileEndpoints.update, { body }),
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
          <AccountFields form={form} idPrefix="profile" testIdPrefix="input-profile" email={email} />
          {emailChanged && (
            <FormInput
              form={form}
              name="currentPassword"
              id="profile-current-password"
              label="Current password"
              hint="Needed to change the address you sign in with."
              type="password"
              autoComplete="current-password"
              data-testid="input-profile-current-password"
            />
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
