import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { draftContract, type OriginationStaff } from '../support/origination';

const MASKED_PHONE = /^\+254•+\d{3}$/;

/** Issue 12 §3: one masking rule for every answer with personal data; scans and activation by role. */
describe.each(DATABASE_KINDS)('access to personal data on %s', (kind) => {
  let t: TestApp;
  let staff: OriginationStaff;
  let viewer: TestClient;
  let contract: { id: string; number: string };
  let customer: { id: string; phone?: unknown };

  beforeAll(async () => {
    t = await startTestApp(kind);
    staff = {
      agent: await t.signedIn('agent'),
      manager: await t.signedIn('manager'),
      reviewer: await t.signedIn('manager'),
    };
    viewer = await t.signedIn('viewer');
    ({ contract, customer } = await draftContract(t, staff));
  });
  afterAll(() => t.close());

  it("masks the customer's phone for a viewer on the contracts list, its CSV and the contract page", async () => {
    const phone = String((await staff.agent.get(`/api/customers/${customer.id}`)).json().phone);
    const list = `/api/contracts?q=${contract.number}`;
    // Cached pages are per PII view: the agent's full page first, then the viewer's masked one.
    expect((await staff.agent.get(list)).json().items[0].customerPhone).toBe(phone);
    expect((await viewer.get(list)).json().items[0].customerPhone).toMatch(MASKED_PHONE);
    const csv = (await viewer.get(`${list}&format=csv`)).body;
    expect(csv).not.toContain(phone);
    expect(csv).toContain('•');
    expect((await viewer.get(`/api/contracts/${contract.id}`)).json().customer.phone).toMatch(MASKED_PHONE);
    expect((await staff.agent.get(`/api/contracts/${contract.id}`)).json().customer.phone).toBe(phone);
  });

  it('lets only the roles that work KYC open a scan', async () => {
    const [document] = (await staff.agent.get(`/api/customers/${customer.id}/documents`)).json();
    const file = `/api/customers/${customer.id}/documents/${document.id}/file`;
    expect((await viewer.get(file)).statusCode).toBe(403);
    expect((await staff.agent.get(file)).statusCode).toBe(200);
  });

  it('lets a manager activate a contract (it issues the device token), not an agent', async () => {
    await staff.agent.post(`/api/contracts/${contract.id}/submit`);
    await staff.manager.post(`/api/contracts/${contract.id}/approve`);
    await staff.agent.post(`/api/contracts/${contract.id}/deposit`, { amount: 25_000, channel: 'cash' });
    const byAgent = await staff.agent.post(`/api/contracts/${contract.id}/activate`);
    expect(byAgent.statusCode).toBe(403);
    const byManager = await staff.manager.post(`/api/contracts/${contract.id}/activate`);
    expect(byManager.statusCode, byManager.body).toBe(200);
  });

  it('tells browsers and proxies to keep no copy of an API answer', async () => {
    for (const path of ['/api/user', `/api/contracts/${contract.id}`, '/api/customers', '/api/health']) {
      expect((await staff.agent.get(path)).headers['cache-control'], path).toBe('no-store');
    }
    expect((await staff.agent.get('/api/nothing-here')).headers['cache-control']).toBe('no-store');
  });
});
