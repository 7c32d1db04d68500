import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import type { AutoDebitSummary, DebitAttempt, Mandate } from '@/contracts/auto-debit';
import type { Role } from '@/contracts/roles';
import AdminAutoDebitPage from '@/web/pages/admin-auto-debit';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { attemptResult, retryPolicyText, successRateText, waitingNote } from './auto-debit-format';

const user = (role: Role): User =>
  ({ id: 'u1', email: 'f@example.com', firstName: 'Fay', lastName: 'Finance', role, isOwner: false }) as User;

const attempt = (over: Partial<DebitAttempt>): DebitAttempt => ({
  id: 'a1',
  mandateId: 'm1',
  contractId: 'c1',
  contractNumber: 'CT-000042',
  customerName: 'Amina Otieno',
  method: 'mobile_money',
  dueDate: '2026-02-05',
  amount: 32_000,
  currency: 'USD',
  attempt: 1,
  status: 'scheduled',
  scheduledFor: '2026-02-05',
  attemptedAt: null,
  failureReason: null,
  providerReference: null,
  paymentId: null,
  retry: null,
  ...over,
});

const MANDATE: Mandate = {
  id: 'm1',
  contractId: 'c1',
  contractNumber: 'CT-000042',
  customerId: 'cu1',
  customerName: 'Amina Otieno',
  method: 'mobile_money',
  account: '+254700000001',
  consentReference: 'CONSENT-1',
  active: true,
  pausedReason: null,
  createdByName: 'Fay Finance',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
};

const SUMMARY: AutoDebitSummary = {
  asOf: '2026-02-06',
  since: '2026-01-07',
  currency: 'USD',
  successRate: 0.75,
  attempted: 4,
  succeeded: 3,
  collected: 96_000,
  counts: { scheduled: 1, succeeded: 3, retrying: 1, failed: 0 },
  failureReasons: [{ reason: 'insufficient funds', count: 1 }],
  recentFailures: [
    attempt({
      id: 'a2',
      status: 'retrying',
      attemptedAt: '2026-02-05T08:20:00.000Z',
      failureReason: 'insufficient funds',
      retry: { status: 'scheduled', scheduledFor: '2026-02-06' },
    }),
  ],
  upcoming: [attempt({ id: 'a3', attempt: 2, scheduledFor: '2026-02-06' })],
  nextDebits: [
    {
      mandateId: 'm1',
      contractId: 'k2',
      contractNumber: 'CT-000043',
      customerName: 'Baraka Mwangi',
      method: 'card',
      dueDate: '2026-03-06',
      amount: 32_000,
      currency: 'USD',
    },
  ],
  retriesScheduled: 1,
  mandates: { active: 1, paused: 0 },
  retryDays: [1, 3],
};

function mockApi(role: Role, summary: AutoDebitSummary = SUMMARY, mandates: Mandate[] = [MANDATE]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(user(role));
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 't' });
    if (url === '/api/auto-debit/summary') return jsonResponse(summary);
    if (url.startsWith('/api/mandates?') || url === '/api/mandates')
      return jsonResponse({ items: mandates, total: mandates.length, page: 1, pageSize: 200 });
    if (url === '/api/mandates/m1/pause' && init?.method === 'POST')
      return jsonResponse({ ...MANDATE, active: false, pausedReason: JSON.parse(String(init.body)).reason });
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('auto-debit format', () => {
  it('writes the success rate and the retry policy for people', () => {
    expect(successRateText(null)).toBe('—');
    expect(successRateText(0.935)).toBe('93.5%');
    expect(retryPolicyText([1, 3])).toBe(
      'on the due date, then retried after 1 day, then 3 days (3 attempts at most)',
    );
  });
});

describe('an attempt that failed to be retried', () => {
  const failed = (retry: DebitAttempt['retry']) =>
    attemptResult(attempt({ status: 'retrying', failureReason: 'insufficient funds', retry }));

  it('says what became of its retry, not "retrying" for ever', () => {
    expect(failed({ status: 'scheduled', scheduledFor: '2026-02-06' })).toEqual({
      label: 'Failed, retrying',
      variant: 'warning',
      note: 'Next try 6 Feb 2026',
    });
    expect(failed({ status: 'succeeded', scheduledFor: '2026-02-06' })).toMatchObject({
      label: 'Failed, collected on retry',
      variant: 'success',
    });
    expect(failed({ status: 'retrying', scheduledFor: '2026-02-06' })).toMatchObject({
      label: 'Failed, retried',
      note: 'Attempt 2 failed too',
    });
    expect(failed(null)).toEqual({
      label: 'Failed, not retried',
      variant: 'secondary',
      note: 'Paid another way before the retry',
    });
    expect(attemptResult(attempt({ status: 'failed' }))).toMatchObject({ label: 'Failed', note: null });
  });
});

