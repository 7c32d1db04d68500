import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customers, users } from '../../src/db/schema';
import { businessDate } from '../../src/server/dates';
import { rescoreCustomers } from '../../src/server/modules/customers/rescore';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { e164Kenyan, nextKenyanPhone, setOrganisation } from '../support/origination';
import { lastAudit } from '../support/records';

type Client = TestClient & { user: { id: string } };

describe.each(DATABASE_KINDS)('customers on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let agent: Client;
  let viewer: Client;
  let nationalIdCounter = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await t.signedIn('admin');
    agent = await t.signedIn('agent');
    viewer = await t.signedIn('viewer');
    await setOrganisation(admin, { country: 'KE', currency: 'KES', timeZone: 'Africa/Nairobi' });
  });
  afterAll(() => t.close());

  const nextNationalId = () => {
    nationalIdCounter += 1;
    return `ID${String(10_000_000 + nationalIdCounter)}`;
  };

  async function create(client: TestClient, fields: Record<string, unknown> = {}) {
    const response = await client.post('/api/customers', {
      firstName: 'Amina',
      lastName: 'Otieno',
      phone: nextKenyanPhone(),
      ...fields,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  it('creates a customer with every field: E.164 phone from the organisation country, account number, scorecard', async () => {
    const phone = nextKenyanPhone();
    const response = await agent.post('/api/customers', {
      firstName: '  Amina ',
      lastName: 'Otieno',
      otherNames: 'Wanjiru',
      phone: `${phone.slice(0, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`,
      email: 'Amina.Otieno@Example.com',
      nationalId: '12 345 678',
      dateOfBirth: '1990-05-17',
      gender: 'female',
      address: 'Moi Avenue 12, Nairobi',
      region: 'Nairobi',
      occupation: 'Tailor',
      employment: 'self_employed',
      monthlyIncome: 45_000,
      assignedAgentId: agent.user.id,
      consents: { sms: true, whatsapp: false, dataProcessing: true },
    });
    expect(response.statusCode, response.body).toBe(201);
    const customer = response.json();
    expect(customer).toMatchObject({
      firstName: 'Amina',
      lastName: 'Otieno',
      otherNames: 'Wanjiru',
      fullName: 'Amina Wanjiru Otieno',
      phone: e164Kenyan(phone),
      email: 'amina.otieno@example.com',
      nationalId: '12345678',
      dateOfBirth: '1990-05-17',
      gender: 'female',
      region: 'Nairobi',
      employment: 'self_employed',
      monthlyIncome: 45_000,
      currency: 'KES',
      assignedAgent: { id: agent.user.id },
      kyc: {
        status: 'not_started',
        requiredDocuments: ['id_front', 'selfie'],
        missingDocuments: ['id_front', 'selfie'],
      },
      masked: false,
      version: 1,
    });
    expect(customer.accountNumber).toMatch(/^C-\d{6}$/);
    expect(customer.consents.sms).toBe(new Date(t.clock.ms).toISOString());
    expect(customer.consents.whatsapp).toBeNull();
    expect(customer.consents.marketing).toBeNull();
    expect(customer.consents.dataProcessing).not.toBeNull();
    // Transparent scorecard: every factor with its points; the total is their sum.
    const risk = customer.risk;
    expect(risk.factors.map((f: { factor: string }) => f.factor)).toEqual([
      'income',
      'affordability',
      'age',
      'employment',
      'kyc',
      'history',
      'phoneTenure',
    ]);
    expect(risk.score).toBe(risk.factors.reduce((sum: number, f: { points: number }) => sum + f.points, 0));
    expect(risk.factors.find((f: { factor: string }) => f.factor === 'history').reason).toBe(
      'no repayment history yet: the customer has no contracts',
    );
    expect(risk.factors.find((f: { factor: string }) => f.factor === 'employment')).toMatchObject({
      points: 12,
      value: 'self_employed',
    });
    expect(risk.factors.find((f: { factor: string }) => f.factor === 'kyc')).toMatchObject({ points: 0 });
    // Shillings are not judged against the default dollar bands: until set, income is not scored.
    expect(risk.factors[0]).toMatchObject({
      factor: 'income',
      points: 0,
      maxPoints: 0,
      reason: 'not scored: income bands for KES are not set (Settings, Organisation)',
    });
    expect(risk.maxScore).toBe(125);
    expect(['A', 'B', 'C', 'D', 'E']).toContain(risk.grade);
    const [row] = await t.app.ctx.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row).toMatchObject({ riskScore: risk.score, riskGrade: risk.grade, createdBy: agent.user.id });
    const fetched = (await agent.get(`/api/customers/${customer.id}`)).json();
    expect(fetched).toEqual(customer);
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'customer'), eq(auditLog.entityId, customer.id)));
    expect(audit.map((row) => row.action).sort()).toEqual([
      'customer.consent_given',
      'customer.consent_given',
      'customer.create',
    ]);
  });

  it('numbers accounts from the sequence, C- and six digits', async () => {
    const first = await create(agent);
    const second = await create(agent);
    const n = (account: string) => Number(account.slice(2));
    expect(n(second.accountNumber)).toBe(n(first.accountNumber) + 1);
  });

  it('stores numbers with their own country code as given, and refuses invalid phones with a field message', async () => {
    const foreign = await create(agent, { phone: '+1 650 253 0000' });
    expect(foreign.phone).toBe('+16502530000');
    for (const phone of ['12345', '0712', '+254 12', 'not a phone', '071234567890']) {
      const response = await agent.post('/api/customers', { firstName: 'A', lastName: 'B', phone });
      expect(response.statusCode, phone).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'phone', message: expect.stringContaining('valid phone') },
      ]);
    }
    const missing = await agent.post('/api/customers', { firstName: 'A', lastName: 'B' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { field: string }) => e.field)).toContain('phone');
  });

  it('scores income against the organisation’s own bands, labelled in its currency', async () => {
    await setOrganisation(admin, { incomeBands: [500_000, 1_500_000, 4_000_000] });
    try {
      const response = await agent.post('/api/customers', {
        firstName: 'Banded',
        lastName: 'Income',
        phone: e164Kenyan(nextKenyanPhone()),
        monthlyIncome: 2_000_000,
      });
      expect(response.statusCode, response.body).toBe(201);
      const { risk } = response.json();
      expect(risk.factors[0]).toMatchObject({ factor: 'income', points: 20, maxPoints: 30 });
      // Amounts as Intl formats them (a no-break space after the code).
      expect(risk.factors[0].reason.replace(/\s/g, ' ')).toBe('KES 15,000.00 to under KES 40,000.00 a month');
      expect(risk.maxScore).toBe(155);
      const refused = await admin.request('PUT', '/api/settings/organisation', {
        ...(await admin.get('/api/settings/organisation')).json<Record<string, unknown>>(),
        updatedAt: undefined,
        incomeBands: [500_000, 400_000, 4_000_000],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toContainEqual({
        field: 'incomeBands',
        message: 'Income thresholds must increase',
      });
    } finally {
      await setOrganisation(admin, { incomeBands: null });
    }
  });

  it('rescores existing customers when the income bands change, without moving their version', async () => {
    // Customers from before: KES without bands, so income is not scored.
    await rescoreCustomers(t.app.ctx);
    const earner = await create(agent, { monthlyIncome: 2_000_000 });
    expect(earner.risk.factors[0]).toMatchObject({ factor: 'income', points: 0 });
    await setOrganisation(admin, { incomeBands: [500_000, 1_500_000, 4_000_000] });
    try {
      const total = (await admin.get('/api/customers?pageSize=1')).json().total;
      expect(await rescoreCustomers(t.app.ctx)).toBe(total);
      const after = (await agent.get(`/api/customers/${earner.id}`)).json();
      expect(after.risk.factors[0]).toMatchObject({ factor: 'income', points: 20 });
      expect(after.risk.score).toBe(earner.risk.score + 20);
      expect(after.version).toBe(earner.version);
      const audit = await lastAudit(t.app.ctx.db, 'customer.rescore');
      expect(audit?.after).toEqual({ customers: total, scorecard: 'r2|KES|500000,1500000,4000000' });
      // Nothing left to redo: a second pass touches no one.
      expect(await rescoreCustomers(t.app.ctx)).toBe(0);
    } finally {
      await setOrganisation(admin, { incomeBands: null });
      await rescoreCustomers(t.app.ctx);
    }
  });

  it('refuses a duplicate phone (typed another way) or national ID, naming the customer who has it', async () => {
    const phone = nextKenyanPhone();
    const nationalId = nextNationalId();
    const existing = await create(agent, { phone, nationalId, firstName: 'Amina', lastName: 'Otieno' });
    const samePhone = await agent.post('/api/customers', {
      firstName: 'Other',
      lastName: 'Person',
      phone: e164Kenyan(phone),
    });
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json()).toMatchObject({
      code: 'DUPLICATE_PHONE',
      message: `This phone number already belongs to Amina Otieno (${existing.accountNumber})`,
      errors: [{ field: 'phone' }],
      // The customer who has it, for the form's link (the message is for people).
      details: { customerId: existing.id, accountNumber: existing.accountNumber, name: 'Amina Otieno' },
    });
    const sameId = await agent.post('/api/customers', {
      firstName: 'Other',
      lastName: 'Person',
      phone: nextKenyanPhone(),
      nationalId: nationalId.toLowerCase(),
    });
    expect(sameId.statusCode).toBe(409);
    expect(sameId.json().message).toBe(
      `This national ID already belongs to Amina Otieno (${existing.accountNumber})`,
    );
    expect(sameId.json().details).toEqual({
      customerId: existing.id,
      accountNumber: existing.accountNumber,
      name: 'Amina Otieno',
    });
    // And on update.
    const other = await create(agent);
    const update = await agent.patch(`/api/customers/${other.id}`, { version: other.version, phone });
    expect(update.statusCode).toBe(409);
    expect(update.json().message).toContain(existing.accountNumber);
  });

  it('two concurrent creations with the same phone: one is created, the other is a 409 naming it (never a 500)', async () => {
    for (let round = 0; round < 5; round++) {
      const phone = nextKenyanPhone();
      const nationalId = nextNationalId();
      const responses = await Promise.all(
        ['Amina', 'Baraka'].map((firstName) =>
          agent.post('/api/customers', { firstName, lastName: 'Race', phone, nationalId }),
        ),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses, responses.map((r) => r.body).join('\n')).toEqual([201, 409]);
      const winner = responses.find((r) => r.statusCode === 201)?.json();
      const loser = responses.find((r) => r.statusCode === 409)?.json();
      expect(loser.message).toMatch(
        new RegExp(
          `^This (phone number|national ID) already belongs to ${winner.firstName} Race \\(${winner.accountNumber}\\)$`,
        ),
      );
      expect(loser.details?.customerId).toBe(winner.id);
    }
  });

  it('assigns only an active staff user of agent role or above as agent', async () => {
    const unknown = await agent.post('/api/customers', {
      firstName: 'A',
      lastName: 'B',
      phone: nextKenyanPhone(),
      assignedAgentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('assignedAgentId');
    const leaver = await t.signedIn('agent');
    await t.app.ctx.db.update(users).set({ active: false }).where(eq(users.id, leaver.user.id));
    const inactive = await agent.post('/api/customers', {
      firstName: 'A',
      lastName: 'B',
      phone: nextKenyanPhone(),
      assignedAgentId: leaver.user.id,
    });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().message).toBe('Choose an active staff member as the assigned agent');
    // A viewer only reads: no customer is theirs to follow up.
    const reader = await t.signedIn('viewer');
    const byViewer = await agent.post('/api/customers', {
      firstName: 'A',
      lastName: 'B',
      phone: nextKenyanPhone(),
      assignedAgentId: reader.user.id,
    });
    expect(byViewer.statusCode).toBe(400);
    expect(byViewer.json().errors).toEqual([
      {
        field: 'assignedAgentId',
        message: 'A viewer cannot be an assigned agent; choose an agent or a more senior role',
      },
    ]);
  });

  it('updates with the current version, refuses a stale version with 409, and keeps the first change', async () => {
    const customer = await create(agent, { region: 'Nairobi' });
    const first = await agent.patch(`/api/customers/${customer.id}`, {
      version: 1,
      region: 'Mombasa',
      monthlyIncome: 90_000,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ region: 'Mombasa', monthlyIncome: 90_000, version: 2 });
    const stale = await agent.patch(`/api/customers/${customer.id}`, { version: 1, region: 'Kisumu' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('VERSION_CONFLICT');
    expect((await agent.get(`/api/customers/${customer.id}`)).json()).toMatchObject({
      region: 'Mombasa',
      version: 2,
    });
    // Clearing a field with null; nothing changed keeps the version.
    const cleared = await agent.patch(`/api/customers/${customer.id}`, { version: 2, region: null });
    expect(cleared.json()).toMatchObject({ region: null, version: 3 });
    const same = await agent.patch(`/api/customers/${customer.id}`, { version: 3, region: null });
    expect(same.json().version).toBe(3);
    // Tags: lower-cased, each once; the same list again changes nothing; a bad one says why.
    const tagged = await agent.patch(`/api/customers/${customer.id}`, {
      version: 3,
      tags: ['VIP', 'vip', 'fund-a'],
    });
    expect(tagged.json()).toMatchObject({ tags: ['vip', 'fund-a'], version: 4 });
    const again = await agent.patch(`/api/customers/${customer.id}`, { version: 4, tags: ['vip', 'fund-a'] });
    expect(again.json().version).toBe(4);
    const spaced = await agent.patch(`/api/customers/${customer.id}`, { version: 4, tags: ['fund a'] });
    expect(spaced.statusCode).toBe(400);
    expect(spaced.json().errors[0]).toMatchObject({ field: 'tags.0' });
    // The income changed the scorecard.
    expect(first.json().risk.factors[0]).toMatchObject({ factor: 'income', value: '90000' });
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, customer.id), eq(auditLog.action, 'customer.update')))
      .orderBy(asc(auditLog.id));
    expect(audit[0]).toMatchObject({
      before: { region: 'Nairobi', monthlyIncome: null },
      after: { region: 'Mombasa', monthlyIncome: 90_000 },
      actorId: agent.user.id,
    });
    expect(
      (await agent.patch('/api/customers/00000000-0000-4000-8000-000000000000', { version: 1 })).statusCode,
    ).toBe(404);
    const bad = await agent.patch(`/api/customers/${customer.id}`, {
      version: 3,
      monthlyIncome: -5,
      email: 'nope',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'monthlyIncome']);
  });

  it('stamps a consent when given, keeps the stamp when given again, clears it when withdrawn; each change audited', async () => {
    const customer = await create(agent);
    const givenAt = new Date(t.clock.ms).toISOString();
    const given = (
      await agent.patch(`/api/customers/${customer.id}`, { version: 1, consents: { marketing: true } })
    ).json();
    expect(given.consents.marketing).toBe(givenAt);
    t.clock.advance(60_000);
    const again = (
      await agent.patch(`/api/customers/${customer.id}`, { version: 2, consents: { marketing: true } })
    ).json();
    expect(again).toMatchObject({ version: 2, consents: { marketing: givenAt } });
    const withdrawn = (
      await agent.patch(`/api/customers/${customer.id}`, {
        version: 2,
        consents: { marketing: false, sms: true },
      })
    ).json();
    expect(withdrawn.consents).toMatchObject({ marketing: null, sms: new Date(t.clock.ms).toISOString() });
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'customer'), eq(auditLog.entityId, customer.id)))
      .orderBy(asc(auditLog.id));
    expect(
      audit.filter((row) => row.action.startsWith('customer.consent')).map((row) => [row.action, row.after]),
    ).toEqual([
      ['customer.consent_given', { consent: 'marketing', at: givenAt }],
      ['customer.consent_given', { consent: 'sms', at: new Date(t.clock.ms).toISOString() }],
      ['customer.consent_withdrawn', { consent: 'marketing', at: null }],
    ]);
    const timeline = (await viewer.get(`/api/customers/${customer.id}/timeline`)).json();
    expect(timeline.map((e: { summary: string }) => e.summary)).toEqual([
      'Marketing consent withdrawn',
      'SMS consent given',
      'Marketing consent given',
      `Customer created (${customer.accountNumber})`,
    ]);
  });

  it('masks the national ID in lists; viewers also get phone and email masked, in lists and in the detail', async () => {
    const phone = nextKenyanPhone();
    const customer = await create(agent, {
      firstName: 'Maskme',
      phone,
      email: 'maskme@example.com',
      nationalId: 'MASK5678',
    });
    const asAgent = (await agent.get('/api/customers?q=maskme')).json().items[0];
    expect(asAgent).toMatchObject({
      phone: e164Kenyan(phone),
      email: 'maskme@example.com',
      nationalId: '••••5678',
    });
    const asViewer = (await viewer.get('/api/customers?q=maskme')).json().items[0];
    expect(asViewer.nationalId).toBe('••••5678');
    expect(asViewer.phone).toBe(`+254${'•'.repeat(6)}${phone.slice(-3)}`);
    expect(asViewer.email).toBe('m••••@example.com');
    const detailAgent = (await agent.get(`/api/customers/${customer.id}`)).json();
    expect(detailAgent).toMatchObject({ nationalId: 'MASK5678', phone: e164Kenyan(phone), masked: false });
    const detailViewer = (await viewer.get(`/api/customers/${customer.id}`)).json();
    expect(detailViewer).toMatchObject({ nationalId: '••••5678', email: 'm••••@example.com', masked: true });
    expect(JSON.stringify(detailViewer)).not.toContain(phone.slice(1));
    // The CSV export masks the same way.
    const csvViewer = (await viewer.get('/api/customers?q=maskme&format=csv')).body;
    expect(csvViewer).toContain('••••5678');
    expect(csvViewer).not.toContain('maskme@example.com');
    expect(csvViewer).not.toContain('MASK5678');
  });

  it('lets only customers.write create and edit: viewers are refused', async () => {
    expect(
      (await viewer.post('/api/customers', { firstName: 'A', lastName: 'B', phone: nextKenyanPhone() }))
        .statusCode,
    ).toBe(403);
    const customer = await create(agent);
    expect(
      (await viewer.patch(`/api/customers/${customer.id}`, { version: 1, region: 'X' })).statusCode,
    ).toBe(403);
    expect((await viewer.get(`/api/customers/${customer.id}`)).statusCode).toBe(200);
    expect((await t.client().get('/api/customers')).statusCode).toBe(401);
  });

  describe('list', () => {
    let other: Client;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      other = await t.signedIn('agent');
      const rows = [
        {
          key: 'wanjiku',
          firstName: 'Grace',
          lastName: 'Wanjikuzzq',
          region: 'Zed Region',
          email: 'grace.w@listtest.example',
          nationalId: 'LST000001',
        },
        {
          key: 'kamau',
          firstName: 'Peter',
          lastName: 'Kamauzzq',
          region: 'Zed Region',
          assignedAgentId: other.user.id,
          nationalId: 'LST000002',
        },
        {
          key: 'achieng',
          firstName: 'Mary',
          lastName: 'Achiengzzq',
          region: 'Why Region',
          monthlyIncome: 500_000,
          employment: 'salaried',
          dateOfBirth: '1980-01-01',
        },
      ];
      for (const { key, ...fields } of rows) {
        ids[key] = (
          await create(agent, { ...fields, phone: key === 'kamau' ? '0722000111' : nextKenyanPhone() })
        ).id;
        t.clock.advance(1000);
      }
    });

    const itemsOf = async (url: string) => {
      const response = await agent.get(url);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const names = (page: { items: { lastName: string }[] }) => page.items.map((item) => item.lastName);

    it('searches names, phone (typed nationally too), account number, national ID and email', async () => {
      expect(names(await itemsOf('/api/customers?q=WANJIK'))).toEqual(['Wanjikuzzq']);
      expect(names(await itemsOf('/api/customers?q=0722%20000%20111'))).toEqual(['Kamauzzq']);
      expect(names(await itemsOf('/api/customers?q=%2B254722000111'))).toEqual(['Kamauzzq']);
      expect(names(await itemsOf('/api/customers?q=lst000002'))).toEqual(['Kamauzzq']);
      expect(names(await itemsOf('/api/customers?q=grace.w%40listtest'))).toEqual(['Wanjikuzzq']);
      const account = (await agent.get(`/api/customers/${ids.achieng}`)).json().accountNumber;
      expect(names(await itemsOf(`/api/customers?q=${account}`))).toEqual(['Achiengzzq']);
      // Wildcards are literal.
      expect((await itemsOf('/api/customers?q=%25zzq')).total).toBe(0);
    });

    it('filters by KYC status, region, agent, risk grade and creation dates, and pages with a total', async () => {
      expect(names(await itemsOf('/api/customers?region=Zed%20Region&sort=name&order=asc'))).toEqual([
        'Kamauzzq',
        'Wanjikuzzq',
      ]);
      expect(names(await itemsOf(`/api/customers?assignedAgentId=${other.user.id}`))).toEqual(['Kamauzzq']);
      const achieng = (await agent.get(`/api/customers/${ids.achieng}`)).json();
      const graded = await itemsOf(`/api/customers?riskGrade=${achieng.risk.grade}&q=zzq`);
      expect(names(graded)).toContain('Achiengzzq');
      expect(graded.items.every((item: { riskGrade: string }) => item.riskGrade === achieng.risk.grade)).toBe(
        true,
      );
      expect((await itemsOf('/api/customers?kycStatus=verified')).total).toBe(0);
      expect((await itemsOf('/api/customers?kycStatus=not_started&q=zzq')).total).toBe(3);
      const today = businessDate(new Date(t.clock.ms), 'Africa/Nairobi');
      expect((await itemsOf(`/api/customers?q=zzq&createdFrom=${today}&createdTo=${today}`)).total).toBe(3);
      expect((await itemsOf('/api/customers?q=zzq&createdTo=2000-01-01')).total).toBe(0);
      const page = await itemsOf('/api/customers?q=zzq&pageSize=2&page=2&sort=createdAt&order=asc');
      expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(names(page)).toEqual(['Achiengzzq']);
      expect(names(await itemsOf('/api/customers?q=zzq&sort=riskScore&order=desc'))[0]).toBe('Achiengzzq');
      expect((await agent.get('/api/customers?sort=nope')).statusCode).toBe(400);
      expect((await agent.get('/api/customers?createdFrom=yesterday')).json().errors[0].field).toBe(
        'createdFrom',
      );
      expect(await (await agent.get('/api/customers/regions')).json()).toEqual(
        expect.arrayContaining(['Why Region', 'Zed Region']),
      );
    });

    it('counts a new customer at once (the cached total is cleared)', async () => {
      const before = (await itemsOf('/api/customers')).total;
      await create(agent);
      expect((await itemsOf('/api/customers')).total).toBe(before + 1);
    });

    it('exports every matching row as CSV (not the JSON page), national IDs masked', async () => {
      const response = await agent.get('/api/customers?q=zzq&sort=name&order=asc&format=csv&pageSize=1');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="customers.csv"');
      const lines = response.body.trim().split('\r\n');
      expect(lines[0]).toBe(
        'Account number,First name,Last name,Phone,Email,National ID,Region,KYC status,Risk score,Risk grade,Assigned agent,Created at',
      );
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(",Mary,Achiengzzq,'+254");
      expect(lines[2]).toContain('••••0002');
      expect(lines[2]).not.toContain('LST000002');
      expect(lines[3]).toContain('grace.w@listtest.example');
    });
  });
});
