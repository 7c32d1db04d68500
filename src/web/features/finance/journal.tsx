import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, BookOpen } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { type JournalEntry, ledgerEndpoints } from '@/contracts/ledger';
import { ListPage, type ListStateApi } from '@/web/components/data-list';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { amountOrBlank, SOURCE_LABELS, sourceLabel } from './ledger-format';

const PAGE_SIZE = 25;

export function useAccounts() {
  return useQuery({
    queryKey: queryKeys.ledger.accounts(),
    queryFn: () => api(ledgerEndpoints.accounts),
    staleTime: 5 * 60_000,
  });
}

/** The journal: entries with their lines, newest first, filtered by date range, account and source. */
export function JournalView() {
  const accounts = useAccounts();
  return (
    <div className="grid min-w-0 grid-cols-1 gap-1" data-testid="panel-journal">
      <ListPage<JournalEntry>
        endpoint={ledgerEndpoints.list}
        label="Journal entries"
        testId="journal"
        searchPlaceholder="Search description or entry number"
        pageSize={PAGE_SIZE}
        filters={[
          {
            name: 'accountCode',
            label: 'Account',
            allLabel: 'All accounts',
            options: (accounts.data ?? []).map((a) => [a.code, `${a.code} ${a.name}`] as const),
            testId: 'account',
          },
          {
            name: 'sourceType',
            label: 'Source',
            allLabel: 'All sources',
            options: Object.entries(SOURCE_LABELS),
            testId: 'source',
          },
        ]}
        header={(list) => <JournalRange list={list} />}
        empty={{
          filtered: 'No journal entries match these filters.',
          none: 'No journal entries yet. Deposits, activations and payments post here.',
        }}
        emptyIcon={BookOpen}
        renderItems={(entries, fetching) => (
          <ol
            className={`grid grid-cols-1 gap-3 ${fetching ? 'opacity-60' : ''}`}
            aria-label="Journal entries"
          >
            {entries.map((entry) => (
              <JournalEntryCard key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      />
    </div>
  );
}

/** The date range, the order (newest or oldest first) and the way out of one contract's entries. */
function JournalRange({ list }: { list: ListStateApi }) {
  const { state } = list;
  const ids = useId();
  const rangeError =
    state.filters.from && state.filters.to && state.filters.from > state.filters.to
      ? 'The start date is after the end date'
      : null;
  const ascending = state.sort === 'businessDate' && state.order === 'asc';
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3">
      <div className="grid grid-cols-1 gap-1">
        <Label htmlFor={`${ids}-from`} className="text-xs">
          From
        </Label>
        <Input
          id={`${ids}-from`}
          type="date"
          className="w-40 dark:[color-scheme:dark]"
          value={state.filters.from ?? ''}
          onChange={(event) => list.setFilter('from', event.target.value)}
          aria-invalid={!!rangeError}
          aria-describedby={rangeError ? `${ids}-range` : undefined}
          data-testid="input-journal-from"
        />
      </div>
      <div className="grid grid-cols-1 gap-1">
        <Label htmlFor={`${ids}-to`} className="text-xs">
          To
        </Label>
        <Input
          id={`${ids}-to`}
          type="date"
          className="w-40 dark:[color-scheme:dark]"
          value={state.filters.to ?? ''}
          onChange={(event) => list.setFilter('to', event.target.value)}
          data-testid="input-journal-to"
        />
      </div>
      <Button
        variant="outline"
        size="sm"
        className="h-9"
        onClick={() => list.sortBy('businessDate')}
        data-testid="button-journal-order"
      >
        {ascending ? <ArrowUp aria-hidden="true" /> : <ArrowDown aria-hidden="true" />}
        {ascending ? 'Oldest first' : 'Newest first'}
      </Button>
      {state.filters.contractId && (
        <Button variant="ghost" size="sm" className="h-9" onClick={() => list.setFilter('contractId', '')}>
          One contract only — show all
        </Button>
      )}
      {rangeError && (
        <p id={`${ids}-range`} className="text-destructive text-sm" role="alert">
          {rangeError}
        </p>
      )}
    </div>
  );
}

export function JournalEntryCard({ entry }: { entry: JournalEntry }) {
  const { debitTotal: debit, creditTotal: credit } = entry;
  // The contract's link only when the entry is one contract's (a batch entry names many).
  const contracts = new Set(entry.lines.flatMap((line) => (line.contractId ? [line.contractId] : [])));
  const contractId =
    contracts.size === 1 && entry.lines.length === entry.lineCount ? [...contracts][0] : undefined;
  const hidden = entry.lineCount - entry.lines.length;
  return (
    <li>
      <Card className="overflow-hidden" data-testid={`card-journal-${entry.number}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b bg-muted/30 px-4 py-2.5 sm:px-6">
          <div className="min-w-0">
            <span className="font-mono font-medium text-sm">{entry.number}</span>{' '}
            <span className="text-sm">{entry.description}</span>
          </div>
          <div className="flex items-center gap-3 text-muted-foreground text-xs">
            <span>{sourceLabel(entry.sourceType)}</span>
            {contractId && (
              <Link
                href={`/contracts/${contractId}`}
                className="text-primary hover:underline"
                aria-label={`Open the contract of ${entry.number}`}
              >
                Open contract
              </Link>
            )}
            <span className="tabular-nums">{formatBusinessDate(entry.businessDate)}</span>
          </div>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-label={`Lines of ${entry.number}`}>
            <thead>
              <tr className="border-b text-muted-foreground text-xs">
                <th scope="col" className="px-4 py-1 text-left font-normal sm:px-6">
                  Account
                </th>
                <th scope="col" className="px-3 py-1 text-right font-normal">
                  Debit
                </th>
                <th scope="col" className="px-4 py-1 text-right font-normal sm:pr-6">
                  Credit
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {entry.lines.map((line, index) => (
                <tr
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id of their own; their order is fixed
                  key={index}
                  className="border-b border-dashed last:border-0"
                >
                  <td className={`px-4 py-1.5 sm:px-6 ${line.credit ? 'pl-8 sm:pl-12' : ''}`}>
                    <span className="font-mono text-muted-foreground text-xs">{line.accountCode}</span>{' '}
                    {line.accountName}
                    {line.memo && <span className="block text-muted-foreground text-xs">{line.memo}</span>}
                  </td>
                  <td className="w-24 whitespace-nowrap px-3 py-1.5 text-right sm:w-32">
                    {amountOrBlank(line.debit, entry.currency)}
                  </td>
                  <td className="w-24 whitespace-nowrap px-4 py-1.5 text-right sm:w-32 sm:pr-6">
                    {amountOrBlank(line.credit, entry.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="tabular-nums">
              {hidden > 0 && (
                <tr className="border-t text-muted-foreground text-xs">
                  <td
                    colSpan={3}
                    className="px-4 py-1.5 sm:px-6"
                    data-testid={`journal-more-${entry.number}`}
                  >
                    {entry.lines.length.toLocaleString('en-US')} of {entry.lineCount.toLocaleString('en-US')}{' '}
                    lines shown; the CSV export has them all.
                  </td>
                </tr>
              )}
              <tr className="border-t text-muted-foreground text-xs">
                <th scope="row" className="px-4 py-1.5 text-left font-normal sm:px-6">
                  {entry.lineCount.toLocaleString('en-US')} lines
                  {debit === credit ? ', balanced' : ', NOT balanced'}
                </th>
                <td className="px-3 py-1.5 text-right">{amountOrBlank(debit, entry.currency)}</td>
                <td className="px-4 py-1.5 text-right sm:pr-6">{amountOrBlank(credit, entry.currency)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </Card>
    </li>
  );
}
