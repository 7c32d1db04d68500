import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoContent, DemoDraft } from '../../src/contracts/demo';
import { queryRows } from '../../src/db/client';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { multipart, SAMPLE_FILES } from '../support/multipart';
import { lastAudit } from '../support/records';

/** Issue 16 §4–5: the public demo's content, its simulated payment, and the editor's versions. */

/** Tables the demo must never touch, whatever a visitor does in it. */
const REAL_TABLES = [
  'payments',
  'contracts',
  'customers',
  'messages',
  'devices',
  'device_tokens',
  'journal_entries',
  'mobile_money_pushes',
  'demo_versions',
  'demo_images',
  'audit_log',
] as const;

async function counts(t: TestApp): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of REAL_TABLES) {
    const [row] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`,
    );
    result[table] = Number(row?.n);
  }
  return result;
}

const NO_ID = '00000000-0000-4000-8000-000000000000';

/** The list with one item changed. */
const patch = <T>(items: T[], index: number, change: Partial<T>): T[] =>
  items.map((item, at) => (at === index ? { ...item, ...change } : item));

const upload = (client: TestClient, name: string, data: Buffer, contentType = 'image/png') => {
  const body = multipart({}, [{ name, data, contentType }]);
  return client.post('/api/demo/images', undefined, { raw: body.raw, headers: body.headers });
};

describe.each(DATABASE_KINDS)('financing demo on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let owner: TestClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.signedIn('admin');
    owner = await t.signedIn('admin', { isOwner: true });
  });
  afterAll(() => t.close());

  const draft = async (client = admin) => (await client.get('/api/demo/draft')).json<DemoDraft>();
  const draftId = async () =>
    (await admin.get('/api/demo/versions')).json().items.find((v: { status: string }) => v.status === 'draft')
      ?.id;

  it('serves the built-in default content, signed out, before any version exists', async () => {
    const response = await t.client().get('/api/demo/content');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ source: 'default', version: null, publishedAt: null });
    const categories = body.content.devices.map((device: { category: string }) => device.category);
    expect(categories).toEqual(expect.arrayContaining(['phone', 'solar', 'tv', 'laptop']));
    expect(body.content.plans.length).toBeGreaterThanOrEqual(2);
    // Every default device on every plan is a quote the calculator accepts.
    for (const device of body.content.devices) {
      for (const plan of body.content.plans) {
        const deposit = Math.round((device.price * plan.depositPercent) / 100);
        const query = new URLSearchParams({
          price: String(device.price),
          deposit: String(deposit),
          apr: String(plan.apr),
          frequency: plan.frequency,
          term: String(plan.term),
          interestMethod: plan.interestMethod,
        });
        const quote = await t.client().get(`/api/calculator/quote?${query}`);
        expect(quote.statusCode, `${device.id} on ${plan.id}`).toBe(200);
      }
    }
  });

  it('offers the lender’s own cheapest phone, at its price, in the built-in content', async () => {
    for (const [model, retailPrice] of [
      ['Spark 20', 1_450_000],
      ['Spark 10', 1_150_000],
    ] as const) {
      const created = await admin.post('/api/device-models', {
        make: 'Tecno',
        model,
        category: 'smartphone',
        retailPrice,
        controlKind: 'none',
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const devices = (await t.client().get('/api/demo/content')).json().content.devices;
    expect(devices.find((d: { id: string }) => d.id === 'phone')).toMatchObject({
      name: 'Tecno Spark 10',
      price: 1_150_000,
    });
    // A kind the catalogue lacks keeps its placeholder.
    expect(devices.find((d: { id: string }) => d.id === 'laptop').name).toBe('Student laptop 14"');
  });

  it('simulates the deposit payment and unlock code without writing to any real table', async () => {
    const { content } = (await t.client().get('/api/demo/content')).json<{ content: DemoContent }>();
    const [device] = content.devices;
    const plan = content.plans.find((p) => p.frequency === 'weekly') ?? content.plans[0];
    if (!device || !plan) throw new Error('default content without devices or plans');
    const before = await counts(t);
    const visitor = t.client();
    const first = await visitor.post('/api/demo/payment', { deviceId: device.id, planId: plan.id });
    expect(first.statusCode, first.body).toBe(200);
    const payment = first.json();
    expect(payment).toMatchObject({
      simulated: true,
      amount: Math.round((device.price * plan.depositPercent) / 100),
      deviceName: device.name,
      days: plan.frequency === 'weekly' ? 7 : expect.any(Number),
    });
    expect(payment.receipt).toMatch(/^DEMO-[0-9A-F]{8}$/);
    expect(payment.unlockCode).toMatch(/^\d{3} \d{3} \d{3}$/);
    expect(payment.sms).toContain(payment.unlockCode);
    // Deterministic: the same choice gives the same receipt and code.
    const again = (
      await t.client().post('/api/demo/payment', { deviceId: device.id, planId: plan.id })
    ).json();
    expect(again).toEqual(payment);
    expect(await counts(t)).toEqual(before);

    const unknown = await visitor.post('/api/demo/payment', { deviceId: 'no-such-device', planId: plan.id });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('deviceId');
    // The draft is for editors only, even in a simulation.
    const preview = await visitor.post('/api/demo/payment', {
      deviceId: device.id,
      planId: plan.id,
      preview: true,
    });
    expect(preview.statusCode).toBe(403);
  });

  it('rate limits the simulated payment per address', async () => {
    const visitor = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      statuses.push(
        (await visitor.post('/api/demo/payment', { deviceId: 'phone', planId: 'daily' })).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses the editor to non-admins and to visitors', async () => {
    const manager = await t.signedIn('manager');
    const visitor = t.client();
    const body = { expectedRevision: null, content: (await draft()).content };
    for (const [client, status] of [
      [manager, 403],
      [visitor, 401],
    ] as const) {
      expect((await client.get('/api/demo/draft')).statusCode).toBe(status);
      expect((await client.get('/api/demo/versions')).statusCode).toBe(status);
      expect((await client.put('/api/demo/draft', body)).statusCode).toBe(status);
      expect((await client.post('/api/demo/publish', { expectedRevision: 'x' })).statusCode).toBe(status);
      expect(
        (await client.post(`/api/demo/versions/${NO_ID}/revert`, { expectedRevision: null })).statusCode,
      ).toBe(status);
      expect((await upload(client, 'a.png', SAMPLE_FILES.png)).statusCode).toBe(status);
    }
  });

  it('saves a draft, refuses a stale save with 409, publishes, archives the previous and reverts', async () => {
    const start = await draft();
    expect(start).toMatchObject({ exists: false, revision: null, version: null, publishedVersion: null });

    const renamed = structuredClone(start.content);
    renamed.devices = patch(renamed.devices, 0, { name: 'Phone X1' });
    const saved = await admin.put('/api/demo/draft', { expectedRevision: null, content: renamed });
    expect(saved.statusCode, saved.body).toBe(200);
    const first = saved.json<DemoDraft>();
    expect(first).toMatchObject({ exists: true, version: 1, note: null });
    expect(first.content.devices[0]?.name).toBe('Phone X1');
    expect((await t.client().get('/api/demo/content')).json().source).toBe('default');

    // Someone who loaded the page before the first save cannot overwrite it.
    const stale = await owner.put('/api/demo/draft', { expectedRevision: null, content: start.content });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('VERSION_CONFLICT');
    const second = (
      await admin.put('/api/demo/draft', {
        expectedRevision: first.revision,
        content: { ...renamed, texts: { ...renamed.texts, title: 'Try it' } },
        note: 'New title',
      })
    ).json<DemoDraft>();
    expect(second.revision).not.toBe(first.revision);
    expect(
      (await owner.put('/api/demo/draft', { expectedRevision: first.revision, content: renamed })).statusCode,
    ).toBe(409);
    expect((await admin.post('/api/demo/publish', { expectedRevision: first.revision })).statusCode).toBe(
      409,
    );

    const published = await admin.post('/api/demo/publish', { expectedRevision: second.revision });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ version: 1, status: 'published', note: 'New title' });
    const live = (await t.client().get('/api/demo/content')).json();
    expect(live).toMatchObject({ source: 'published', version: 1 });
    expect(live.content.devices[0].name).toBe('Phone X1');
    expect((await draft()).exists).toBe(false);

    // A second version: the first is archived when it goes live.
    const base = await draft();
    expect(base).toMatchObject({ exists: false, publishedVersion: 1 });
    const v2 = (
      await owner.put('/api/demo/draft', {
        expectedRevision: null,
        content: { ...base.content, plans: base.content.plans.slice(0, 2) },
      })
    ).json<DemoDraft>();
    expect(v2.version).toBe(2);
    expect((await owner.post('/api/demo/publish', { expectedRevision: v2.revision })).statusCode).toBe(200);
    const versions = (await admin.get('/api/demo/versions')).json().items;
    expect(versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [2, 'published'],
      [1, 'archived'],
    ]);
    expect(versions[0]).toMatchObject({ plans: 2, publishedBy: expect.stringContaining('Admin') });

    // Revert: version 1 becomes the draft; the live demo changes only when it is published.
    const idOf = (version: number) => versions.find((v: { version: number }) => v.version === version)?.id;
    const reverted = await admin.post(`/api/demo/versions/${idOf(1)}/revert`, { expectedRevision: null });
    expect(reverted.statusCode, reverted.body).toBe(200);
    const revertDraft = reverted.json<DemoDraft>();
    expect(revertDraft).toMatchObject({ exists: true, version: 3, note: 'Reverted to version 1' });
    expect(revertDraft.content.plans.length).toBe(3);
    expect((await t.client().get('/api/demo/content')).json().version).toBe(2);
    // A stale revision, the draft itself, and an unknown version are refused.
    expect(
      (await admin.post(`/api/demo/versions/${idOf(1)}/revert`, { expectedRevision: null })).statusCode,
    ).toBe(409);
    expect(
      (
        await admin.post(`/api/demo/versions/${await draftId()}/revert`, {
          expectedRevision: revertDraft.revision,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await admin.post(`/api/demo/versions/${NO_ID}/revert`, { expectedRevision: null })).statusCode,
    ).toBe(404);
    expect(
      (await admin.post('/api/demo/publish', { expectedRevision: revertDraft.revision })).statusCode,
    ).toBe(200);
    const after = (await t.client().get('/api/demo/content')).json();
    expect(after).toMatchObject({ version: 3 });
    expect(after.content.texts.title).toBe('Try it');
    const statuses = (await admin.get('/api/demo/versions'))
      .json()
      .items.map((v: { status: string }) => v.status);
    expect(statuses).toEqual(['published', 'archived', 'archived']);

    // Every change is audited.
    expect(await lastAudit(t.app.ctx.db, 'demo.draft_save')).toMatchObject({ entityType: 'demo_version' });
    const publishAudit = await lastAudit(t.app.ctx.db, 'demo.publish');
    expect(publishAudit?.after).toMatchObject({ published: 3, archived: 2 });
    expect((await lastAudit(t.app.ctx.db, 'demo.revert'))?.after).toMatchObject({
      revertedTo: 1,
      version: 3,
    });
  });

  it('validates the draft per field', async () => {
    const base = await draft();
    const content = structuredClone(base.content);
    content.devices = patch(content.devices, 0, { name: ' ', price: -5 });
    content.plans = patch(content.plans, 0, { depositPercent: 95, term: 0 });
    content.devices = patch(content.devices, 1, { id: content.devices[2]?.id ?? '' });
    const response = await admin.put('/api/demo/draft', { expectedRevision: base.revision, content });
    expect(response.statusCode).toBe(400);
    const fields = response.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'content.devices.0.name',
        'content.devices.0.price',
        'content.plans.0.depositPercent',
        'content.plans.0.term',
        'content.devices.2.id',
      ]),
    );
    const unknownImage = structuredClone(base.content);
    unknownImage.devices = patch(unknownImage.devices, 0, {
      imageId: '00000000-0000-4000-8000-000000000000',
    });
    const refused = await admin.put('/api/demo/draft', {
      expectedRevision: base.revision,
      content: unknownImage,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].field).toBe('content.devices.0.imageId');
  });

  it('accepts PNG and JPEG images by content, refuses others, and serves them publicly', async () => {
    const png = await upload(admin, 'phone.png', SAMPLE_FILES.png);
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json()).toMatchObject({
      mimeType: 'image/png',
      fileName: 'phone.png',
      size: SAMPLE_FILES.png.length,
    });
    // The declared type and the name do not matter: the bytes do.
    const jpeg = await upload(admin, 'looks-like.png', SAMPLE_FILES.jpeg, 'image/png');
    expect(jpeg.json()).toMatchObject({ mimeType: 'image/jpeg' });
    const pdf = await upload(admin, 'photo.png', SAMPLE_FILES.pdf, 'image/png');
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().code).toBe('UNSUPPORTED_FILE_TYPE');
    const html = await upload(
      admin,
      'x.webp',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'image/webp',
    );
    expect(html.statusCode).toBe(415);
    const truncated = await upload(admin, 'cut.png', SAMPLE_FILES.png.subarray(0, 20));
    expect(truncated.statusCode).toBe(422);
    const huge = await upload(
      admin,
      'big.png',
      Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(2 * 1024 * 1024)]),
    );
    expect(huge.statusCode).toBe(413);
    expect(await lastAudit(t.app.ctx.db, 'demo.image_upload')).toMatchObject({
      entityType: 'demo_image',
      entityId: jpeg.json().id,
    });

    const served = await t.client().get(`/api/demo/images/${png.json().id}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(SAMPLE_FILES.png)).toBe(true);
    expect((await t.client().get('/api/demo/images/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );

    // A device may now show it.
    const base = await draft();
    const content = structuredClone(base.content);
    content.devices = patch(content.devices, 0, { imageId: png.json().id });
    const saved = await admin.put('/api/demo/draft', { expectedRevision: base.revision, content });
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
