import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

const organisation = {
  name: 'Sunrise Device Finance',
  currency: 'KES',
  timeZone: 'Africa/Nairobi',
  country: 'KE',
  delinquencyBuckets: [1, 8, 31, 61, 91],
  quietHoursStart: '21:00',
  quietHoursEnd: '07:30',
};

describe.each(DATABASE_KINDS)('settings on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('keeps each user’s preferences to themselves, with defaults before the first save', async () => {
    const a = await t.signedIn('agent');
    const b = await t.signedIn('agent');
    expect((await a.get('/api/user/preferences')).json()).toEqual({
      theme: 'system',
      landingPage: '/',
      notificationSettings: {},
    });
    const saved = await a.put('/api/user/preferences', {
      theme: 'dark',
      landingPage: '/collections',
      notificationSettings: { payments: false },
    });
    expect(saved.json()).toEqual({
      theme: 'dark',
      landingPage: '/collections',
      notificationSettings: { payments: false },
    });
    expect((await b.get('/api/user/preferences')).json().theme).toBe('system');
    const bad = await a.put('/api/user/preferences', {
      theme: 'neon',
      landingPage: '/nowhere',
      notificationSettings: { spam: true },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['landingPage', 'notificationSettings.spam', 'theme']);
  });

  it('lets every signed-in user read the organisation settings and only admins change them', async () => {
    const viewer = await t.signedIn('viewer');
    const manager = await t.signedIn('manager');
    const admin = await t.signedIn('admin');
    expect((await viewer.get('/api/settings/organisation')).json()).toMatchObject({
      currency: 'USD',
      timeZone: 'UTC',
    });
    const refused = await manager.put('/api/settings/organisation', organisation);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ROLE_FORBIDDEN');
    const changed = await admin.put('/api/settings/organisation', organisation);
    expect(changed.statusCode).toBe(200);
    expect((await viewer.get('/api/settings/organisation')).json()).toMatchObject(organisation);
    // Public pages see the name, currency and country only.
    expect((await t.client().get('/api/organisation')).json()).toEqual({
      name: organisation.name,
      currency: organisation.currency,
      country: organisation.country,
    });
  });

  it('validates organisation settings field by field', async () => {
    const admin = await t.signedIn('admin');
    const response = await admin.put('/api/settings/organisation', {
      name: '',
      currency: 'dollars',
      timeZone: 'Mars/Olympus',
      country: 'Kenya',
      delinquencyBuckets: [30, 8],
      quietHoursStart: '25:00',
      quietHoursEnd: '7am',
    });
    expect(response.statusCode).toBe(400);
    const fields = Object.fromEntries(
      response.json().errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    expect(fields).toEqual({
      name: 'Name is required',
      currency: 'Currency must be a 3-letter ISO 4217 code',
      timeZone: 'Unknown time zone (use an IANA name such as Africa/Nairobi)',
      country: 'Country must be a 2-letter ISO 3166 code',
      delinquencyBuckets: 'Bucket bounds must increase',
      quietHoursStart: 'Quiet hours start must be a time like 20:00',
      quietHoursEnd: 'Quiet hours end must be a time like 20:00',
    });
  });

  it('sets the close of business time and the interest accrual start, which never reaches back', async () => {
    const admin = await t.signedIn('admin');
    t.clock.ms = Date.parse('2026-03-10T09:00:00Z');
    const bad = await admin.put('/api/settings/organisation', {
      ...organisation,
      closeOfBusinessTime: '24:30',
      interestAccrualFrom: '10 March',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      Object.fromEntries(
        bad.json().errors.map((e: { field: string; message: string }) => [e.field, e.message]),
      ),
    ).toEqual({
      closeOfBusinessTime: 'Close of business time must be a time like 20:00',
      interestAccrualFrom: 'Interest accrual start must be a date (YYYY-MM-DD)',
    });

    // Before the business date: contracts already started would change their accounting.
    const early = await admin.put('/api/settings/organisation', {
      ...organisation,
      interestAccrualFrom: '2026-03-09',
    });
    expect(early.statusCode).toBe(422);
    expect(early.json()).toMatchObject({
      code: 'RULE',
      errors: [{ field: 'interestAccrualFrom', message: expect.stringContaining('2026-03-10') }],
    });

    const saved = await admin.put('/api/settings/organisation', {
      ...organisation,
      closeOfBusinessTime: '21:00',
      interestAccrualFrom: '2026-03-12',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ closeOfBusinessTime: '21:00', interestAccrualFrom: '2026-03-12' });
    // Not reached yet: it may still move (or be cleared); saving it unchanged is always fine.
    expect(
      (await admin.put('/api/settings/organisation', { ...organisation, interestAccrualFrom: '2026-03-11' }))
        .statusCode,
    ).toBe(200);

    t.clock.ms = Date.parse('2026-03-12T09:00:00Z');
    const again = await admin.put('/api/settings/organisation', {
      ...organisation,
      interestAccrualFrom: '2026-03-11',
    });
    expect(again.statusCode).toBe(200);
    const moved = await admin.put('/api/settings/organisation', {
      ...organisation,
      interestAccrualFrom: null,
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors[0]).toMatchObject({ field: 'interestAccrualFrom' });
    expect((await admin.get('/api/settings/organisation')).json().interestAccrualFrom).toBe('2026-03-11');
  });
});
