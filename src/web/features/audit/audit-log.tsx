import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Link2, Link2Off, RotateCw, ScrollText, ShieldCheck } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type AuditQuery, type AuditRow, auditEndpoints } from '@/contracts/audit';
import { ActionCell, ActionTableHeader } from '@/web/components/action-table';
import { EmptyMessage } from '@/web/components/empty-message';
import { LoadMore } from '@/web/components/load-more';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Table, TableBody, TableCell, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { AuditDetailDialog } from './audit-detail';
import { AuditFilterForm, type AuditFilters, NO_FILTERS } from './audit-filter-form';
import { formatAuditTime } from './audit-format';

const PAGE_SIZE = 50;
const HEADINGS = ['#', 'Time', 'Actor', 'Action', 'Entity', 'Address'];

/** The log's query: the filters given (trimmed), the keyset position, the page size. */
function auditQueryOf(filters: AuditFilters, before?: number): AuditQuery {
  const given = Object.entries(filters)
    .map(([key, value]) => [key, value.trim()] as const)
    .filter(([, value]) => value);
  return { ...Object.fromEntries(given), ...(before ? { before } : {}), limit: PAGE_SIZE };
}

/** The audit log: filters, newest first, keyset "Load more", row details, and the chain check. */
export function AuditLog() {
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const [selected, setSelected] = useState<AuditRow | null>(null);

  const log = useInfiniteQuery({
    queryKey: queryKeys.audit.log(applied),
    queryFn: ({ pageParam }) => api(auditEndpoints.list, { query: auditQueryOf(applied, pageParam) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    staleTime: 0,
  });

  const filtered = Object.values(applied).some((value) => value.trim() !== '');
  const rows = log.data?.pages.flatMap((page) => page.rows) ?? [];

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-audit-log">
      <VerifyChain />
      <Card>
        <CardHeader>
          <CardTitle>Entries</CardTitle>
          <CardDescription>
            Newest first. Every change and sign-in, with who did it, from where, and what changed.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4 p-0 pb-2">
          <AuditFilterForm filtered={filtered} onApply={setApplied} />

          {log.isLoading ? (
            <TableSkeleton label="Loading audit entries…" rows={6} />
          ) : log.error ? (
            <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 px-6 pb-4 text-sm">
              <p className="text-destructive">Audit entries could not be loaded: {errorMessage(log.error)}</p>
              <Button variant="outline" size="sm" onClick={() => void log.refetch()}>
                <RotateCw aria-hidden="true" />
                Try again
              </Button>
            </div>
          ) : rows.length === 0 ? (
            <EmptyMessage icon={ScrollText} testId="text-audit-empty">
              {filtered ? 'No entries match these filters.' : 'No entries yet.'}
            </EmptyMessage>
          ) : (
            <>
              <Table data-testid="table-audit" className="hidden md:table">
                <ActionTableHeader headings={HEADINGS} actions="Details" />
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.id} data-testid={`row-audit-${row.id}`}>
                      <TableCell className="text-muted-foreground tabular-nums">{row.id}</TableCell>
                      <TableCell className="tabular-nums">{formatAuditTime(row.at)}</TableCell>
                      <TableCell className="max-w-56 truncate">{row.actorLabel ?? 'System'}</TableCell>
                      <TableCell>
                        <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{row.action}</code>
                      </TableCell>
                      <TableCell className="max-w-56 truncate text-muted-foreground">
                        {row.entityType}
                        {row.entityId ? ` · ${row.entityId}` : ''}
                      </TableCell>
                      <TableCell className="text-muted-foreground">{row.ip ?? '—'}</TableCell>
                      <ActionCell
                        onClick={() => setSelected(row)}
                        aria-label={`Details of entry ${row.id}`}
                        data-testid={`button-audit-details-${row.id}`}
                      >
                        Details
                      </ActionCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <ul className="divide-y border-y md:hidden" data-testid="list-audit">
                {rows.map((row) => (
                  <li key={row.id}>
                    <button
                      type="button"
                      onClick={() => setSelected(row)}
                      className="grid grid-cols-1 w-full gap-0.5 px-6 py-3 text-left hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none"
                      data-testid={`button-audit-row-${row.id}`}
                    >
                      <span className="flex items-center justify-between gap-2">
                        <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{row.action}</code>
                        <span className="text-muted-foreground text-xs tabular-nums">#{row.id}</span>
                      </span>
                      <span className="truncate text-sm">{row.actorLabel ?? 'System'}</span>
                      <span className="text-muted-foreground text-xs tabular-nums">
                        {formatAuditTime(row.at)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              <LoadMore
                pages={log}
                className="px-6 py-2"
                shown={`${rows.length} ${rows.length === 1 ? 'entry' : 'entries'} shown`}
                label="Load more"
                end="End of the log"
                testId="audit"
              />
            </>
          )}
        </CardContent>
      </Card>
      <AuditDetailDialog row={selected} onClose={() => setSelected(null)} />
    </div>
  );
}

/** Recomputes the hash chain on the server and says whether it is intact. */
function VerifyChain() {
  const verify = useMutation({
    mutationFn: () => api(auditEndpoints.verify),
  });
  const result = verify.data;
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-start">
        <div className="flex-1">
          <h2 className="font-semibold">Tamper check</h2>
          <p className="mt-1 text-muted-foreground text-sm">
            Each entry’s hash covers the one before it, so a changed or deleted entry breaks the chain from
            that point.
          </p>
          <div role="status" aria-live="polite">
            {verify.error && (
              <p className="mt-3 text-destructive text-sm">
                The check could not run: {errorMessage(verify.error)}
              </p>
            )}
            {result?.ok && (
              <ChainResult ok lastHash={result.lastHash} testId="text-chain-ok">
                <p className="font-medium">Chain intact: all {result.rows} entries check out.</p>
              </ChainResult>
            )}
            {result && !result.ok && (
              <ChainResult ok={false} lastHash={result.lastHash} testId="text-chain-broken">
                <p className="font-medium">
                  Chain broken at entry #{result.firstBrokenId ?? '?'}: {result.reason ?? 'unknown reason'}.
                </p>
                <p className="mt-1 text-muted-foreground">
                  {result.rows} entries checked. Entries from #{result.firstBrokenId ?? '?'} on cannot be
                  trusted; restore from a backup and investigate.
                </p>
              </ChainResult>
            )}
          </div>
        </div>
        <Button onClick={() => verify.mutate()} disabled={verify.isPending} data-testid="button-verify-chain">
          {verify.isPending ? <Spinner className="size-4" /> : <ShieldCheck aria-hidden="true" />}
          Verify chain
        </Button>
      </CardContent>
    </Card>
  );
}

/** The check's verdict, intact or broken, with the last hash it reached. */
function ChainResult({
  ok,
  lastHash,
  testId,
  children,
}: {
  ok: boolean;
  lastHash: string | null | undefined;
  testId: string;
  children: ReactNode;
}) {
  const Icon = ok ? Link2 : Link2Off;
  return (
    <div
      className={cn(
        'mt-3 flex items-start gap-2 rounded-lg border px-3 py-2.5 text-sm',
        ok ? 'border-success/50 bg-success/10' : 'border-destructive/50 bg-destructive/10',
      )}
      data-testid={testId}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', !ok && 'text-destructive')} aria-hidden="true" />
      <div className="min-w-0">
        {children}
        <p className="mt-1 break-all font-mono text-muted-foreground text-xs" data-testid="text-last-hash">
          Last hash: {lastHash ?? '—'}
        </p>
      </div>
    </div>
  );
}
