import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { PortalContract } from '@/contracts/portal';
import { portalEndpoints } from '@/contracts/portal';
import { formatMoney, minorUnitDigits } from '@/domain/money';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { readAmount } from './format';

/** How often a pending push is asked about: the customer is typing their PIN meanwhile. */
const POLL_MS = 2_000;

/**
 * Pay now: an M-Pesa request to the customer's own phone, then its live state until M-Pesa
 * answers; a success refreshes the contract, so its new unlock code shows at once.
 */
export function PayNow({ contract }: { contract: PortalContract }) {
  const queryClient = useQueryClient();
  const suggested = contract.nextDue?.amount ?? contract.regularPayment;
  // M-Pesa takes whole amounts: the next instalment rounded up to a whole unit of the currency.
  const whole = Math.max(1, Math.ceil(suggested / 10 ** minorUnitDigits(contract.currency)));
  const [text, setText] = useState(String(whole));
  const [pushId, setPushId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = { amount: useId(), error: useId() };

  const push = useQuery({
    queryKey: queryKeys.portal.push(pushId ?? ''),
    queryFn: async () => {
      const answer = await api(portalEndpoints.push, { params: { id: pushId ?? '' } });
      if (answer.status === 'succeeded')
        await queryClient.invalidateQueries({ queryKey: queryKeys.portal.contracts() });
      return answer;
    },
    enabled: pushId !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
  });

  async function start(event: FormEvent) {
    event.preventDefault();
    const amount = readAmount(text, contract.currency);
    if ('error' in amount) {
      setError(amount.error);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const started = await api(portalEndpoints.pay, {
        params: { id: contract.id },
        body: { amount: amount.value },
      });
      queryClient.setQueryData(queryKeys.portal.push(started.id), started);
      setPushId(started.id);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  const state = push.data;
  const pending = state?.status === 'pending';
  return (
    <form
      onSubmit={start}
      className="flex flex-col gap-2"
      noValidate
      aria-label={`Pay ${contract.number} now`}
    >
      <Label htmlFor={ids.amount}>Amount to pay ({contract.currency})</Label>
      <div className="flex gap-2">
        <Input
          id={ids.amount}
          inputMode="decimal"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={error ? ids.error : undefined}
          className="h-11 text-lg"
          disabled={pending}
          data-testid={`input-pay-amount-${contract.number}`}
        />
        <Button
          type="submit"
          size="lg"
          disabled={busy || pending}
          className="shrink-0"
          data-testid={`button-pay-now-${contract.number}`}
        >
          {busy ? 'Sending…' : 'Pay now'}
        </Button>
      </div>
      {error ? (
        <p id={ids.error} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
      <p
        role="status"
        aria-live="polite"
        className="text-sm"
        data-testid={`text-pay-status-${contract.number}`}
      >
        {state
          ? state.status === 'pending'
            ? `Check your phone: enter your M-Pesa PIN to pay ${formatMoney(state.amount, state.currency)}. Waiting for M-Pesa…`
            : state.status === 'succeeded'
              ? `Payment of ${formatMoney(state.amount, state.currency)} received. Your new unlock code is below.`
              : `The payment did not go through${state.resultDesc ? `: ${state.resultDesc}` : ''}. You can try again.`
          : push.error
            ? `We could not check the payment: ${errorMessage(push.error)}`
            : 'We send a payment request to your phone; you confirm it with your M-Pesa PIN.'}
      </p>
    </form>
  );
}
