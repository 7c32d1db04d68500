import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/contracts/auth';
import type { Message } from '@/contracts/messages';
import type { Role } from '@/contracts/roles';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ContractMessagesCard } from './contract-messages-card';

const user = (role: Role): User =>
  ({ id: 'u1', email: 'a@example.com', firstName: 'Ann', lastName: 'Agent', role, isOwner: false }) as User;

const message = (over: Partial<Message>): Message => ({
  id: 'm1',
  customerId: 'cu1',
  customerName: 'Amina Otieno',
  contractId: 'c1',
  contractNumber: 'CT-000042',
  channel: 'sms',
  recipient: '+254700000001',
  template: 'overdue_day_3',
  templateVersion: 1,
  body: 'Hello Amina, USD 12.00 on CT-000042 is 3 days overdue.',
  status: 'sent',
  skippedReason: null,
  failureReason: null,
  attempts: 1,
  nextAttemptAt: null,
  sourceType: 'close_of_business',
  sourceId: '2026-02-05',
  createdAt: '2026-02-05T20:30:00.000Z',
  sentAt: '2026-02-06T08:00:00.000Z',
  deliveredAt: null,
  ...over,
});

function mockApi(role: Role, items: Message[], total = items.length) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/user') return jsonResponse(user(role));
    if (url.startsWith('/api/outbox?')) {
      const pageSize = Number(new URL(url, 'http://x').searchParams.get('pageSize'));
      return jsonResponse({ items: items.slice(0, pageSize), total, page: 1, pageSize });
    }
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the contract page’s messages card', () => {
  it('is not shown to viewers, and asks nothing of the API for them', async () => {
    const fetchMock = mockApi('viewer', [message({})]);
    renderWithProviders(<ContractMessagesCard contract={{ id: 'c1' }} />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/user', expect.anything()));
    expect(screen.queryByTestId('card-contract-messages')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/outbox'))).toBe(false);
  });

  it('lists each message with its state, and the reason of a failure or a skip', async () => {
    mockApi('agent', [
      message({}),
      message({
        id: 'm2',
        template: 'token',
        status: 'failed',
        attempts: 5,
        failureReason: 'gateway timeout',
        body: 'Hello Amina, your code is 123 456 789.',
      }),
      message({
        id: 'm3',
        template: 'lock_warning',
        status: 'skipped',
        attempts: 0,
        skippedReason: 'The customer has not consented to SMS messages',
      }),
    ]);
    renderWithProviders(<ContractMessagesCard contract={{ id: 'c1' }} />);
    expect(await screen.findByTestId('item-message-m1')).toHaveTextContent('Overdue, day 3');
    expect(screen.getByTestId('item-message-m1')).toHaveTextContent('Sent');
    expect(screen.getByTestId('item-message-m2')).toHaveTextContent(
      'Failed after 5 attempts: gateway timeout',
    );
    expect(screen.getByTestId('item-message-m3')).toHaveTextContent(
      'The customer has not consented to SMS messages',
    );
    expect(screen.queryByTestId('button-more-messages')).toBeNull();
  });

  it('says so when there are none, and loads older ones on demand', async () => {
    mockApi('agent', []);
    const first = renderWithProviders(<ContractMessagesCard contract={{ id: 'c1' }} />);
    expect(await screen.findByTestId('text-no-messages')).toBeInTheDocument();
    first.unmount();
    const many = Array.from({ length: 15 }, (_, i) => message({ id: `m${i}` }));
    const fetchMock = mockApi('agent', many);
    renderWithProviders(<ContractMessagesCard contract={{ id: 'c1' }} />);
    const more = await screen.findByTestId('button-more-messages');
    expect(more).toHaveTextContent('Show more (5 older)');
    await userEvent.click(more);
    expect(await screen.findByTestId('item-message-m14')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('pageSize=30'))).toBe(true);
  });
});
