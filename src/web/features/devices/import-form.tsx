import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Download, RotateCw, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import {
  type DeviceImportResult,
  deviceImportUpload,
  IMPORT_COLUMNS,
  IMPORT_MAX_FILE_BYTES,
  type ImportRowError,
} from '@/contracts/devices';
import { ERROR_CODES } from '@/contracts/errors';
import { FormAlert } from '@/web/components/form-alert';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { apiUploadTo } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { apiError, errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { CONTROL_LABELS, labelOf } from './format';
import { TableRegion } from './table-region';

const TEMPLATE = `${IMPORT_COLUMNS.join(',')}\nSN-0001,,Tecno,Spark 20,356938035643809,,,\n`;
export const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

/** A refused import (422 IMPORT_INVALID) names its fields "row 3: imei": back to rows. */
export function rowErrorsOf(error: unknown): ImportRowError[] {
  return Object.entries(fieldErrors(error)).map(([field, message]) => {
    const match = /^row (\d+): (.*)$/.exec(field);
    return match ? { row: Number(match[1]), field: match[2] ?? '', message } : { row: 0, field, message };
  });
}

function upload(file: File, dryRun: boolean): Promise<DeviceImportResult> {
  const form = new FormData();
  form.append('dryRun', String(dryRun));
  form.append('file', file);
  return apiUploadTo(deviceImportUpload, {}, form);
}

/**
 * Bulk receipt from a CSV file: the file is checked first (a dry run lists every problem and a
 * preview), and imported only when every row is right — the API writes every row or none.
 */
export function ImportForm({ onDone }: { onDone(): void }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [check, setCheck] = useState<DeviceImportResult | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; errors: ImportRowError[] } | null>(null);
  const [imported, setImported] = useState<DeviceImportResult | null>(null);

  const dryRun = useMutation({
    mutationFn: (chosen: File) => upload(chosen, true),
    onSuccess: (result) => setCheck(result),
    onError: (error) => setRefusal({ message: errorMessage(error), errors: rowErrorsOf(error) }),
  });
  const run = useMutation({
    mutationFn: (chosen: File) => upload(chosen, false),
    onSuccess: (result) => {
      setImported(result);
      void invalidate(queryClient, 'devicesAdded');
    },
    onError: (error) => {
      setCheck(null);
      setRefusal({
        message: errorMessage(error),
        errors: apiError(error)?.code === ERROR_CODES.IMPORT_INVALID ? rowErrorsOf(error) : [],
      });
    },
  });

  const choose = (chosen: File | null) => {
    setCheck(null);
    setRefusal(null);
    setImported(null);
    setFile(chosen);
    if (!chosen) return setFileError(null);
    if (chosen.size > IMPORT_MAX_FILE_BYTES) {
      setFileError('The file is larger than 10 MB; split it into several imports');
      return;
    }
    setFileError(null);
    dryRun.mutate(chosen);
  };

  if (imported) {
    return (
      <div className="grid grid-cols-1 gap-4" data-testid="panel-import-done">
        <div
          role="status"
          className="flex items-start gap-2 rounded-lg border border-success/50 bg-success/10 px-3 py-2.5 text-sm"
        >
          <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p data-testid="text-import-imported">
            {imported.imported} {imported.imported === 1 ? 'unit' : 'units'} imported into stock.
          </p>
        </div>
        <div className="flex justify-end">
          <Button onClick={onDone} data-testid="button-import-close">
            Done
          </Button>
        </div>
      </div>
    );
  }

  const errors = check?.errors ?? refusal?.errors ?? [];
  const busy = dryRun.isPending || run.isPending;
  const ready = !!check && check.errors.length === 0 && check.valid > 0;

  return (
    <div className="grid grid-cols-1 min-w-0 gap-4" data-testid="form-import">
      <div className="grid grid-cols-1 gap-1.5 text-muted-foreground text-sm">
        <p>
          A header row, then one unit per row. Columns: <code className="text-xs">serial_number</code>, the
          model as <code className="text-xs">model_sku</code> or <code className="text-xs">make</code> +{' '}
          <code className="text-xs">model</code>, and optionally <code className="text-xs">imei</code>,{' '}
          <code className="text-xs">openpaygo_secret_key</code>,{' '}
          <code className="text-xs">openpaygo_starting_code</code> (not 0; empty derives it from the key),{' '}
          <code className="text-xs">openpaygo_time_divider</code> (1 counts days, 24 hours; 1 when empty).
        </p>
        <p>The file is checked first; nothing is imported unless every row is right.</p>
        <a
          href={TEMPLATE_HREF}
          download="device-import-template.csv"
          className="inline-flex w-fit items-center gap-1 text-primary text-sm underline-offset-4 hover:underline"
          data-testid="link-import-template"
        >
          <Download className="size-4" aria-hidden="true" /> Download a template
        </a>
      </div>
      <div className="grid grid-cols-1 gap-1.5">
        <label htmlFor={inputId} className="font-medium text-sm">
          CSV file
        </label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-invalid={!!fileError}
          aria-describedby={fileError ? `${inputId}-error` : undefined}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
          className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-1.5 file:font-medium file:text-foreground file:text-sm"
          data-testid="input-import-file"
        />
        {fileError && (
          <p id={`${inputId}-error`} className="font-medium text-destructive text-xs">
            {fileError}
          </p>
        )}
      </div>

      <div role="status" aria-live="polite" className="text-sm">
        {dryRun.isPending && (
          <span className="inline-flex items-center gap-2 text-muted-foreground">
            <Spinner className="size-4" /> Checking the file…
          </span>
        )}
        {check && (
          <p data-testid="text-import-summary">
            {check.rows} {check.rows === 1 ? 'row' : 'rows'} in the file, {check.valid} ready to import
            {check.errors.length
              ? `, ${check.errors.length} ${check.errors.length === 1 ? 'problem' : 'problems'} to fix. Nothing is imported until the file is right.`
              : '.'}
          </p>
        )}
      </div>
      <FormAlert message={refusal?.message ?? null} />

      {errors.length > 0 && <ImportErrorTable errors={errors} />}
      {check && check.errors.length === 0 && check.preview.length > 0 && <PreviewTable result={check} />}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          variant="outline"
          onClick={onDone}
          disabled={run.isPending}
          data-testid="button-import-cancel"
        >
          Cancel
        </Button>
        {file && !fileError && !busy && (check || refusal) && (
          <Button variant="outline" onClick={() => choose(file)} data-testid="button-import-recheck">
            <RotateCw aria-hidden="true" /> Check again
          </Button>
        )}
        <Button
          onClick={() => file && run.mutate(file)}
          disabled={!ready || busy}
          data-testid="button-import-run"
        >
          {run.isPending ? <Spinner className="size-4" /> : <Upload aria-hidden="true" />}
          {ready ? `Import ${check.valid} ${check.valid === 1 ? 'unit' : 'units'}` : 'Import'}
        </Button>
      </div>
    </div>
  );
}

