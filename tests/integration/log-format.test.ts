import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { logSerializers } from '../../src/server/logging';
import { createTestDatabase } from '../support/databases';

/** The app's own logger (no `logger` option), built while stdout is or is not a terminal. */
async function appLogger(isTTY: boolean) {
  const descriptor = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
  const db = await createTestDatabase('pglite');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'devicefin-log-'));
  try {
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DEMO_DATA: 'false', LOG_LEVEL: 'info' }),
      database: db.database,
      appSecret: 'test-secret-that-is-at-least-32-characters-long',
      webRoot: path.join(dataDir, 'no-web-build'),
    });
    // pino keeps its stream and serializers under its own (non-global) symbols.
    const log = app.log as unknown as Record<symbol, unknown>;
    const symbol = (name: string) =>
      Object.getOwnPropertySymbols(log).find((s) => s.description === name) as symbol;
    cleanups.push(async () => {
      await app.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return {
      stream: (log[symbol('pino.stream')] as object).constructor.name,
      serializers: log[symbol('pino.serializers')] as Record<string, unknown>,
    };
  } finally {
    if (descriptor) Object.defineProperty(process.stdout, 'isTTY', descriptor);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('log format', () => {
  it('writes readable lines through pino-pretty on a terminal', async () => {
    const logger = await appLogger(true);
    // pino runs a transport in a worker thread; its stream is the thread's.
    expect(logger.stream).toBe('ThreadStream');
    expect(logger.serializers.req).toBe(logSerializers.req);
    expect(logger.serializers.err).toBe(logSerializers.err);
  });

  it('writes JSON to stdout otherwise, with the same serializers', async () => {
    const logger = await appLogger(false);
    expect(logger.stream).not.toBe('ThreadStream');
    expect(logger.serializers.req).toBe(logSerializers.req);
  });
});