describe('/admin/auto-debit', () => {
  it('refuses roles without finance.read, without calling the API', async () => {
    const fetchMock = mockApi('collector');
    renderWithProviders(<AdminAutoDebitPage />, { path: '/admin/auto-debit' });
    expect(await screen.findByTestId('card-not-allowed')).toHaveTextContent('Finance access required');
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/auto-debit'))).toBe(false);
  });

  it('shows the success rate, failures with reasons, upcoming attempts and the mandates', async () => {
    mockApi('finance');
    renderWithProviders(<AdminAutoDebitPage />, { path: '/admin/auto-debit' });
    expect(await screen.findByTestId('card-success-rate-value')).toHaveTextContent('75%');
    expect(screen.getByTestId('card-success-rate')).toHaveTextContent('3 of 4 attempts');
    expect(screen.getByTestId('card-collected-value')).toHaveTextContent('$960.00');
    expect(screen.getByTestId('item-failure-reason')).toHaveTextContent('insufficient funds: 1');
    expect(within(screen.getByTestId('table-failures')).getByText('Failed, retrying')).toBeInTheDocument();
    expect(within(screen.getByTestId('table-failures')).getByTestId('text-retry-note')).toHaveTextContent(
      'Next try 6 Feb 2026',
    );
    expect(screen.getByTestId('card-waiting')).toHaveTextContent(
      '1 of them a retry of a failed debit · 0 failed for good',
    );
    expect(within(screen.getByTestId('table-upcoming')).getByText('Attempt 2 of 3')).toBeInTheDocument();
    // Each active mandate's next instalment, with what is owed on it now.
    expect(screen.getByTestId('row-next-debit-k2')).toHaveTextContent(
      /CT-000043.*Baraka Mwangi.*Card.*6 Mar 2026.*\$320\.00/,
    );
    expect(await screen.findByTestId('row-mandate-m1')).toHaveTextContent('CT-000042');
  });

  it('says what the attempts waiting are, also when none is', () => {
    expect(waitingNote(0, 0, 1)).toBe('Nothing scheduled · 1 failed for good');
    expect(waitingNote(3, 0, 0)).toBe('None of them a retry · 0 failed for good');
    expect(waitingNote(3, 2, 0)).toBe('2 of them retries of a failed debit · 0 failed for good');
  });

  it('shows empty states when nothing has happened yet', async () => {
    mockApi(
      'finance',
      {
        ...SUMMARY,
        successRate: null,
        attempted: 0,
        succeeded: 0,
        collected: 0,
        counts: { scheduled: 0, succeeded: 0, retrying: 0, failed: 0 },
        retriesScheduled: 0,
        failureReasons: [],
        recentFailures: [],
        upcoming: [],
        nextDebits: [],
        mandates: { active: 0, paused: 0 },
      },
      [],
    );
    renderWithProviders(<AdminAutoDebitPage />, { path: '/admin/auto-debit' });
    expect(await screen.findByTestId('card-success-rate-value')).toHaveTextContent('—');
    expect(screen.getByTestId('text-no-failures')).toBeInTheDocument();
    expect(screen.getByTestId('text-no-upcoming')).toBeInTheDocument();
    expect(await screen.findByTestId('text-no-mandates')).toBeInTheDocument();
  });

  it('pauses a mandate only with a reason, after confirming', async () => {
    const u = userEvent.setup();
    const fetchMock = mockApi('finance');
    renderWithProviders(<AdminAutoDebitPage />, { path: '/admin/auto-debit' });
    await u.click(await screen.findByTestId('button-toggle-mandate-m1'));
    const dialog = await screen.findByTestId('dialog-pause-mandate');
    await u.click(within(dialog).getByTestId('button-confirm-pause'));
    expect(within(dialog).getByText('Give a reason (at least 3 characters)')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/pause'))).toBe(false);
    await u.type(within(dialog).getByTestId('input-pause-reason'), 'customer changed bank');
    await u.click(within(dialog).getByTestId('button-confirm-pause'));
    await vi.waitFor(() => expect(screen.queryByTestId('dialog-pause-mandate')).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/pause'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reason: 'customer changed bank' });
  });
});
