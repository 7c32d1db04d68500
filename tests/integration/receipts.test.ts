import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { activeContract } from '../support/origination';
import { pdfTextLines } from '../support/pdf-text';

/** Issue 13: the receipt and the customer statement as PDFs. */
describe.each(DATABASE_KINDS)('receipts and statements on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  let manager: TestClient;
  let checker: TestClient;
  let finance: TestClient;
  let finance2: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('agent');
    manager = await t.signedIn('manager');
    checker = await t.signedIn('manager');
    finance = await t.signedIn('finance');
    finance2 = await t.signedIn('finance');
  });
  afterAll(() => t.close());

  async function pdfOf(client: TestClient, url: string): Promise<string[]> {
    const response = await client.get(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const parsed = await PDFDocument.load(response.rawPayload);
    expect(parsed.getPageCount()).toBeGreaterThan(0);
    return pdfTextLines(response.rawPayload).map((line) => line.replaceAll('\u00a0', ' '));
  }

  it('prints a receipt with its number, amount, allocation, balance and token', async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker }, 'openpaygo');
    const posted = await agent.post('/api/payments', {
      contractId: contract.id,
      amount: 40_000,
      method: 'cash',
    });
    expect(posted.statusCode).toBe(201);
    const { payment } = posted.json();
    const lines = await pdfOf(agent, `/api/payments/${payment.id}/receipt.pdf`);
    const figure = (label: string) => lines[lines.indexOf(label) + 1];
    expect(lines).toContain('Payment receipt');
    expect(figure('Receipt number')).toBe(payment.receiptNumber);
    expect(figure('Amount')).toBe('USD 400.00');
    expect(figure('Contract')).toBe(contract.number);
    expect(figure('Method')).toBe('cash');
    expect(lines).toContain('How the payment was applied');
    const after = (await agent.get(`/api/contracts/${contract.id}`)).json();
    expect(figure('Balance after this payment')).toBe(
      `USD ${(after.outstanding.total / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    expect(lines).not.toContain('REVERSED');
    if (payment.token) expect(lines).toContain('Unlock token');
  });

  it('marks a reversed payment REVERSED on its receipt and its statement', async () => {
    const contract = await activeContract(t, { agent, manager, reviewer: checker });
    const first = (
      await finance.post('/api/payments', {
        contractId: contract.id,
        amount: 10_000,
        method: 'bank_transfer',
        reference: `RCPT-${contract.id}`,
      })
    ).json();
    const second = (
      await agent.post('/api/payments', { contractId: contract.id, amount: 5_000, method: 'cash' })
    ).json();
    const request = await finance.post(`/api/payments/${first.payment.id}/reverse`, { reason: 'Bounced' });
    expect(request.statusCode).toBe(201);
    expect(
      (await finance2.post(`/api/payment-corrections/${request.json().id}/approve`, {})).statusCode,
    ).toBe(200);

    const receipt = await pdfOf(finance, `/api/payments/${first.payment.id}/receipt.pdf`);
    expect(receipt).toContain('REVERSED');
    expect(receipt.some((line) => line.includes('Bounced'))).toBe(true);

    const statement = await pdfOf(agent, `/api/contracts/${contract.id}/statement.pdf`);
    expect(statement).toContain('Customer statement');
    expect(statement).toContain(first.payment.receiptNumber);
    expect(statement).toContain(second.payment.receiptNumber);
    expect(statement).toContain('REVERSED');
    expect(statement).toContain('Schedule');
    const figure = (label: string) => statement[statement.indexOf(label) + 1];
    expect(figure('Customer credit')).toBe('USD 0.00');
  });

  it('lists a receipt’s corrections and links a transferred payment both ways', async () => {
    const staff = { agent, manager, reviewer: checker };
    const from = await activeContract(t, staff);
    const to = await activeContract(t, staff);
    const { payment } = (
      await agent.post('/api/payments', { contractId: from.id, amount: 5_000, method: 'cash' })
    ).json();
    const empty = await agent.get(`/api/payments/${payment.id}/history`);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ corrections: [], transferredFrom: null, transferredTo: null });

    // A reversal asked and rejected, then a transfer asked and approved: both stay in the history.
    const reversal = (
      await finance.post(`/api/payments/${payment.id}/reverse`, { reason: 'Wrong till' })
    ).json();
    await finance2.post(`/api/payment-corrections/${reversal.id}/reject`, { note: 'Till checked' });
    t.clock.advance(60_000);
    const transfer = (
      await finance.post(`/api/payments/${payment.id}/transfer`, {
        contractId: to.id,
        reason: 'Paid for her brother',
      })
    ).json();
    await finance2.post(`/api/payment-corrections/${transfer.id}/approve`, {});

    const history = (await agent.get(`/api/payments/${payment.id}/history`)).json();
    expect(history.corrections).toMatchObject([
      { kind: 'reverse', status: 'rejected', reason: 'Wrong till', decisionNote: 'Till checked' },
      {
        kind: 'transfer',
        status: 'approved',
        reason: 'Paid for her brother',
        targetContractNumber: to.number,
      },
    ]);
    for (const entry of history.corrections) {
      expect(entry.requestedByName).toBeTruthy();
      expect(entry.decidedByName).toBeTruthy();
      expect(entry.decidedAt).toBeTruthy();
      expect(entry).not.toHaveProperty('payment');
    }
    expect(history.transferredFrom).toBeNull();
    expect(history.transferredTo).toMatchObject({
      contractId: to.id,
      contractNumber: to.number,
      status: 'posted',
    });

    const moved = (await agent.get(`/api/payments/${history.transferredTo.id}/history`)).json();
    expect(moved).toEqual({
      corrections: [],
      transferredFrom: {
        id: payment.id,
        receiptNumber: payment.receiptNumber,
        contractId: from.id,
        contractNumber: from.number,
        status: 'reversed',
      },
      transferredTo: null,
    });
  });

  it('answers 404 for an unknown payment or contract, and 401 when signed out', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await agent.get(`/api/payments/${unknown}/receipt.pdf`)).statusCode).toBe(404);
    expect((await agent.get(`/api/contracts/${unknown}/statement.pdf`)).statusCode).toBe(404);
    expect((await agent.get(`/api/payments/${unknown}/history`)).statusCode).toBe(404);
    expect((await t.client().get(`/api/payments/${unknown}/receipt.pdf`)).statusCode).toBe(401);
  });
});
