import { type ActivityEvent, type ActivityType, activityEndpoints, sectionOf } from '@/contracts/activity';
import { authEndpoints } from '@/contracts/auth';
import { api, endpointUrl } from '@/web/lib/api';
import { cachedCsrfToken, getCsrfToken } from '@/web/lib/queryClient';

/**
 * The seed's activity tracker (sections 4, 7 and 9), outside React so no event re-renders the app:
 * page visits and exits with the seconds spent, visibility, focus, clicks, form submits, a
 * heartbeat every 30 s while the page is visible, errors, custom events, and a beacon at unload.
 * Before each send it asks GET /api/user and sends nothing unless that answer is OK; every
 * failure is swallowed.
 */
export const HEARTBEAT_MS = 30_000;

const clip = (value: string | null | undefined, max: number): string | undefined => {
  if (value === null || value === undefined) return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
};

/** Sends one event if the user request succeeds; never throws. */
export async function sendActivity(event: ActivityEvent): Promise<void> {
  try {
    const user = await fetch(endpointUrl(authEndpoints.user), { credentials: 'include' });
    // Only whether someone is signed in matters; the body (no-store) is dropped, not left open.
    await user.body?.cancel();
    if (!user.ok) return;
    await api(activityEndpoints.track, { body: event });
  } catch {
    // Seed section 8: activity send failures are silently ignored.
  }
}

interface TrackerState {
  started: boolean;
  page: string | null;
  pageStartedAt: number;
  heartbeat: ReturnType<typeof setInterval> | null;
  cleanup: Array<() => void>;
}

const state: TrackerState = { started: false, page: null, pageStartedAt: 0, heartbeat: null, cleanup: [] };

function secondsOnPage(): number {
  return Math.max(0, Math.round((Date.now() - state.pageStartedAt) / 1000));
}

function base(type: ActivityType): ActivityEvent {
  const page = state.page ?? window.location.pathname;
  return { type, page, section: sectionOf(page), timestamp: new Date().toISOString() };
}

function send(event: ActivityEvent): void {
  void sendActivity(event);
}

/** Records a page visit, and a PAGE_EXIT with the seconds spent on the previous page. */
export function trackPageVisit(path: string): void {
  if (!state.started || path === state.page) return;
  const previous = state.page;
  if (previous !== null) send({ ...base('PAGE_EXIT'), timeSpent: secondsOnPage() });
  state.page = path;
  state.pageStartedAt = Date.now();
  send({
    ...base('PAGE_VISIT'),
    referrer: clip(previous ?? document.referrer, 2048),
  });
}

/** CUSTOM_EVENT: for features that want to record something of their own. */
export function trackEvent(event: string, data?: Record<string, unknown>): void {
  if (!state.started) return;
  send({ ...base('CUSTOM_EVENT'), event: clip(event, 200), ...(data ? { data } : {}) });
}

function onClick(event: MouseEvent): void {
  const origin = event.target instanceof Element ? event.target : null;
  const element = origin?.closest('a[href], button, [role="button"], [role="menuitem"], [role="tab"]');
  if (!element) return;
  const isLink = element.tagName === 'A';
  send({
    ...base(isLink ? 'LINK_CLICK' : 'BUTTON_CLICK'),
    element: element.tagName.toLowerCase(),
    label: clip(element.getAttribute('aria-label') ?? element.textContent, 500),
    testId: clip(element.getAttribute('data-testid'), 200),
    href: isLink ? clip(element.getAttribute('href'), 2048) : undefined,
  });
}

function onSubmit(event: Event): void {
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (!form) return;
  const formName =
    form.getAttribute('name') ||
    form.getAttribute('aria-label') ||
    form.id ||
    form.getAttribute('data-testid') ||
    'form';
  send({ ...base('FORM_SUBMIT'), formName: clip(formName, 200) });
}

function onVisibility(): void {
  send(base(document.visibilityState === 'hidden' ? 'PAGE_HIDDEN' : 'PAGE_VISIBLE'));
}

function errorDetails(error: unknown, fallback?: string): ActivityEvent['error'] {
  if (error instanceof Error) {
    return {
      message: clip(error.message, 2000),
      stack: error.stack?.slice(0, 8000),
      name: clip(error.name, 200),
    };
  }
  return { message: clip(fallback ?? String(error), 2000) };
}

function onError(event: ErrorEvent): void {
  send({ ...base('ERROR'), error: errorDetails(event.error, event.message) });
}

function onRejection(event: PromiseRejectionEvent): void {
  send({ ...base('ERROR'), error: errorDetails(event.reason) });
}

/** PAGE_UNLOAD goes as a beacon: the CSRF token rides in the query string (headers are impossible). */
function onPageHide(): void {
  const token = cachedCsrfToken();
  if (!token || typeof navigator.sendBeacon !== 'function' || state.page === null) return;
  const event: ActivityEvent = {
    type: 'PAGE_UNLOAD',
    page: state.page,
    timeSpent: secondsOnPage(),
    timestamp: new Date().toISOString(),
  };
  try {
    navigator.sendBeacon(
      endpointUrl(activityEndpoints.track, { query: { csrf: token } }),
      new Blob([JSON.stringify(event)], { type: 'application/json' }),
    );
  } catch {
    // Ignored like every other activity failure.
  }
}

function listen<K extends keyof WindowEventMap>(
  target: Window,
  type: K,
  handler: (event: WindowEventMap[K]) => void,
  capture?: boolean,
): void;
function listen<K extends keyof DocumentEventMap>(
  target: Document,
  type: K,
  handler: (event: DocumentEventMap[K]) => void,
  capture?: boolean,
): void;
function listen(
  target: Window | Document,
  type: string,
  handler: (event: Event) => void,
  capture = false,
): void {
  target.addEventListener(type, handler, capture);
  state.cleanup.push(() => target.removeEventListener(type, handler, capture));
}

/** Starts the tracker once; later calls do nothing until it is stopped (sign-out). */
export function startActivityTracker(): void {
  if (state.started) return;
  state.started = true;
  // The unload beacon cannot wait for a token: have one in memory beforehand.
  getCsrfToken().catch(() => undefined);
  // Clicks and submits in the capture phase, so a component that stops propagation still counts.
  listen(document, 'click', onClick, true);
  listen(document, 'submit', onSubmit, true);
  listen(document, 'visibilitychange', onVisibility);
  // Focus events of elements do not bubble: without capture only the window's own arrive here.
  listen(window, 'focus', (event) => event.target === window && send(base('WINDOW_FOCUS')));
  listen(window, 'blur', (event) => event.target === window && send(base('WINDOW_BLUR')));
  listen(window, 'error', onError);
  listen(window, 'unhandledrejection', onRejection);
  listen(window, 'pagehide', onPageHide);
  state.heartbeat = setInterval(() => {
    if (document.visibilityState === 'visible') send({ ...base('HEARTBEAT'), timeSpent: secondsOnPage() });
  }, HEARTBEAT_MS);
}

export function stopActivityTracker(): void {
  for (const remove of state.cleanup) remove();
  state.cleanup = [];
  if (state.heartbeat) clearInterval(state.heartbeat);
  state.heartbeat = null;
  state.started = false;
  state.page = null;
}
