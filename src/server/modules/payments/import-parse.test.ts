import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  cellText,
  dateFormatOf,
  mappingFor,
  parseAmount,
  parseMethod,
  parseStatementDate,
  readStatement,
  suggestMapping,
  uniqueHeaders,
  unmappedFields,
  zonedTime,
} from './import-parse';

const NOW = new Date('2025-06-15T10:00:00Z');
const NAIROBI = 'Africa/Nairobi';

describe('statement amounts', () => {
  it('reads major units with thousands separators and a currency code', () => {
    expect(parseAmount('1,250.00', 'KES')).toBe(125_000);
    expect(parseAmount('KES 1 250.5', 'KES')).toBe(125_050);
    expect(parseAmount('300', 'USD')).toBe(30_000);
    expect(parseAmount('1.500', 'USD')).toBe(150);
    expect(parseAmount('5000', 'UGX')).toBe(5000);
  });
  it('refuses more decimals than the currency has, nothing, money out and text', () => {
    expect(parseAmount('12.345', 'USD')).toMatch(/more than 2 decimals/);
    expect(parseAmount('12.5', 'UGX')).toMatch(/UGX has none/);
    expect(parseAmount('', 'USD')).toMatch(/empty/);
    expect(parseAmount('-10', 'USD')).toMatch(/money in/);
    expect(parseAmount('0', 'USD')).toMatch(/money in/);
    expect(parseAmount('ten', 'USD')).toMatch(/not an amount/);
    expect(parseAmount('1e5', 'USD')).toMatch(/not an amount/);
  });
});

describe('statement dates', () => {
  it('reads ISO date-times, with or without an offset (the organisation’s wall time)', () => {
    expect(parseStatementDate('2025-06-14T08:30:00Z', 'iso', NAIROBI, NOW)).toEqual(
      new Date('2025-06-14T08:30:00Z'),
    );
    expect(parseStatementDate('2025-06-14 11:30', 'iso', NAIROBI, NOW)).toEqual(
      new Date('2025-06-14T08:30:00Z'),
    );
    expect(parseStatementDate('2025-06-14T11:30:00+03:00', 'dmy', NAIROBI, NOW)).toEqual(
      new Date('2025-06-14T08:30:00Z'),
    );
  });
  it('reads a date alone as the end of that day, or now for today', () => {
    expect(parseStatementDate('2025-06-14', 'iso', NAIROBI, NOW)).toEqual(new Date('2025-06-14T20:59:59Z'));
    expect(parseStatementDate('15/06/2025', 'dmy', NAIROBI, NOW)).toEqual(NOW);
    expect(parseStatementDate('14.06.2025 09:00', 'dmy', NAIROBI, NOW)).toEqual(
      new Date('2025-06-14T06:00:00Z'),
    );
  });
  it('refuses impossible, future and wrongly formatted dates', () => {
    expect(parseStatementDate('2025-02-30', 'iso', NAIROBI, NOW)).toMatch(/not a date/);
    expect(parseStatementDate('14/06/2025', 'iso', NAIROBI, NOW)).toMatch(/not a date \(YYYY-MM-DD\)/);
    expect(parseStatementDate('2025-06-16', 'iso', NAIROBI, NOW)).toMatch(/future/);
    expect(parseStatementDate('2025-06-15T12:00:00Z', 'iso', NAIROBI, NOW)).toMatch(/future/);
    expect(parseStatementDate('2025-06-14 25:00', 'iso', NAIROBI, NOW)).toMatch(/no such time/);
    expect(parseStatementDate('', 'iso', NAIROBI, NOW)).toMatch(/empty/);
  });
  it('finds the instant of a wall time across a daylight-saving change', () => {
    expect(zonedTime(2025, 7, 1, 12, 0, 0, 'Europe/London')).toEqual(new Date('2025-07-01T11:00:00Z'));
    expect(zonedTime(2025, 1, 1, 12, 0, 0, 'Europe/London')).toEqual(new Date('2025-01-01T12:00:00Z'));
  });
});

