import type { PortalContract } from '@/contracts/portal';
import { portalEndpoints } from '@/contracts/portal';
import { formatMoney } from '@/domain/money';
import { Card, CardContent } from '@/web/components/ui/card';
import { endpointUrl } from '@/web/lib/api';
import { portalDate, statusText } from './format';
import { PayNow } from './pay-now';
import { UnlockCode } from './unlock-code';

/**
 * One contract on a phone: what is owed and when, how far along it is, the unlock code and pay
 * now first; the schedule and payments fold away (native <details>: no script, keyboard-ready).
 */
export function ContractCard({ contract }: { contract: PortalContract }) {
  const money = (minor: number) => formatMoney(minor, contract.currency);
  const percent = Math.round(contract.progress * 100);
  const live = contract.status === 'active' || contract.status === 'defaulted';
  return (
    <Card data-testid={`card-contract-${contract.number}`}>
      <CardContent className="flex flex-col gap-4 p-4">
        <div className="flex items-start justify-between gap-2">
          <div>
            <h2 className="font-semibold text-lg">{contract.device ?? 'Your device'}</h2>
            <p className="text-muted-foreground text-sm">Contract {contract.number}</p>
          </div>
          <span
            className={
              contract.status === 'defaulted'
                ? 'rounded-full bg-destructive/10 px-2 py-0.5 font-medium text-destructive text-xs'
                : 'rounded-full bg-muted px-2 py-0.5 font-medium text-xs'
            }
          >
            {statusText(contract.status)}
          </span>
        </div>

        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-muted-foreground">Balance</dt>
            <dd className="font-semibold text-xl" data-testid={`text-balance-${contract.number}`}>
              {money(contract.outstanding.total)}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Next payment</dt>
            <dd className="font-semibold" data-testid={`text-next-due-${contract.number}`}>
              {contract.nextDue ? (
                <>
                  {money(contract.nextDue.amount)}
                  <span className="block font-normal text-muted-foreground">
                    by {portalDate(contract.nextDue.dueDate)}
                  </span>
                </>
              ) : (
                'Nothing due'
              )}
            </dd>
          </div>
          <div className="col-span-2">
            <dt className="text-muted-foreground">Paid up to</dt>
            <dd data-testid={`text-paid-through-${contract.number}`}>
              {portalDate(contract.paidThroughDate)}
              {contract.dpd > 0 ? (
                <span className="ml-2 font-medium text-destructive">{contract.dpd} days late</span>
              ) : null}
            </dd>
          </div>
        </dl>

        <div>
          <div className="flex justify-between text-sm">
            <span id={`progress-${contract.id}`}>Paid so far</span>
            <span>
              {percent}% of {money(contract.totalPayable)}
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={`progress-${contract.id}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="mt-1 h-2.5 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
        </div>

        <UnlockCode contract={contract} />
        {live ? <PayNow contract={contract} /> : null}

        <details className="group rounded-lg border" data-testid={`details-schedule-${contract.number}`}>
          <summary className="cursor-pointer select-none px-3 py-2.5 font-medium text-sm">
            Payment schedule ({contract.schedule.length})
          </summary>
          <table className="w-full text-sm">
            <caption className="sr-only">Payment schedule of {contract.number}</caption>
            <thead>
              <tr className="border-t text-left text-muted-foreground">
                <th scope="col" className="px-3 py-1.5 font-normal">
                  Due
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-normal">
                  Amount
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-normal">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {contract.schedule.map((row) => (
                <tr key={row.n} className="border-t">
                  <td className="px-3 py-1.5">{portalDate(row.dueDate)}</td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{money(row.total)}</td>
                  <td
                    className={
                      row.status === 'overdue'
                        ? 'px-3 py-1.5 text-right text-destructive'
                        : 'px-3 py-1.5 text-right text-muted-foreground'
                    }
                  >
                    {statusText(row.status)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>

        <details className="rounded-lg border" data-testid={`details-payments-${contract.number}`}>
          <summary className="cursor-pointer select-none px-3 py-2.5 font-medium text-sm">
            Payments and receipts ({contract.payments.length})
          </summary>
          {contract.payments.length ? (
            <ul className="divide-y border-t text-sm">
              {contract.payments.map((payment) => (
                <li key={payment.id} className="flex items-center justify-between gap-2 px-3 py-2">
                  <span>
                    {money(payment.amount)}
                    <span className="block text-muted-foreground text-xs">
                      {portalDate(payment.receivedAt)} · {payment.method.replaceAll('_', ' ')}
                      {payment.status === 'reversed' ? ' · reversed' : ''}
                    </span>
                  </span>
                  <a
                    className="text-primary underline underline-offset-2"
                    href={endpointUrl(portalEndpoints.receiptPdf, { params: { id: payment.id } })}
                    target="_blank"
                    rel="noreferrer"
                  >
                    Receipt<span className="sr-only"> {payment.receiptNumber}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="border-t px-3 py-2 text-muted-foreground text-sm">No payments yet.</p>
          )}
        </details>

        <a
          className="text-primary text-sm underline underline-offset-2"
          href={endpointUrl(portalEndpoints.statementPdf, { params: { id: contract.id } })}
          target="_blank"
          rel="noreferrer"
          data-testid={`link-statement-${contract.number}`}
        >
          Download statement (PDF)
        </a>
      </CardContent>
    </Card>
  );
}
