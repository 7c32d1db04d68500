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
});
