import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Link2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type InviteCreateBody,
  type InviteCreated,
  inviteCreateBody,
  inviteEndpoints,
} from '@/contracts/auth';
import { ROLE_LABELS, ROLES } from '@/contracts/roles';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/web/components/ui/select';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { applyServerError } from '@/web/lib/forms';
import { invalidate } from '@/web/lib/mutation-effects';

type InviteOutput = z.output<typeof inviteCreateBody>;
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** Creates an invite and shows its one-time link. */
export function InviteForm() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<InviteCreated | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<InviteCreateBody, unknown, InviteOutput>({
    resolver: zodResolver(inviteCreateBody),
    defaultValues: { role: 'agent' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const create = useMutation({
    mutationFn: (body: InviteOutput) => api(inviteEndpoints.create, { body }),
    onSuccess: (invite) => {
      setCreated(invite);
      form.reset({ role: invite.role });
      void invalidate(queryClient, 'invitesChanged');
    },
    onError: (error) => setAlert(applyServerError(form, error, ['email', 'role'])),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    setCreated(null);
    create.mutate(values);
  });

  return (
    <div className="grid grid-cols-1 gap-4">
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4" aria-label="Create invite">
        <FormAlert message={alert} />
        <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-[1fr_12rem_auto]">
          <FormField
            id="invite-email"
            label="Email (optional)"
            error={errors.email?.message}
            hint="Leave empty to let anyone with the link register."
          >
            {(control) => (
              <Input
                {...control}
                type="email"
                autoComplete="off"
                spellCheck={false}
                placeholder="name@company.com"
                data-testid="input-invite-email"
                {...form.register('email', { setValueAs: emptyToUndefined })}
              />
            )}
          </FormField>
          <FormField id="invite-role" label="Role" error={errors.role?.message}>
            {(control) => (
              <Controller
                control={form.control}
                name="role"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger
                      {...control}
                      onBlur={field.onBlur}
                      ref={field.ref}
                      data-testid="select-invite-role"
                    >
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {ROLES.map((role) => (
                        <SelectItem key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </FormField>
          <Button
            type="submit"
            className="sm:mt-5.5"
            disabled={create.isPending}
            data-testid="button-create-invite"
          >
            {create.isPending ? <Spinner className="size-4" /> : <UserPlus aria-hidden="true" />}
            {create.isPending ? 'Creating…' : 'Create invite'}
          </Button>
        </div>
      </form>
      {created && <CreatedInvite invite={created} onDone={() => setCreated(null)} />}
    </div>
  );
}

function CreatedInvite({ invite, onDone }: { invite: InviteCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite.url);
      setCopied(true);
      toast({ title: 'Link copied', description: 'Send it to the person you are inviting.' });
    } catch {
      document.getElementById('invite-url')?.focus();
      toast({
        variant: 'destructive',
        title: 'Could not copy',
        description: 'Select the link and copy it by hand.',
      });
    }
  };
  return (
    <section
      aria-labelledby="invite-created-title"
      className="grid grid-cols-1 gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
      data-testid="panel-invite-created"
    >
      <div className="flex items-center gap-2">
        <Link2 className="size-4 text-primary" aria-hidden="true" />
        <h3 id="invite-created-title" className="font-semibold text-sm">
          Invite link for {invite.email ?? 'anyone with the link'} as {ROLE_LABELS[invite.role]}
        </h3>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="invite-url"
          readOnly
          value={invite.url}
          aria-label="Invite link"
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
          data-testid="text-invite-url"
        />
        <Button onClick={() => void copy()} data-testid="button-copy-invite">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-muted-foreground text-xs">
        This link is shown only once: copy it now and send it to the person you are inviting. It works once
        and expires on {formatDateTime(invite.expiresAt)}.
      </p>
      <div>
        <Button variant="ghost" size="sm" onClick={onDone} data-testid="button-invite-done">
          Done
        </Button>
      </div>
    </section>
  );
}
