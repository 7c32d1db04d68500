import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Filter, Link2, Link2Off, RotateCw, ScrollText, ShieldCheck, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITY_TYPES,
  type AuditQuery,
  type AuditRow,
  auditEndpoints,
} from '@/contracts/audit';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { AuditDetailDialog } from './audit-detail';
import { formatAuditTime } from './audit-format';

export interface AuditFilters {
  action: string;
  entityType: string;
  entityId: string;
  actor: string;
  from: string;
  to: string;
}

const EMPTY: AuditFilters = { action: '', entityType: '', entityId: '', actor: '', from: '', to: '' };
const PAGE_SIZE = 50;

/** The log's query: the filters given (trimmed), the keyset position, the page size. */
function auditQueryOf(filters: AuditFilters, before?: number): AuditQuery {
  const given = Object.entries(filters)
    .map(([key, value]) => [key, value.trim()] as const)
    .filter(([, value]) => value);
  return { ...Object.fromEntries(given), ...(before ? { before } : {}), limit: PAGE_SIZE };
}

/** The audit log: filters, newest first, keyset "Load more", row details, and the chain check. */
export function AuditLog() {
  const [draft, setDraft] = useState<AuditFilters>(EMPTY);
  const [applied, setApplied] = useState<AuditFilters>(EMPTY);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [selected, setSelected] = useState<AuditRow | null>(null);
  const ids = useId();

  const log = useInfiniteQuery({
    queryKey: queryKeys.audit.log(applied),
    queryFn: ({ pageParam }) => api(auditEndpoints.list, { query: auditQueryOf(applied, pageParam) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    staleTime: 0,
  });

  const set = (key: keyof AuditFilters) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setRangeError('The start date must not be after the end date');
      return;
    }
    setRangeError(null);
    setApplied(draft);
  };
  const clear = () => {
    setDraft(EMPTY);
    setApplied(EMPTY);
    setRangeError(null);
  };
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
          <form
            onSubmit={apply}
            noValidate
            aria-label="Filter audit entries"
            className="grid grid-cols-1 gap-3 px-6 sm:grid-cols-2 lg:grid-cols-3"
            data-testid="form-audit-filters"
          >
            <FormField id={`${ids}-action`} label="Action">
              {(control) => (
                <Input
                  {...control}
                  list={`${ids}-actions`}
                  placeholder="e.g. auth.login"
                  value={draft.action}
                  onChange={set('action')}
                  data-testid="input-audit-action"
                />
              )}
            </FormField>
            <datalist id={`${ids}-actions`}>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action} />
              ))}
            </datalist>
            <FormField id={`${ids}-entity-type`} label="Entity type">
              {(control) => (
                <Input
                  {...control}
                  list={`${ids}-entity-types`}
                  placeholder="e.g. user"
                  value={draft.entityType}
                  onChange={set('entityType')}
                  data-testid="input-audit-entity-type"
                />
              )}
            </FormField>
            <datalist id={`${ids}-entity-types`}>
              {AUDIT_ENTITY_TYPES.map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
            <FormField id={`${ids}-entity-id`} label="Entity id">
              {(control) => (
                <Input
                  {...control}
                  spellCheck={false}
                  value={draft.entityId}
                  onChange={set('entityId')}
                  data-testid="input-audit-entity-id"
                />
              )}
            </FormField>
            <FormField id={`${ids}-actor`} label="Actor email contains">
              {(control) => (
                <Input
                  {...control}
                  type="search"
                  spellCheck={false}
                  value={draft.actor}
                  onChange={set('actor')}
                  data-testid="input-audit-actor"
                />
              )}
            </FormField>
            <FormField id={`${ids}-from`} label="From" error={rangeError ?? undefined}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  className="dark:[color-scheme:dark]"
                  value={draft.from}
                  onChange={set('from')}
                  data-testid="input-audit-from"
                />
              )}
            </FormField>
            <FormField id={`${ids}-to`} label="To">
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  className="dark:[color-scheme:dark]"
                  value={draft.to}
                  onChange={set('to')}
                  data-testid="input-audit-to"
                />
              )}
            </FormField>
            <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
              <Button type="submit" data-testid="button-audit-apply">
                <Filter aria-hidden="true" />
                Apply filters
              </Button>
              {(filtered || Object.values(draft).some(Boolean)) && (
                <Button type="button" variant="ghost" onClick={clear} data-testid="button-audit-clear">
                  <X aria-hidden="true" />
                  Clear
                </Button>
              )}
            </div>
          </form>

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
            <div
              className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground text-sm"
              data-testid="text-audit-empty"
            >
              <ScrollText className="size-6" aria-hidden="true" />
              {filtered ? 'No entries match these filters.' : 'No entries yet.'}
            </div>
          ) : (
            <>
              <Table data-testid="table-audit" className="hidden md:table">
                <TableHeader>
                  <TableRow>
                    <TableHead>#</TableHead>
                    <TableHead>Time</TableHead>
                    <TableHead>Actor</TableHead>
                    <TableHead>Action</TableHead>
                    <TableHead>Entity</TableHead>
                    <TableHead>Address</TableHead>
                    <TableHead className="text-right">
                      <span className="sr-only">Details</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
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
                      <TableCell className="text-right">
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setSelected(row)}
                          aria-label={`Details of entry ${row.id}`}
                          data-testid={`button-audit-details-${row.id}`}
                        >
                          Details
                        </Button>
                      </TableCell>
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
              <div className="flex items-center justify-between gap-3 px-6 py-2 text-muted-foreground text-sm">
                <span data-testid="text-audit-count">
                  {rows.length} {rows.length === 1 ? 'entry' : 'entries'} shown
                </span>
                {log.hasNextPage ? (
                  <Button
                    variant="outline"
                    onClick={() => void log.fetchNextPage()}
                    disabled={log.isFetchingNextPage}
                    data-testid="button-audit-load-more"
                  >
                    {log.isFetchingNextPage && <Spinner className="size-4" />}
                    Load more
                  </Button>
                ) : (
                  <span>End of the log</span>
                )}
              </div>
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
              <div
                className="mt-3 flex items-start gap-2 rounded-lg border border-success/50 bg-success/10 px-3 py-2.5 text-sm"
                data-testid="text-chain-ok"
              >
                <Link2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="font-medium">Chain intact: all {result.rows} entries check out.</p>
                  <p
                    className="mt-1 break-all font-mono text-muted-foreground text-xs"
                    data-testid="text-last-hash"
                  >
                    Last hash: {result.lastHash ?? '—'}
                  </p>
                </div>
              </div>
            )}
            {result && !result.ok && (
              <div
                className="mt-3 flex items-start gap-2 rounded-lg border border-destructive/50 bg-destructive/10 px-3 py-2.5 text-sm"
                data-testid="text-chain-broken"
              >
                <Link2Off className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="font-medium">
                    Chain broken at entry #{result.firstBrokenId ?? '?'}: {result.reason ?? 'unknown reason'}.
                  </p>
                  <p className="mt-1 text-muted-foreground">
                    {result.rows} entries checked. Entries from #{result.firstBrokenId ?? '?'} on cannot be
                    trusted; restore from a backup and investigate.
                  </p>
                  <p
                    className="mt-1 break-all font-mono text-muted-foreground text-xs"
                    data-testid="text-last-hash"
                  >
                    Last hash: {result.lastHash ?? '—'}
                  </p>
                </div>
              </div>
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
