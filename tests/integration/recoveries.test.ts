import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/contracts/auth';
import type { Contract } from '../../src/contracts/contracts';
import type { TrialBalance } from '../../src/contracts/ledger';
import type { ContractRecoveries, Repossession, WriteOff } from '../../src/contracts/recoveries';
import { queryRows } from '../../src/db/client';
import { SYSTEM_ACTOR } from '../../src/server/audit';
import { businessToday } from '../../src/server/business-date';
import { ACCOUNTS, post } from '../../src/server/modules/ledger/service';
import { organisation } from '../../src/server/organisation';
import { withTransaction } from '../../src/server/transaction';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract, type OriginationStaff } from '../support/origination';

/** Issue 14 §3: repossessions and write-offs, with maker-checker, the device and the ledger. */
describe.each(DATABASE_KINDS)('recoveries on %s', (kind) => {
  let t: TestApp;
  let staff: OriginationStaff;
  let collector: TestClient & { user: User };
  let checker: TestClient & { user: User };
  let finance: TestClient;
  let viewer: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    staff = {
      agent: await t.signedIn('agent'),
      manager: await t.signedIn('manager'),
      reviewer: await t.signedIn('manager'),
    };
    collector = await t.signedIn('collector');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
    viewer = await t.signedIn('viewer');
  });
  afterAll(() => t.close());

  /**
   * An active contract whose books hold every receivable component: the principal from
   * activation, accrued interest (as the close of business accrues it) and a late fee charged on
   * the first instalment (its penalty due, and the receivable against penalty income).
   */
  async function contractWithArrears(): Promise<Contract> {
    const contract = await activeContract(t, staff);
    const ctx = t.app.ctx;
    const today = businessToday(ctx, await organisation(ctx, ctx.db));
    await withTransaction(ctx, async (tx) => {
      await tx.tx.execute(
        sql`UPDATE contract_installments SET penalty_due = 1500, late_fee_on = ${today}
            WHERE contract_id = ${contract.id} AND n = 1`,
      );
      const parties = { contractId: contract.id, customerId: contract.customer.id };
      await post(tx.tx, SYSTEM_ACTOR, {
        businessDate: today,
        description: 'Late fee (test)',
        sourceType: 'late_fee',
        currency: contract.currency,
        lines: [
          { account: ACCOUNTS.penaltiesReceivable, debit: 1500, ...parties },
          { account: ACCOUNTS.penaltyIncome, credit: 1500, ...parties },
        ],
      });
      await post(tx.tx, SYSTEM_ACTOR, {
        businessDate: today,
        description: 'Interest accrual (test)',
        sourceType: 'interest_accrual',
        currency: contract.currency,
        lines: [
          { account: ACCOUNTS.interestReceivable, debit: 700, ...parties },
          { account: ACCOUNTS.interestIncome, credit: 700, ...parties },
        ],
      });
    });
    return contract;
  }

  async function trialBalance(): Promise<TrialBalance> {
    const answer = await finance.get('/api/ledger/trial-balance');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<TrialBalance>();
    expect(body.balanced).toBe(true);
    expect(body.totals.debit).toBe(body.totals.credit);
    return body;
  }

  /** Debit less credit per account on the contract's journal lines. */
  async function contractBooks(contractId: string): Promise<Record<string, number>> {
    const rows = await queryRows<{ account_code: string; balance: string }>(
      t.app.ctx.db,
      sql`SELECT account_code, sum(debit - credit) AS balance FROM journal_lines
          WHERE contract_id = ${contractId} GROUP BY account_code`,
    );
    return Object.fromEntries(rows.map((r) => [r.account_code, Number(r.balance)]));
  }

  /** The lines of the journal entries a source posted, by account. */
  async function entryLines(sourceType: string, sourceId: string) {
    return queryRows<{ account_code: string; debit: string; credit: string }>(
      t.app.ctx.db,
      sql`SELECT l.account_code, l.debit, l.credit FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE e.source_type = ${sourceType} AND e.source_id = ${sourceId} ORDER BY l.account_code, l.debit`,
    );
  }

  async function auditActions(entityId: string): Promise<string[]> {
    const rows = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`SELECT action FROM audit_log WHERE entity_id = ${entityId} ORDER BY id`,
    );
    return rows.map((r) => r.action);
  }

  it('repossession: request, a second person approves, recovered with the balance written off', async () => {
    const contract = await contractWithArrears();
    // Long in arrears, as the lists see it.
    await t.app.ctx.db.execute(
      sql`UPDATE contract_figures SET arrears_since = '2000-01-01' WHERE contract_id = ${contract.id}`,
    );
    const before = await trialBalance();
    const books = await contractBooks(contract.id);
    expect(books[ACCOUNTS.loansReceivable]).toBe(contract.principal);

    const asked = await collector.post(`/api/contracts/${contract.id}/repossessions`, {
      reason: 'Ninety days in arrears, customer unreachable',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json<Repossession>();
    expect(request).toMatchObject({
      status: 'requested',
      contractNumber: contract.number,
      deviceSerial: contract.device.serialNumber,
      requestedBy: { id: collector.user.id },
    });
    expect(request.outstandingAtRequest.penalties).toBe(1500);
    expect(request.outstandingAtRequest.principal).toBe(contract.principal);

    // A second open request on the same contract, and a write-off while it is open: 409.
    const again = await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('RECOVERY_STATE');
    const writeOff = await collector.post(`/api/contracts/${contract.id}/write-offs`, {
      reason: 'Meanwhile',
    });
    expect(writeOff.statusCode).toBe(409);

    // Recovery before approval is refused; the requester (a manager too) cannot approve.
    const early = await checker.post(`/api/repossessions/${request.id}/recover`, {
      condition: 'good',
      recoveryValue: 50_000,
      balance: 'write_off',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not approved yet/);
    expect((await collector.post(`/api/repossessions/${request.id}/approve`, {})).statusCode).toBe(403);

    const approved = await checker.post(`/api/repossessions/${request.id}/approve`, { note: 'Go ahead' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', decidedBy: { id: checker.user.id } });
    expect((await checker.post(`/api/repossessions/${request.id}/approve`, {})).statusCode).toBe(409);

    const recovered = await checker.post(`/api/repossessions/${request.id}/recover`, {
      condition: 'damaged',
      conditionNotes: 'Cracked screen',
      recoveryValue: 50_000,
      balance: 'write_off',
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const done = recovered.json<Repossession>();
    expect(done).toMatchObject({
      status: 'recovered',
      condition: 'damaged',
      conditionNotes: 'Cracked screen',
      recoveryValue: 50_000,
      balanceTreatment: 'write_off',
      contractStatus: 'repossessed',
    });
    const bookTotal = contract.principal + 700 + 1500;
    expect(done.writtenOff).toEqual({
      principal: contract.principal - 50_000,
      interest: 700,
      fees: 0,
      penalties: 1500,
      total: bookTotal - 50_000,
    });
    // A recovered request cannot be recovered or cancelled again.
    expect(
      (
        await checker.post(`/api/repossessions/${request.id}/recover`, {
          condition: 'good',
          recoveryValue: 1,
          balance: 'receivable',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await collector.post(`/api/repossessions/${request.id}/cancel`, { reason: 'Too late' })).statusCode,
    ).toBe(409);

    // The device is back in inventory as returned, with its condition and its recovery value as cost.
    const unit = await staff.manager.get(`/api/devices/${contract.device.id}`);
    expect(unit.json().status).toBe('returned');
    const [deviceRow] = await queryRows<{ condition: string; condition_notes: string; cost_price: string }>(
      t.app.ctx.db,
      sql`SELECT condition, condition_notes, cost_price FROM devices WHERE id = ${contract.device.id}`,
    );
    expect(deviceRow).toMatchObject({ condition: 'damaged', condition_notes: 'Cracked screen' });
    expect(Number(deviceRow?.cost_price)).toBe(50_000);

    // The contract is closed, with its timeline lines.
    const closed = (await staff.manager.get(`/api/contracts/${contract.id}`)).json();
    expect(closed.status).toBe('repossessed');
    // Closed, it is in arrears no more: the day they began is cleared, so the lists show no days
    // past due however many days pass (they are derived from it, decision 054).
    const [figures] = await queryRows<{ arrears_since: string | null }>(
      t.app.ctx.db,
      sql`SELECT arrears_since::text FROM contract_figures WHERE contract_id = ${contract.id}`,
    );
    expect(figures).toEqual({ arrears_since: null });
    const listed = (await staff.manager.get(`/api/contracts?q=${contract.number}`)).json();
    expect(listed.items).toMatchObject([{ id: contract.id, dpd: 0, bucket: 'current' }]);
    const events = await queryRows<{ type: string }>(
      t.app.ctx.db,
      sql`SELECT type FROM contract_events WHERE contract_id = ${contract.id} ORDER BY at, id`,
    );
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'repossession_requested',
        'repossession_approved',
        'repossessed',
        'repossession_recovered',
      ]),
    );

    // One balanced entry: stock in at the recovery value, every receivable component out.
    const lines = await entryLines('repossession', request.id);
    const sum = (code: string, side: 'debit' | 'credit') =>
      lines.filter((l) => l.account_code === code).reduce((s, l) => s + Number(l[side]), 0);
    expect(sum(ACCOUNTS.inventory, 'debit')).toBe(50_000);
    expect(sum(ACCOUNTS.creditLosses, 'debit')).toBe(bookTotal - 50_000);
    expect(sum(ACCOUNTS.loansReceivable, 'credit')).toBe(contract.principal);
    expect(sum(ACCOUNTS.interestReceivable, 'credit')).toBe(700);
    expect(sum(ACCOUNTS.penaltiesReceivable, 'credit')).toBe(1500);
    const after = await contractBooks(contract.id);
    for (const code of [
      ACCOUNTS.loansReceivable,
      ACCOUNTS.interestReceivable,
      ACCOUNTS.feesReceivable,
      ACCOUNTS.penaltiesReceivable,
    ]) {
      expect(after[code] ?? 0).toBe(0);
    }
    const tb = await trialBalance();
    expect(tb.totals.debit).toBe(before.totals.debit + bookTotal);

    // Audit rows of each step, and the customer's timeline.
    expect(await auditActions(request.id)).toEqual([
      'repossession.request',
      'repossession.approve',
      'repossession.recover',
    ]);
    expect(await auditActions(contract.id)).toContain('contract.repossess');
    const timeline = (await staff.manager.get(`/api/customers/${contract.customer.id}/timeline`)).json();
    const summaries = (timeline.items ?? timeline).map((e: { summary: string }) => e.summary);
    expect(summaries.some((s: string) => s.includes(`Device of ${contract.number} repossessed`))).toBe(true);
  });

  it('repossession kept as a receivable: the value comes off, the rest stays owed; a write-off later clears it', async () => {
    const contract = await contractWithArrears();
    const request = (
      await collector.post(`/api/contracts/${contract.id}/repossessions`, {
        reason: 'Keeps missing payments',
      })
    ).json<Repossession>();
    expect((await checker.post(`/api/repossessions/${request.id}/approve`, {})).statusCode).toBe(200);
    const recovered = await checker.post(`/api/repossessions/${request.id}/recover`, {
      condition: 'good',
      recoveryValue: 30_000,
      balance: 'receivable',
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    expect(recovered.json().writtenOff).toBeNull();
    const books = await contractBooks(contract.id);
    expect(books[ACCOUNTS.loansReceivable]).toBe(contract.principal - 30_000);
    expect(books[ACCOUNTS.penaltiesReceivable]).toBe(1500);
    expect(books[ACCOUNTS.creditLosses] ?? 0).toBe(0);
    await trialBalance();

    // The kept receivable is written off later through a write-off request.
    const asked = await collector.post(`/api/contracts/${contract.id}/write-offs`, {
      reason: 'Uncollectable',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const approved = await checker.post(`/api/write-offs/${asked.json().id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<WriteOff>().writtenOff).toEqual({
      principal: contract.principal - 30_000,
      interest: 700,
      fees: 0,
      penalties: 1500,
      total: contract.principal - 30_000 + 2200,
    });
    expect((await staff.manager.get(`/api/contracts/${contract.id}`)).json().status).toBe('written_off');
    await trialBalance();
  });

  it('write-off: maker-checker, the outstanding by component at approval, balanced entries, idempotent', async () => {
    const contract = await contractWithArrears();
    const asked = await collector.post(`/api/contracts/${contract.id}/write-offs`, {
      reason: 'Customer deceased',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json<WriteOff>();
    expect(request.status).toBe('pending');
    expect(request.outstanding.penalties).toBe(1500);

    // The contract page's view shows it.
    const view = (await viewer.get(`/api/contracts/${contract.id}/recoveries`)).json<ContractRecoveries>();
    expect(view.writeOff?.id).toBe(request.id);
    expect(view.repossession).toBeNull();
    expect(view.outstanding.total).toBe(request.outstanding.total);

    // The requester cannot decide it, even with the permission.
    const maker = await t.signedIn('manager');
    const own = (await maker.post(`/api/contracts/${contract.id}/write-offs`, { reason: 'Again' }))
      .statusCode;
    expect(own).toBe(409);
    const makerRequest = await contractWithArrears();
    const mine = (
      await maker.post(`/api/contracts/${makerRequest.id}/write-offs`, { reason: 'Mine to ask' })
    ).json<WriteOff>();
    const refused = await maker.post(`/api/write-offs/${mine.id}/approve`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('MAKER_CHECKER');
    expect(
      (await maker.post(`/api/write-offs/${mine.id}/reject`, { reason: 'Changed my mind' })).statusCode,
    ).toBe(403);
    const rejected = await checker.post(`/api/write-offs/${mine.id}/reject`, { reason: 'Still collectable' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'rejected', decisionNote: 'Still collectable' });
    expect((await staff.manager.get(`/api/contracts/${makerRequest.id}`)).json().status).toBe('active');

    // A collector cannot approve; a manager other than the requester can, once.
    expect((await collector.post(`/api/write-offs/${request.id}/approve`, {})).statusCode).toBe(403);
    const before = await trialBalance();
    const approved = await checker.post(`/api/write-offs/${request.id}/approve`, {
      note: 'Certificate seen',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const done = approved.json<WriteOff>();
    expect(done).toMatchObject({
      status: 'approved',
      contractStatus: 'written_off',
      decisionNote: 'Certificate seen',
    });
    expect(done.outstanding).toMatchObject({ principal: contract.principal, penalties: 1500 });
    expect(done.writtenOff).toEqual({
      principal: contract.principal,
      interest: 700,
      fees: 0,
      penalties: 1500,
      total: contract.principal + 2200,
    });
    const second = await checker.post(`/api/write-offs/${request.id}/approve`, {});
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('RECOVERY_STATE');
    expect((await entryLines('write_off', request.id)).length).toBe(4);

    const lines = await entryLines('write_off', request.id);
    expect(lines.map((l) => [l.account_code, Number(l.debit), Number(l.credit)])).toEqual([
      [ACCOUNTS.loansReceivable, 0, contract.principal],
      [ACCOUNTS.interestReceivable, 0, 700],
      [ACCOUNTS.penaltiesReceivable, 0, 1500],
      [ACCOUNTS.creditLosses, contract.principal + 2200, 0],
    ]);
    const tb = await trialBalance();
    expect(tb.totals.debit).toBe(before.totals.debit + contract.principal + 2200);
    expect(await auditActions(request.id)).toEqual(['write_off.request', 'write_off.approve']);
    expect(await auditActions(contract.id)).toContain('contract.write_off');

    // A written-off contract takes no new requests.
    expect(
      (await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Late' })).statusCode,
    ).toBe(409);
    expect(
      (await collector.post(`/api/contracts/${contract.id}/write-offs`, { reason: 'Again' })).statusCode,
    ).toBe(409);
  });

  it('rejection and cancellation leave the contract and device as they were; the requester never decides', async () => {
    const contract = await contractWithArrears();
    const maker = await t.signedIn('manager');
    const own = (
      await maker.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Asked by a manager' })
    ).json<Repossession>();
    for (const decision of ['approve', 'reject'] as const) {
      const body = decision === 'approve' ? { note: 'My own request' } : { reason: 'My own request' };
      const refused = await maker.post(`/api/repossessions/${own.id}/${decision}`, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('MAKER_CHECKER');
    }
    expect(
      (await maker.post(`/api/repossessions/${own.id}/cancel`, { reason: 'Asked by mistake' })).statusCode,
    ).toBe(200);
    const first = (
      await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Missed three payments' })
    ).json<Repossession>();
    expect((await collector.post(`/api/repossessions/${first.id}/reject`, { reason: 'no' })).statusCode).toBe(
      403,
    );
    const rejected = await checker.post(`/api/repossessions/${first.id}/reject`, {
      reason: 'Customer paid today',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().status).toBe('rejected');

    const second = (
      await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Missed four payments' })
    ).json<Repossession>();
    expect((await checker.post(`/api/repossessions/${second.id}/approve`, {})).statusCode).toBe(200);
    const cancelled = await collector.post(`/api/repossessions/${second.id}/cancel`, {
      reason: 'Device not found',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect((await staff.manager.get(`/api/contracts/${contract.id}`)).json().status).toBe('active');
    expect((await staff.manager.get(`/api/devices/${contract.device.id}`)).json().status).toBe('assigned');

    const list = await viewer.get('/api/repossessions?status=cancelled&page=1&pageSize=10');
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((r: Repossession) => r.id)).toContain(second.id);
    const all = (await viewer.get('/api/repossessions?pageSize=1')).json();
    expect(all.items).toHaveLength(1);
    expect(all.total).toBeGreaterThanOrEqual(4);
    expect((await viewer.get('/api/write-offs?status=approved')).statusCode).toBe(200);
  });

  it('refuses bad input with 4xx naming the field, and people without the permission', async () => {
    const contract = await contractWithArrears();
    const shortReason = await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'x' });
    expect(shortReason.statusCode).toBe(400);
    expect(shortReason.json().errors[0].field).toBe('reason');
    expect(
      (await viewer.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Valid reason' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await staff.agent.post(`/api/contracts/${contract.id}/write-offs`, { reason: 'Valid reason' }))
        .statusCode,
    ).toBe(403);
    const missing = await collector.post(
      '/api/contracts/00000000-0000-4000-8000-000000000000/repossessions',
      {
        reason: 'Valid reason',
      },
    );
    expect(missing.statusCode).toBe(404);
    const request = (
      await collector.post(`/api/contracts/${contract.id}/repossessions`, { reason: 'Valid reason' })
    ).json<Repossession>();
    await checker.post(`/api/repossessions/${request.id}/approve`, {});
    for (const [body, field] of [
      [{ condition: 'broken', recoveryValue: 1, balance: 'write_off' }, 'condition'],
      [{ condition: 'good', recoveryValue: -1, balance: 'write_off' }, 'recoveryValue'],
      [{ condition: 'good', recoveryValue: 1.5, balance: 'write_off' }, 'recoveryValue'],
      [{ condition: 'good', recoveryValue: 1, balance: 'keep' }, 'balance'],
      [{ condition: 'good', balance: 'write_off' }, 'recoveryValue'],
    ] as const) {
      const answer = await checker.post(`/api/repossessions/${request.id}/recover`, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(
      (
        await collector.post(`/api/repossessions/${request.id}/recover`, {
          condition: 'good',
          recoveryValue: 1,
          balance: 'write_off',
        })
      ).statusCode,
    ).toBe(403);
    expect((await viewer.get('/api/repossessions?status=lost')).statusCode).toBe(400);
    expect((await checker.post('/api/write-offs/not-an-id/approve', {})).statusCode).toBe(400);
    expect(
      (await checker.post('/api/write-offs/00000000-0000-4000-8000-000000000000/approve', {})).statusCode,
    ).toBe(404);
  });
});
