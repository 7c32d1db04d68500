import { useState } from 'react';
import type { PortalContract } from '@/contracts/portal';
import { portalEndpoints } from '@/contracts/portal';
import { Button } from '@/web/components/ui/button';
import { api } from '@/web/lib/api';
import { errorMessage } from '@/web/lib/queryClient';
import { groupedToken, portalDate } from './format';

/** The contract's latest unlock code, the days it adds, and "resend by SMS". */
export function UnlockCode({ contract }: { contract: PortalContract }) {
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const token = contract.token;
  if (!token) return <p className="text-muted-foreground text-sm">No unlock code on this contract yet.</p>;

  async function resend() {
    setBusy(true);
    try {
      await api(portalEndpoints.resendToken, { params: { id: contract.id } });
      setMessage({ text: 'Sent: the code arrives by SMS in a moment.', error: false });
    } catch (cause) {
      setMessage({ text: errorMessage(cause), error: true });
    } finally {
      setBusy(false);
    }
  }

  const adds =
    token.days === null
      ? 'Unlocks your device for good'
      : `Adds ${token.days} day${token.days === 1 ? '' : 's'} of use`;
  return (
    <div className="rounded-lg border bg-muted/40 p-3">
      <p className="text-muted-foreground text-xs uppercase tracking-wide">Latest unlock code</p>
      <p
        className="mt-1 font-mono font-semibold text-2xl tracking-wider"
        data-testid={`text-token-${contract.number}`}
      >
        {groupedToken(token.token)}
      </p>
      <p className="text-sm" data-testid={`text-token-days-${contract.number}`}>
        {adds} · issued {portalDate(token.issuedAt)}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={resend} disabled={busy}>
          {busy ? 'Sending…' : 'Resend by SMS'}
        </Button>
        {message ? (
          <p
            role={message.error ? 'alert' : 'status'}
            className={message.error ? 'text-destructive text-sm' : 'text-sm'}
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </div>
  );
}
