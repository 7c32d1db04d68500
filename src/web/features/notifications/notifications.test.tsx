import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '@/contracts/notifications';
import { Toaster } from '@/web/components/ui/toaster';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import {
  formatNotificationTime,
  LIST_HEIGHT_PX,
  notificationBadgeVariant,
  UNREAD_POLL_MS,
  unreadBadgeText,
} from './notification-rules';
import { NotificationsBell } from './notifications-bell';

describe('notification rules (seed sections 2 and 9)', () => {
  it('caps the unread badge at 9+ and hides it at 0', () => {
    expect(unreadBadgeText(0)).toBeNull();
    expect(unreadBadgeText(undefined)).toBeNull();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(9)).toBe('9');
    expect(unreadBadgeText(10)).toBe('9+');
    expect(unreadBadgeText(250)).toBe('9+');
  });

  it("formats the timestamp as 'MMM d, h:mm a'", () => {
    // Local time, as date-fns formats it.
    expect(formatNotificationTime(new Date(2026, 10, 22, 16, 5).toISOString())).toBe('Nov 22, 4:05 PM');
    expect(formatNotificationTime(new Date(2026, 0, 3, 0, 30).toISOString())).toBe('Jan 3, 12:30 AM');
    expect(formatNotificationTime('not a date')).toBe('');
  });

  it('maps error, warning and success to their badges and anything else to outline', () => {
    expect(notificationBadgeVariant('error')).toBe('destructive');
    expect(notificationBadgeVariant('warning')).toBe('warning');
    expect(notificationBadgeVariant('success')).toBe('success');
    expect(notificationBadgeVariant('info')).toBe('outline');
    expect(notificationBadgeVariant('reminder')).toBe('outline');
  });

  it('polls every 30 s and lists 400px high on desktop, 300px on phones', () => {
    expect(UNREAD_POLL_MS).toBe(30_000);
    expect(LIST_HEIGHT_PX).toEqual({ 'top-bar': 400, 'bottom-bar': 300 });
  });
});

const at = new Date(2026, 10, 20, 9, 15).toISOString();
const sample: Notification[] = [
  { id: 'n1', title: 'Payment failed', message: 'M-Pesa timeout', type: 'error', read: false, createdAt: at },
  {
    id: 'n2',
    title: 'Role changed',
    message: 'You are a Collector',
    type: 'warning',
    read: false,
    createdAt: at,
  },
  {
    id: 'n3',
    title: 'Joseph joined',
    message: 'joseph@example.com accepted your invite',
    type: 'success',
    read: true,
    link: '/admin/users',
    createdAt: at,
  },
  { id: 'n4', title: 'Heads up', message: 'Something else', type: 'info', read: true, createdAt: at },
];

interface Call {
  method: string;
  url: string;
}

