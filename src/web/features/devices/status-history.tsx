import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import type { DeviceEvent } from '@/contracts/devices';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDateTime } from '@/web/lib/format';
import { DeviceStatusBadge } from './status-badge';

/** A unit's status changes, newest first: when, from and to, why, who, and the contract if any. */
export function StatusHistory({ events }: { events: readonly DeviceEvent[] }) {
  if (!events.length) return <p className="px-6 pb-6 text-muted-foreground text-sm">No history yet.</p>;
  return (
    <>
      <Table aria-label="Status history" className="hidden md:table" data-testid="table-status-history">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Change</TableHead>
            <TableHead>Reason</TableHead>
            <TableHead>By</TableHead>
            <TableHead>Contract</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {events.map((event) => (
            <TableRow key={event.id} data-testid={`row-event-${event.id}`}>
              <TableCell className="tabular-nums">{formatDateTime(event.at)}</TableCell>
              <TableCell>
                <Change event={event} />
              </TableCell>
              <TableCell className="whitespace-normal">{event.reason ?? '—'}</TableCell>
              <TableCell>{event.actor?.name ?? 'System'}</TableCell>
              <TableCell>
                <ContractLink id={event.contractId} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ol className="divide-y border-t md:hidden" data-testid="list-status-history">
        {events.map((event) => (
          <li key={event.id} className="grid grid-cols-1 gap-1 px-6 py-3 text-sm">
            <Change event={event} />
            {event.reason && <span>{event.reason}</span>}
            <span className="text-muted-foreground text-xs">
              {formatDateTime(event.at)} · {event.actor?.name ?? 'System'}
              {event.contractId && (
                <>
                  {' · '}
                  <ContractLink id={event.contractId} />
                </>
              )}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

function Change({ event }: { event: DeviceEvent }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {event.from ? (
        <>
          <DeviceStatusBadge status={event.from} />
          <ArrowRight className="size-3.5 text-muted-foreground" aria-hidden="true" />
          <span className="sr-only">to</span>
        </>
      ) : (
        <span className="text-muted-foreground text-xs">Received:</span>
      )}
      <DeviceStatusBadge status={event.to} />
    </span>
  );
}

function ContractLink({ id }: { id: string | null }) {
  if (!id) return <>—</>;
  return (
    <Link
      href={`/contracts/${id}`}
      className="text-primary hover:underline"
      data-testid={`link-contract-${id}`}
    >
      Open contract
    </Link>
  );
}
