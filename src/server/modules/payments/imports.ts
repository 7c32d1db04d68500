import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  type DraftMapping,
  IMPORT_PREVIEW_ROWS,
  IMPORT_ROW_ISSUES,
  IMPORT_ROWS_PAGE_SIZE,
  type ImportMapping,
  type ImportPreview,
  type ImportRow,
  type ImportRowIssue,
  type PaymentImport,
} from '../../../contracts/payment-imports';
import type { IMPORT_STATUSES } from '../../../contracts/payments';
import type { Organisation } from '../../../contracts/profile';
import { queryRows } from '../../../db/client';
import { importMappings, paymentImportRows, paymentImports, users } from '../../../db/schema';
import { type Actor, writeAudit } from '../../audit';
import type { AppServices, Executor, TxContext } from '../../context';
import { AppError, conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import {
  type ContractByReference,
  contractsByReference,
  liveContractOf,
  notLiveText,
} from '../contracts/references';
import {
  draftOf,
  mappingFor,
  parseAmount,
  parseMethod,
  parseStatementDate,
  readStatement,
  unmappedFields,
} from './import-parse';

/**
 * Statement imports (PRODUCT.md section 3): the upload reads the file, maps its columns (the
 * source's remembered mapping, else one suggested from the headers), checks every row and stores
 * it with its problem; nothing is posted until `confirm` (`import-posting.ts`). Rows are kept as
 * read (their cells), so a new mapping re-checks them without the file.
 */

type ImportStatus = (typeof IMPORT_STATUSES)[number];
type ImportMethod = PaymentImport['method'];

/** What `payment_imports.mapping` holds: the file's headers and the mapping applied. */
interface StoredMapping {
  columns: string[];
  mapping: DraftMapping;
}

export interface Upload {
  fileName: string;
  data: Buffer;
  source: string;
  method: ImportMethod;
  mapping: ImportMapping | null;
}

/** A row as checked, ready to store. */
interface CheckedRow {
  rowNumber: number;
  cells: string[];
  contractId: string | null;
  contractNumber: string | null;
  amount: number | null;
  reference: string | null;
  receivedAt: Date | null;
  /** `issue: words`, or null for a row to post. */
  error: string | null;
  paymentId: string | null;
}

export async function createImport(ctx: TxContext, actor: Actor, upload: Upload): Promise<string> {
  const file = await readStatement(upload.fileName, upload.data);
  const remembered = upload.mapping ? null : await rememberedMapping(ctx.tx, upload.source);
  // The first rows' dates tell how the file writes them, when no mapping for the source says.
  const sampleDates = (column: string) => {
    const at = file.columns.indexOf(column);
    return file.rows.slice(0, 50).map((row) => row.cells[at] ?? '');
  };
  const mapping = upload.mapping
    ? draftOf(upload.mapping)
    : mappingFor(file.columns, remembered, sampleDates);
  const id = newId();
  const org = await organisation(ctx, ctx.tx);
  const rows = await checkRows(ctx, ctx.tx, org, {
    columns: file.columns,
    mapping,
    method: upload.method,
    rows: file.rows.map((row) => ({ rowNumber: row.line, cells: row.cells })),
  });
  await ctx.tx.insert(paymentImports).values({
    id,
    source: upload.source,
    fileName: upload.fileName,
    fileHash: createHash('sha256').update(upload.data).digest('hex'),
    method: upload.method,
    mapping: { columns: file.columns, mapping } satisfies StoredMapping,
    status: 'previewed',
    rowCount: rows.length,
    validCount: rows.filter((row) => row.error === null).length,
    createdBy: actor.id,
    createdAt: ctx.clock.now(),
  });
  await insertRows(ctx.tx, id, rows);
  if (upload.mapping) await rememberMapping(ctx, actor, upload.source, mapping);
  await writeAudit(ctx.tx, actor, {
    action: 'payment.import',
    entityType: 'payment_import',
    entityId: id,
    after: {
      source: upload.source,
      fileName: upload.fileName,
      method: upload.method,
      rows: rows.length,
      valid: rows.filter((row) => row.error === null).length,
    },
  });
  return id;
}

/** A new mapping for a previewed import: its rows checked again, the mapping remembered for the source. */
export async function remapImport(
  ctx: TxContext,
  actor: Actor,
  id: string,
  input: ImportMapping,
): Promise<void> {
  const imp = await lockImport(ctx, id);
  if (imp.status !== 'previewed') {
    throw conflict(
      `This import is ${imp.status}; only a previewed import can be mapped again`,
      'IMPORT_STATE',
    );
  }
  const stored = imp.mapping as StoredMapping;
  const mapping = draftOf(input);
  const missing = unmappedFields(mapping, stored.columns);
  if (missing.length) {
    throw new AppError(
      400,
      'VALIDATION',
      `The file has no such column for ${missing.join(', ')}`,
      missing.map((field) => ({ field: `mapping.${field}`, message: 'The file has no such column' })),
    );
  }
  const raw = await queryRows<{ row_number: number; raw: { cells: string[] } }>(
    ctx.tx,
    sql`SELECT row_number, raw FROM ${paymentImportRows} WHERE import_id = ${id} ORDER BY row_number`,
  );
  const org = await organisation(ctx, ctx.tx);
  const rows = await checkRows(ctx, ctx.tx, org, {
    columns: stored.columns,
    mapping,
    method: imp.method as ImportMethod,
    rows: raw.map((row) => ({ rowNumber: row.row_number, cells: row.raw.cells })),
  });
  await ctx.tx.delete(paymentImportRows).where(eq(paymentImportRows.importId, id));
  await insertRows(ctx.tx, id, rows);
  await ctx.tx
    .update(paymentImports)
    .set({
      mapping: { columns: stored.columns, mapping } satisfies StoredMapping,
      validCount: rows.filter((row) => row.error === null).length,
    })
    .where(eq(paymentImports.id, id));
  await rememberMapping(ctx, actor, imp.source, mapping);
  await writeAudit(ctx.tx, actor, {
    action: 'payment.import',
    entityType: 'payment_import',
    entityId: id,
    before: { mapping: stored.mapping },
    after: { mapping },
  });
}

/** Discards a previewed import: nothing of it is posted, its rows stay for the record. */
export async function discardImport(ctx: TxContext, actor: Actor, id: string): Promise<void> {
  const imp = await lockImport(ctx, id);
  if (imp.status !== 'previewed') {
    throw conflict(`This import is ${imp.status}; only a previewed import can be discarded`, 'IMPORT_STATE');
  }
  await ctx.tx.update(paymentImports).set({ status: 'discarded' }).where(eq(paymentImports.id, id));
  await writeAudit(ctx.tx, actor, {
    action: 'payment.import_discard',
    entityType: 'payment_import',
    entityId: id,
    before: { status: imp.status },
    after: { status: 'discarded' },
  });
}

export async function lockImport(ctx: TxContext, id: string) {
  const [imp] = await ctx.tx.select().from(paymentImports).where(eq(paymentImports.id, id)).for('update');
  if (!imp) throw notFound('Import not found');
  return imp;
}

export function storedMapping(value: unknown): StoredMapping {
  return value as StoredMapping;
}

async function rememberedMapping(executor: Executor, source: string): Promise<DraftMapping | null> {
  const [row] = await executor.select().from(importMappings).where(eq(importMappings.source, source));
  return row ? (row.mapping as DraftMapping) : null;
}

export async function rememberMapping(
  ctx: TxContext,
  actor: Actor,
  source: string,
  mapping: DraftMapping,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.tx
    .insert(importMappings)
    .values({ source, mapping, updatedBy: actor.id, updatedAt: now })
    .onConflictDoUpdate({
      target: importMappings.source,
      set: { mapping, updatedBy: actor.id, updatedAt: now },
    });
}

/** The mapping remembered for a source, for the upload form. */
export async function mappingOfSource(executor: Executor, source: string) {
  const [row] = await executor.select().from(importMappings).where(eq(importMappings.source, source));
  return {
    source,
    mapping: row ? (row.mapping as DraftMapping) : null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

/** The method a row is posted with: its method column's, or the import's. */
export function rowMethod(
  mapping: DraftMapping,
  columns: readonly string[],
  cells: readonly string[],
  fallback: ImportMethod,
): ImportMethod | null {
  if (!mapping.method) return fallback;
  const index = columns.indexOf(mapping.method);
  const text = index < 0 ? '' : (cells[index] ?? '');
  return text.trim() ? parseMethod(text) : fallback;
}

/**
 * Checks every row: its method, reference, contract (matched and live), amount (in the
 * contract's currency), date (not in the future, not before the contract's activation), the
 * reference not twice in the file, and not already posted: the same method and reference on the
 * same contract for the same amount is "already posted" (skipped), on another a refusal.
 */
async function checkRows(
  ctx: AppServices,
  executor: Executor,
  org: Organisation,
  input: {
    columns: string[];
    mapping: DraftMapping;
    method: ImportMethod;
    rows: { rowNumber: number; cells: string[] }[];
  },
): Promise<CheckedRow[]> {
  const { columns, mapping } = input;
  const blank = (row: { rowNumber: number; cells: string[] }, error: string): CheckedRow => ({
    rowNumber: row.rowNumber,
    cells: row.cells,
    contractId: null,
    contractNumber: null,
    amount: null,
    reference: null,
    receivedAt: null,
    error,
    paymentId: null,
  });
  const missing = unmappedFields(mapping, columns);
  if (missing.length) {
    return input.rows.map((row) => blank(row, `unmapped: Map the ${missing.join(', ')} column first`));
  }
  const at = (name: string | null) => (name ? columns.indexOf(name) : -1);
  const index = {
    contract: at(mapping.contract),
    amount: at(mapping.amount),
    reference: at(mapping.reference),
    date: at(mapping.date),
  };
  const cell = (cells: string[], i: number) => (cells[i] ?? '').trim();
  const found = await contractsByReference(
    executor,
    mapping.contractKey,
    input.rows.map((row) => cell(row.cells, index.contract)),
    org.country,
  );
  const methods = input.rows.map((row) => rowMethod(mapping, columns, row.cells, input.method));
  const pairs = input.rows.flatMap((row, i) => {
    const reference = cell(row.cells, index.reference);
    const method = methods[i];
    return reference && method ? [{ method, reference }] : [];
  });
  const existing = await paymentsByReference(executor, pairs);
  const seen = new Map<string, number>();
  const now = ctx.clock.now();
  return input.rows.map((row, i) => {
    const contractText = cell(row.cells, index.contract);
    const reference = cell(row.cells, index.reference) || null;
    const result: CheckedRow = { ...blank(row, ''), contractNumber: contractText || null, reference };
    const fail = (issue: ImportRowIssue, words: string): CheckedRow => ({
      ...result,
      error: `${issue}: ${words}`,
    });
    const method = methods[i];
    if (!method) return fail('bad_method', 'The method is none of mobile money, bank transfer, card, cash');
    if (!reference) return fail('missing_reference', 'The reference is empty');
    if (!contractText) return fail('unknown_contract', 'The contract column is empty');
    const match = liveContractOf(found.get(contractText) ?? []);
    if (match.issue === 'unknown') return fail('unknown_contract', `No contract matches "${contractText}"`);
    if (match.issue === 'several_live') {
      return fail(
        'unknown_contract',
        `"${contractText}" matches several live contracts (${match.live.map((c) => c.number).join(', ')}); use the contract number`,
      );
    }
    const contract: ContractByReference = match.issue === 'not_live' ? match.newest : match.contract;
    result.contractId = contract.id;
    result.contractNumber = contract.number;
    if (match.issue === 'not_live')
      return fail('contract_not_active', `${notLiveText(contract)}; payments are taken on active contracts`);
    const amount = parseAmount(cell(row.cells, index.amount), contract.currency);
    if (typeof amount === 'string') return fail('bad_amount', amount);
    result.amount = amount;
    const receivedAt = parseStatementDate(cell(row.cells, index.date), mapping.dateFormat, org.timeZone, now);
    if (typeof receivedAt === 'string') return fail('bad_date', receivedAt);
    if (contract.activatedAt && receivedAt.getTime() < contract.activatedAt.getTime()) {
      return fail(
        'bad_date',
        `${receivedAt.toISOString().slice(0, 10)} is before ${contract.number} was activated (${contract.activatedAt.toISOString().slice(0, 10)})`,
      );
    }
    result.receivedAt = receivedAt;
    const pairKey = `${method}\u0000${reference}`;
    const earlierRow = seen.get(pairKey);
    if (earlierRow !== undefined)
      return fail('duplicate_in_file', `The reference ${reference} is also on row ${earlierRow}`);
    seen.set(pairKey, row.rowNumber);
    const posted = existing.get(pairKey);
    if (posted) {
      if (posted.contractId === contract.id && posted.amount === amount) {
        return {
          ...fail('already_posted', `Already posted as receipt ${posted.receiptNumber}`),
          paymentId: posted.id,
        };
      }
      return fail(
        'duplicate_reference',
        `The reference ${reference} was already used for receipt ${posted.receiptNumber}`,
      );
    }
    return { ...result, error: null };
  });
}

interface ExistingPayment {
  id: string;
  receiptNumber: string;
  contractId: string | null;
  amount: number;
}

/** The payments already recorded with these (method, reference) pairs, by `method\0reference`. */
async function paymentsByReference(
  executor: Executor,
  pairs: readonly { method: string; reference: string }[],
): Promise<Map<string, ExistingPayment>> {
  const found = new Map<string, ExistingPayment>();
  for (let start = 0; start < pairs.length; start += 5000) {
    const batch = pairs.slice(start, start + 5000);
    const rows = await queryRows<{
      id: string;
      receipt_number: string;
      contract_id: string | null;
      amount: string;
      method: string;
      reference: string;
    }>(
      executor,
      sql`SELECT p.id, p.receipt_number, p.contract_id, p.amount, p.method, p.reference
        FROM unnest(${sql.param(batch.map((p) => p.method))}::text[], ${sql.param(batch.map((p) => p.reference))}::text[]) AS v(method, reference)
        JOIN payments p ON p.method = v.method AND p.reference = v.reference`,
    );
    for (const row of rows) {
      found.set(`${row.method}\u0000${row.reference}`, {
        id: row.id,
        receiptNumber: row.receipt_number,
        contractId: row.contract_id,
        amount: Number(row.amount),
      });
    }
  }
  return found;
}

/** The rows in one statement per 5,000 (arrays, not thousands of parameters). */
async function insertRows(executor: Executor, importId: string, rows: readonly CheckedRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 5000) {
    const batch = rows.slice(start, start + 5000);
    const col = <T>(pick: (row: CheckedRow) => T) => sql.param(batch.map(pick));
    await executor.execute(sql`
      INSERT INTO ${paymentImportRows} (import_id, row_number, raw, contract_id, contract_number, amount, reference, received_at, error, payment_id)
      SELECT ${importId}::text, v.row_number, v.raw::jsonb, v.contract_id, v.contract_number, v.amount, v.reference, v.received_at, v.error, v.payment_id
      FROM unnest(${col((r) => r.rowNumber)}::int[], ${col((r) => JSON.stringify({ cells: r.cells }))}::text[],
                  ${col((r) => r.contractId)}::text[], ${col((r) => r.contractNumber)}::text[], ${col((r) => r.amount)}::bigint[],
                  ${col((r) => r.reference)}::text[], ${col((r) => r.receivedAt?.toISOString() ?? null)}::timestamptz[],
                  ${col((r) => r.error)}::text[], ${col((r) => r.paymentId)}::text[])
        AS v(row_number, raw, contract_id, contract_number, amount, reference, received_at, error, payment_id)`);
  }
}

// --- Reads -------------------------------------------------------------------------------------

interface ImportRowRecord {
  row_number: number;
  raw: { cells: string[] };
  contract_id: string | null;
  contract_number: string | null;
  amount: string | null;
  reference: string | null;
  received_at: string | Date | null;
  error: string | null;
  payment_id: string | null;
}

export function splitError(error: string | null): { issue: ImportRowIssue | null; words: string | null } {
  if (error === null) return { issue: null, words: null };
  const at = error.indexOf(': ');
  const issue = error.slice(0, at) as ImportRowIssue;
  return {
    issue: (IMPORT_ROW_ISSUES as readonly string[]).includes(issue) ? issue : 'failed',
    words: error.slice(at + 2),
  };
}

function rowView(record: ImportRowRecord, stored: StoredMapping, method: ImportMethod): ImportRow {
  const { issue, words } = splitError(record.error);
  const status: ImportRow['status'] =
    issue === 'already_posted' ? 'already_posted' : issue ? 'error' : record.payment_id ? 'posted' : 'valid';
  return {
    rowNumber: record.row_number,
    status,
    contractNumber: record.contract_number,
    contractId: record.contract_id,
    amount: record.amount === null ? null : Number(record.amount),
    reference: record.reference,
    receivedAt: record.received_at === null ? null : new Date(record.received_at).toISOString(),
    method: rowMethod(stored.mapping, stored.columns, record.raw.cells, method),
    issue,
    error: words,
    paymentId: record.payment_id,
  };
}

const ROW_COLUMNS = sql`row_number, raw, contract_id, contract_number, amount, reference, received_at, error, payment_id`;

export async function importView(ctx: AppServices, executor: Executor, id: string): Promise<PaymentImport> {
  const [view] = await importViews(ctx, executor, sql`i.id = ${id}`, 1, 0);
  if (!view) throw notFound('Import not found');
  return view;
}

async function importViews(
  ctx: AppServices,
  executor: Executor,
  where: ReturnType<typeof sql>,
  limit: number,
  offset: number,
): Promise<PaymentImport[]> {
  const rows = await queryRows<{
    id: string;
    file_name: string;
    source: string;
    method: ImportMethod;
    status: ImportStatus;
    mapping: StoredMapping;
    row_count: number;
    valid_count: number;
    posted_count: number;
    posted_amount: string;
    valid_amount: string;
    created_by_name: string | null;
    created_at: string | Date;
    confirmed_at: string | Date | null;
    same_id: string | null;
    same_status: ImportStatus | null;
    same_created_at: string | Date | null;
    kinds: Record<string, number> | null;
  }>(
    executor,
    sql`SELECT i.id, i.file_name, i.source, i.method, i.status, i.mapping, i.row_count, i.valid_count,
        i.posted_count, i.posted_amount, u.first_name || ' ' || u.last_name AS created_by_name, i.created_at, i.confirmed_at,
        s.id AS same_id, s.status AS same_status, s.created_at AS same_created_at,
        (SELECT json_object_agg(k.issue, k.n) FROM (
           SELECT split_part(r.error, ':', 1) AS issue, count(*)::int AS n FROM ${paymentImportRows} r
           WHERE r.import_id = i.id AND r.error IS NOT NULL GROUP BY 1) k) AS kinds,
        (SELECT coalesce(sum(r.amount), 0) FROM ${paymentImportRows} r
           WHERE r.import_id = i.id AND r.error IS NULL) AS valid_amount
      FROM ${paymentImports} i
      LEFT JOIN ${users} u ON u.id = i.created_by
      LEFT JOIN LATERAL (SELECT e.id, e.status, e.created_at FROM ${paymentImports} e
        WHERE e.file_hash = i.file_hash AND e.id <> i.id AND e.status <> 'discarded' AND e.created_at <= i.created_at
        ORDER BY e.created_at DESC LIMIT 1) s ON true
      WHERE ${where}
      ORDER BY i.created_at DESC, i.id
      LIMIT ${limit} OFFSET ${offset}`,
  );
  const org = rows.length ? await organisation(ctx, executor) : null;
  return rows.map((row) => ({
    id: row.id,
    fileName: row.file_name,
    source: row.source,
    method: row.method,
    status: row.status,
    columns: row.mapping.columns,
    mapping: row.mapping.mapping,
    unmapped: unmappedFields(row.mapping.mapping, row.mapping.columns),
    currency: org?.currency ?? '',
    rowCount: row.row_count,
    validCount: row.valid_count,
    postedCount: row.posted_count,
    postedAmount: Number(row.posted_amount),
    validAmount: Number(row.valid_amount),
    errorsByKind: row.kinds ?? {},
    sameFileAs: row.same_id
      ? {
          id: row.same_id,
          status: row.same_status as ImportStatus,
          createdAt: new Date(row.same_created_at as string).toISOString(),
        }
      : null,
    createdByName: row.created_by_name,
    createdAt: new Date(row.created_at).toISOString(),
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
  }));
}

export async function importList(ctx: AppServices, executor: Executor, page: number) {
  const pageSize = 20;
  const [items, [count]] = await Promise.all([
    importViews(ctx, executor, sql`true`, pageSize, (page - 1) * pageSize),
    queryRows<{ n: number }>(executor, sql`SELECT count(*)::int AS n FROM ${paymentImports}`),
  ]);
  return { items, total: count?.n ?? 0, page, pageSize };
}

/** The import with its first rows (the upload's and the re-mapping's answer). */
export async function importPreview(
  ctx: AppServices,
  executor: Executor,
  id: string,
): Promise<ImportPreview> {
  const view = await importView(ctx, executor, id);
  const { items } = await importRows(ctx, executor, id, { errorsOnly: false, page: 1 }, IMPORT_PREVIEW_ROWS);
  return { ...view, rows: items };
}

/**
 * A page of the rows, in file order. `errorsOnly`: the rows refused (already posted ones are not
 * problems and are left out).
 */
export async function importRows(
  _ctx: AppServices,
  executor: Executor,
  id: string,
  query: { errorsOnly: boolean; page: number },
  pageSize = IMPORT_ROWS_PAGE_SIZE,
) {
  const [imp] = await executor.select().from(paymentImports).where(eq(paymentImports.id, id));
  if (!imp) throw notFound('Import not found');
  const where = query.errorsOnly
    ? sql`import_id = ${id} AND error IS NOT NULL AND error NOT LIKE 'already_posted:%'`
    : sql`import_id = ${id}`;
  const [records, [count]] = await Promise.all([
    queryRows<ImportRowRecord>(
      executor,
      sql`SELECT ${ROW_COLUMNS} FROM ${paymentImportRows} WHERE ${where}
        ORDER BY row_number LIMIT ${pageSize} OFFSET ${(query.page - 1) * pageSize}`,
    ),
    queryRows<{ n: number }>(
      executor,
      sql`SELECT count(*)::int AS n FROM ${paymentImportRows} WHERE ${where}`,
    ),
  ]);
  const stored = storedMapping(imp.mapping);
  return {
    items: records.map((record) => rowView(record, stored, imp.method as ImportMethod)),
    total: count?.n ?? 0,
    page: query.page,
    pageSize,
  };
}

/**
 * The rows this import did not post, as the file had them plus the issue and the problem: fixed,
 * the file imports again (its posted rows are then "already posted").
 */
export async function refusedRows(executor: Executor, id: string) {
  const [imp] = await executor.select().from(paymentImports).where(eq(paymentImports.id, id));
  if (!imp) throw notFound('Import not found');
  const stored = storedMapping(imp.mapping);
  const records = await queryRows<ImportRowRecord>(
    executor,
    sql`SELECT ${ROW_COLUMNS} FROM ${paymentImportRows} WHERE import_id = ${id} AND error IS NOT NULL ORDER BY row_number`,
  );
  return { fileName: imp.fileName, columns: stored.columns, rows: records };
}
