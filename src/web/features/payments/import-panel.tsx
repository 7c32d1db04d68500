import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileUp, Inbox } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { IMPORT_FILE_MAX_BYTES, IMPORT_METHODS, paymentImportEndpoints } from '@/contracts/payment-imports';
import { ActionTableHeader } from '@/web/components/action-table';
import { Pagination } from '@/web/components/data-list/pagination';
import { EmptyMessage } from '@/web/components/empty-message';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Table, TableBody, TableCell, TableRow } from '@/web/components/ui/table';
import { api, apiUploadTo } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { useDebounced } from './contract-picker';
import { METHOD_LABELS } from './format';
import { IMPORT_STATUS_LABELS, IMPORT_STATUS_VARIANTS } from './import-format';
import { ImportPreview } from './import-preview';

/** Where an import's preview opens: this tab, with the import in the address (`?import=`). */
export const importHref = (id: string) => `/payment-processing?tab=import&import=${id}`;

/**
 * Statement imports (finance): upload a bank or provider statement, check its rows against the
 * contracts, and post the good ones; the recent imports below reopen any earlier preview.
 */
export function ImportPanel() {
  const importId = new URLSearchParams(useSearch()).get('import');
  const [, navigate] = useLocation();
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      {importId ? (
        <ImportPreview
          key={importId}
          id={importId}
          onClose={() => navigate('/payment-processing?tab=import')}
        />
      ) : (
        <UploadForm onUploaded={(id) => navigate(importHref(id))} />
      )}
      <RecentImports current={importId} />
    </div>
  );
}

