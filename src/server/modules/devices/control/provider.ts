import type { DeliveryProvider } from '../../../../contracts/device-control';
import type { CommandKind } from '../../../../contracts/devices';

/** What a provider is asked to deliver: one attempt at one command. */
export interface DeliveryRequest {
  commandId: string;
  kind: CommandKind;
  attempt: number;
  device: { id: string; serialNumber: string; imei: string | null };
  contractId: string | null;
  reason: string;
  /** Who asked for it (null: the system, a payment, close of business). */
  requestedBy: string | null;
  /** The command's payload (a token's days; the token once issued). */
  payload: Record<string, unknown> | null;
}

/**
 * What a provider said: `acknowledged` (done: the unit's lock state follows) or `accepted` (taken,
 * to be acknowledged later by a signed callback). A failure is a thrown `DeliveryError`.
 */
export interface DeliveryResult {
  outcome: 'acknowledged' | 'accepted';
  response: unknown;
}

/** A failed attempt: its message is shown on the attempt, with what the provider answered. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly response: unknown = null,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** One way of reaching devices (decision 028): the simulator, a lock API, OpenPAYGO. */
export interface CommandProvider {
  name: DeliveryProvider;
  deliver(request: DeliveryRequest): Promise<DeliveryResult>;
  /** The settings page's test: a harmless round trip. */
  test?(): Promise<string>;
}

export interface SimulatorOptions {
  latencyMs: number;
  /** 0 to 1. */
  failureRate: number;
  random?: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The built-in simulator (the default provider): answers after `latencyMs` and fails a share
 * `failureRate` of deliveries, as a flaky network to devices would; otherwise acknowledges at once.
 */
export function simulatorProvider(options: SimulatorOptions): CommandProvider {
  const random = options.random ?? Math.random;
  const roundTrip = async () => {
    if (options.latencyMs > 0) await sleep(options.latencyMs);
    if (random() < options.failureRate)
      throw new DeliveryError('Simulated delivery failure (the device did not answer)', {
        simulated: true,
        status: 'unreachable',
      });
  };
  return {
    name: 'simulator',
    async deliver(request) {
      await roundTrip();
      return {
        outcome: 'acknowledged',
        response: { simulated: true, status: 'acknowledged', command: request.kind },
      };
    },
    async test() {
      const started = Date.now();
      await roundTrip();
      return `The simulator answered in ${Date.now() - started} ms`;
    },
  };
}
