/** Where background refreshes report their failures (the app's logger). */
export interface FailureLog {
  error: (details: object, message: string) => void;
}

export interface KeptCurrent {
  /** Runs the refresh now, whatever the key; resolves when it is done. */
  refreshNow: () => Promise<void>;
  stop: () => void;
}

/**
 * Keeps derived figures current: runs `refresh` at start and then whenever `keyOf` (what the
 * figures depend on: the business date, an organisation setting) changes, checked every minute.
 * One run at a time; a failed run is logged and tried again at the next check.
 */
export function keepCurrent(
  name: string,
  keyOf: () => Promise<string>,
  refresh: () => Promise<unknown>,
  log: FailureLog,
  intervalMs = 60_000,
): KeptCurrent {
  let lastKey: string | null = null;
  let running: Promise<void> = Promise.resolve();
  const run = (force: boolean) => {
    running = running.then(async () => {
      try {
        const key = await keyOf();
        if (!force && key === lastKey) return;
        await refresh();
        lastKey = key;
      } catch (error) {
        log.error({ err: error }, `${name} refresh failed`);
      }
    });
    return running;
  };
  const timer = setInterval(() => void run(false), intervalMs);
  timer.unref();
  void run(false);
  return { refreshNow: () => run(true), stop: () => clearInterval(timer) };
}
