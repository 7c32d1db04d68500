import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contracts/contracts';
import type { ImportPreview, PaymentImport } from '../../src/contracts/payment-imports';
import { queryRows } from '../../src/db/client';
import { businessDate } from '../../src/server/dates';
import { importPostJob } from '../../src/server/modules/payments/import-job';
import { CHUNK_ROWS, postingImportsKey } from '../../src/server/modules/payments/import-posting';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { multipart } from '../support/multipart';
import { activeContract } from '../support/origination';

/** Issue 13: statement import (PRODUCT.md §3 /payment-processing). */
describe.each(DATABASE_KINDS)('statement import on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let finance: TestClient;
  let a: Contract;
  let b: Contract;
  let closed: Contract;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
    const staff = { agent, manager, reviewer: checker };
    a = await activeContract(t, staff);
    b = await activeContract(t, staff);
    closed = await activeContract(t, staff);
    t.clock.advance(10 * 60_000);
    const payOff = await finance.post('/api/payments', {
      contractId: closed.id,
      amount: closed.outstanding.total,
      method: 'cash',
    });
    expect(payOff.statusCode).toBe(201);
    for (const [reference, amount] of [
      ['EXIST-same', 5_000],
      ['EXIST-other', 7_000],
    ] as const) {
      const res = await finance.post('/api/payments', {
        contractId: a.id,
        amount,
        method: 'bank_transfer',
        reference,
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const upload = (
    client: TestClient,
    fields: Record<string, string>,
    file: { name: string; data: Buffer },
  ) => {
    const body = multipart(fields, [file]);
    return client.post('/api/payment-imports', undefined, { raw: body.raw, headers: body.headers });
  };

  async function untilDone(id: string): Promise<PaymentImport> {
    for (let i = 0; i < 200; i++) {
      const res = await finance.get(`/api/payment-imports/${id}`);
      expect(res.statusCode).toBe(200);
      const body = res.json<PaymentImport>();
      if (body.status !== 'posting') return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The import did not finish');
  }

  const paymentsOf = (importId: string) =>
    queryRows<{ id: string; amount: string; contract_id: string; reference: string; lines: string }>(
      t.app.ctx.db,
      sql`SELECT p.id, p.amount, p.contract_id, p.reference,
          (SELECT COALESCE(sum(amount), 0) FROM payment_allocations a WHERE a.payment_id = p.id AND a.superseded_at IS NULL) AS lines
        FROM payments p WHERE p.import_id = ${importId} ORDER BY p.reference`,
    );

  const hourAgo = () => new Date(t.clock.now().getTime() - 5 * 60_000).toISOString();

  function statement(): string {
    const at = hourAgo();
    return [
      'Date,Account,Amount,Transaction Ref,Narrative',
      `${at},${b.number},"1,000.00",REF-1,good`,
      // As a payer types it: the same rules as an M-Pesa account reference (case, spaces, no dash).
      `${at},${a.number.toLowerCase().replace('-', ' ')},500.5,REF-2,good`,
      `${at},CT-NOPE,100,REF-3,unknown contract`,
      `${at},${a.number},12.345,REF-4,too many decimals`,
      `2025-02-31,${a.number},100,REF-5,no such date`,
      `${at},${b.number},100,REF-1,twice in the file`,
      `${at},${closed.number},100,REF-6,paid off`,
      `${at},${b.number},70.00,EXIST-other,reference used elsewhere`,
      `${at},${a.number},50.00,EXIST-same,already posted`,
    ].join('\r\n');
  }

  let firstImport: ImportPreview;
  let file: Buffer;

  it('previews a CSV: a mapping suggested from the headers, each row checked, nothing posted', async () => {
    file = Buffer.from(statement());
    const res = await upload(
      finance,
      { source: 'equity-bank', method: 'bank_transfer' },
      { name: 'equity.csv', data: file },
    );
    expect(res.statusCode, res.body).toBe(201);
    firstImport = res.json<ImportPreview>();
    expect(firstImport.mapping).toMatchObject({
      contract: 'Account',
      amount: 'Amount',
      reference: 'Transaction Ref',
      date: 'Date',
      contractKey: 'contract_number',
    });
    expect(firstImport.unmapped).toEqual([]);
    expect(firstImport).toMatchObject({ status: 'previewed', rowCount: 9, validCount: 2, postedCount: 0 });
    expect(firstImport.errorsByKind).toEqual({
      unknown_contract: 1,
      bad_amount: 1,
      bad_date: 1,
      duplicate_in_file: 1,
      contract_not_active: 1,
      duplicate_reference: 1,
      already_posted: 1,
    });
    const issues = firstImport.rows.map((row) => [row.rowNumber, row.status, row.issue]);
    expect(issues).toEqual([
      [2, 'valid', null],
      [3, 'valid', null],
      [4, 'error', 'unknown_contract'],
      [5, 'error', 'bad_amount'],
      [6, 'error', 'bad_date'],
      [7, 'error', 'duplicate_in_file'],
      [8, 'error', 'contract_not_active'],
      [9, 'error', 'duplicate_reference'],
      [10, 'already_posted', 'already_posted'],
    ]);
    expect(firstImport.rows[1]).toMatchObject({
      amount: 50_050,
      contractNumber: a.number,
      method: 'bank_transfer',
    });
    expect(firstImport.rows[6]?.error).toContain('paid off');
    expect(await paymentsOf(firstImport.id)).toEqual([]);

    const errorsOnly = await finance.get(`/api/payment-imports/${firstImport.id}/rows?errorsOnly=true`);
    expect(errorsOnly.json().total).toBe(6);
  });

  it('gives the refused rows as CSV: the file’s cells with the issue and the problem', async () => {
    const res = await finance.get(`/api/payment-imports/${firstImport.id}/refused.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('Row,Date,Account,Amount,Transaction Ref,Narrative,Issue,Problem');
    expect(lines).toHaveLength(8);
    expect(lines[1]).toContain('CT-NOPE');
    expect(lines[1]).toContain('unknown_contract');
    expect(lines.at(-1)).toContain('already_posted');
  });

  it('confirms: posts exactly the valid rows with their allocations; the mapping is remembered', async () => {
    const res = await finance.post(`/api/payment-imports/${firstImport.id}/confirm`);
    expect(res.statusCode, res.body).toBe(200);
    const done = await untilDone(firstImport.id);
    expect(done).toMatchObject({ status: 'posted', postedCount: 2, validCount: 2, postedAmount: 150_050 });
    const posted = await paymentsOf(firstImport.id);
    expect(posted.map((p) => [p.reference, Number(p.amount), p.contract_id, Number(p.lines)])).toEqual([
      ['REF-1', 100_000, b.id, 100_000],
      ['REF-2', 50_050, a.id, 50_050],
    ]);
    const contract = (await finance.get(`/api/contracts/${b.id}`)).json<Contract>();
    expect(contract.outstanding.total).toBe(b.outstanding.total - 100_000);
    // The stored figures the lists read were written in bulk, the same as the page's live ones.
    const [stored] = await queryRows<{
      outstanding_total: string;
      paid_through_date: string;
      total_paid: string;
      principal_paid: string;
      principal_allocated: string;
      events: number;
    }>(
      t.app.ctx.db,
      sql`SELECT outstanding_total, paid_through_date::text AS paid_through_date, total_paid, principal_paid,
        (SELECT sum(a.amount) FROM payment_allocations a
         WHERE a.contract_id = c.id AND a.component = 'principal' AND a.superseded_at IS NULL) AS principal_allocated,
        (SELECT count(*)::int FROM contract_events e WHERE e.contract_id = c.id AND e.type = 'payment') AS events
        FROM contracts c JOIN contract_figures f ON f.contract_id = c.id WHERE c.id = ${b.id}`,
    );
    // Decision 052: the principal paid is kept with the other figures by the bulk write too.
    expect(Number(stored?.principal_paid)).toBeGreaterThan(0);
    expect(Number(stored?.principal_paid)).toBe(Number(stored?.principal_allocated));
    expect(Number(stored?.outstanding_total)).toBe(contract.outstanding.total);
    expect(stored?.paid_through_date).toBe(contract.paidThroughDate);
    expect(Number(stored?.total_paid)).toBe(100_000);
    expect(stored?.events).toBe(1);
    const rows = (await finance.get(`/api/payment-imports/${firstImport.id}/rows`)).json();
    expect(rows.items[0]).toMatchObject({ status: 'posted', paymentId: expect.any(String) });
    const again = await finance.post(`/api/payment-imports/${firstImport.id}/confirm`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMPORT_STATE');
    const remembered = await finance.get('/api/import-mappings?source=equity-bank');
    expect(remembered.json().mapping).toMatchObject({ contract: 'Account', amount: 'Amount' });
    const [balance] = await queryRows<{ debit: string; credit: string }>(
      t.app.ctx.db,
      sql`SELECT COALESCE(sum(debit), 0) AS debit, COALESCE(sum(credit), 0) AS credit FROM journal_lines`,
    );
    expect(Number(balance?.debit)).toBe(Number(balance?.credit));
  });

  it('the same file again posts nothing: its rows are already posted', async () => {
    const res = await upload(
      finance,
      { source: 'equity-bank', method: 'bank_transfer' },
      { name: 'equity.csv', data: file },
    );
    expect(res.statusCode).toBe(201);
    const second = res.json<ImportPreview>();
    expect(second.sameFileAs?.id).toBe(firstImport.id);
    expect(second.validCount).toBe(0);
    expect(second.errorsByKind.already_posted).toBe(3);
    expect((await finance.post(`/api/payment-imports/${second.id}/confirm`)).statusCode).toBe(200);
    expect(await untilDone(second.id)).toMatchObject({ status: 'posted', postedCount: 0 });
    expect(await paymentsOf(second.id)).toEqual([]);
  });

  it('posts a file of more rows than one chunk, its parts side by side: each row once, the figures exact', async () => {
    const c = await activeContract(t, { agent, manager, reviewer: checker });
    t.clock.advance(10 * 60_000); // the statement's payments come after its activation
    const contracts = [a, b, c];
    const before = new Map<string, Contract>();
    for (const contract of contracts)
      before.set(contract.id, (await finance.get(`/api/contracts/${contract.id}`)).json<Contract>());
    const at = hourAgo();
    const count = CHUNK_ROWS + 400;
    const lines = Array.from(
      { length: count },
      (_, i) => `${at},${contracts[i % 3]?.number},0.0${1 + (i % 3)},BULK-${i},bulk`,
    );
    const res = await upload(
      finance,
      { source: 'bulk-bank', method: 'bank_transfer' },
      {
        name: 'bulk.csv',
        data: Buffer.from(['Date,Account,Amount,Transaction Ref,Narrative', ...lines].join('\r\n')),
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview.validCount).toBe(count);
    expect((await finance.post(`/api/payment-imports/${preview.id}/confirm`)).statusCode).toBe(200);
    const paid = contracts.map((_, k) => Math.ceil((count - k) / 3) * (1 + k));
    expect(await untilDone(preview.id)).toMatchObject({
      status: 'posted',
      postedCount: count,
      validCount: count,
      postedAmount: paid.reduce((sum, n) => sum + n, 0),
    });
    const [posted] = await queryRows<{ payments: number; rows: number; bad: number }>(
      t.app.ctx.db,
      sql`SELECT (SELECT count(*)::int FROM payments WHERE import_id = ${preview.id}) AS payments,
        (SELECT count(DISTINCT payment_id)::int FROM payment_import_rows WHERE import_id = ${preview.id}) AS rows,
        (SELECT count(*)::int FROM payments p WHERE p.import_id = ${preview.id} AND p.amount <>
          (SELECT COALESCE(sum(l.amount), 0) FROM payment_allocations l WHERE l.payment_id = p.id)) AS bad`,
    );
    expect(posted).toEqual({ payments: count, rows: count, bad: 0 });
    for (const [k, contract] of contracts.entries()) {
      const now = (await finance.get(`/api/contracts/${contract.id}`)).json<Contract>();
      expect(now.outstanding.total).toBe((before.get(contract.id)?.outstanding.total ?? 0) - (paid[k] ?? 0));
      const [stored] = await queryRows<{ outstanding_total: string }>(
        t.app.ctx.db,
        sql`SELECT outstanding_total FROM contract_figures WHERE contract_id = ${contract.id}`,
      );
      expect(Number(stored?.outstanding_total)).toBe(now.outstanding.total);
    }
  });

  it('answers a lock-API unit as a single payment does: its days of use move with the chunk, no command owed', async () => {
    const staff = { agent, manager, reviewer: checker };
    const [imported, twin] = [
      await activeContract(t, staff, 'lock_api'),
      await activeContract(t, staff, 'lock_api'),
    ];
    t.clock.advance(10 * 60_000);
    const unit = async (contract: Contract) => {
      const [row] = await queryRows<{ active_until: string | null; commands: number }>(
        t.app.ctx.db,
        sql`SELECT d.active_until::text AS active_until,
          (SELECT count(*)::int FROM device_commands c WHERE c.device_id = d.id) AS commands
          FROM devices d JOIN contracts c ON c.device_id = d.id WHERE c.id = ${contract.id}`,
      );
      return row;
    };
    const before = await unit(imported);
    // A third of what is owed: past the first instalment, so paid-through and the unit's days move.
    const amount = Math.floor(imported.outstanding.total / 3);
    // The twin (same plan, same day) paid the same through the API: the single payment's answer.
    const single = await finance.post('/api/payments', {
      contractId: twin.id,
      amount,
      method: 'bank_transfer',
      reference: 'LOCK-TWIN',
    });
    expect(single.statusCode, single.body).toBe(201);
    const res = await upload(
      finance,
      { source: 'lock-bank', method: 'bank_transfer' },
      {
        name: 'lock.csv',
        data: Buffer.from(
          [
            'Date,Account,Amount,Transaction Ref,Narrative',
            `${hourAgo()},${imported.number},${(amount / 100).toFixed(2)},LOCK-1,lock`,
          ].join('\r\n'),
        ),
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect((await finance.post(`/api/payment-imports/${preview.id}/confirm`)).statusCode).toBe(200);
    expect(await untilDone(preview.id)).toMatchObject({ status: 'posted', postedCount: 1 });
    const after = await unit(imported);
    expect(after?.active_until).not.toBe(before?.active_until);
    expect(after?.active_until).toBe((await unit(twin))?.active_until);
    expect(after?.commands).toBe(before?.commands);
    const [event] = await queryRows<{ command: unknown }>(
      t.app.ctx.db,
      sql`SELECT data -> 'command' AS command FROM contract_events WHERE contract_id = ${imported.id} AND type = 'payment'`,
    );
    expect(event?.command).toBeNull();
  });

  it('reads an XLSX statement (exceljs), with a mapping given and remembered for its source', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Statement');
    sheet.addRow(['When', 'Who', 'How much', 'Code']);
    const when = new Date(t.clock.now().getTime() - 5 * 60_000);
    sheet.addRow([when, a.number, 250, 'XL-1']);
    sheet.addRow([when, b.number, 99.999, 'XL-2']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const mapping = { contract: 'Who', amount: 'How much', reference: 'Code', date: 'When' };
    const res = await upload(
      finance,
      { source: 'mpesa-bulk', method: 'mobile_money', mapping: JSON.stringify(mapping) },
      { name: 'statement.xlsx', data },
    );
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview.columns).toEqual(['When', 'Who', 'How much', 'Code']);
    expect(preview.rows.map((row) => [row.status, row.amount, row.issue])).toEqual([
      ['valid', 25_000, null],
      ['error', null, 'bad_amount'],
    ]);
    expect((await finance.post(`/api/payment-imports/${preview.id}/confirm`)).statusCode).toBe(200);
    expect(await untilDone(preview.id)).toMatchObject({ status: 'posted', postedCount: 1 });

    // The next file from the same source needs no mapping.
    const csv = ['When,Who,How much,Code', `${hourAgo()},${b.number},10,XL-3`].join('\n');
    const next = await upload(
      finance,
      { source: 'mpesa-bulk', method: 'mobile_money' },
      { name: 'next.csv', data: Buffer.from(csv) },
    );
    expect(next.json<ImportPreview>().mapping).toMatchObject(mapping);
    expect(next.json<ImportPreview>().validCount).toBe(1);
  });

  it('reads a new source’s day-first dates as they are written, without asking', async () => {
    const { timeZone } = (await finance.get('/api/settings/organisation')).json<{ timeZone: string }>();
    const [y, m, d] = businessDate(t.clock.now(), timeZone).split('-');
    const csv = [
      'Value Date,Account,Credit,Bank Ref',
      `${d}/${m}/${y},${a.number},"1,250.00",DMY-AUTO-1`,
    ].join('\n');
    const res = await upload(
      finance,
      { source: 'day-first-bank', method: 'bank_transfer' },
      { name: 'day-first.csv', data: Buffer.from(csv) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview.mapping).toMatchObject({ date: 'Value Date', dateFormat: 'dmy' });
    expect(preview.rows[0]).toMatchObject({ status: 'valid', amount: 125_000 });
    await finance.post(`/api/payment-imports/${preview.id}/discard`);
  });

  it('an unmapped file is checked once mapped (day-first dates); confirm waits for the mapping; discard', async () => {
    // Today in the organisation's time zone, written day first: a date alone counts as now.
    const { timeZone } = (await finance.get('/api/settings/organisation')).json<{ timeZone: string }>();
    const [y, m, d] = businessDate(t.clock.now(), timeZone).split('-');
    const dmy = `${d}/${m}/${y}`;
    const csv = ['Col1,Col2,Col3,Col4', `${dmy},${a.number},75,DMY-1`].join('\n');
    const res = await upload(
      finance,
      { source: 'odd-bank', method: 'bank_transfer' },
      { name: 'odd.csv', data: Buffer.from(csv) },
    );
    const preview = res.json<ImportPreview>();
    expect(preview.unmapped.length).toBeGreaterThan(0);
    expect(preview.rows[0]?.issue).toBe('unmapped');
    const early = await finance.post(`/api/payment-imports/${preview.id}/confirm`);
    expect(early.statusCode).toBe(409);
    const remapped = await finance.put(`/api/payment-imports/${preview.id}/mapping`, {
      mapping: { contract: 'Col2', amount: 'Col3', reference: 'Col4', date: 'Col1', dateFormat: 'dmy' },
    });
    expect(remapped.statusCode, remapped.body).toBe(200);
    expect(remapped.json<ImportPreview>().rows[0]).toMatchObject({ status: 'valid', amount: 7_500 });
    const bad = await finance.put(`/api/payment-imports/${preview.id}/mapping`, {
      mapping: { contract: 'Nope', amount: 'Col3', reference: 'Col4', date: 'Col1' },
    });
    expect(bad.statusCode).toBe(400);
    const discarded = await finance.post(`/api/payment-imports/${preview.id}/discard`);
    expect(discarded.json().status).toBe('discarded');
    expect((await finance.post(`/api/payment-imports/${preview.id}/confirm`)).statusCode).toBe(409);
    const list = (await finance.get('/api/payment-imports')).json();
    expect(list.items.map((item: PaymentImport) => item.id)).toContain(preview.id);
    expect(list.total).toBe(list.items.length);
  });

  it('an import left posting (its instance stopped after the confirm) is posted on by the job, as its confirmer', async () => {
    const at = hourAgo();
    const csv = [
      'Date,Account,Amount,Transaction Ref',
      `${at},${a.number},20.00,RESUME-1`,
      `${at},${b.number},30.00,RESUME-2`,
    ].join('\n');
    const res = await upload(
      finance,
      { source: 'resume-bank', method: 'bank_transfer' },
      { name: 'resume.csv', data: Buffer.from(csv) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview.validCount).toBe(2);
    // The confirm committed, then the instance stopped before its run posted a chunk.
    const confirmer = (await finance.get('/api/user')).json<{ id: string }>().id;
    await t.app.ctx.db.execute(
      sql`UPDATE payment_imports SET status = 'posting', confirmed_by = ${confirmer}, confirmed_at = now() WHERE id = ${preview.id}`,
    );
    expect(await postingImportsKey(t.app.ctx)).not.toBe('idle');
    expect(await importPostJob.run(t.app.ctx, {})).toEqual({ imports: 1, posted: 2 });
    expect((await finance.get(`/api/payment-imports/${preview.id}`)).json<PaymentImport>()).toMatchObject({
      status: 'posted',
      postedCount: 2,
      postedAmount: 5_000,
    });
    const posted = await queryRows<{ reference: string; posted_by: string; lines: string }>(
      t.app.ctx.db,
      sql`SELECT p.reference, p.posted_by,
            (SELECT sum(amount) FROM payment_allocations l WHERE l.payment_id = p.id AND l.superseded_at IS NULL) AS lines
          FROM payments p WHERE p.import_id = ${preview.id} ORDER BY p.reference`,
    );
    expect(posted.map((p) => [p.reference, p.posted_by, Number(p.lines)])).toEqual([
      ['RESUME-1', confirmer, 2_000],
      ['RESUME-2', confirmer, 3_000],
    ]);
    // Nothing left posting: the key is idle and a second run posts nothing.
    expect(await postingImportsKey(t.app.ctx)).toBe('idle');
    expect(await importPostJob.run(t.app.ctx, {})).toEqual({ imports: 0, posted: 0 });
  });

  it('refuses an agent (403) and a bad upload (400)', async () => {
    const csv = Buffer.from('Date,Account,Amount,Reference\n');
    const res = await upload(agent, { source: 'x', method: 'cash' }, { name: 'x.csv', data: csv });
    expect(res.statusCode).toBe(403);
    expect((await agent.get('/api/payment-imports')).statusCode).toBe(403);
    const noMethod = await upload(finance, { source: 'x', method: 'deposit' }, { name: 'x.csv', data: csv });
    expect(noMethod.statusCode).toBe(400);
    const notXlsx = await upload(
      finance,
      { source: 'x', method: 'cash' },
      { name: 'x.xlsx', data: Buffer.from('PK\u0003\u0004garbage') },
    );
    expect(notXlsx.statusCode).toBe(400);
  });
});
