import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activePlan, deviceInStock, verifiedCustomer } from '../support/origination';

/**
 * transition(): a refused move writes nothing (row, version, timeline, audit); an allowed one
 * raises the version once and writes one timeline or history line and one audit row.
 */
describe.each(DATABASE_KINDS)('audited state transitions on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let secondManager: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    secondManager = await t.signedIn('manager');
  });
  afterAll(() => t.close());

  /** The row's status and version, its timeline or history lines, and its audit rows. */
  async function snapshot(table: 'contracts' | 'devices', id: string) {
    const events = table === 'contracts' ? 'contract_events' : 'device_events';
    const key = table === 'contracts' ? 'contract_id' : 'device_id';
    const entity = table === 'contracts' ? 'contract' : 'device';
    const [row] = await queryRows<{ status: string; version: number; events: number; audits: number }>(
      t.app.ctx.db,
      sql`SELECT status, version,
                 (SELECT count(*)::int FROM ${sql.identifier(events)} WHERE ${sql.identifier(key)} = ${id}) AS events,
                 (SELECT count(*)::int FROM audit_log WHERE entity_type = ${entity} AND entity_id = ${id}) AS audits
          FROM ${sql.identifier(table)} WHERE id = ${id}`,
    );
    return row;
  }

  async function draft() {
    const customer = await verifiedCustomer(t, agent, secondManager);
    const device = await deviceInStock(manager, { retailPrice: 150_000, costPrice: 90_000 });
    const plan = await activePlan(manager);
    const response = await agent.post('/api/contracts', {
      customerId: customer.id,
      deviceId: device.id,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; device: { id: string } };
  }

  it('contracts: a refused move changes nothing; an allowed one raises the version with one event and one audit row', async () => {
    const contract = await draft();
    const before = await snapshot('contracts', contract.id);

    const refused = await manager.post(`/api/contracts/${contract.id}/approve`); // still a draft
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'CONTRACT_STATE',
      message: expect.stringContaining('is draft'),
    });
    expect(await snapshot('contracts', contract.id)).toEqual(before);

    const submit = await manager.post(`/api/contracts/${contract.id}/submit`);
    expect(submit.statusCode).toBe(200);
    expect(await snapshot('contracts', contract.id)).toEqual({
      status: 'pending_approval',
      version: (before?.version ?? 0) + 1,
      events: (before?.events ?? 0) + 1,
      audits: (before?.audits ?? 0) + 1,
    });

    // Refused by the move's own rule (maker-checker) after the table allowed it: nothing written.
    const submitted = await snapshot('contracts', contract.id);
    expect((await manager.post(`/api/contracts/${contract.id}/approve`)).statusCode).toBe(422); // the submitter
    expect(await snapshot('contracts', contract.id)).toEqual(submitted);
  });

  it('units: a refused move by hand changes nothing; an allowed one raises the version with one history line and one audit row', async () => {
    const device = await deviceInStock(manager, { retailPrice: 50_000, costPrice: 30_000 });
    const before = await snapshot('devices', device.id);
    const move = (status: string) =>
      manager.post(`/api/devices/${device.id}/status`, { status, reason: 'stock count' });

    const refused = await move('returned');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'TRANSITION_NOT_ALLOWED' });
    expect(await snapshot('devices', device.id)).toEqual(before);

    expect((await move('lost')).statusCode).toBe(200);
    expect(await snapshot('devices', device.id)).toEqual({
      status: 'lost',
      version: (before?.version ?? 0) + 1,
      events: (before?.events ?? 0) + 1,
      audits: (before?.audits ?? 0) + 1,
    });
  });

  it('a unit moved by its contract: one history line and a version, the audit row is the contract’s', async () => {
    const contract = await draft();
    const unit = await snapshot('devices', contract.device.id);
    expect(unit).toMatchObject({ status: 'reserved', version: 2 });
    const cancelled = await agent.post(`/api/contracts/${contract.id}/cancel`, {
      reason: 'customer changed their mind',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await snapshot('devices', contract.device.id)).toEqual({
      status: 'in_stock',
      version: (unit?.version ?? 0) + 1,
      events: (unit?.events ?? 0) + 1,
      audits: unit?.audits,
    });
  });

  it('KYC documents: a second review is refused and changes nothing', async () => {
    const customer = await verifiedCustomer(t, agent, secondManager);
    const [doc] = await queryRows<{ id: string; status: string; version: number }>(
      t.app.ctx.db,
      sql`SELECT id, status, version FROM kyc_documents WHERE customer_id = ${customer.id} ORDER BY uploaded_at LIMIT 1`,
    );
    expect(doc).toMatchObject({ status: 'verified', version: 2 });
    const audits = async () =>
      (
        await queryRows<{ n: number }>(
          t.app.ctx.db,
          sql`SELECT count(*)::int AS n FROM audit_log WHERE entity_id = ${customer.id}`,
        )
      )[0]?.n;
    const auditsBefore = await audits();
    const again = await manager.post(`/api/customers/${customer.id}/documents/${doc?.id}/review`, {
      decision: 'reject',
      reason: 'blurred',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_REVIEWED' });
    const [after] = await queryRows<{ status: string; version: number }>(
      t.app.ctx.db,
      sql`SELECT status, version FROM kyc_documents WHERE id = ${doc?.id}`,
    );
    expect(after).toEqual({ status: 'verified', version: 2 });
    expect(await audits()).toBe(auditsBefore);
  });
});
