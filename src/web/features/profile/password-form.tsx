import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { passwordChangeBody, profileEndpoints } from '@/contracts/profile';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput } from '@/web/components/form-controls';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { applyServerError, NEW_PASSWORD_HINT } from '@/web/lib/forms';
import { invalidate } from '@/web/lib/mutation-effects';

/** The shared schema (the server's messages) plus the confirmation of the new password. */
export const passwordFormSchema = passwordChangeBody
  .extend({ confirmPassword: z.string().min(1, 'Confirm your new password') })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
type PasswordFormInput = z.input<typeof passwordFormSchema>;
type PasswordFormOutput = z.output<typeof passwordFormSchema>;

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** Current, new and confirmed password; a change signs out every other session. */
export function PasswordCard({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<PasswordFormInput, unknown, PasswordFormOutput>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });

  const change = useMutation({
    mutationFn: ({ currentPassword, newPassword }: PasswordFormOutput) =>
      api(profileEndpoints.changePassword, { body: { currentPassword, newPassword } }),
    onSuccess: () => {
      form.reset();
      void invalidate(queryClient, 'sessionsChanged');
      toast({
        title: 'Password changed',
        description: 'Your other sessions were signed out. This one stays signed in.',
      });
    },
    onError: (error) => setAlert(applyServerError(form, error, FIELDS)),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    change.mutate(values);
  });

  return (
    <Card data-testid="card-password">
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>
          Changing it signs you out on every other browser and device; this one stays signed in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4" aria-label="Change password">
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <FormAlert message={alert} />
          <FormInput
            form={form}
            name="currentPassword"
            id="current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            data-testid="input-current-password"
          />
          <FormInput
            form={form}
            name="newPassword"
            id="new-password"
            label="New password"
            hint={NEW_PASSWORD_HINT}
            type="password"
            autoComplete="new-password"
            data-testid="input-new-password"
          />
          <FormInput
            form={form}
            name="confirmPassword"
            id="confirm-new-password"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            data-testid="input-confirm-new-password"
          />
          <div>
            <Button type="submit" disabled={change.isPending} data-testid="button-change-password">
              {change.isPending ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" />}
              {change.isPending ? 'Changing…' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
