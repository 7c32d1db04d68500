import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activePlan, verifiedCustomer } from '../support/origination';

const DAY = 86_400_000;

/**
 * A unit on a live contract: the device page and the contract page show one paid-through date
 * (issue 12 §7), and a token that gives use to a unit in arrears is a manual override.
 */
describe.each(DATABASE_KINDS)('a unit’s contract standing on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let contractId: string;
  let deviceId: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    const model = await manager.post('/api/device-models', {
      make: 'PayGo',
      model: 'Solar 80',
      category: 'solar_home_system',
      retailPrice: 150_000,
      controlKind: 'openpaygo',
    });
    const device = await manager.post('/api/devices', {
      serialNumber: 'OPG-STANDING-1',
      modelId: model.json().id,
      control: { kind: 'openpaygo', secretKey: 'bc41ec9530f6dac86b1a29ab82edc5fb', startingCode: 516959010 },
    });
    deviceId = device.json().id;
    const customer = await verifiedCustomer(t, agent, checker);
    const plan = await activePlan(manager, { eligibleCategories: ['solar_home_system'] });
    const created = await agent.post('/api/contracts', {
      customerId: customer.id,
      deviceId,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    });
    expect(created.statusCode, created.body).toBe(201);
    contractId = created.json().id;
    await agent.post(`/api/contracts/${contractId}/submit`);
    await checker.post(`/api/contracts/${contractId}/approve`);
    await agent.post(`/api/contracts/${contractId}/deposit`, { amount: 25_000, channel: 'cash' });
    const activated = await manager.post(`/api/contracts/${contractId}/activate`);
    expect(activated.statusCode, activated.body).toBe(200);
  });
  afterAll(() => t.close());

  const pages = async () => ({
    contract: (await agent.get(`/api/contracts/${contractId}`)).json(),
    device: (await agent.get(`/api/devices/${deviceId}`)).json(),
  });

  it('shows the same paid-through date on the contract page and the device page', async () => {
    const today = await pages();
    expect(today.device.contract).toEqual({
      id: contractId,
      number: today.contract.number,
      currency: today.contract.currency,
      paidThrough: today.contract.paidThroughDate,
      dpd: 0,
      overdue: 0,
    });
    // The unit's codes run to the first due date, which is not what was paid for.
    expect(today.device.activeUntil).toBe(today.contract.firstDueDate);
    expect(today.device.contract.paidThrough).not.toBe(today.device.activeUntil);

    // Not in arrears: device control gives time without an override.
    const onTime = await manager.post(`/api/devices/${deviceId}/tokens`, { type: 'ADD_TIME', days: 1 });
    expect(onTime.statusCode, onTime.body).toBe(201);

    // Past the first due date unpaid (sessions do not last that long: sign in again).
    t.clock.advance(40 * DAY);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    const later = await pages();
    expect(later.contract.dpd).toBeGreaterThan(0);
    expect(later.device.contract).toMatchObject({
      paidThrough: later.contract.paidThroughDate,
      dpd: later.contract.dpd,
      overdue: later.contract.schedule
        .filter((row: { status: string }) => row.status === 'overdue')
        .reduce((sum: number, row: { total: number; paid: number }) => sum + row.total - row.paid, 0),
    });
  });

  it('gives use to a unit in arrears only by manual override with a reason, audited as one', async () => {
    const { device } = await pages();
    expect(device.contract.dpd).toBeGreaterThan(0);
    const refused = await manager.post(`/api/devices/${deviceId}/tokens`, { type: 'ADD_TIME', days: 7 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'ARREARS_OVERRIDE_REQUIRED',
      message: expect.stringMatching(
        new RegExp(
          `^${device.contract.number} is ${device.contract.dpd} days in arrears \\(.+ overdue\\): give the reason for the manual override$`,
        ),
      ),
      errors: [{ field: 'overrideReason', message: 'Give the reason for the override' }],
      details: device.contract,
    });
    for (const type of ['SET_TIME', 'DISABLE_PAYG'] as const) {
      const body = type === 'SET_TIME' ? { type, days: 3 } : { type };
      expect((await manager.post(`/api/devices/${deviceId}/tokens`, body)).statusCode).toBe(422);
    }
    // A counter sync gives no use: no override needed.
    expect((await manager.post(`/api/devices/${deviceId}/tokens`, { type: 'COUNTER_SYNC' })).statusCode).toBe(
      201,
    );

    const short = await manager.post(`/api/devices/${deviceId}/tokens`, {
      type: 'ADD_TIME',
      days: 7,
      overrideReason: ' ',
    });
    expect(short.statusCode).toBe(400);
    const overridden = await manager.post(`/api/devices/${deviceId}/tokens`, {
      type: 'ADD_TIME',
      days: 7,
      overrideReason: 'Customer paid at the branch; receipt to follow',
    });
    expect(overridden.statusCode, overridden.body).toBe(201);
    const audits = await t.app.ctx.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'device.token_override'), eq(auditLog.entityId, deviceId)))
      .orderBy(asc(auditLog.id));
    expect(audits).toEqual([
      {
        before: {
          contractId,
          number: device.contract.number,
          dpd: device.contract.dpd,
          overdue: device.contract.overdue,
        },
        after: expect.objectContaining({
          tokenId: overridden.json().id,
          type: 'ADD_TIME',
          value: 7,
          reason: 'Customer paid at the branch; receipt to follow',
        }),
      },
    ]);
  });
});
