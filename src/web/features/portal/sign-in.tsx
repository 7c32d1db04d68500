import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/**
 * The typed client and the portal's contract, fetched when the customer first touches the form:
 * they bring zod (about 26 KB), which would put the first load over its 120 KB budget.
 */
const load = () =>
  Promise.all([import('@/web/lib/api'), import('@/contracts/portal')]).then(([lib, contract]) => ({
    api: lib.api,
    endpoints: contract.portalEndpoints,
  }));
let client: ReturnType<typeof load> | null = null;
function typedClient() {
  client ??= load();
  return client;
}

/**
 * Sign-in in two steps on one small form: the phone number, then the 6-digit code that comes by
 * SMS. The server answers the same whether or not the number is known, and so does this form.
 * It is the whole first load of a signed-out visit, so the typed client comes in on first touch.
 */
export function PortalSignIn() {
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const ids = { phone: useId(), code: useId(), error: useId() };

  async function askCode(event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { api, endpoints } = await typedClient();
      await api(endpoints.otp, { body: { phone } });
      setStep('code');
      setCode('');
      setNotice('If this number is registered with us, a 6-digit code is on its way by SMS.');
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  async function signIn(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { api, endpoints } = await typedClient();
      await api(endpoints.login, { body: { phone, code } });
      await queryClient.invalidateQueries({ queryKey: queryKeys.portal.all() });
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  }

  const errorLine = error ? (
    <p id={ids.error} role="alert" className="text-destructive text-sm" data-testid="text-portal-error">
      {error}
    </p>
  ) : null;

  return (
    <Card className="mx-auto w-full max-w-sm">
      <CardContent className="p-5">
        <h1 className="font-semibold text-xl">Your account</h1>
        <p className="mt-1 text-muted-foreground text-sm">
          See your balance, pay by M-Pesa and get your unlock code.
        </p>
        {step === 'phone' ? (
          <form className="mt-5 flex flex-col gap-3" onSubmit={askCode} noValidate>
            <Label htmlFor={ids.phone}>Phone number</Label>
            <Input
              id={ids.phone}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="0712 345 678"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              onFocus={() => void typedClient()}
              aria-describedby={error ? ids.error : undefined}
              required
              className="h-12 text-lg"
              data-testid="input-portal-phone"
            />
            {errorLine}
            <Button
              type="submit"
              size="lg"
              disabled={busy || phone.trim().length < 4}
              data-testid="button-send-code"
            >
              {busy ? 'Sending…' : 'Send me a code'}
            </Button>
          </form>
        ) : (
          <form className="mt-5 flex flex-col gap-3" onSubmit={signIn} noValidate>
            {notice ? (
              <p role="status" className="text-sm" data-testid="text-code-sent">
                {notice}
              </p>
            ) : null}
            <Label htmlFor={ids.code}>6-digit code</Label>
            <Input
              id={ids.code}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
              aria-describedby={error ? ids.error : undefined}
              className="h-12 text-center font-mono text-2xl tracking-[0.4em]"
              autoFocus
              data-testid="input-portal-code"
            />
            {errorLine}
            <Button
              type="submit"
              size="lg"
              disabled={busy || code.length !== 6}
              data-testid="button-portal-sign-in"
            >
              {busy ? 'Signing in…' : 'Sign in'}
            </Button>
            <div className="flex justify-between gap-2 text-sm">
              <Button
                type="button"
                variant="link"
                className="px-0"
                onClick={() => {
                  setStep('phone');
                  setError(null);
                }}
              >
                Change number
              </Button>
              <Button
                type="button"
                variant="link"
                className="px-0"
                disabled={busy}
                onClick={() => void askCode()}
              >
                Send a new code
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