describe('mapping', () => {
  it('suggests one column per field from the headers', () => {
    expect(suggestMapping(['Txn Date', 'Account No', 'Paid Amount', 'Transaction Ref', 'Channel'])).toEqual({
      contract: 'Account No',
      contractKey: 'contract_number',
      amount: 'Paid Amount',
      reference: 'Transaction Ref',
      date: 'Txn Date',
      dateFormat: 'iso',
      method: 'Channel',
    });
    expect(suggestMapping(['Device Serial', 'Amount', 'Receipt', 'Date']).contractKey).toBe('device_serial');
    expect(suggestMapping(['MSISDN', 'Amount', 'Receipt', 'Date']).contractKey).toBe('phone');
    expect(unmappedFields(suggestMapping(['A', 'B']), ['A', 'B'])).toEqual([
      'contract',
      'amount',
      'reference',
      'date',
    ]);
  });
  it('reads the date format from the date column: day first only when no date is ISO', () => {
    const dates = (values: string[]) => (column: string) => (column === 'Value Date' ? values : []);
    const columns = ['Value Date', 'Account', 'Credit', 'Ref'];
    expect(suggestMapping(columns, dates(['04/12/2026', '31/12/2026'])).dateFormat).toBe('dmy');
    expect(suggestMapping(columns, dates(['', '4.12.2026 09:30'])).dateFormat).toBe('dmy');
    expect(suggestMapping(columns, dates(['2026-12-04', '04/12/2026'])).dateFormat).toBe('iso');
    expect(suggestMapping(columns, dates(['yesterday', ''])).dateFormat).toBe('iso');
    expect(dateFormatOf([])).toBe('iso');
    // A source's remembered format wins over what the file looks like.
    const remembered = { ...suggestMapping(columns), dateFormat: 'iso' as const };
    expect(mappingFor(columns, remembered, dates(['04/12/2026'])).dateFormat).toBe('iso');
    expect(mappingFor(columns, null, dates(['04/12/2026'])).dateFormat).toBe('dmy');
  });
  it('keeps a remembered mapping where the file has its columns', () => {
    const remembered = {
      contract: 'Who',
      contractKey: 'phone' as const,
      amount: 'How much',
      reference: 'Code',
      date: 'Gone',
      dateFormat: 'dmy' as const,
      method: null,
    };
    expect(mappingFor(['Who', 'How much', 'Code', 'Date'], remembered)).toEqual({
      ...remembered,
      date: 'Date',
    });
  });
  it('names empty and repeated headers', () => {
    expect(uniqueHeaders(['Amount', '', 'amount', ' Ref '])).toEqual([
      'Amount',
      'Column 2',
      'amount (2)',
      'Ref',
    ]);
  });
  it('reads methods by name and common aliases', () => {
    expect(parseMethod('Mobile Money')).toBe('mobile_money');
    expect(parseMethod('M-Pesa')).toBe('mobile_money');
    expect(parseMethod('bank-transfer')).toBe('bank_transfer');
    expect(parseMethod('deposit')).toBeNull();
  });
});

describe('statement files', () => {
  it('reads CSV (semicolons too) and XLSX alike', async () => {
    const csv = await readStatement('s.csv', Buffer.from('Date;Amount\n2025-06-01;10,5\n\n'));
    expect(csv).toEqual({ columns: ['Date', 'Amount'], rows: [{ line: 2, cells: ['2025-06-01', '10,5'] }] });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('S');
    sheet.addRow(['Date', 'Amount', 'Ref']);
    sheet.addRow([new Date(Date.UTC(2025, 5, 1)), 1250.5, { richText: [{ text: 'AB' }, { text: 'C' }] }]);
    sheet.addRow([]);
    sheet.addRow([new Date(Date.UTC(2025, 5, 2, 9, 30)), { formula: '1+1', result: 2 }, 'X']);
    const xlsx = await readStatement('s.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(xlsx.columns).toEqual(['Date', 'Amount', 'Ref']);
    expect(xlsx.rows).toEqual([
      { line: 2, cells: ['2025-06-01', '1250.5', 'ABC'] },
      { line: 4, cells: ['2025-06-02T09:30:00', '2', 'X'] },
    ]);
  });
  it('refuses an empty file and one that is not a workbook', async () => {
    await expect(readStatement('s.csv', Buffer.from(''))).rejects.toThrow(/empty/);
    await expect(readStatement('s.xlsx', Buffer.from('PK\u0003\u0004junk'))).rejects.toThrow(/XLSX/);
  });
  it('writes cells as text', () => {
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('true');
  });
});
