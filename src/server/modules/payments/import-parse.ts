import type ExcelJS from 'exceljs';
import {
  type DraftMapping,
  IMPORT_FILE_MAX_ROWS,
  IMPORT_METHODS,
  type ImportMapping,
} from '../../../contracts/payment-imports';
import { MAX_MONEY_INPUT, minorUnitDigits, parseMoney } from '../../../domain';
import { parseCsv } from '../../csv';
import { businessDate, instantOfWallTime } from '../../dates';
import { fieldError } from '../../errors';
import { exceljs } from '../../exceljs';

/**
 * Reading a statement file (pure helpers, unit-tested in import-parse.test.ts): CSV through the
 * same RFC 4180 reader as the device import (`csv.ts`), XLSX through exceljs (its first
 * worksheet); header names made unique; a mapping suggested from the header names; amounts,
 * dates and methods read cell by cell with the reason when one cannot be.
 */

export interface StatementFile {
  columns: string[];
  rows: { line: number; cells: string[] }[];
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export function isXlsx(fileName: string, data: Buffer): boolean {
  return data.subarray(0, 4).equals(ZIP_MAGIC) || /\.xlsx$/i.test(fileName);
}

/** The file's header and data rows, whichever its format. Blank rows are skipped. */
export async function readStatement(fileName: string, data: Buffer): Promise<StatementFile> {
  const records = isXlsx(fileName, data) ? await readXlsx(data) : readCsvText(data);
  const [header, ...rest] = records;
  if (!header) throw fieldError('file', 'The file is empty');
  if (rest.length > IMPORT_FILE_MAX_ROWS) {
    throw fieldError(
      'file',
      `At most ${IMPORT_FILE_MAX_ROWS.toLocaleString('en-US')} rows per import; split the file`,
    );
  }
  return { columns: uniqueHeaders(header.cells), rows: rest };
}

function readCsvText(data: Buffer): { line: number; cells: string[] }[] {
  const text = data.toString('utf8');
  if (text.includes('\u0000')) throw fieldError('file', 'The file is neither CSV text nor an XLSX workbook');
  return parseCsv(text);
}

async function readXlsx(data: Buffer): Promise<{ line: number; cells: string[] }[]> {
  const workbook = new (await exceljs()).Workbook();
  try {
    // exceljs's typing wants its own Buffer type; a Node Buffer is what it reads.
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw fieldError('file', 'The file could not be read as an XLSX workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw fieldError('file', 'The workbook has no worksheet');
  const records: { line: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    if (records.length > IMPORT_FILE_MAX_ROWS + 1) return;
    const cells: string[] = [];
    const count = row.cellCount;
    for (let i = 1; i <= count; i++) cells.push(cellText(row.getCell(i).value));
    if (cells.some((cell) => cell.trim() !== '')) records.push({ line, cells });
  });
  return records;
}

/** A cell as text: dates as ISO (an Excel date has no zone: its wall time is kept), numbers plainly. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  if (typeof value === 'number') return String(Number(value.toPrecision(15)));
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
  }
  return String(value);
}

/** Headers trimmed; an empty one is named by its position, a repeated one numbered. */
export function uniqueHeaders(cells: readonly string[]): string[] {
  const seen = new Set<string>();
  return cells.map((cell, index) => {
    const base = cell.trim() || `Column ${index + 1}`;
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

const HINTS: Record<'contract' | 'amount' | 'reference' | 'date' | 'method', RegExp[]> = {
  contract: [
    /^contract(_| )?(no|number|ref|reference)?$/,
    /account/,
    /bill ?ref/,
    /contract/,
    /customer ref/,
    /serial/,
    /^(phone|msisdn|mobile)( no| number)?$/,
  ],
  amount: [/^amount$/, /^(paid|credit|deposit|received) ?(amount)?$/, /amount/, /credit/],
  reference: [
    /^(transaction|trans|txn|receipt|bank|payment)? ?(ref|reference|id|no|code)$/,
    /reference/,
    /receipt/,
    /transaction/,
  ],
  date: [/^(value|transaction|trans|txn|payment|posting)? ?date$/, /date/, /time/],
  method: [/^(payment )?(method|channel)$/],
};

const normal = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[_.#:-]+/g, ' ')
    .replace(/\s+/g, ' ');

/**
 * A mapping from the header names (the first column matching each field's hints, each column used
 * once), and the date format the date column's values are written in (`sampleDates`: the first
 * rows' values of each column, by column name).
 */
export function suggestMapping(
  columns: readonly string[],
  sampleDates: (column: string) => readonly string[] = () => [],
): DraftMapping {
  const used = new Set<string>();
  const pick = (field: keyof typeof HINTS): string | null => {
    for (const hint of HINTS[field]) {
      const found = columns.find((column) => !used.has(column) && hint.test(normal(column)));
      if (found) {
        used.add(found);
        return found;
      }
    }
    return null;
  };
  // The most specific first: a "Reference" column is not the contract's.
  const amount = pick('amount');
  const date = pick('date');
  const contract = pick('contract');
  const reference = pick('reference');
  const method = pick('method');
  const contractKey =
    contract && /serial|device/.test(normal(contract))
      ? 'device_serial'
      : contract && /phone|msisdn|mobile/.test(normal(contract))
        ? 'phone'
        : 'contract_number';
  const dateFormat = date ? dateFormatOf(sampleDates(date)) : 'iso';
  return { contract, contractKey, amount, reference, date, dateFormat, method };
}

/**
 * How a file writes its dates, read from its values: day first when no value is an ISO date and
 * some are written day first (31/03/2025), as East African bank statements write them; else ISO,
 * which reads ISO dates whatever is chosen. A file whose first dates are all ambiguous
 * (03/04/2025) is still read day first: month-first dates are not a format the import reads.
 */
export function dateFormatOf(values: readonly string[]): ImportMapping['dateFormat'] {
  const written = values.map((value) => value.trim()).filter(Boolean);
  if (written.some((value) => ISO_DATE.test(value))) return 'iso';
  return written.some((value) => DMY_DATE.test(value)) ? 'dmy' : 'iso';
}

/** A remembered mapping as far as this file's columns have its fields; the rest suggested. */
export function mappingFor(
  columns: readonly string[],
  remembered: DraftMapping | null,
  sampleDates?: (column: string) => readonly string[],
): DraftMapping {
  const suggested = suggestMapping(columns, sampleDates);
  if (!remembered) return suggested;
  const has = (name: string | null) => (name && columns.includes(name) ? name : null);
  return {
    contract: has(remembered.contract) ?? suggested.contract,
    contractKey: remembered.contractKey,
    amount: has(remembered.amount) ?? suggested.amount,
    reference: has(remembered.reference) ?? suggested.reference,
    date: has(remembered.date) ?? suggested.date,
    dateFormat: remembered.dateFormat,
    method: remembered.method ? has(remembered.method) : null,
  };
}

export function draftOf(mapping: ImportMapping): DraftMapping {
  return { ...mapping, method: mapping.method ?? null };
}

/** The fields a draft still lacks (all of contract, amount, reference and date are needed). */
export function unmappedFields(mapping: DraftMapping, columns: readonly string[]): string[] {
  return (['contract', 'amount', 'reference', 'date'] as const).filter((field) => {
    const name = mapping[field];
    return !name || !columns.includes(name);
  });
}

/**
 * A statement amount in major units ("1,250.00", "1250", "KES 1 250.5") to minor units, or why
 * not: thousands separators and a currency code are allowed, more decimals than the currency has
 * are not (never rounded away), and only money in (more than 0).
 */
export function parseAmount(text: string, currency: string): number | string {
  const trimmed = text.trim();
  if (!trimmed) return 'The amount is empty';
  const cleaned = trimmed
    .replace(new RegExp(`^${currency}\\s*|\\s*${currency}$`, 'i'), '')
    .replace(/[\s\u00a0,']/g, '');
  if (!/^[+-]?\d+(\.\d*)?$/.test(cleaned)) return `"${trimmed}" is not an amount (write it as 1250.00)`;
  let minor: number;
  try {
    minor = parseMoney(cleaned, currency);
  } catch {
    const digits = minorUnitDigits(currency);
    return digits === 0
      ? `"${trimmed}" has decimals; ${currency} has none`
      : `"${trimmed}" has more than ${digits} decimals for ${currency}`;
  }
  if (minor <= 0) return `"${trimmed}" is not money in (the amount must be more than 0)`;
  if (minor > MAX_MONEY_INPUT) return `"${trimmed}" is larger than any payment taken`;
  return minor;
}

const ISO_DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DMY_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[T ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A statement date to the moment the payment was received, or why not. ISO dates (with an
 * optional time and offset) are read whatever the format; `dmy` reads 31/03/2025 (with "/", "-"
 * or ".", and an optional time). A time without an offset is the organisation's wall time; a date
 * alone is the end of that day, or now when that day is today. Never in the future.
 */
export function parseStatementDate(
  text: string,
  format: ImportMapping['dateFormat'],
  timeZone: string,
  now: Date,
): Date | string {
  const trimmed = text.trim();
  if (!trimmed) return 'The date is empty';
  let parts: { y: number; m: number; d: number; h?: number; mi?: number; s?: number; zone?: string } | null =
    null;
  const iso = ISO_DATE.exec(trimmed);
  if (iso) {
    const [, y, m, d, h, mi, s, zone] = iso;
    parts = {
      y: Number(y),
      m: Number(m),
      d: Number(d),
      ...(h !== undefined ? { h: Number(h), mi: Number(mi), s: Number(s ?? 0) } : {}),
      ...(zone ? { zone } : {}),
    };
  } else if (format === 'dmy') {
    const dmy = DMY_DATE.exec(trimmed);
    if (dmy) {
      const [, d, m, y, h, mi, s] = dmy;
      parts = {
        y: Number(y),
        m: Number(m),
        d: Number(d),
        ...(h !== undefined ? { h: Number(h), mi: Number(mi), s: Number(s ?? 0) } : {}),
      };
    }
  }
  const expected = format === 'dmy' ? 'DD/MM/YYYY or YYYY-MM-DD' : 'YYYY-MM-DD';
  if (!parts) return `"${trimmed}" is not a date (${expected})`;
  const { y, m, d } = parts;
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || m > 12 || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d || y < 2000) {
    return `"${trimmed}" is not a date (${expected})`;
  }
  if (parts.h !== undefined && (parts.h > 23 || (parts.mi ?? 0) > 59 || (parts.s ?? 0) > 59)) {
    return `"${trimmed}" has no such time of day`;
  }
  const day = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const today = businessDate(now, timeZone);
  let at: Date;
  if (parts.h === undefined) {
    if (day > today) return `${day} is in the future`;
    at = day === today ? now : zonedTime(y, m, d, 23, 59, 59, timeZone);
  } else if (parts.zone) {
    const zone = parts.zone === 'Z' ? 'Z' : `${parts.zone.slice(0, 3)}:${parts.zone.slice(-2)}`;
    at = new Date(`${day}T${pad(parts.h)}:${pad(parts.mi ?? 0)}:${pad(parts.s ?? 0)}${zone}`);
  } else {
    at = zonedTime(y, m, d, parts.h, parts.mi ?? 0, parts.s ?? 0, timeZone);
  }
  // A clock a little ahead of ours (the bank's) is not the future; an hour is.
  if (at.getTime() > now.getTime() + 5 * 60_000) return `${trimmed} is in the future`;
  return at;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant of a wall time in a time zone (the zone's offset at that moment). */
export function zonedTime(
  y: number,
  m: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  timeZone: string,
): Date {
  return new Date(instantOfWallTime(Date.UTC(y, m - 1, d, h, mi, s), timeZone));
}

/** A method cell ("Mobile Money", "bank-transfer") to a method, or null when it is none of them. */
export function parseMethod(text: string): (typeof IMPORT_METHODS)[number] | null {
  const value = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const aliases: Record<string, (typeof IMPORT_METHODS)[number]> = {
    mpesa: 'mobile_money',
    m_pesa: 'mobile_money',
    momo: 'mobile_money',
    bank: 'bank_transfer',
    transfer: 'bank_transfer',
    eft: 'bank_transfer',
  };
  if ((IMPORT_METHODS as readonly string[]).includes(value)) return value as (typeof IMPORT_METHODS)[number];
  return aliases[value] ?? null;
}
