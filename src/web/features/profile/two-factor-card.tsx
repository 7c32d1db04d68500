import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Check,
  Copy,
  Download,
  KeyRound,
  RotateCw,
  ShieldCheck,
  ShieldOff,
  TriangleAlert,
} from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { renderSVG } from 'uqr';
import { profileEndpoints, type TwoFactorSetup } from '@/contracts/profile';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/** '(ABCD EFGH ...)': the secret in groups of four, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/** The otpauth URI as an SVG QR code image (always black on white, so it scans in the dark theme too). */
export function qrDataUri(otpauthUri: string): string {
  const svg = renderSVG(otpauthUri, { border: 2, ecc: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type Panel = { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] } | null;

/** Two-factor sign-in: status, enrolment with a QR code, recovery codes, and turning it off. */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: queryKeys.profile.twoFactor(),
    queryFn: () => apiOrNull(profileEndpoints.twoFactor),
  });
  const [panel, setPanel] = useState<Panel>(null);
  const [dialog, setDialog] = useState<'disable' | 'regenerate' | null>(null);
  const refresh = () => invalidate(queryClient, 'twoFactorChanged');

  const setup = useMutation({
    mutationFn: () => api(profileEndpoints.twoFactorSetup),
    onSuccess: (answer) => setPanel({ kind: 'setup', setup: answer }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Set-up not started', description: errorMessage(error) }),
  });

  const enabled = status.data?.enabled ?? false;
  const left = status.data?.recoveryCodesLeft ?? 0;

  return (
    <Card data-testid="card-two-factor">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Two-factor sign-in
          {status.data && (
            <Badge variant={enabled ? 'success' : 'outline'} data-testid="badge-2fa-status">
              {enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </CardTitle>
        <CardDescription>
          A 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…)
          is asked after your password, so a stolen password alone is not enough.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {status.isLoading ? (
          <div role="status">
            <span className="sr-only">Loading two-factor status…</span>
            <Skeleton className="h-16 w-full" />
          </div>
        ) : status.error ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">
              Two-factor status could not be loaded: {errorMessage(status.error)}
            </p>
            <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : panel?.kind === 'codes' ? (
          <RecoveryCodes codes={panel.codes} onDone={() => setPanel(null)} />
        ) : panel?.kind === 'setup' ? (
          <Enrolment
            setup={panel.setup}
            onCancel={() => setPanel(null)}
            onEnabled={(codes) => {
              setPanel({ kind: 'codes', codes });
              void refresh();
            }}
          />
        ) : enabled ? (
          <div className="grid grid-cols-1 gap-4">
            <p className="text-sm" data-testid="text-2fa-status">
              <ShieldCheck className="mr-1.5 inline size-4 text-success" aria-hidden="true" />
              On since {formatDateTime(status.data?.enabledAt)}.{' '}
              <span className={left <= 3 ? 'font-medium text-destructive' : 'text-muted-foreground'}>
                {left} of 10 recovery codes left.
              </span>
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() => setDialog('regenerate')}
                data-testid="button-2fa-regenerate"
              >
                <KeyRound aria-hidden="true" />
                New recovery codes
              </Button>
              <Button variant="outline" onClick={() => setDialog('disable')} data-testid="button-2fa-disable">
                <ShieldOff aria-hidden="true" />
                Turn off
              </Button>
            </div>
          </div>
        ) : (
          <div className="grid grid-cols-1 gap-4">
            <p className="text-muted-foreground text-sm" data-testid="text-2fa-status">
              Off: only your password protects this account.
            </p>
            <div>
              <Button
                onClick={() => setup.mutate()}
                disabled={setup.isPending}
                data-testid="button-2fa-setup"
              >
                {setup.isPending ? <Spinner className="size-4" /> : <ShieldCheck aria-hidden="true" />}
                Set up two-factor sign-in
              </Button>
            </div>
          </div>
        )}
      </CardContent>
      <PasswordDialog
        open={dialog === 'regenerate'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Make new recovery codes?"
        description="Your current recovery codes stop working and 10 new ones are shown once. Enter your password to confirm."
        confirmLabel="Make new codes"
        endpoint={profileEndpoints.recoveryCodes}
        onDone={(answer) => {
          setDialog(null);
          if ('recoveryCodes' in answer) setPanel({ kind: 'codes', codes: answer.recoveryCodes });
          void refresh();
        }}
      />
      <PasswordDialog
        open={dialog === 'disable'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Turn off two-factor sign-in?"
        description="Only your password will protect this account, and your recovery codes stop working. Enter your password to confirm."
        confirmLabel="Turn off"
        destructive
        endpoint={profileEndpoints.twoFactorDisable}
        onDone={() => {
          setDialog(null);
          setPanel(null);
          toast({
            title: 'Two-factor sign-in is off',
            description: 'Only your password is asked at sign-in now.',
          });
          void refresh();
        }}
      />
    </Card>
  );
}

function Enrolment({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const qr = useMemo(() => qrDataUri(setup.otpauthUri), [setup.otpauthUri]);

  const enable = useMutation({
    mutationFn: (value: string) => api(profileEndpoints.twoFactorEnable, { body: { code: value } }),
    onSuccess: ({ recoveryCodes }) => {
      toast({ title: 'Two-factor sign-in is on', description: 'Save your recovery codes now.' });
      onEnabled(recoveryCodes);
    },
    onError: (failure) => {
      const message = fieldErrors(failure).code;
      setError(message ?? null);
      setAlert(message ? null : errorMessage(failure));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const value = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(value)) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setError(null);
    enable.mutate(value);
  };

  return (
    <div className="grid grid-cols-1 gap-5" data-testid="panel-2fa-setup">
      <ol className="grid grid-cols-1 list-decimal gap-4 pl-5 text-sm marker:text-muted-foreground">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img
            src={qr}
            alt="QR code to add DeviceFin to your authenticator app"
            className="mt-3 size-44 rounded-lg border bg-white p-1"
            data-testid="img-2fa-qr"
          />
        </li>
        <li>
          <p>Or, if you cannot scan it, type this key into the app (time-based, 6 digits):</p>
          <code
            className="mt-2 block w-fit rounded-md bg-muted px-3 py-2 font-mono text-sm tracking-wider break-all"
            data-testid="text-2fa-secret"
            data-secret={setup.secret}
          >
            {groupSecret(setup.secret)}
          </code>
        </li>
        <li>
          <p>Enter the 6-digit code the app now shows.</p>
          <form
            onSubmit={submit}
            noValidate
            className="mt-3 grid grid-cols-1 gap-3"
            aria-label="Confirm two-factor code"
          >
            <FormAlert message={alert} />
            <FormField id="two-factor-code" label="Code from the app" error={error ?? undefined}>
              {(control) => (
                <Input
                  {...control}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  placeholder="123456"
                  className="max-w-40 font-mono tracking-[0.3em]"
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                  data-testid="input-2fa-code"
                />
              )}
            </FormField>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={enable.isPending} data-testid="button-2fa-enable">
                {enable.isPending ? <Spinner className="size-4" /> : <ShieldCheck aria-hidden="true" />}
                Turn on
              </Button>
              <Button type="button" variant="ghost" onClick={onCancel} data-testid="button-2fa-cancel">
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** The 10 recovery codes, shown once, with Copy and Download. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  // Shown once: bring it into view and move focus to it so nobody misses it.
  useEffect(() => {
    sectionRef.current?.scrollIntoView({ block: 'center' });
    sectionRef.current?.focus();
  }, []);
  const text = `DeviceFin recovery codes\nEach code works once, in place of the 6-digit code at sign-in.\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
      toast({
        title: 'Recovery codes copied',
        description: 'Paste them somewhere safe, such as a password manager.',
      });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Could not copy',
        description: 'Select the codes and copy them by hand.',
      });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'devicefin-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-labelledby="recovery-codes-title"
      className="grid grid-cols-1 gap-4 outline-none"
      data-testid="panel-recovery-codes"
    >
      <div
        className="flex items-start gap-3 rounded-lg border border-warning bg-warning/15 px-3 py-2.5 text-sm"
        role="note"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <h3 id="recovery-codes-title" className="font-semibold">
            Save these recovery codes now
          </h3>
          <p className="mt-1">
            They are shown only this once. If you lose your phone, each code lets you sign in one time instead
            of the 6-digit code. Keep them somewhere safe and private, such as a password manager.
          </p>
        </div>
      </div>
      <ul
        className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-3 font-mono text-sm sm:w-fit"
        data-testid="list-recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="px-2 py-0.5">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void copy()} data-testid="button-copy-recovery-codes">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="outline" onClick={download} data-testid="button-download-recovery-codes">
          <Download aria-hidden="true" />
          Download
        </Button>
        <Button onClick={onDone} data-testid="button-recovery-codes-done">
          I have saved them
        </Button>
      </div>
    </section>
  );
}

interface PasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  destructive?: boolean;
  /** Both take the current password; making new codes answers them, turning off answers `ok`. */
  endpoint: typeof profileEndpoints.recoveryCodes | typeof profileEndpoints.twoFactorDisable;
  onDone: (answer: { recoveryCodes: string[] } | { ok: true }) => void;
}

/** Asks for the current password before a sensitive two-factor change. */
function PasswordDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  destructive = false,
  endpoint,
  onDone,
}: PasswordDialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const formId = useId();
  const mutation = useMutation({
    mutationFn: (currentPassword: string) => api(endpoint, { body: { currentPassword } }),
    onSuccess: (answer) => {
      setPassword('');
      onDone(answer);
    },
    onError: (failure) => {
      const message = fieldErrors(failure).currentPassword;
      setError(message ?? null);
      setAlert(message ? null : errorMessage(failure));
    },
  });
  const close = (next: boolean) => {
    if (mutation.isPending) return;
    if (!next) {
      setPassword('');
      setError(null);
      setAlert(null);
    }
    onOpenChange(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!password) {
      setError('Current password is required');
      return;
    }
    setError(null);
    mutation.mutate(password);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="dialog-2fa-password">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form id={formId} onSubmit={submit} noValidate className="grid grid-cols-1 gap-3" aria-label={title}>
          <FormAlert message={alert} />
          <FormField id={`${formId}-password`} label="Current password" error={error ?? undefined}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                data-testid="input-2fa-password"
              />
            )}
          </FormField>
        </form>
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => close(false)}
            disabled={mutation.isPending}
            data-testid="button-cancel"
          >
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant={destructive ? 'destructive' : 'default'}
            disabled={mutation.isPending}
            data-testid="button-confirm"
          >
            {mutation.isPending && <Spinner className="size-4" />}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
