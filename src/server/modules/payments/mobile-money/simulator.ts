import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { StkCallback } from '../../../../contracts/payments';
import { toMajorString } from '../../../../domain';
import type { Clock } from '../../../context';
import type { DeliverCallback, MobileMoneyProvider, PushAccepted, PushRequest } from './provider';
import { providerTimeOf } from './time';

const RETRY_MS = 100;
const RETRIES = 50;

/**
 * The built-in provider (the default, for demos and tests): accepts every push and, after
 * `delayMs`, answers it itself through the same service the STK callback uses, in process: a
 * success with a receipt number "SIM…" or, when configured, the customer's refusal (1032). Its
 * answer can reach the app before the push's checkout id is stored; it then tries again shortly.
 */
export class SimulatorProvider implements MobileMoneyProvider {
  readonly name = 'simulator';
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly options: { outcome: 'success' | 'failure'; delayMs: number },
    private readonly deps: { clock: Clock; log: FastifyBaseLogger; deliver: DeliverCallback },
  ) {}

  async initiatePush(request: PushRequest): Promise<PushAccepted> {
    const checkoutRequestId = `ws_CO_SIM_${randomUUID().replaceAll('-', '')}`;
    const merchantRequestId = `SIM-${randomUUID().slice(0, 8)}`;
    const body = this.answer(request, checkoutRequestId, merchantRequestId);
    this.later(this.options.delayMs, () => this.deliver(body, RETRIES));
    return { checkoutRequestId, merchantRequestId };
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(ms: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch((error: unknown) => {
        if (!this.closed)
          this.deps.log.error({ err: error }, 'the M-Pesa simulator could not deliver its answer');
      });
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async deliver(body: StkCallback, retries: number): Promise<void> {
    if (this.closed) return;
    const result = await this.deps.deliver(body);
    if (result === 'unknown' && retries > 0) this.later(RETRY_MS, () => this.deliver(body, retries - 1));
  }

  private answer(request: PushRequest, checkoutRequestId: string, merchantRequestId: string): StkCallback {
    if (this.options.outcome === 'failure') {
      return {
        Body: {
          stkCallback: {
            MerchantRequestID: merchantRequestId,
            CheckoutRequestID: checkoutRequestId,
            ResultCode: 1032,
            ResultDesc: 'Request cancelled by user',
          },
        },
      };
    }
    const receipt = `SIM${randomBytes(5).toString('hex').toUpperCase().slice(0, 7)}`;
    return {
      Body: {
        stkCallback: {
          MerchantRequestID: merchantRequestId,
          CheckoutRequestID: checkoutRequestId,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: Number(toMajorString(request.amount, request.currency)) },
              { Name: 'MpesaReceiptNumber', Value: receipt },
              {
                Name: 'TransactionDate',
                Value: Number(providerTimeOf(this.deps.clock.now(), request.timeZone)),
              },
              { Name: 'PhoneNumber', Value: Number(request.phone.replace(/\D/g, '')) },
            ],
          },
        },
      },
    };
  }
}
