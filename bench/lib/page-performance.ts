import type { Browser } from 'playwright-core';

/**
 * A Lighthouse-style performance score of a page on a phone, read from Chromium's own trace:
 * the page loads at 390×844 under Lighthouse's mobile throttling (150 ms round trips, 1.6 Mbit/s
 * down, 750 kbit/s up, the CPU slowed 4×); the trace gives First Contentful Paint, Largest
 * Contentful Paint, Total Blocking Time (main-thread tasks over 50 ms after the first paint) and
 * layout shifts. Each is scored on Lighthouse 10's mobile log-normal curve and weighted as it
 * weighs them (Speed Index, which needs screenshots, is left out and the weights renormalised).
 */

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { score?: number; had_recent_input?: boolean; is_main_frame?: boolean } };
}

export interface PagePerformance {
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** 0-100, as Lighthouse shows it. */
  score: number;
}

/** Lighthouse 10, mobile: the value scoring 0.9 (p10) and 0.5 (median), and the weight. */
const CURVES = {
  fcp: { p10: 1800, median: 3000, weight: 0.1 },
  lcp: { p10: 2500, median: 4000, weight: 0.25 },
  tbt: { p10: 200, median: 600, weight: 0.3 },
  cls: { p10: 0.1, median: 0.25, weight: 0.25 },
} as const;

/** The complementary error function (Abramowitz and Stegun 7.1.26; error below 1.5e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * z);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const value = poly * Math.exp(-z * z);
  return x >= 0 ? value : 2 - value;
}

/** Lighthouse's log-normal score of a value on a curve. */
export function logNormalScore(curve: { p10: number; median: number }, value: number): number {
  if (value <= 0) return 1;
  const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;
  const standardized =
    (Math.log(value / curve.median) * INVERSE_ERFC_ONE_FIFTH) / -Math.log(curve.p10 / curve.median);
  return Math.min(1, Math.max(0, erfc(standardized) / 2));
}

export async function phonePerformance(browser: Browser, url: string): Promise<PagePerformance> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'loading',
        'blink.user_timing',
      ],
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Throttled, the first paint can come after the network is quiet; then a second for the
    // largest paint and any late long task to land in the trace.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    await page.waitForTimeout(1000);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    return scoreTrace(trace.traceEvents);
  } finally {
    await context.close();
  }
}

/** The metrics and score of one page load's trace. */
export function scoreTrace(events: TraceEvent[]): PagePerformance {
  const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcpEvent) throw new Error('The trace has no first contentful paint');
  const pid = fcpEvent.pid;
  const mainThread = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain',
  )?.tid;
  const start = events
    .filter((e) => e.name === 'navigationStart' && e.pid === pid)
    .reduce((earliest, e) => Math.min(earliest, e.ts), Number.POSITIVE_INFINITY);
  const lcpEvents = events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.pid === pid);
  const lcpTs = lcpEvents.length ? Math.max(...lcpEvents.map((e) => e.ts)) : fcpEvent.ts;
  const tbtUs = events
    .filter(
      (e) =>
        e.name === 'RunTask' &&
        e.pid === pid &&
        e.tid === mainThread &&
        e.ts >= fcpEvent.ts &&
        (e.dur ?? 0) > 50_000,
    )
    .reduce((sum, e) => sum + (e.dur ?? 0) - 50_000, 0);
  const cls = events
    .filter((e) => e.name === 'LayoutShift' && e.pid === pid && !e.args?.data?.had_recent_input)
    .reduce((sum, e) => sum + (e.args?.data?.score ?? 0), 0);
  const metrics = {
    fcp: (fcpEvent.ts - start) / 1000,
    lcp: (lcpTs - start) / 1000,
    tbt: tbtUs / 1000,
    cls,
  };
  let weighted = 0;
  let weights = 0;
  for (const [key, curve] of Object.entries(CURVES) as [
    keyof typeof CURVES,
    (typeof CURVES)[keyof typeof CURVES],
  ][]) {
    weighted += logNormalScore(curve, metrics[key]) * curve.weight;
    weights += curve.weight;
  }
  return {
    fcpMs: metrics.fcp,
    lcpMs: metrics.lcp,
    tbtMs: metrics.tbt,
    cls: metrics.cls,
    score: Math.round((weighted / weights) * 100),
  };
}
