import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain';
import { businessDate } from '../../src/server/dates';
import { refreshDelinquency } from '../../src/server/modules/contracts/delinquency';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { approvedContract, type OriginationStaff } from '../support/origination';
import { lastAudit } from '../support/records';

const DAY = 86_400_000;

/** The calendar date in the organisation's time zone, as the server's clock has it now. */
async function calendarToday(t: TestApp, client: TestClient): Promise<string> {
  const { timeZone } = (await client.get('/api/settings/organisation')).json();
  return businessDate(t.clock.now(), timeZone);
}

/** API.md "Business date": read by staff, moved forward by administrators where the server allows it. */
describe.each(DATABASE_KINDS)('business date on %s', (kind) => {
  describe('without BUSINESS_DATE_CONTROL', () => {
    let t: TestApp;
    let admin: TestClient;
    beforeAll(async () => {
      t = await startTestApp(kind);
      admin = await t.signedIn('admin');
    });
    afterAll(() => t.close());

    it('is today in the organisation’s time zone, for any signed-in staff member', async () => {
      const viewer = await t.signedIn('viewer');
      const answer = await viewer.get('/api/business-date');
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        businessDate: await calendarToday(t, viewer),
        lastClosedDate: null,
        control: false,
      });
      expect((await t.client().get('/api/business-date')).statusCode).toBe(401);
    });

    it('refuses to move it, with a code that says why', async () => {
      const target = addDays(await calendarToday(t, admin), 5);
      const refused = await admin.put('/api/business-date', { businessDate: target });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('BUSINESS_DATE_LOCKED');
      expect(refused.json().message).toMatch(/BUSINESS_DATE_CONTROL/);
      expect((await admin.get('/api/business-date')).json().businessDate).toBe(await calendarToday(t, admin));
      expect(await lastAudit(t.app.ctx.db, 'organisation.business_date')).toBeUndefined();
    });
  });

  describe('with BUSINESS_DATE_CONTROL=true', () => {
    let t: TestApp;
    let admin: Awaited<ReturnType<TestApp['signedIn']>>;
    let staff: OriginationStaff;
    /** Sessions of the clock's day (a day later, yesterday's have expired). */
    const signIn = async () => {
      admin = await t.signedIn('admin');
      staff = {
        agent: await t.signedIn('agent'),
        manager: await t.signedIn('manager'),
        reviewer: await t.signedIn('manager'),
      };
    };
    beforeAll(async () => {
      t = await startTestApp(kind, { env: { BUSINESS_DATE_CONTROL: 'true' } });
      await signIn();
    });
    afterAll(() => t.close());

    it('refuses a malformed date with 400 naming the field', async () => {
      for (const businessDate of ['2026-13-01', '2026-02-30', 'tomorrow', 20260101]) {
        const answer = await admin.put('/api/business-date', { businessDate });
        expect(answer.statusCode, String(businessDate)).toBe(400);
        expect(answer.json().errors[0].field).toBe('businessDate');
      }
      expect((await admin.put('/api/business-date', {})).statusCode).toBe(400);
    });

    it('is moved only by administrators and the owner', async () => {
      const target = addDays(await calendarToday(t, admin), 1);
      const refused = await staff.manager.put('/api/business-date', { businessDate: target });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('ROLE_FORBIDDEN');
      expect((await staff.manager.get('/api/business-date')).json()).toMatchObject({ control: true });
    });

    it('moves forward, audited, and keeps running ahead of the calendar as days pass', async () => {
      const calendar = await calendarToday(t, admin);
      const target = addDays(calendar, 3);
      const moved = await admin.put('/api/business-date', { businessDate: target });
      expect(moved.statusCode, moved.body).toBe(200);
      // The days it skipped are closed, as if they had passed (decision 026).
      expect(moved.json()).toEqual({
        businessDate: target,
        lastClosedDate: addDays(target, -1),
        control: true,
      });
      const audit = await lastAudit(t.app.ctx.db, 'organisation.business_date');
      expect(audit).toMatchObject({
        entityType: 'organisation',
        entityId: '1',
        actorId: admin.user.id,
        before: { businessDate: calendar, businessDateOffset: 0 },
        after: { businessDate: target, businessDateOffset: 3 },
      });
      // Every instance's cached settings were dropped: the server's own read has the new offset.
      expect(await organisation(t.app.ctx, t.app.ctx.db)).toMatchObject({ businessDateOffset: 3 });
      // The settings' answer and body stay as they were: saving what was read keeps the moved date.
      const { updatedAt: _updatedAt, ...settings } = (await admin.get('/api/settings/organisation')).json();
      expect(settings).not.toHaveProperty('businessDateOffset');
      expect((await admin.put('/api/settings/organisation', settings)).statusCode).toBe(200);
      expect((await admin.get('/api/business-date')).json().businessDate).toBe(target);
      // The same date again changes nothing.
      const again = await admin.put('/api/business-date', { businessDate: target });
      expect(again.statusCode).toBe(200);
      expect((await lastAudit(t.app.ctx.db, 'organisation.business_date'))?.id).toBe(audit?.id);

      t.clock.advance(DAY);
      await signIn();
      expect((await admin.get('/api/business-date')).json().businessDate).toBe(addDays(target, 1));
    });

    it('never moves back, nor before the last closed date', async () => {
      const current = (await admin.get('/api/business-date')).json().businessDate as string;
      const back = await admin.put('/api/business-date', { businessDate: addDays(current, -1) });
      expect(back.statusCode).toBe(422);
      expect(back.json()).toMatchObject({
        code: 'BUSINESS_DATE_REFUSED',
        errors: [{ field: 'businessDate' }],
      });
      expect(back.json().message).toContain(current);

      const closed = addDays(current, 20);
      await t.app.ctx.db.execute(sql`UPDATE organisation_settings SET last_closed_date = ${closed}`);
      try {
        const beforeClosed = await admin.put('/api/business-date', { businessDate: addDays(current, 10) });
        expect(beforeClosed.statusCode).toBe(422);
        expect(beforeClosed.json().message).toContain(closed);
      } finally {
        await t.app.ctx.db.execute(sql`UPDATE organisation_settings SET last_closed_date = NULL`);
      }

      const tooFar = await admin.put('/api/business-date', { businessDate: addDays(current, 5000) });
      expect(tooFar.statusCode).toBe(422);
      expect((await admin.get('/api/business-date')).json().businessDate).toBe(current);
    });

    it('is exactly as if the days had passed: instalments fall due and arrears grow', async () => {
      const contract = await approvedContract(t, staff);
      const deposit = await staff.agent.post(`/api/contracts/${contract.id}/deposit`, {
        amount: 25_000,
        channel: 'cash',
      });
      expect(deposit.statusCode, deposit.body).toBeLessThan(300);
      const activated = await staff.manager.post(`/api/contracts/${contract.id}/activate`);
      expect(activated.statusCode, activated.body).toBe(200);
      expect((await staff.agent.get(`/api/contracts/${contract.id}`)).json()).toMatchObject({ dpd: 0 });

      const current = (await admin.get('/api/business-date')).json().businessDate as string;
      const moved = await admin.put('/api/business-date', { businessDate: addDays(current, 40) });
      expect(moved.statusCode, moved.body).toBe(200);
      // The days skipped have ended: each is closed, oldest first (decision 026).
      expect(moved.json().lastClosedDate).toBe(addDays(current, 39));

      const detail = (await staff.agent.get(`/api/contracts/${contract.id}`)).json();
      expect(detail.dpd).toBeGreaterThan(0);
      expect(detail.asOf).toBe(addDays(current, 40));
      expect(detail.schedule[0].status).toBe('overdue');
      // The stored figures follow at once: the close brought them to the new date.
      expect(await refreshDelinquency(t.app.ctx)).toBe(0);
      const [row] = (await staff.agent.get(`/api/contracts?q=${contract.number}`)).json().items;
      expect(row).toMatchObject({ dpd: detail.dpd, nextDueDate: detail.nextDue.dueDate });
    });
  });
});
