import { and, asc, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '../../src/contracts/devices';
import { auditLog, deviceEvents, devices } from '../../src/db/schema';
import { deriveStartingCode } from '../../src/domain';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { multipart } from '../support/multipart';
import { journalLinesOf, lastAudit } from '../support/records';

type Client = TestClient & { user: { id: string } };

/** A 15-digit IMEI with a valid Luhn check digit. */
function imeiFrom(body14: string): string {
  for (let check = 0; check <= 9; check++) {
    if (luhnValid(`${body14}${check}`)) return `${body14}${check}`;
  }
  throw new Error('unreachable');
}

const KEY = 'bc41ec9530f6dac86b1a29ab82edc5fb';

describe.each(DATABASE_KINDS)('devices on %s', (kind) => {
  let t: TestApp;
  let manager: Client;
  let agent: Client;
  let viewer: Client;
  let serial = 0;
  let imeiCounter = 0;
  const nextSerial = () => `SN-${String(++serial).padStart(6, '0')}`;
  const nextImei = () => imeiFrom(`35${String(++imeiCounter).padStart(12, '0')}`);

  beforeAll(async () => {
    t = await startTestApp(kind);
    manager = await t.signedIn('manager');
    agent = await t.signedIn('agent');
    viewer = await t.signedIn('viewer');
  });
  afterAll(() => t.close());

  async function createModel(fields: Record<string, unknown> = {}) {
    const response = await manager.post('/api/device-models', {
      make: 'Tecno',
      model: `Spark ${Math.random().toString(36).slice(2, 8)}`,
      category: 'smartphone',
      retailPrice: 1_500_000,
      controlKind: 'none',
      ...fields,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  describe('models', () => {
    it('creates a model exactly as API.md describes, and refuses duplicates by name or SKU', async () => {
      const response = await manager.post('/api/device-models', {
        make: 'SunKing',
        model: 'Home 120',
        category: 'solar_home_system',
        retailPrice: 2_400_000,
        costPrice: 1_600_000,
        controlKind: 'openpaygo',
        sku: 'SK-H120',
      });
      expect(response.statusCode, response.body).toBe(201);
      const model = response.json();
      expect(model).toMatchObject({
        id: expect.any(String),
        make: 'SunKing',
        model: 'Home 120',
        name: 'SunKing Home 120',
        category: 'solar_home_system',
        retailPrice: 2_400_000,
        costPrice: 1_600_000,
        currency: 'USD',
        controlKind: 'openpaygo',
        sku: 'SK-H120',
        active: true,
        units: 0,
      });
      const sameName = await manager.post('/api/device-models', {
        make: 'sunking',
        model: 'HOME 120',
        category: 'solar_home_system',
        retailPrice: 1,
        controlKind: 'none',
      });
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json().message).toBe('The model SunKing Home 120 already exists');
      const sameSku = await manager.post('/api/device-models', {
        make: 'Other',
        model: 'Thing',
        category: 'other',
        retailPrice: 1,
        controlKind: 'none',
        sku: 'SK-H120',
      });
      expect(sameSku.statusCode).toBe(409);
      expect(sameSku.json().message).toBe('SKU SK-H120 already belongs to SunKing Home 120');
      const invalid = await manager.post('/api/device-models', {
        make: '',
        model: 'X',
        category: 'toaster',
        retailPrice: -1,
        controlKind: 'magic',
      });
      expect(invalid.statusCode).toBe(400);
      expect(
        invalid
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['category', 'controlKind', 'make', 'retailPrice']);
      expect((await agent.post('/api/device-models', { make: 'A' })).statusCode).toBe(403);
    });

    it('edits, deactivates and reactivates a model; a deactivated model takes no new units', async () => {
      const model = await createModel();
      const edited = await manager.patch(`/api/device-models/${model.id}`, {
        retailPrice: 1_400_000,
        sku: 'TS-1',
      });
      expect(edited.json()).toMatchObject({ retailPrice: 1_400_000, sku: 'TS-1' });
      expect((await manager.patch(`/api/device-models/${model.id}`, {})).statusCode).toBe(400);
      const off = await manager.post(`/api/device-models/${model.id}/deactivate`);
      expect(off.json().active).toBe(false);
      const refused = await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: model.id });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toContain('deactivated');
      expect((await manager.post(`/api/device-models/${model.id}/activate`)).json().active).toBe(true);
      expect(
        (await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: model.id })).statusCode,
      ).toBe(201);
      const change = await manager.patch(`/api/device-models/${model.id}`, { controlKind: 'lock_api' });
      expect(change.statusCode).toBe(422);
      const audit = await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, model.id))
        .orderBy(asc(auditLog.id));
      expect(audit.map((row) => row.action)).toEqual([
        'device_model.create',
        'device_model.update',
        'device_model.deactivate',
        'device_model.activate',
      ]);
    });

    it('lists models with search, filters, sorts and CSV', async () => {
      await createModel({ make: 'Zolar', model: 'Alpha', category: 'tv', sku: 'ZL-A', retailPrice: 10 });
      await createModel({ make: 'Zolar', model: 'Beta', category: 'laptop', retailPrice: 20 });
      const page = (await viewer.get('/api/device-models?q=zolar&sort=retailPrice&order=desc')).json();
      expect(page.items.map((m: { name: string }) => m.name)).toEqual(['Zolar Beta', 'Zolar Alpha']);
      expect(page.total).toBe(2);
      expect((await viewer.get('/api/device-models?q=zl-a')).json().total).toBe(1);
      expect((await viewer.get('/api/device-models?q=zolar&category=tv')).json().items[0].name).toBe(
        'Zolar Alpha',
      );
      expect((await viewer.get('/api/device-models?active=false&q=zolar')).json().total).toBe(0);
      const csv = await viewer.get('/api/device-models?q=zolar&format=csv&sort=name&order=asc');
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
        'Make,Model,Category,SKU,Retail price (minor units),Cost price (minor units),Currency,Control,Active,Units',
        'Zolar,Alpha,tv,ZL-A,10,,USD,none,true,0',
        'Zolar,Beta,laptop,,20,,USD,none,true,0',
      ]);
    });
  });

  describe('units', () => {
    let openpaygo: { id: string };
    let phone: { id: string };
    beforeAll(async () => {
      openpaygo = await createModel({
        make: 'Bboxx',
        model: 'Home 50',
        category: 'solar_home_system',
        controlKind: 'openpaygo',
      });
      phone = await createModel({
        make: 'Samsung',
        model: 'A05',
        category: 'smartphone',
        controlKind: 'lock_api',
        sku: 'SM-A05',
      });
    });

    it('creates an OpenPAYGO unit exactly as API.md describes: key encrypted, starting code derived, count 0', async () => {
      const serialNumber = nextSerial();
      const response = await manager.post('/api/devices', {
        serialNumber,
        modelId: openpaygo.id,
        control: { kind: 'openpaygo', secretKey: KEY.toUpperCase() },
      });
      expect(response.statusCode, response.body).toBe(201);
      const device = response.json();
      expect(device).toMatchObject({
        id: expect.any(String),
        serialNumber,
        imei: null,
        status: 'in_stock',
        lockState: 'unknown',
        controlKind: 'openpaygo',
        control: { kind: 'openpaygo', startingCode: deriveStartingCode(KEY), count: 0, timeDivider: 1 },
        model: { id: openpaygo.id, name: 'Bboxx Home 50', category: 'solar_home_system' },
        allowedTransitions: ['reserved', 'lost', 'written_off'],
      });
      expect(device.events).toEqual([
        expect.objectContaining({
          from: null,
          to: 'in_stock',
          reason: 'Received into stock',
          actor: expect.objectContaining({ id: manager.user.id }),
        }),
      ]);
      const [row] = await t.app.ctx.db.select().from(devices).where(eq(devices.id, device.id));
      expect(row?.openpaygoSecret).not.toContain(KEY);
      expect(t.app.ctx.keyring.decrypt('openpaygo', row?.openpaygoSecret ?? '')).toBe(KEY);
      const given = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: openpaygo.id,
        control: { kind: 'openpaygo', secretKey: KEY, startingCode: '516959010' },
      });
      expect(given.json().control.startingCode).toBe(516959010);
    });

    it('never returns the secret key from any device endpoint', async () => {
      const device = (
        await manager.post('/api/devices', {
          serialNumber: nextSerial(),
          modelId: openpaygo.id,
          control: { kind: 'openpaygo', secretKey: KEY, startingCode: 516959010 },
        })
      ).json();
      const [row] = await t.app.ctx.db.select().from(devices).where(eq(devices.id, device.id));
      const sealed = row?.openpaygoSecret ?? 'missing';
      const bodies = [
        JSON.stringify(device),
        (await manager.get(`/api/devices/${device.id}`)).body,
        (await manager.get('/api/devices?pageSize=200')).body,
        (await manager.get(`/api/devices?q=${device.serialNumber}`)).body,
        (await manager.get('/api/devices?format=csv')).body,
        (await manager.patch(`/api/devices/${device.id}`, { notes: 'shelf 3' })).body,
        (
          await manager.post(`/api/devices/${device.id}/status`, {
            status: 'reserved',
            reason: 'For a walk-in',
          })
        ).body,
        (await manager.post(`/api/devices/${device.id}/tokens`, { type: 'ADD_TIME', days: 7 })).body,
        (await manager.get(`/api/devices/${device.id}/tokens`)).body,
        (
          await manager.post('/api/devices/import', {
            csv: `serial_number,model,make,openpaygo_secret_key\n${nextSerial()},Home 50,Bboxx,${KEY}\n`,
            dryRun: true,
          })
        ).body,
        (
          await manager.post('/api/devices/import', {
            csv: `serial_number,model,make,openpaygo_secret_key\n${nextSerial()},Home 50,Bboxx,${KEY}\n`,
          })
        ).body,
        (await manager.get(`/api/device-models/${openpaygo.id}`)).body,
        (await manager.get('/api/device-models')).body,
      ];
      for (const body of bodies) {
        expect(body.toLowerCase()).not.toContain(KEY);
        expect(body).not.toContain(sealed);
        expect(body).not.toMatch(/secret/i);
      }
      const audit = await t.app.ctx.db.select().from(auditLog);
      expect(JSON.stringify(audit).toLowerCase()).not.toContain(KEY);
    });

    it('requires the control block for OpenPAYGO models and refuses it for others', async () => {
      const missing = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: openpaygo.id,
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual([
        { field: 'control', message: "Bboxx Home 50 is controlled by OpenPAYGO: give the unit's secret key" },
      ]);
      const extra = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: phone.id,
        imei: nextImei(),
        control: { kind: 'openpaygo', secretKey: KEY },
      });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().errors[0].field).toBe('control');
      const badKey = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: openpaygo.id,
        control: { kind: 'openpaygo', secretKey: 'abc', startingCode: 1_000_000_000 },
      });
      expect(badKey.statusCode).toBe(400);
      expect(
        badKey
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['control.secretKey', 'control.startingCode']);
      const unknownModel = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknownModel.json().errors).toEqual([
        { field: 'modelId', message: 'This device model does not exist' },
      ]);
    });

    it('checks IMEIs (15 digits, Luhn) and refuses a serial number or IMEI that another unit has, naming it', async () => {
      expect(luhnValid('490154203237518')).toBe(true);
      const short = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: phone.id,
        imei: '49015420323751',
      });
      expect(short.json().errors).toEqual([{ field: 'imei', message: 'IMEI must be 15 digits' }]);
      const wrong = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: phone.id,
        imei: '490154203237519',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors).toEqual([{ field: 'imei', message: 'IMEI check digit is wrong' }]);
      const serialNumber = nextSerial();
      const first = await manager.post('/api/devices', {
        serialNumber,
        modelId: phone.id,
        imei: '490154203237518',
      });
      expect(first.statusCode, first.body).toBe(201);
      const sameSerial = await manager.post('/api/devices', { serialNumber, modelId: phone.id });
      expect(sameSerial.statusCode).toBe(409);
      expect(sameSerial.json().message).toBe(
        `Serial number ${serialNumber} already belongs to Samsung A05 unit ${serialNumber} (in stock)`,
      );
      const sameImei = await manager.post('/api/devices', {
        serialNumber: nextSerial(),
        modelId: phone.id,
        imei: '490154203237518',
      });
      expect(sameImei.statusCode).toBe(409);
      expect(sameImei.json().message).toBe(
        `IMEI 490154203237518 already belongs to Samsung A05 unit ${serialNumber} (in stock)`,
      );
      // Two at once with the same serial: one 201, one 409, never a 500.
      const race = nextSerial();
      const both = await Promise.all(
        [0, 1].map(() => manager.post('/api/devices', { serialNumber: race, modelId: phone.id })),
      );
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(
        (await agent.post('/api/devices', { serialNumber: nextSerial(), modelId: phone.id })).statusCode,
      ).toBe(403);
    });

    it('changes status along the allowed transitions only, with the history on the unit', async () => {
      const device = (
        await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: phone.id })
      ).json();
      const move = (status: string, reason = 'Checked by the store') =>
        manager.post(`/api/devices/${device.id}/status`, { status, reason });
      const toAssigned = await move('assigned');
      expect(toAssigned.statusCode).toBe(422);
      expect(toAssigned.json().message).toBe(
        'Units are assigned and released only through contracts (activation, return, repossession)',
      );
      expect((await move('returned')).statusCode).toBe(422);
      expect((await move('in_stock')).json().message).toBe('The unit is already in stock');
      const noReason = await manager.post(`/api/devices/${device.id}/status`, { status: 'lost' });
      expect(noReason.json().errors).toEqual([
        { field: 'reason', message: 'Give the reason for the change' },
      ]);
      expect((await move('reserved', 'Held for a customer')).json()).toMatchObject({
        status: 'reserved',
        allowedTransitions: ['in_stock', 'lost', 'written_off'],
      });
      await move('lost', 'Not found at stock count');
      const written = (await move('written_off', 'Lost for 90 days')).json();
      expect(written.allowedTransitions).toEqual([]);
      expect((await move('in_stock')).statusCode).toBe(422);
      const detail = (await viewer.get(`/api/devices/${device.id}`)).json();
      expect(
        detail.events.map((e: { from: string; to: string; reason: string }) => [e.from, e.to, e.reason]),
      ).toEqual([
        ['lost', 'written_off', 'Lost for 90 days'],
        ['reserved', 'lost', 'Not found at stock count'],
        ['in_stock', 'reserved', 'Held for a customer'],
        [null, 'in_stock', 'Received into stock'],
      ]);
      expect(detail.events[0].actor).toMatchObject({ id: manager.user.id });
      const audit = await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, device.id), eq(auditLog.action, 'device.status')));
      expect(audit).toHaveLength(3);
      expect(
        (await agent.post(`/api/devices/${device.id}/status`, { status: 'lost', reason: 'x y z' }))
          .statusCode,
      ).toBe(403);
    });

    it('takes lost and written-off units out of inventory at cost, and brings a found one back', async () => {
      const costed = await createModel({ make: 'Loss', model: 'Counted', costPrice: 90_000 });
      const postings = (deviceId: string) => journalLinesOf(t.app.ctx.db, deviceId);
      const unit = async () =>
        (await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: costed.id })).json();
      const move = (id: string, status: string) =>
        manager.post(`/api/devices/${id}/status`, { status, reason: 'Stock count' });

      const found = await unit();
      expect((await move(found.id, 'lost')).statusCode).toBe(200);
      expect((await move(found.id, 'in_stock')).statusCode).toBe(200);
      expect(await postings(found.id)).toEqual([
        { source_type: 'stock_receipt', account_code: '1200', debit: 90_000, credit: 0 },
        { source_type: 'stock_receipt', account_code: '2200', debit: 0, credit: 90_000 },
        { source_type: 'inventory_loss', account_code: '1200', debit: 0, credit: 90_000 },
        { source_type: 'inventory_loss', account_code: '5300', debit: 90_000, credit: 0 },
        { source_type: 'inventory_recovery', account_code: '1200', debit: 90_000, credit: 0 },
        { source_type: 'inventory_recovery', account_code: '5300', debit: 0, credit: 90_000 },
      ]);

      // Lost, then written off: the cost leaves inventory once.
      const gone = await unit();
      await move(gone.id, 'reserved');
      await move(gone.id, 'lost');
      expect((await move(gone.id, 'written_off')).statusCode).toBe(200);
      const goneLines = await postings(gone.id);
      expect(goneLines.filter((line) => line.source_type === 'inventory_loss')).toEqual([
        { source_type: 'inventory_loss', account_code: '1200', debit: 0, credit: 90_000 },
        { source_type: 'inventory_loss', account_code: '5300', debit: 90_000, credit: 0 },
      ]);
      expect(goneLines).toHaveLength(4);

      // Written off straight from the shelf.
      const broken = await unit();
      await move(broken.id, 'written_off');
      expect((await postings(broken.id)).map((line) => line.source_type)).toEqual([
        'stock_receipt',
        'stock_receipt',
        'inventory_loss',
        'inventory_loss',
      ]);
      const lines = (await Promise.all([found, gone, broken].map((u) => postings(u.id)))).flat();
      const inventory = lines
        .filter((line) => line.account_code === '1200')
        .reduce((net, line) => net + line.debit - line.credit, 0);
      expect(inventory).toBe(90_000);
    });

    it('leaves a unit reserved by a contract to that contract', async () => {
      const device = (
        await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: phone.id })
      ).json();
      // What the contracts area does when a draft reserves the unit.
      await t.app.ctx.db.update(devices).set({ status: 'reserved' }).where(eq(devices.id, device.id));
      await t.app.ctx.db.insert(deviceEvents).values({
        id: crypto.randomUUID(),
        deviceId: device.id,
        fromStatus: 'in_stock',
        toStatus: 'reserved',
        reason: 'Reserved for contract CT-000001',
        contractId: crypto.randomUUID(),
        at: new Date(t.clock.ms + 1000),
      });
      const refused = await manager.post(`/api/devices/${device.id}/status`, {
        status: 'in_stock',
        reason: 'Tidy up',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(
        'The unit is reserved for a contract; cancel or activate that contract instead',
      );
    });

    it('lists units with search by serial or IMEI, filters, sorts and CSV', async () => {
      const tv = await createModel({ make: 'Hisense', model: 'TV 32', category: 'tv' });
      const imei = nextImei();
      const a = (await manager.post('/api/devices', { serialNumber: 'LISTTV-001', modelId: tv.id })).json();
      await manager.post('/api/devices', { serialNumber: 'LISTTV-002', modelId: tv.id });
      await manager.post('/api/devices', { serialNumber: 'LISTPH-001', modelId: phone.id, imei });
      await manager.post(`/api/devices/${a.id}/status`, { status: 'reserved', reason: 'Held' });
      const serials = async (url: string) =>
        (await viewer.get(url)).json().items.map((d: { serialNumber: string }) => d.serialNumber);
      expect(await serials('/api/devices?q=listtv&sort=serialNumber&order=asc')).toEqual([
        'LISTTV-001',
        'LISTTV-002',
      ]);
      expect(await serials(`/api/devices?q=${imei.slice(3, 12)}`)).toEqual(['LISTPH-001']);
      expect(await serials('/api/devices?q=list&status=reserved')).toEqual(['LISTTV-001']);
      expect(await serials(`/api/devices?q=list&modelId=${phone.id}`)).toEqual(['LISTPH-001']);
      expect(await serials('/api/devices?q=list&category=tv&sort=serialNumber&order=desc')).toEqual([
        'LISTTV-002',
        'LISTTV-001',
      ]);
      expect(await serials('/api/devices?q=list&controlKind=lock_api')).toEqual(['LISTPH-001']);
      expect(await serials('/api/devices?q=list&lockState=locked')).toEqual([]);
      expect((await viewer.get('/api/devices?q=list')).json().total).toBe(3);
      const csv = (await viewer.get('/api/devices?q=list&format=csv&sort=serialNumber&order=asc')).body.split(
        '\r\n',
      );
      expect(csv[0]).toBe(
        'Serial number,IMEI,Make,Model,Category,Status,Lock state,Active until,Control,Token count,Created at',
      );
      expect(csv[1]).toMatch(/^LISTPH-001,\d{15},Samsung,A05,smartphone,in_stock,unknown,,lock_api,,/);
      expect(csv).toHaveLength(5);
      expect((await viewer.get('/api/devices?status=broken')).statusCode).toBe(400);
    });

    it('keeps list totals exact when an IMEI or a model’s category changes', async () => {
      const model = await createModel({ category: 'tablet' });
      const unit = (
        await manager.post('/api/devices', { serialNumber: nextSerial(), modelId: model.id })
      ).json();
      const imei = nextImei();
      const total = async (url: string) => (await viewer.get(url)).json().total;
      // Read (and so cache) the totals the changes below must move.
      expect(await total(`/api/devices?q=${imei}`)).toBe(0);
      const tablets = await total('/api/devices?category=tablet');
      const laptops = await total('/api/devices?category=laptop');
      expect((await manager.patch(`/api/devices/${unit.id}`, { imei })).statusCode).toBe(200);
      expect(await total(`/api/devices?q=${imei}`)).toBe(1);
      expect((await manager.patch(`/api/device-models/${model.id}`, { category: 'laptop' })).statusCode).toBe(
        200,
      );
      expect(await total('/api/devices?category=tablet')).toBe(tablets - 1);
      expect(await total('/api/devices?category=laptop')).toBe(laptops + 1);
    });

    it('shows every change of a listed unit at once, though pages are cached', async () => {
      const model = await createModel({ controlKind: 'openpaygo', model: 'Cached Kit' });
      const serialNumber = nextSerial();
      await manager.post('/api/devices', {
        serialNumber,
        modelId: model.id,
        control: { kind: 'openpaygo', secretKey: KEY },
      });
      const listed = async () => {
        const [row] = (await viewer.get(`/api/devices?q=${serialNumber.toLowerCase()}`)).json().items;
        return { status: row.status, count: row.control.count, name: row.model.name };
      };
      expect(await listed()).toEqual({ status: 'in_stock', count: 0, name: 'Tecno Cached Kit' });
      const { id } = (await viewer.get(`/api/devices?q=${serialNumber.toLowerCase()}`)).json().items[0];
      // A token moves the count the list shows.
      expect(
        (await manager.post(`/api/devices/${id}/tokens`, { type: 'ADD_TIME', days: 7 })).statusCode,
      ).toBe(201);
      expect((await listed()).count).toBe(2);
      expect(
        (await manager.post(`/api/devices/${id}/status`, { status: 'reserved', reason: 'Held' })).statusCode,
      ).toBe(200);
      expect((await listed()).status).toBe('reserved');
      expect(
        (await manager.patch(`/api/device-models/${model.id}`, { model: 'Renamed Kit' })).statusCode,
      ).toBe(200);
      expect(await listed()).toEqual({ status: 'reserved', count: 2, name: 'Tecno Renamed Kit' });
    });
  });

  describe('import', () => {
    let handset: { id: string };
    beforeAll(async () => {
      await createModel({
        make: 'Imp',
        model: 'Solar',
        category: 'solar_home_system',
        controlKind: 'openpaygo',
        sku: 'IMP-SOL',
      });
      handset = await createModel({
        make: 'Imp',
        model: 'Phone',
        category: 'smartphone',
        controlKind: 'lock_api',
        sku: 'IMP-PH',
      });
    });
    const unitCount = async () => Number((await t.app.ctx.db.select({ n: count() }).from(devices))[0]?.n);

    it('previews a dry run with every row’s problems and writes nothing', async () => {
      const taken = (
        await manager.post('/api/devices', { serialNumber: 'IMP-TAKEN', modelId: handset.id })
      ).json();
      const good = nextImei();
      const csv = [
        'Serial Number,model_sku,imei,openpaygo_secret_key,openpaygo_starting_code',
        `IMP-1,IMP-SOL,,${KEY},516959010`,
        `IMP-2,IMP-PH,${good},,`,
        'IMP-3,IMP-PH,490154203237519,,',
        `IMP-2,IMP-PH,${good},,`,
        'IMP-4,NOPE,,,',
        'IMP-5,IMP-SOL,,,',
        `IMP-6,IMP-PH,,${KEY},`,
        `${taken.serialNumber},IMP-PH,,,`,
        ',IMP-PH,,,',
      ].join('\r\n');
      const before = await unitCount();
      const response = await manager.post('/api/devices/import', { csv, dryRun: true });
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json();
      expect(result).toMatchObject({ dryRun: true, rows: 9, valid: 2, imported: 0 });
      expect(result.preview).toEqual([
        { row: 2, serialNumber: 'IMP-1', imei: null, model: 'Imp Solar', controlKind: 'openpaygo' },
        { row: 3, serialNumber: 'IMP-2', imei: good, model: 'Imp Phone', controlKind: 'lock_api' },
      ]);
      expect(result.errors).toEqual([
        { row: 4, field: 'imei', message: 'IMEI check digit is wrong' },
        { row: 5, field: 'serial_number', message: 'Serial number IMP-2 is also on row 3' },
        { row: 5, field: 'imei', message: `IMEI ${good} is also on row 3` },
        { row: 6, field: 'model_sku', message: 'No device model has the SKU NOPE' },
        {
          row: 7,
          field: 'openpaygo_secret_key',
          message: 'Imp Solar is an OpenPAYGO model: give the secret key',
        },
        {
          row: 8,
          field: 'openpaygo_secret_key',
          message: 'Imp Phone is not an OpenPAYGO model; leave the OpenPAYGO columns empty',
        },
        { row: 9, field: 'serial_number', message: 'Serial number IMP-TAKEN is already in the inventory' },
        { row: 10, field: 'serial_number', message: 'Serial number is required' },
      ]);
      expect(await unitCount()).toBe(before);
      // The same file for real: refused whole, nothing written.
      const real = await manager.post('/api/devices/import', { csv });
      expect(real.statusCode).toBe(422);
      expect(real.json().message).toMatch(/^8 problem\(s\) in 7 row\(s\); nothing was imported/);
      expect(real.json().errors[0]).toEqual({ field: 'row 4: imei', message: 'IMEI check digit is wrong' });
      expect(await unitCount()).toBe(before);
    });

    it('names what is wrong with the header', async () => {
      const response = await manager.post('/api/devices/import', {
        csv: 'serial,colour\nA,red\n',
        dryRun: true,
      });
      expect(response.json().errors).toEqual([
        { row: 1, field: 'serial', message: expect.stringContaining('Unknown column') },
        { row: 1, field: 'colour', message: expect.stringContaining('Unknown column') },
        { row: 1, field: 'serial_number', message: 'The serial_number column is missing' },
        { row: 1, field: 'model_sku', message: expect.stringContaining('Name the model') },
      ]);
      expect((await manager.post('/api/devices/import', { csv: '' })).statusCode).toBe(400);
    });

    it('imports every row or none; by SKU, by make and model; keys encrypted, starting codes derived', async () => {
      const before = await unitCount();
      const csv = `serial_number,make,model,openpaygo_secret_key\nIMPR-1,imp,solar,${KEY}\nIMPR-2,Imp,Phone,\n`;
      const response = await manager.post('/api/devices/import', { csv });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ dryRun: false, rows: 2, valid: 2, imported: 2, errors: [] });
      expect(await unitCount()).toBe(before + 2);
      const [unit] = await t.app.ctx.db.select().from(devices).where(eq(devices.serialNumber, 'IMPR-1'));
      expect(unit).toMatchObject({
        controlKind: 'openpaygo',
        openpaygoCount: 0,
        openpaygoStartingCode: String(deriveStartingCode(KEY)),
      });
      expect(t.app.ctx.keyring.decrypt('openpaygo', unit?.openpaygoSecret ?? '')).toBe(KEY);
      const events = await t.app.ctx.db
        .select()
        .from(deviceEvents)
        .where(eq(deviceEvents.deviceId, unit?.id ?? ''));
      expect(events).toMatchObject([
        { toStatus: 'in_stock', reason: 'Received into stock (import)', actorId: manager.user.id },
      ]);
      const audit = await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'device.import'))
        .orderBy(asc(auditLog.id));
      expect(audit.at(-1)?.after).toMatchObject({ units: 2, firstSerial: 'IMPR-1', lastSerial: 'IMPR-2' });
      // Importing the same file again: every row is taken, nothing is written.
      const again = await manager.post('/api/devices/import', { csv });
      expect(again.statusCode).toBe(422);
      expect(await unitCount()).toBe(before + 2);
    });

    it('receives imported units into inventory at their model’s cost, in one journal entry', async () => {
      await createModel({ make: 'Imp', model: 'Costed', costPrice: 80_000, sku: 'IMP-COST' });
      const response = await manager.post('/api/devices/import', {
        csv: 'serial_number,model_sku\nIMPC-1,IMP-COST\nIMPC-2,IMP-COST\nIMPC-3,IMP-COST\n',
      });
      expect(response.statusCode, response.body).toBe(201);
      const units = await t.app.ctx.db.select().from(devices).where(like(devices.serialNumber, 'IMPC-%'));
      expect(units.map((unit) => unit.costPrice)).toEqual([80_000, 80_000, 80_000]);
      const audit = await lastAudit(t.app.ctx.db, 'device.import');
      expect(await journalLinesOf(t.app.ctx.db, audit?.entityId ?? '')).toEqual([
        { source_type: 'stock_receipt', account_code: '1200', debit: 240_000, credit: 0 },
        { source_type: 'stock_receipt', account_code: '2200', debit: 0, credit: 240_000 },
      ]);
    });

    it('takes the file as multipart too', async () => {
      const file = Buffer.from('serial_number,model_sku\nIMPM-1,IMP-PH\n');
      const dry = await manager.post(
        '/api/devices/import',
        undefined,
        multipart({ dryRun: 'true' }, [{ name: 'units.csv', contentType: 'text/csv', data: file }]),
      );
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json()).toMatchObject({ dryRun: true, valid: 1 });
      const real = await manager.post(
        '/api/devices/import',
        undefined,
        multipart({}, [{ name: 'units.csv', data: file }]),
      );
      expect(real.statusCode, real.body).toBe(201);
      expect(real.json().imported).toBe(1);
      const noFile = await manager.post('/api/devices/import', undefined, multipart({ dryRun: 'maybe' }));
      expect(noFile.statusCode).toBe(400);
      expect(
        noFile
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['csv', 'dryRun']);
    });

    // How fast is measured by `npm run bench`, never here (a loaded machine must not fail tests).
    it('imports 5,000 rows in one go', async () => {
      const lines = ['serial_number,model_sku,imei,openpaygo_secret_key'];
      for (let i = 0; i < 2500; i++) lines.push(`BULK-S-${i},IMP-SOL,,${KEY}`);
      for (let i = 0; i < 2500; i++)
        lines.push(`BULK-P-${i},IMP-PH,${imeiFrom(`86${String(i).padStart(12, '0')}`)},`);
      const csv = lines.join('\n');
      const before = await unitCount();
      const dry = await manager.post('/api/devices/import', { csv, dryRun: true });
      expect(dry.json()).toMatchObject({ rows: 5000, valid: 5000, errors: [] });
      const response = await manager.post('/api/devices/import', { csv });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
      expect(response.json().imported).toBe(5000);
      expect(await unitCount()).toBe(before + 5000);
    });
  });
});
