import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Download, FilePlus2, RotateCw, Send, Trash2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import {
  type DraftMapping,
  IMPORT_CONTRACT_KEYS,
  IMPORT_DATE_FORMATS,
  IMPORT_ROWS_PAGE_SIZE,
  type PaymentImport,
  paymentImportEndpoints,
} from '@/contracts/payment-imports';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { Pagination } from '@/web/components/data-list/pagination';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Label } from '@/web/components/ui/label';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Progress } from '@/web/components/ui/progress';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Switch } from '@/web/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { api, endpointUrl } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors, replaceQueryData } from '@/web/lib/queryClient';
import { METHOD_LABELS } from './format';
import {
  CONTRACT_KEY_LABELS,
  DATE_FORMAT_LABELS,
  IMPORT_STATUS_LABELS,
  IMPORT_STATUS_VARIANTS,
  issueLabel,
  MAPPING_FIELD_LABELS,
  ROW_STATUS_LABELS,
  ROW_STATUS_VARIANTS,
} from './import-format';

/** How often the progress is read while the rows are posted. */
export const IMPORT_POLL_MS = 1000;

/**
 * One import: its counts and problems, the column mapping (editable while previewed: the rows are
 * checked again), the rows page by page, and confirm (then the posting's progress) or discard.
 */
export function ImportPreview({ id, onClose }: { id: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: queryKeys.paymentImports.detail(id),
    queryFn: () => api(paymentImportEndpoints.get, { params: { id } }),
    refetchInterval: (query) => (query.state.data?.status === 'posting' ? IMPORT_POLL_MS : false),
  });
  const status = detail.data?.status;
  const previous = useRef(status);
  useEffect(() => {
    // Once posting ends, the rows, the payments and the contracts have all changed.
    if (previous.current === 'posting' && status === 'posted') {
      void invalidate(queryClient, 'paymentImportChanged');
      void invalidate(queryClient, 'paymentsChanged');
    }
    previous.current = status;
  }, [status, queryClient]);

  if (detail.isLoading)
    return (
      <div role="status" className="grid grid-cols-1 gap-2">
        <span className="sr-only">Loading the import…</span>
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  if (detail.error || !detail.data)
    return (
      <Card role="alert" className="grid grid-cols-1 gap-3 p-4 text-sm" data-testid="error-import">
        <p className="text-destructive">The import could not be loaded: {errorMessage(detail.error)}</p>
        <Button variant="outline" className="w-fit" onClick={onClose}>
          Start a new import
        </Button>
      </Card>
    );
  const imp = detail.data;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4" data-testid="panel-import-preview">
      <Summary imp={imp} onClose={onClose} />
      {imp.status === 'previewed' && <MappingForm imp={imp} />}
      <RowsTable imp={imp} />
    </div>
  );
}

function Summary({ imp, onClose }: { imp: PaymentImport; onClose: () => void }) {
  const errorKinds = Object.entries(imp.errorsByKind).filter(([kind]) => kind !== 'already_posted');
  const refusedCount = errorKinds.reduce((sum, [, n]) => sum + n, 0);
  const alreadyPosted = imp.errorsByKind.already_posted ?? 0;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 grid-cols-1 gap-1">
          <CardTitle className="flex flex-wrap items-center gap-2 break-all">
            {imp.fileName}
            <Badge
              variant={IMPORT_STATUS_VARIANTS[imp.status]}
              data-testid="badge-import-status"
              data-status={imp.status}
            >
              {IMPORT_STATUS_LABELS[imp.status]}
            </Badge>
          </CardTitle>
          <CardDescription>
            {imp.source} · {METHOD_LABELS[imp.method]} · uploaded {formatDateTime(imp.createdAt)}
            {imp.createdByName ? ` by ${imp.createdByName}` : ''}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={onClose} data-testid="button-import-new">
          <FilePlus2 aria-hidden="true" /> New import
        </Button>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {imp.sameFileAs && (
          <div
            className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2.5 text-sm"
            data-testid="alert-same-file"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              The same file was imported before ({formatDateTime(imp.sameFileAs.createdAt)},{' '}
              {IMPORT_STATUS_LABELS[imp.sameFileAs.status].toLowerCase()}).{' '}
              <Link
                href={`/payment-processing?tab=import&import=${imp.sameFileAs.id}`}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Open that import
              </Link>
              . Rows it posted are marked already posted and are not posted twice.
            </p>
          </div>
        )}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="list-import-counts">
          <Count label="Rows in the file" value={imp.rowCount} testId="text-import-rows" />
          <Count
            label={imp.status === 'posted' ? 'Posted' : 'To post'}
            value={imp.status === 'posted' ? imp.postedCount : imp.validCount}
            sub={money(imp.status === 'posted' ? imp.postedAmount : imp.validAmount, imp.currency)}
            testId="text-import-valid"
          />
          <Count label="Refused" value={refusedCount} testId="text-import-refused" tone={refusedCount > 0} />
          <Count label="Already posted" value={alreadyPosted} testId="text-import-already" />
        </dl>
        {errorKinds.length > 0 && (
          <ul className="flex flex-wrap gap-2 text-sm" aria-label="Refused rows by problem">
            {errorKinds.map(([kind, n]) => (
              <li key={kind}>
                <Badge variant="destructive" data-testid={`badge-issue-${kind}`}>
                  {issueLabel(kind)}: {n}
                </Badge>
              </li>
            ))}
          </ul>
        )}
        <ImportActions imp={imp} refused={refusedCount + alreadyPosted} />
      </CardContent>
    </Card>
  );
}

