import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { devices } from '../../src/db/schema';
import { messageDate } from '../../src/domain';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activePlan, deviceInStock, draftContract, verifiedCustomer } from '../support/origination';
import { pdfTextLines } from '../support/pdf-text';

/** The Fineract reference case A: 1,250.00 at 15% monthly over 4, instalments in multiples of 1.00. */
const CASE_A = { totals: [32200, 32200, 32200, 32333], interest: [1562, 1180, 792, 399] };

describe.each(DATABASE_KINDS)('contracts on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let secondManager: TestClient;
  let finance: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    secondManager = await t.signedIn('manager');
    finance = await t.signedIn('finance');
  });
  afterAll(() => t.close());

  const draft = (overrides: Record<string, unknown> = {}) =>
    draftContract(t, { agent, manager, reviewer: secondManager }, overrides);

  it('creates a draft with the engine’s schedule, reserving the device, as API.md describes', async () => {
    const { contract, device } = await draft();
    expect(contract).toMatchObject({
      status: 'draft',
      number: expect.stringMatching(/^CT-\d{6}$/),
      cashPrice: 150_000,
      deposit: 25_000,
      principal: 125_000,
      apr: 15,
      frequency: 'monthly',
      term: 4,
      installment: 32_200,
      dpd: 0,
      bucket: 'current',
      outstanding: { principal: 125_000, interest: 3_933, fees: 0, penalties: 0, total: 128_933 },
    });
    expect(contract.schedule.map((row: { total: number }) => row.total)).toEqual(CASE_A.totals);
    expect(contract.schedule.map((row: { interest: number }) => row.interest)).toEqual(CASE_A.interest);
    expect(contract.schedule.at(-1)?.balance).toBe(0);
    expect(contract.device).toMatchObject({ id: device.id, status: 'reserved' });
    expect(contract.activationBlockers).toContain('Submit the contract for approval');
    const fetched = await agent.get(`/api/contracts/${contract.id}`);
    expect(fetched.json()).toEqual(contract);
  });

  it('previews the same schedule without saving or reserving anything', async () => {
    const customer = await verifiedCustomer(t, agent, secondManager);
    const device = await deviceInStock(manager);
    const plan = await activePlan(manager);
    const preview = await agent.post('/api/contracts/preview', {
      customerId: customer.id,
      deviceId: device.id,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      principal: 125_000,
      minimumDeposit: 15_000,
      regularPayment: 32_200,
    });
    const [row] = await t.app.ctx.db
      .select({ status: devices.status })
      .from(devices)
      .where(eq(devices.id, device.id));
    expect(row?.status).toBe('in_stock');
  });

  it('asks for the exact percentage deposit: 150.00 at 8.3% is 12.45, and takes it', async () => {
    const customer = await verifiedCustomer(t, agent, secondManager);
    const device = await deviceInStock(manager, { retailPrice: 15_000 });
    const plan = await activePlan(manager, { minDepositPercent: 8.3, installmentMultiple: 0 });
    const terms = { customerId: customer.id, deviceId: device.id, planId: plan.id, term: 4 };
    const preview = await agent.post('/api/contracts/preview', { ...terms, deposit: 1245 });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ minimumDeposit: 1245 });
    const short = await agent.post('/api/contracts/preview', { ...terms, deposit: 1244 });
    expect(short.statusCode).toBe(400);
  });

  it('refuses bad terms with a message per field, plan rules with 422, and a device already in a contract with 409', async () => {
    const { contract, customer, device, plan } = await draft();
    const otherDevice = await deviceInStock(manager);
    const base = {
      customerId: customer.id,
      deviceId: otherDevice.id,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    };
    const badTerm = await agent.post('/api/contracts', { ...base, term: 5 });
    expect(badTerm.statusCode).toBe(400);
    expect(badTerm.json().errors).toContainEqual({
      field: 'term',
      message: expect.stringContaining('allows 4, 6, 12 instalments'),
    });
    const lowDeposit = await agent.post('/api/contracts', { ...base, deposit: 1_000 });
    expect(lowDeposit.json().errors).toContainEqual({
      field: 'deposit',
      message: expect.stringContaining('at least 15000'),
    });
    const fullDeposit = await agent.post('/api/contracts', { ...base, deposit: 150_000 });
    expect(fullDeposit.json().errors[0].field).toBe('deposit');
    const taken = await agent.post('/api/contracts', { ...base, deviceId: device.id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/already in another open contract/);
    const tvOnly = await activePlan(manager, { eligibleCategories: ['tv'] });
    const notEligible = await agent.post('/api/contracts', { ...base, planId: tvOnly.id });
    expect(notEligible.statusCode).toBe(422);
    expect(notEligible.json().message).toMatch(/does not finance smartphone devices/);
    const unknown = await agent.post('/api/contracts', {
      ...base,
      customerId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.json().errors).toContainEqual({ field: 'customerId', message: 'No such customer' });
    // Nothing was created by the refusals: the second device is still in stock.
    const [row] = await t.app.ctx.db
      .select({ status: devices.status })
      .from(devices)
      .where(eq(devices.id, otherDevice.id));
    expect(row?.status).toBe('in_stock');
    expect((await agent.get(`/api/contracts/${contract.id}`)).json().status).toBe('draft');
  });

  it('needs a second person to approve: the maker cannot', async () => {
    const { contract } = await draft();
    expect((await agent.post(`/api/contracts/${contract.id}/approve`)).statusCode).toBe(403); // agents cannot approve at all
    // A manager who created and submitted it cannot approve it either.
    const customer = await verifiedCustomer(t, agent, secondManager);
    const device = await deviceInStock(manager);
    const plan = await activePlan(manager);
    const own = (
      await manager.post('/api/contracts', {
        customerId: customer.id,
        deviceId: device.id,
        planId: plan.id,
        deposit: 25_000,
        term: 4,
      })
    ).json();
    await manager.post(`/api/contracts/${own.id}/submit`);
    const self = await manager.post(`/api/contracts/${own.id}/approve`);
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe(
      'You created or submitted this contract; another person must approve it',
    );
    expect((await secondManager.post(`/api/contracts/${own.id}/approve`)).json().approvedBy.id).toBeTruthy();

    expect((await secondManager.post(`/api/contracts/${contract.id}/approve`)).statusCode).toBe(409); // still a draft
    await agent.post(`/api/contracts/${contract.id}/submit`);
    const returned = await manager.post(`/api/contracts/${contract.id}/return`, {
      reason: 'Wrong deposit amount',
    });
    expect(returned.json()).toMatchObject({ status: 'draft' });
    expect(returned.json().events.at(-1).message).toBe('Sent back for changes: Wrong deposit amount');
  });

  it('refuses activation with 422 and a message for each unmet condition, then activates', async () => {
    const { contract, customer, device } = await draft();
    const activate = () => manager.post(`/api/contracts/${contract.id}/activate`);
    expect((await activate()).statusCode).toBe(409); // a draft
    await agent.post(`/api/contracts/${contract.id}/submit`);
    let refused = await activate();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('A second person must approve the contract');
    await manager.post(`/api/contracts/${contract.id}/approve`);

    refused = await activate();
    expect(refused.json().message).toBe('The deposit of $250.00 is not fully received ($0.00 so far)');

    const over = await agent.post(`/api/contracts/${contract.id}/deposit`, {
      amount: 30_000,
      channel: 'cash',
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe('The deposit is $250.00 and $0.00 is received: at most $250.00 more');
    const first = await finance.post(`/api/contracts/${contract.id}/deposit`, {
      amount: 10_000,
      channel: 'mobile_money',
      reference: `MP-${contract.id}`,
    });
    expect(first.statusCode).toBe(201);
    const again = await finance.post(`/api/contracts/${contract.id}/deposit`, {
      amount: 10_000,
      channel: 'mobile_money',
      reference: `MP-${contract.id}`,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().depositReceived).toBe(10_000);
    const keyed = () =>
      agent.post(
        `/api/contracts/${contract.id}/deposit`,
        { amount: 15_000, channel: 'cash' },
        { headers: { 'idempotency-key': `key-${contract.id}` } },
      );
    expect((await keyed()).statusCode).toBe(201);
    expect((await keyed()).json().depositReceived).toBe(25_000);

    // KYC: a customer whose documents are not verified blocks activation.
    await t.app.ctx.db.execute(sql`UPDATE customers SET kyc_status = 'pending' WHERE id = ${customer.id}`);
    refused = await activate();
    expect(refused.json().message).toBe("The customer's KYC is not verified (pending)");
    await t.app.ctx.db.execute(sql`UPDATE customers SET kyc_status = 'verified' WHERE id = ${customer.id}`);

    await t.app.ctx.db.execute(sql`UPDATE devices SET status = 'lost' WHERE id = ${device.id}`);
    refused = await activate();
    expect(refused.json().message).toBe('The device is not held in stock for this contract (lost)');
    await t.app.ctx.db.execute(sql`UPDATE devices SET status = 'reserved' WHERE id = ${device.id}`);

    const activated = await activate();
    expect(activated.statusCode, activated.body).toBe(200);
    const body = activated.json();
    expect(body.token).toBeNull();
    expect(body.contract).toMatchObject({
      status: 'active',
      device: { status: 'assigned', lockState: 'unlocked' },
      activationBlockers: [],
    });
    const unit = (await agent.get(`/api/devices/${device.id}`)).json();
    expect(unit).toMatchObject({
      status: 'assigned',
      lockState: 'unlocked',
      activeUntil: body.contract.firstDueDate,
    });
    expect(body.contract.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['created', 'submitted', 'approved', 'deposit', 'activated']),
    );
    // "The customer is welcomed" (issue 15 §7): one welcome message in the outbox, with how to pay.
    const welcome = await queryRows<{ body: string; template_key: string }>(
      t.app.ctx.db,
      sql`SELECT body, template_key FROM messages WHERE contract_id = ${contract.id} AND template_key = 'welcome'`,
    );
    expect(welcome).toHaveLength(1);
    expect(welcome[0]?.body).toMatch(
      new RegExp(
        `^Welcome .+! Your .+ on ${body.contract.number} is active\\. Your first payment of .+ is due on ${messageDate(body.contract.firstDueDate)}\\. Pay to paybill \\d+, account ${body.contract.number}\\.$`,
      ),
    );
    expect((await activate()).statusCode).toBe(409);
    expect(
      (await agent.post(`/api/contracts/${contract.id}/cancel`, { reason: 'Changed my mind' })).statusCode,
    ).toBe(409);
  });

  it('posts the stock receipt, the deposit and the sale to a balanced ledger', async () => {
    const { contract, device } = await draft();
    // Received at 900.00: inventory against the supplier, then the sale takes out what it cost.
    const receipt = (
      await finance.get(`/api/ledger/journal?sourceType=stock_receipt&q=${device.serialNumber}`)
    ).json();
    expect(receipt.items).toHaveLength(1);
    expect(
      receipt.items[0].lines.map((l: { accountCode: string; debit: number; credit: number }) => [
        l.accountCode,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['1200', 90_000, 0],
      ['2200', 0, 90_000],
    ]);
    // A later cost on the model does not change what this unit cost.
    expect(
      (await manager.patch(`/api/device-models/${device.model.id}`, { costPrice: 95_000 })).statusCode,
    ).toBe(200);
    await agent.post(`/api/contracts/${contract.id}/submit`);
    await manager.post(`/api/contracts/${contract.id}/approve`);
    await agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
    await manager.post(`/api/contracts/${contract.id}/activate`);
    const journal = (
      await finance.get(`/api/ledger/journal?contractId=${contract.id}&sort=number&order=asc`)
    ).json();
    expect(journal.items.map((e: { sourceType: string }) => e.sourceType)).toEqual([
      'deposit',
      'contract_activation',
    ]);
    const sale = journal.items[1].lines.map((l: { accountCode: string; debit: number; credit: number }) => [
      l.accountCode,
      l.debit,
      l.credit,
    ]);
    expect(sale).toEqual([
      ['1100', 125_000, 0],
      ['2000', 25_000, 0],
      ['4000', 0, 150_000],
      ['5000', 90_000, 0],
      ['1200', 0, 90_000],
    ]);
    const trial = (await finance.get('/api/ledger/trial-balance')).json();
    expect(trial.balanced).toBe(true);
    expect(trial.totals.debit).toBe(trial.totals.credit);
    expect((await agent.get('/api/ledger/trial-balance')).statusCode).toBe(403);
  });

  it('cancels before activation, returning the device to stock', async () => {
    const { contract, device } = await draft();
    const cancelled = await agent.post(`/api/contracts/${contract.id}/cancel`, {
      reason: 'Customer withdrew',
    });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelReason: 'Customer withdrew' });
    const [row] = await t.app.ctx.db
      .select({ status: devices.status })
      .from(devices)
      .where(eq(devices.id, device.id));
    expect(row?.status).toBe('in_stock');
    expect((await agent.post(`/api/contracts/${contract.id}/cancel`, { reason: 'again' })).statusCode).toBe(
      409,
    );
  });

  it('lists with search, filters, pages and CSV export', async () => {
    const { contract, customer } = await draft();
    const byNumber = (await agent.get(`/api/contracts?q=${contract.number.toLowerCase()}`)).json();
    expect(byNumber.items.map((c: { id: string }) => c.id)).toEqual([contract.id]);
    const byCustomer = (await agent.get(`/api/contracts?customerId=${customer.id}`)).json();
    expect(byCustomer.total).toBe(1);
    const drafts = (await agent.get('/api/contracts?status=draft&pageSize=2&sort=number&order=asc')).json();
    expect(drafts.items).toHaveLength(2);
    expect(drafts.total).toBeGreaterThan(2);
    expect(drafts.items[0].number < drafts.items[1].number).toBe(true);
    const csv = await agent.get('/api/contracts?format=csv&status=draft');
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split('\r\n')[0]).toMatch(/^Contract,Status,Customer/);
    expect(csv.body).toContain(contract.number);
    expect((await agent.get('/api/contracts?sort=colour')).statusCode).toBe(400);
  });

  it('keeps every list page and total exact after each change, though pages are cached', async () => {
    const { contract, customer, device } = await draft();
    type Page = { items: Array<{ id: string; status: string; customerName: string }>; total: number };
    const list = async (path: string) => (await agent.get(path)).json<Page>();
    const ids = (page: Page) => page.items.map((item) => item.id);
    // Read (and so cache) the pages the changes below must move the contract between.
    const draftsBefore = await list('/api/contracts?status=draft&pageSize=100');
    const pendingBefore = await list('/api/contracts?status=pending_approval&pageSize=100');
    expect(ids(draftsBefore)).toContain(contract.id);
    expect(ids(pendingBefore)).not.toContain(contract.id);

    expect((await agent.post(`/api/contracts/${contract.id}/submit`)).statusCode).toBe(200);
    const draftsAfter = await list('/api/contracts?status=draft&pageSize=100');
    const pendingAfter = await list('/api/contracts?status=pending_approval&pageSize=100');
    expect(ids(draftsAfter)).not.toContain(contract.id);
    expect(draftsAfter.total).toBe(draftsBefore.total - 1);
    expect(ids(pendingAfter)).toContain(contract.id);
    expect(pendingAfter.total).toBe(pendingBefore.total + 1);

    // The search reaches the customer (names, phone as typed locally) and the device (serial).
    const national = `0${String(customer.phone).slice(4)}`;
    expect(ids(await list(`/api/contracts?q=${national}`))).toEqual([contract.id]);
    expect(ids(await list(`/api/contracts?q=${encodeURIComponent(device.serialNumber)}`))).toEqual([
      contract.id,
    ]);
    const renamed = `Zanzibar${process.pid}`;
    expect((await list(`/api/contracts?q=${renamed}`)).total).toBe(0);
    const patched = await agent.patch(`/api/customers/${customer.id}`, {
      lastName: renamed,
      version: customer.version,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const found = await list(`/api/contracts?q=${renamed.toLowerCase()}`);
    expect(found.total).toBe(1);
    expect(found.items[0]?.customerName).toBe(`${customer.firstName} ${renamed}`);
  });

  it('moves the device between the unit list’s status totals as the contract reserves and releases it', async () => {
    const customer = await verifiedCustomer(t, agent, secondManager);
    const device = await deviceInStock(manager);
    const plan = await activePlan(manager);
    const total = async (status: string) => (await agent.get(`/api/devices?status=${status}`)).json().total;
    const [inStock, reserved] = [await total('in_stock'), await total('reserved')];
    const created = await agent.post('/api/contracts', {
      customerId: customer.id,
      deviceId: device.id,
      planId: plan.id,
      deposit: 25_000,
      term: 4,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect([await total('in_stock'), await total('reserved')]).toEqual([inStock - 1, reserved + 1]);
    const events = (await agent.get(`/api/devices/${device.id}`)).json().events;
    expect(events[0]).toMatchObject({
      from: 'in_stock',
      to: 'reserved',
      reason: `Reserved for contract ${created.json().number}`,
    });
    await agent.post(`/api/contracts/${created.json().id}/cancel`, { reason: 'Customer changed their mind' });
    expect([await total('in_stock'), await total('reserved')]).toEqual([inStock, reserved]);
  });

  it('sorts each way with ties in a stable order, contracts never activated last', async () => {
    const sorted = async (sort: string, order: string) =>
      (await agent.get(`/api/contracts?sort=${sort}&order=${order}&pageSize=100`)).json<{
        items: Array<{ id: string; dpd: number; activatedAt: string | null }>;
      }>().items;
    for (const order of ['asc', 'desc']) {
      const byDpd = await sorted('dpd', order);
      const tied = byDpd.filter((item) => item.dpd === 0).map((item) => item.id);
      const expected = [...tied].sort();
      expect(tied).toEqual(order === 'asc' ? expected : expected.reverse());
      const byActivation = await sorted('activatedAt', order);
      const firstNever = byActivation.findIndex((item) => item.activatedAt === null);
      expect(byActivation.slice(firstNever).every((item) => item.activatedAt === null)).toBe(true);
    }
  });

  it('produces the key-facts statement PDF', async () => {
    const { contract } = await draft({ term: 12 });
    const response = await agent.get(`/api/contracts/${contract.id}/key-facts.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Each figure is drawn as its label, then its value.
    // (Money is formatted by Intl, with a no-break space after the currency code.)
    const lines = pdfTextLines(response.rawPayload).map((line) => line.replaceAll('\u00a0', ' '));
    const figure = (label: string) => lines[lines.indexOf(label) + 1];
    const usd = (minor: number) =>
      `USD ${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(lines).toContain('Key facts statement');
    expect(figure('Cash price of the device')).toBe('USD 1,500.00');
    expect(figure('Deposit')).toBe('USD 250.00');
    expect(figure('Amount financed')).toBe('USD 1,250.00');
    expect(figure('Payment every month')).toBe(usd(contract.regularPayment));
    expect(figure('Number of payments')).toBe('12');
    expect(figure('Annual percentage rate (APR)')).toBe('15% (declining balance)');
    expect(figure('Total interest')).toBe(usd(contract.totalInterest));
    expect(figure('Total service fees')).toBe('USD 0.00');
    expect(figure('Total cost including the deposit')).toBe(usd(contract.totalPayable + 25_000));
    // The schedule: a row per instalment, ending at a zero balance.
    const last = contract.schedule.at(-1);
    const lastRow = lines.lastIndexOf(last?.dueDate ?? '');
    expect(lines[lastRow - 1]).toBe('12');
    expect(lines.slice(lastRow + 1, lastRow + 6).at(-1)).toBe('0.00');
    expect(lines.filter((line) => /^\d{4}-\d{2}-\d{2}$/.test(line)).length).toBeGreaterThanOrEqual(12);
  });

  it('dates the timeline by the business clock, in order, even when the clock stands still', async () => {
    const { contract } = await draft();
    const createdAt = contract.createdAt;
    await agent.post(`/api/contracts/${contract.id}/submit`);
    await manager.post(`/api/contracts/${contract.id}/approve`);
    await agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
    expect((await manager.post(`/api/contracts/${contract.id}/activate`)).statusCode).toBe(200);
    const { events } = (await agent.get(`/api/contracts/${contract.id}`)).json();
    const times = events.map((event: { at: string }) => Date.parse(event.at));
    expect(events[0]).toMatchObject({ type: 'created', at: createdAt });
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
    // The clock stood still: every event is within a few milliseconds of it, not at the server's time.
    expect(times.at(-1) - times[0]).toBeLessThan(50);
  });

  it('keeps a live contract on its plan version when the plan is edited', async () => {
    const { contract, plan } = await draft();
    const edited = await manager.patch(`/api/service-plans/${plan.id}`, { apr: 25 });
    expect(edited.json()).toMatchObject({ version: 2, status: 'draft', apr: 25 });
    await manager.post(`/api/service-plans/${edited.json().id}/activate`);
    expect((await manager.get(`/api/service-plans/${plan.id}`)).json()).toMatchObject({
      status: 'retired',
      contracts: 1,
    });
    expect((await agent.get(`/api/contracts/${contract.id}`)).json()).toMatchObject({
      apr: 15,
      plan: { version: 1 },
    });
  });

  it('dates the schedule from activation on the terms approved, whatever the price list and plan say by then', async () => {
    const startDate = new Date(t.clock.now().getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
    const { contract, device, plan } = await draft({ startDate });
    expect(contract.startDate).toBe(startDate);
    await agent.post(`/api/contracts/${contract.id}/submit`);
    await manager.post(`/api/contracts/${contract.id}/approve`);
    await agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
    // Meanwhile the model's price goes up and the plan is replaced by a dearer version.
    const repriced = await manager.patch(`/api/device-models/${device.model.id}`, { retailPrice: 180_000 });
    expect(repriced.statusCode, repriced.body).toBe(200);
    const edited = await manager.patch(`/api/service-plans/${plan.id}`, { apr: 30 });
    await manager.post(`/api/service-plans/${edited.json().id}/activate`);

    const activated = await manager.post(`/api/contracts/${contract.id}/activate`);
    expect(activated.statusCode, activated.body).toBe(200);
    const live = activated.json().contract;
    expect(live.startDate).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(live.startDate).not.toBe(startDate);
    expect(live).toMatchObject({ cashPrice: 150_000, principal: 125_000, apr: 15, installment: 32_200 });
    expect(live.schedule.map((row: { total: number }) => row.total)).toEqual(CASE_A.totals);
    expect(live.schedule.reduce((sum: number, row: { principal: number }) => sum + row.principal, 0)).toBe(
      125_000,
    );
    expect(live.firstDueDate).toBe(live.schedule[0].dueDate);
    expect(live.events.map((e: { type: string }) => e.type)).toContain('rescheduled');
  });

  it('serialises deposits on one contract: concurrent deliveries never over-collect', async () => {
    const { contract } = await draft();
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        agent.post(`/api/contracts/${contract.id}/deposit`, {
          amount: 10_000,
          channel: 'cash',
          reference: `R-${contract.id}-${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 422, 422]);
    const [row] = await queryRows<{ total: string }>(
      t.app.ctx.db,
      sql`SELECT sum(amount) AS total FROM payments WHERE contract_id = ${contract.id}`,
    );
    expect(Number(row?.total)).toBe(20_000);
  });
});