function useImportList(page: number) {
  return useQuery({
    queryKey: queryKeys.paymentImports.list(page),
    queryFn: () => api(paymentImportEndpoints.list, { query: { page } }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function UploadForm({ onUploaded }: { onUploaded: (id: string) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [source, setSource] = useState('');
  const [method, setMethod] = useState<(typeof IMPORT_METHODS)[number]>('bank_transfer');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const recent = useImportList(1);
  const sources = useMemo(
    () => [...new Set((recent.data?.items ?? []).map((i) => i.source))].sort(),
    [recent.data],
  );
  const settled = useDebounced(source.trim(), 400);
  const remembered = useQuery({
    queryKey: [...queryKeys.paymentImports.all(), 'mapping', settled],
    queryFn: () => api(paymentImportEndpoints.mapping, { query: { source: settled } }),
    enabled: settled.length > 0,
    staleTime: 30_000,
  });
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      const form = new FormData();
      form.append('source', source.trim());
      form.append('method', method);
      form.append('file', chosen);
      return apiUploadTo(paymentImportEndpoints.upload, {}, form);
    },
    onSuccess: (preview) => {
      void invalidate(queryClient, 'paymentImportChanged');
      onUploaded(preview.id);
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!source.trim()) next.source = 'Name the source (e.g. equity-bank)';
    if (!file) next.file = 'Choose a statement file (CSV or XLSX)';
    else if (file.size > IMPORT_FILE_MAX_BYTES)
      next.file = 'The file is larger than 10 MB; split it into several imports';
    else if (!/\.(csv|xlsx)$/i.test(file.name)) next.file = 'Choose a CSV or XLSX file';
    setErrors(next);
    if (file && Object.keys(next).length === 0) upload.mutate(file);
  };
  const general =
    upload.error && Object.keys(fieldErrors(upload.error)).length === 0 ? errorMessage(upload.error) : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileUp className="size-5" aria-hidden="true" /> Import a statement
        </CardTitle>
        <CardDescription>
          A bank or provider statement as CSV or Excel (XLSX), one payment per row with a header row. Every
          row is checked against the contracts first; nothing is posted until you confirm.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          className="grid grid-cols-1 gap-4"
          data-testid="form-payment-import"
        >
          <FormAlert message={general} />
          <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
            <FormField
              id={`${id}-source`}
              label="Source"
              error={errors.source}
              hint={
                remembered.data?.mapping && remembered.data.source === source.trim()
                  ? 'The column mapping saved for this source is used.'
                  : 'Who sent the statement; its column mapping is remembered under this name.'
              }
            >
              {(control) => (
                <>
                  <Input
                    {...control}
                    value={source}
                    list={`${id}-sources`}
                    maxLength={100}
                    autoComplete="off"
                    placeholder="e.g. equity-bank"
                    onChange={(event) => {
                      setSource(event.target.value);
                      setErrors(({ source: _source, ...rest }) => rest);
                    }}
                    data-testid="input-import-source"
                  />
                  <datalist id={`${id}-sources`}>
                    {sources.map((name) => (
                      <option key={name} value={name} />
                    ))}
                  </datalist>
                </>
              )}
            </FormField>
            <FormField
              id={`${id}-method`}
              label="Method"
              error={errors.method}
              hint="For rows without a method column."
            >
              {(control) => (
                <NativeSelect
                  {...control}
                  value={method}
                  onChange={(event) => setMethod(event.target.value as (typeof IMPORT_METHODS)[number])}
                  data-testid="select-import-method"
                >
                  {IMPORT_METHODS.map((m) => (
                    <option key={m} value={m}>
                      {METHOD_LABELS[m]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <FormField
              id={`${id}-file`}
              label="Statement file"
              error={errors.file}
              hint="CSV or XLSX, up to 10 MB."
            >
              {(control) => (
                <input
                  {...control}
                  type="file"
                  accept={ACCEPT}
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null);
                    setErrors(({ file: _file, ...rest }) => rest);
                  }}
                  className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-1.5 file:font-medium file:text-foreground file:text-sm"
                  data-testid="input-import-file"
                />
              )}
            </FormField>
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={upload.isPending} data-testid="button-import-upload">
              {upload.isPending ? <Spinner className="size-4" /> : <FileUp aria-hidden="true" />}
              Upload and check
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function RecentImports({ current }: { current: string | null }) {
  const [page, setPage] = useState(1);
  const list = useImportList(page);
  const items = list.data?.items ?? [];
  return (
    <section aria-labelledby="recent-imports" className="grid min-w-0 grid-cols-1 gap-2">
      <h2 id="recent-imports" className="font-semibold text-base">
        Recent imports
      </h2>
      {list.isLoading ? (
        <div role="status" className="grid grid-cols-1 gap-2">
          <span className="sr-only">Loading imports…</span>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : list.error ? (
        <Card role="alert" className="p-4 text-destructive text-sm" data-testid="error-imports">
          Imports could not be loaded: {errorMessage(list.error)}
        </Card>
      ) : items.length === 0 ? (
        <Card>
          <EmptyMessage icon={Inbox} testId="empty-imports">
            No statements imported yet.
          </EmptyMessage>
        </Card>
      ) : (
        <Card className="overflow-x-auto p-0">
          <Table aria-label="Recent imports" data-testid="table-imports">
            <ActionTableHeader
              headings={['Uploaded', 'File', 'Source', 'Status', 'Rows', 'Posted']}
              actions="Open"
            />
            <TableBody>
              {items.map((imp) => (
                <TableRow
                  key={imp.id}
                  data-testid={`row-import-${imp.id}`}
                  data-state={imp.id === current ? 'selected' : undefined}
                >
                  <TableCell className="whitespace-nowrap">
                    {formatDateTime(imp.createdAt)}
                    <span className="block text-muted-foreground text-xs">{imp.createdByName ?? ''}</span>
                  </TableCell>
                  <TableCell className="max-w-56 truncate" title={imp.fileName}>
                    {imp.fileName}
                  </TableCell>
                  <TableCell>
                    {imp.source}
                    <span className="block text-muted-foreground text-xs">{METHOD_LABELS[imp.method]}</span>
                  </TableCell>
                  <TableCell>
                    <Badge variant={IMPORT_STATUS_VARIANTS[imp.status]}>
                      {IMPORT_STATUS_LABELS[imp.status]}
                    </Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums">
                    {imp.validCount} of {imp.rowCount} valid
                  </TableCell>
                  <TableCell className="tabular-nums">{imp.postedCount}</TableCell>
                  <TableCell className="text-right">
                    {imp.id === current ? (
                      <span className="text-muted-foreground text-xs">Open above</span>
                    ) : (
                      <Button asChild size="sm" variant="outline">
                        <Link href={importHref(imp.id)} data-testid={`link-open-import-${imp.id}`}>
                          {imp.status === 'previewed' ? 'Review' : 'Open'}
                          <span className="sr-only"> {imp.fileName}</span>
                        </Link>
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {list.data && list.data.total > list.data.pageSize && (
        <Pagination
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
          testId="imports"
        />
      )}
    </section>
  );
}
