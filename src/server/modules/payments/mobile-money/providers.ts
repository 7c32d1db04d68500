import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config';
import type { Clock } from '../../../context';
import { DarajaProvider } from './daraja';
import type { DeliverCallback, MobileMoneyProvider } from './provider';
import { SimulatorProvider } from './simulator';

/** The provider MPESA_PROVIDER names: the simulator (default) or Daraja. */
export function mobileMoneyProvider(
  config: Config,
  deps: { clock: Clock; log: FastifyBaseLogger; deliver: DeliverCallback },
): MobileMoneyProvider {
  return config.MPESA_PROVIDER === 'daraja'
    ? new DarajaProvider(config, deps.clock)
    : new SimulatorProvider(
        { outcome: config.MPESA_SIMULATOR_OUTCOME, delayMs: config.MPESA_SIMULATOR_DELAY_MS },
        deps,
      );
}
