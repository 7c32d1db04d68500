import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/web/test/render';
import {
  HEARTBEAT_MS,
  sendActivity,
  startActivityTracker,
  stopActivityTracker,
  trackEvent,
  trackPageVisit,
} from './tracker';

type Sent = { type: string; [key: string]: unknown };

let userOk = true;
let tracked: Sent[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  if (url === '/api/user') return userOk ? jsonResponse({ id: 'u1' }) : new Response('', { status: 401 });
  if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'tok' });
  if (url === '/api/activity/track') {
    tracked.push(JSON.parse(String(init?.body)) as Sent);
    return new Response(null, { status: 204 });
  }
  return new Response('', { status: 404 });
});

let visibility: DocumentVisibilityState = 'visible';

/** Lets the queued sends (GET /api/user, then the POST) finish. */
async function settle() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  userOk = true;
  tracked = [];
  visibility = 'visible';
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  stopActivityTracker();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('activity tracker (seed sections 4, 7 and 9)', () => {
  it('sends nothing unless GET /api/user answers OK, and never throws', async () => {
    userOk = false;
    await sendActivity({ type: 'CUSTOM_EVENT', event: 'x' });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/user']);
    expect(tracked).toEqual([]);

    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(sendActivity({ type: 'CUSTOM_EVENT', event: 'x' })).resolves.toBeUndefined();

    userOk = true;
    await sendActivity({ type: 'CUSTOM_EVENT', event: 'y' });
    expect(tracked).toEqual([{ type: 'CUSTOM_EVENT', event: 'y' }]);
  });

  it('records a visit per route and a PAGE_EXIT with the seconds spent on the previous page', async () => {
    startActivityTracker();
    trackPageVisit('/contracts');
    await settle();
    vi.advanceTimersByTime(12_400);
    trackPageVisit('/settings');
    trackPageVisit('/settings');
    await settle();
    expect(tracked.map((e) => [e.type, e.page, e.section])).toEqual([
      ['PAGE_VISIT', '/contracts', 'Contracts'],
      ['PAGE_EXIT', '/contracts', 'Contracts'],
      ['PAGE_VISIT', '/settings', 'Settings'],
    ]);
    expect(tracked[1]?.timeSpent).toBe(12);
    expect(tracked[2]?.referrer).toBe('/contracts');
  });

  it('beats every 30 s only while the page is visible', async () => {
    startActivityTracker();
    trackPageVisit('/');
    await settle();
    tracked = [];
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    await settle();
    expect(tracked.map((e) => e.type)).toEqual(['HEARTBEAT']);

    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 3);
    await settle();
    expect(tracked.map((e) => e.type)).toEqual(['HEARTBEAT', 'PAGE_HIDDEN']);

    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    await settle();
    expect(tracked.map((e) => e.type)).toEqual(['HEARTBEAT', 'PAGE_HIDDEN', 'PAGE_VISIBLE', 'HEARTBEAT']);
  });

  it('records clicks on buttons and links, form submits, errors and custom events', async () => {
    startActivityTracker();
    trackPageVisit('/profile');
    await settle();
    tracked = [];
    document.body.innerHTML = `
      <button data-testid="button-save"><span>Save</span> changes</button>
      <a href="/help" data-testid="link-help">Help</a>
      <form aria-label="Change password"><button type="submit">Go</button></form>`;
    document.querySelector('span')?.click();
    document.querySelector('a')?.addEventListener('click', (event) => event.preventDefault());
    document.querySelector('a')?.click();
    document.querySelector('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    window.dispatchEvent(new ErrorEvent('error', { message: 'Boom', error: new TypeError('Boom') }));
    trackEvent('tutorial_started', { tutorialId: 't1' });
    await settle();
    expect(tracked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'BUTTON_CLICK',
          element: 'button',
          label: 'Save changes',
          testId: 'button-save',
        }),
        expect.objectContaining({ type: 'LINK_CLICK', element: 'a', href: '/help', testId: 'link-help' }),
        expect.objectContaining({ type: 'FORM_SUBMIT', formName: 'Change password' }),
        expect.objectContaining({
          type: 'ERROR',
          error: expect.objectContaining({ message: 'Boom', name: 'TypeError' }),
        }),
        expect.objectContaining({
          type: 'CUSTOM_EVENT',
          event: 'tutorial_started',
          data: { tutorialId: 't1' },
        }),
      ]),
    );
    document.body.innerHTML = '';
  });

  it('sends PAGE_UNLOAD as a beacon with the CSRF token in the query string', async () => {
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    startActivityTracker();
    trackPageVisit('/collections');
    await settle();
    vi.advanceTimersByTime(5_000);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe('/api/activity/track?csrf=tok');
    expect(blob.type).toBe('application/json');
    // jsdom's Blob has no text(): read it the old way (FileReader needs real timers).
    vi.useRealTimers();
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    const body = JSON.parse(text) as Sent;
    expect(body).toMatchObject({ type: 'PAGE_UNLOAD', page: '/collections', timeSpent: 5 });
    expect(typeof body.timestamp).toBe('string');
  });

  it('starts once: a second start adds no second set of listeners', async () => {
    startActivityTracker();
    startActivityTracker();
    trackPageVisit('/');
    await settle();
    tracked = [];
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    await settle();
    expect(tracked.filter((e) => e.type === 'HEARTBEAT')).toHaveLength(1);
  });
});