function serve(initial: Notification[], count = initial.filter((n) => !n.read).length) {
  let list = [...initial];
  let unread = count;
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url });
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 't' });
    if (url === '/api/notifications/unread-count') return jsonResponse({ count: unread });
    if (url === '/api/notifications' && method === 'GET') return jsonResponse(list);
    if (url === '/api/notifications/clear-all' && method === 'DELETE') {
      const deleted = list.length;
      list = [];
      unread = 0;
      return jsonResponse({ deleted });
    }
    if (url === '/api/notifications/read-all' && method === 'POST') {
      const updated = unread;
      list = list.map((n) => ({ ...n, read: true }));
      unread = 0;
      return jsonResponse({ updated });
    }
    const read = /^\/api\/notifications\/([^/]+)\/read$/.exec(url);
    if (read && method === 'PATCH') {
      list = list.map((n) => (n.id === read[1] ? { ...n, read: true } : n));
      unread = list.filter((n) => !n.read).length;
      return jsonResponse(list.find((n) => n.id === read[1]));
    }
    const one = /^\/api\/notifications\/([^/]+)$/.exec(url);
    if (one && method === 'DELETE') {
      list = list.filter((n) => n.id !== one[1]);
      unread = list.filter((n) => !n.read).length;
      return jsonResponse({ ok: true });
    }
    return new Response('not found', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

async function openBell() {
  const bell = await screen.findByTestId('button-notifications');
  fireEvent.click(bell);
  return screen.findByTestId('panel-notifications');
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('NotificationsBell', () => {
  it('shows 9+ on the bell above nine unread and names the count for screen readers', async () => {
    serve([], 12);
    renderWithProviders(<NotificationsBell placement="top-bar" />);
    expect(await screen.findByTestId('badge-unread-count')).toHaveTextContent('9+');
    expect(screen.getByTestId('button-notifications')).toHaveAccessibleName('Notifications, 12 unread');
  });

  it('loads the list only while open, with type badges and formatted times', async () => {
    const { calls } = serve(sample);
    renderWithProviders(<NotificationsBell placement="top-bar" />);
    await screen.findByTestId('badge-unread-count');
    expect(calls.some((c) => c.url === '/api/notifications')).toBe(false);
    const panel = await openBell();
    expect(within(panel).getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    await within(panel).findByTestId('list-notifications');
    expect(calls.filter((c) => c.url === '/api/notifications')).toHaveLength(1);
    expect(within(panel).getByTestId('badge-notification-type-n1').className).toContain('bg-destructive');
    expect(within(panel).getByTestId('badge-notification-type-n2').className).toContain('bg-warning');
    expect(within(panel).getByTestId('badge-notification-type-n3').className).toContain('bg-success');
    const outline = within(panel).getByTestId('badge-notification-type-n4');
    expect(outline).toHaveTextContent('info');
    expect(outline.className).not.toMatch(/bg-(destructive|warning|success|primary)/);
    expect(within(panel).getByTestId('text-notification-time-n1')).toHaveTextContent('Nov 20, 9:15 AM');
    expect(within(panel).getByTestId('scroll-notifications')).toHaveStyle({ height: '400px' });
  });

  it('uses a 300px list from the bottom bar', async () => {
    serve(sample);
    renderWithProviders(<NotificationsBell placement="bottom-bar" />);
    fireEvent.click(await screen.findByTestId('button-notifications-mobile'));
    const panel = await screen.findByTestId('panel-notifications');
    expect(within(panel).getByTestId('scroll-notifications')).toHaveStyle({ height: '300px' });
  });

  it('clicking an unread one marks it read; one with a link navigates; the panel closes', async () => {
    const { calls } = serve(sample);
    const { history } = renderWithProviders(<NotificationsBell placement="top-bar" />, {
      path: '/contracts',
    });
    let panel = await openBell();
    fireEvent.click(await within(panel).findByTestId('button-notification-n1'));
    await waitFor(() => expect(screen.queryByTestId('panel-notifications')).not.toBeInTheDocument());
    await waitFor(() => expect(calls).toContainEqual({ method: 'PATCH', url: '/api/notifications/n1/read' }));
    expect(history.at(-1)).toBe('/contracts');

    // Already read, with a link: no PATCH, navigates.
    panel = await openBell();
    fireEvent.click(await within(panel).findByTestId('button-notification-n3'));
    await waitFor(() => expect(history.at(-1)).toBe('/admin/users'));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('marks every unread one read on the server (not only those listed), deletes one, and clears all with the seed toast', async () => {
    // 150 unread on the server, of which the panel lists two.
    const { calls } = serve(sample, 150);
    renderWithProviders(
      <>
        <NotificationsBell placement="top-bar" />
        <Toaster />
      </>,
    );
    const panel = await openBell();
    await within(panel).findByTestId('list-notifications');
    fireEvent.click(within(panel).getByTestId('button-mark-all-read'));
    await waitFor(() => expect(calls).toContainEqual({ method: 'POST', url: '/api/notifications/read-all' }));
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    await waitFor(() => expect(screen.queryByTestId('badge-unread-count')).not.toBeInTheDocument());

    fireEvent.click(within(panel).getByTestId('button-delete-notification-n4'));
    await waitFor(() => expect(within(panel).queryByTestId('item-notification-n4')).not.toBeInTheDocument());

    await act(async () => {
      fireEvent.click(within(panel).getByTestId('button-clear-all'));
    });
    expect(await screen.findByText('Notifications Cleared')).toBeInTheDocument();
    expect(screen.getByText('All notifications have been cleared successfully.')).toBeInTheDocument();
    expect(await within(panel).findByText('No notifications')).toBeInTheDocument();
    expect(calls).toContainEqual({ method: 'DELETE', url: '/api/notifications/clear-all' });
  });
});
