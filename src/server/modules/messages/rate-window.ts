/** Time as the rate limiter reads and waits for it: real, or a test's own. */
export interface Timer {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTimer: Timer = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * At most `rate` starts in any one-second window (a provider's limit, issue 15): the n-th start
 * waits until a second after the (n - rate)-th. Kept as a ring of the last `rate` start times, so
 * it holds across batches and never bursts at a window's edge as a per-second counter would.
 * Takers are served in the order they asked.
 */
export class RateWindow {
  private readonly starts: number[];
  private next = 0;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    rate: number,
    private readonly timer: Timer = realTimer,
  ) {
    this.starts = Number.isFinite(rate)
      ? new Array<number>(Math.max(1, Math.floor(rate))).fill(-Infinity)
      : [];
  }

  /** Resolves when one more start is allowed, and counts it. */
  take(): Promise<void> {
    if (!this.starts.length) return Promise.resolve();
    const mine = this.turn.then(async () => {
      const allowedAt = (this.starts[this.next] as number) + 1000;
      // A timer may wake a little early: wait until the window really has room.
      for (let now = this.timer.now(); now < allowedAt; now = this.timer.now())
        await this.timer.sleep(Math.ceil(allowedAt - now));
      this.starts[this.next] = this.timer.now();
      this.next = (this.next + 1) % this.starts.length;
    });
    this.turn = mine;
    return mine;
  }
}