export function ImportErrorTable({ errors }: { errors: readonly ImportRowError[] }) {
  return (
    <TableRegion label="Problems in the file" className="max-h-72" testId="table-import-errors">
      <TableHeader>
        <TableRow>
          <TableHead className="text-right">Row</TableHead>
          <TableHead>Field</TableHead>
          <TableHead>Problem</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {errors.map((error, index) => (
          <TableRow
            // biome-ignore lint/suspicious/noArrayIndexKey: a row may have several problems on one field
            key={`${error.row}-${error.field}-${index}`}
            data-testid={`row-import-error-${error.row}`}
          >
            <TableCell className="text-right tabular-nums">{error.row || '—'}</TableCell>
            <TableCell>
              <code className="text-xs">{error.field}</code>
            </TableCell>
            <TableCell className="whitespace-normal">{error.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </TableRegion>
  );
}

function PreviewTable({ result }: { result: DeviceImportResult }) {
  return (
    <div className="grid grid-cols-1 gap-1.5">
      <p className="text-muted-foreground text-xs">
        {result.preview.length < result.valid
          ? `The first ${result.preview.length} of ${result.valid} rows:`
          : 'The rows to import:'}
      </p>
      <TableRegion label="Rows to import" className="max-h-60" testId="table-import-preview">
        <TableHeader>
          <TableRow>
            <TableHead className="text-right">Row</TableHead>
            <TableHead>Serial number</TableHead>
            <TableHead>IMEI</TableHead>
            <TableHead>Model</TableHead>
            <TableHead>Control</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {result.preview.map((row) => (
            <TableRow key={row.row}>
              <TableCell className="text-right tabular-nums">{row.row}</TableCell>
              <TableCell className="font-mono text-xs">{row.serialNumber}</TableCell>
              <TableCell className="font-mono text-xs">{row.imei ?? '—'}</TableCell>
              <TableCell>{row.model}</TableCell>
              <TableCell>{labelOf(CONTROL_LABELS, row.controlKind)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </TableRegion>
    </div>
  );
}