function Count({
  label,
  value,
  sub,
  testId,
  tone,
}: {
  label: string;
  value: number;
  sub?: string;
  testId: string;
  tone?: boolean;
}) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd
        className={`font-semibold text-xl tabular-nums ${tone ? 'text-destructive' : ''}`}
        data-testid={testId}
      >
        {value.toLocaleString()}
      </dd>
      {sub && <dd className="text-muted-foreground text-xs tabular-nums">{sub}</dd>}
    </div>
  );
}

function ImportActions({ imp, refused }: { imp: PaymentImport; refused: number }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'confirm' | 'discard' | null>(null);
  const done = async (next: PaymentImport) => {
    await replaceQueryData(queryClient, queryKeys.paymentImports.detail(imp.id), next);
    void invalidate(queryClient, 'paymentImportChanged');
    if (next.status === 'posted') void invalidate(queryClient, 'paymentsChanged');
    setAsking(null);
  };
  const confirm = useMutation({
    mutationFn: () => api(paymentImportEndpoints.confirm, { params: { id: imp.id } }),
    onSuccess: done,
  });
  const discard = useMutation({
    mutationFn: () => api(paymentImportEndpoints.discard, { params: { id: imp.id } }),
    onSuccess: done,
  });
  const error = confirm.error ?? discard.error;
  const amount = money(imp.validAmount, imp.currency);
  const rows = `${imp.validCount} ${imp.validCount === 1 ? 'payment' : 'payments'}`;
  return (
    <div className="grid grid-cols-1 gap-3">
      {imp.status === 'posting' && (
        <div className="grid grid-cols-1 gap-1.5" data-testid="panel-import-progress">
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className="inline-flex items-center gap-2">
              <Spinner className="size-4" /> Posting the payments…
            </span>
            <span className="tabular-nums" data-testid="text-import-progress">
              {imp.postedCount} of {imp.validCount}
            </span>
          </div>
          <Progress
            value={imp.postedCount}
            max={Math.max(imp.validCount, 1)}
            aria-label="Payments posted"
            data-testid="progress-import"
          />
        </div>
      )}
      {imp.status === 'posted' && (
        <div
          role="status"
          className="flex items-start gap-2 rounded-lg border border-success/50 bg-success/10 px-3 py-2.5 text-sm"
          data-testid="panel-import-posted"
        >
          <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p data-testid="text-import-posted">
            {imp.postedCount} {imp.postedCount === 1 ? 'payment' : 'payments'} posted,{' '}
            {money(imp.postedAmount, imp.currency)} in all
            {imp.confirmedAt ? ` (confirmed ${formatDateTime(imp.confirmedAt)})` : ''}. They are in the
            Payments tab with their receipts.
          </p>
        </div>
      )}
      {imp.status === 'discarded' && (
        <p className="text-muted-foreground text-sm" data-testid="text-import-discarded">
          This import was discarded: nothing of it was posted.
        </p>
      )}
      <FormAlert message={error ? errorMessage(error) : null} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
        {refused > 0 && (
          <Button asChild variant="outline">
            <a
              href={endpointUrl(paymentImportEndpoints.refused, { params: { id: imp.id } })}
              data-testid="link-import-refused"
            >
              <Download aria-hidden="true" /> Download refused rows (CSV)
            </a>
          </Button>
        )}
        {imp.status === 'previewed' && (
          <>
            <Button
              variant="outline"
              onClick={() => setAsking('discard')}
              data-testid="button-import-discard"
            >
              <Trash2 aria-hidden="true" /> Discard
            </Button>
            <Button
              onClick={() => setAsking('confirm')}
              disabled={imp.validCount === 0 || imp.unmapped.length > 0}
              data-testid="button-import-confirm"
            >
              <Send aria-hidden="true" />
              {imp.validCount > 0 ? `Confirm and post ${rows}` : 'Nothing to post'}
            </Button>
          </>
        )}
      </div>
      <ConfirmDialog
        open={asking === 'confirm'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={`Post ${rows} (${amount})?`}
        description={
          <>
            {rows} totalling {amount} {imp.validCount === 1 ? 'is' : 'are'} posted to their contracts and
            allocated. The {imp.rowCount - imp.validCount} other{' '}
            {imp.rowCount - imp.validCount === 1 ? 'row is' : 'rows are'} not posted. A posted payment is
            undone only by a reversal.
          </>
        }
        confirmLabel={`Post ${rows}`}
        pending={confirm.isPending}
        onConfirm={() => confirm.mutate()}
      />
      <ConfirmDialog
        open={asking === 'discard'}
        onOpenChange={(open) => !open && setAsking(null)}
        title="Discard this import?"
        description="Nothing of it is posted; it stays in the recent imports as discarded. Upload the file again to start over."
        confirmLabel="Discard"
        destructive
        pending={discard.isPending}
        onConfirm={() => discard.mutate()}
      />
    </div>
  );
}

const COLUMN_FIELDS = ['contract', 'amount', 'reference', 'date'] as const;

function MappingForm({ imp }: { imp: PaymentImport }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState<DraftMapping>(imp.mapping);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const remap = useMutation({
    mutationFn: () =>
      api(paymentImportEndpoints.remap, {
        params: { id: imp.id },
        body: {
          mapping: {
            contract: draft.contract ?? '',
            contractKey: draft.contractKey,
            amount: draft.amount ?? '',
            reference: draft.reference ?? '',
            date: draft.date ?? '',
            dateFormat: draft.dateFormat,
            method: draft.method,
          },
        },
      }),
    onSuccess: (preview) => {
      const { rows: _rows, ...next } = preview;
      queryClient.setQueryData(queryKeys.paymentImports.detail(imp.id), next);
      void invalidate(queryClient, 'paymentImportChanged');
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    for (const field of COLUMN_FIELDS) if (!draft[field]) next[`mapping.${field}`] = 'Choose a column';
    setErrors(next);
    if (Object.keys(next).length === 0) remap.mutate();
  };
  const set = <K extends keyof DraftMapping>(field: K, value: DraftMapping[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const columnSelect = (field: (typeof COLUMN_FIELDS)[number] | 'method') => (
    <FormField
      key={field}
      id={`${id}-${field}`}
      label={MAPPING_FIELD_LABELS[field]}
      error={errors[`mapping.${field}`]}
      hint={
        field === 'method'
          ? `Without one, every row is ${METHOD_LABELS[imp.method].toLowerCase()}.`
          : undefined
      }
    >
      {(control) => (
        <NativeSelect
          {...control}
          value={draft[field] ?? ''}
          onChange={(event) => set(field, event.target.value || null)}
          data-testid={`select-mapping-${field}`}
        >
          <option value="">{field === 'method' ? 'No method column' : 'Choose a column…'}</option>
          {imp.columns.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
  const general =
    remap.error && Object.keys(fieldErrors(remap.error)).length === 0 ? errorMessage(remap.error) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Columns</CardTitle>
        <CardDescription>
          Which column of the file holds each field. The mapping is remembered for “{imp.source}”; change it
          and check the rows again.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          className="grid grid-cols-1 gap-4"
          data-testid="form-import-mapping"
        >
          {imp.unmapped.length > 0 && (
            <p
              className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2.5 text-sm"
              data-testid="text-import-unmapped"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              Map the {imp.unmapped.join(', ')} {imp.unmapped.length === 1 ? 'column' : 'columns'} to check
              the rows.
            </p>
          )}
          <FormAlert message={general} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {columnSelect('contract')}
            <FormField id={`${id}-contractKey`} label={MAPPING_FIELD_LABELS.contractKey}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={draft.contractKey}
                  onChange={(event) => set('contractKey', event.target.value as DraftMapping['contractKey'])}
                  data-testid="select-mapping-contractKey"
                >
                  {IMPORT_CONTRACT_KEYS.map((key) => (
                    <option key={key} value={key}>
                      {CONTRACT_KEY_LABELS[key]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            {columnSelect('amount')}
            {columnSelect('reference')}
            {columnSelect('date')}
            <FormField id={`${id}-dateFormat`} label={MAPPING_FIELD_LABELS.dateFormat}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={draft.dateFormat}
                  onChange={(event) => set('dateFormat', event.target.value as DraftMapping['dateFormat'])}
                  data-testid="select-mapping-dateFormat"
                >
                  {IMPORT_DATE_FORMATS.map((format) => (
                    <option key={format} value={format}>
                      {DATE_FORMAT_LABELS[format]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            {columnSelect('method')}
          </div>
          <div className="flex justify-end">
            <Button
              type="submit"
              variant="outline"
              disabled={remap.isPending}
              data-testid="button-import-remap"
            >
              {remap.isPending ? <Spinner className="size-4" /> : <RotateCw aria-hidden="true" />}
              Check the rows again
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function RowsTable({ imp }: { imp: PaymentImport }) {
  const id = useId();
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [page, setPage] = useState(1);
  const query = { errorsOnly: errorsOnly ? ('true' as const) : ('false' as const), page };
  const rows = useQuery({
    queryKey: queryKeys.paymentImports.rows(imp.id, { ...query, status: imp.status, valid: imp.validCount }),
    queryFn: () => api(paymentImportEndpoints.rows, { params: { id: imp.id }, query }),
    placeholderData: keepPreviousData,
  });
  const items = rows.data?.items ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Rows</CardTitle>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-errors`}
            checked={errorsOnly}
            onCheckedChange={(next) => {
              setErrorsOnly(next);
              setPage(1);
            }}
            data-testid="switch-import-errors-only"
          />
          <Label htmlFor={`${id}-errors`}>Only rows not posted</Label>
        </div>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        {rows.isLoading ? (
          <Skeleton className="h-40 w-full" />
        ) : rows.error ? (
          <p role="alert" className="text-destructive text-sm">
            The rows could not be loaded: {errorMessage(rows.error)}
          </p>
        ) : items.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="empty-import-rows">
            {errorsOnly ? 'Every row is good.' : 'The file has no rows.'}
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <Table aria-label="Rows of the file" data-testid="table-import-rows">
              <TableHeader>
                <TableRow>
                  <TableHead className="text-right">Row</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Contract</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Reference</TableHead>
                  <TableHead>Received</TableHead>
                  <TableHead>Problem</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className={rows.isFetching ? 'opacity-60' : undefined}>
                {items.map((row) => (
                  <TableRow
                    key={row.rowNumber}
                    data-testid={`row-import-line-${row.rowNumber}`}
                    data-status={row.status}
                  >
                    <TableCell className="text-right tabular-nums">{row.rowNumber}</TableCell>
                    <TableCell>
                      <Badge variant={ROW_STATUS_VARIANTS[row.status]}>{ROW_STATUS_LABELS[row.status]}</Badge>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{row.contractNumber ?? '—'}</TableCell>
                    <TableCell className="whitespace-nowrap text-right tabular-nums">
                      {row.amount === null ? '—' : money(row.amount, imp.currency)}
                    </TableCell>
                    <TableCell className="font-mono text-xs">{row.reference ?? '—'}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateTime(row.receivedAt)}</TableCell>
                    <TableCell
                      className="min-w-48 whitespace-normal"
                      data-testid={`text-row-issue-${row.rowNumber}`}
                    >
                      {row.error ? (
                        <>
                          <span className="font-medium">{row.issue ? issueLabel(row.issue) : ''}</span>
                          <span className="block text-muted-foreground text-xs">{row.error}</span>
                        </>
                      ) : (
                        ''
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {rows.data && rows.data.total > IMPORT_ROWS_PAGE_SIZE && (
          <Pagination
            page={page}
            pageSize={rows.data.pageSize}
            total={rows.data.total}
            onPage={setPage}
            testId="import-rows"
          />
        )}
      </CardContent>
    </Card>
  );
}
