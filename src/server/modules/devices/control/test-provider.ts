import type { ProviderTestResult } from '../../../../contracts/device-control';
import type { AppContext } from '../../../context';
import { lockProviderOf, readControlSettings } from './settings';

/**
 * POST /api/device-control/settings/test: one harmless round trip to the configured provider (the
 * simulator's latency and failure rate; a signed ping to the lock API), answered as ok or the error.
 */
export async function testProvider(ctx: AppContext): Promise<ProviderTestResult> {
  const settings = await readControlSettings(ctx.db);
  const provider = lockProviderOf(ctx, settings);
  const started = Date.now();
  try {
    const message = (await provider.test?.()) ?? 'The provider has no test';
    return { ok: true, provider: settings.provider, latencyMs: Date.now() - started, message };
  } catch (error) {
    return {
      ok: false,
      provider: settings.provider,
      latencyMs: Date.now() - started,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
