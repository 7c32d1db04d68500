import { describe, expect, it } from 'vitest';
import { smsDeliveryState } from './delivery-routes';
import { RateWindow, type Timer } from './rate-window';

/** Virtual time: a sleep wakes on the next turn of the event loop with the clock at its end. */
function fakeTimer(): Timer & { ms: number } {
  const timer = {
    ms: 0,
    now: () => timer.ms,
    sleep: (ms: number) => {
      const until = timer.ms + ms;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          timer.ms = Math.max(timer.ms, until);
          resolve();
        }),
      );
    },
  };
  return timer;
}

describe('RateWindow', () => {
  it('lets `rate` starts through at once, then one more each time the oldest is a second old', async () => {
    const timer = fakeTimer();
    const window = new RateWindow(3, timer);
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        await window.take();
        starts.push(timer.now());
      }),
    );
    expect(starts).toEqual([0, 0, 0, 1000, 1000, 1000, 2000, 2000, 2000, 3000]);
  });

  it('does not limit an infinite rate', async () => {
    const timer = fakeTimer();
    const window = new RateWindow(Number.POSITIVE_INFINITY, timer);
    for (let i = 0; i < 1000; i += 1) await window.take();
    expect(timer.now()).toBe(0);
  });
});

describe('smsDeliveryState', () => {
  it('reads the gateway’s statuses as ours', () => {
    expect(smsDeliveryState('Success')).toBe('delivered');
    expect(smsDeliveryState('Sent')).toBe('sent');
    expect(smsDeliveryState('Buffered')).toBe('sent');
    expect(smsDeliveryState('Failed')).toBe('failed');
    expect(smsDeliveryState('Rejected')).toBe('failed');
    expect(smsDeliveryState('AbsentSubscriber')).toBe('failed');
    expect(smsDeliveryState('Something')).toBeNull();
  });
});
