import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../../../app';
import type { Actor } from '../../../audit';
import { withTransaction } from '../../../transaction';
import { ProviderError } from './provider';
import { mobileMoneyProvider } from './providers';
import { createPush, handleStkCallback, pushRefused, pushSent } from './push';
import { mpesaActor } from './receive';

/** A concurrent writer's deadlock (PostgreSQL aborts one side): the callback is tried again. */
export async function retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if ((code !== '40P01' && code !== '40001') || attempt >= 4) throw error;
    }
  }
}

export interface PushStarter {
  /**
   * Asks the customer's phone to pay (STK push): the push is recorded, the provider asked outside
   * any transaction, then its checkout id or its refusal stored. Answers the push's id.
   */
  start(
    request: FastifyRequest,
    actor: Actor,
    body: { contractId: string; amount: number; phone?: string | undefined },
  ): Promise<string>;
  /** Records a push's result (the provider's callback, or the simulator's answer). */
  result(
    request: FastifyRequest | null,
    body: Parameters<typeof handleStkCallback>[2],
  ): ReturnType<typeof handleStkCallback>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** One mobile-money provider per app: staff pushes and the customer portal's pay now share it. */
    mobileMoneyPushes: PushStarter;
  }
}

/** The app's push starter, made once by the mobile-money routes (registered before the portal). */
export function registerPushStarter(app: AppInstance): PushStarter {
  const { ctx } = app;
  const result: PushStarter['result'] = (request, body) =>
    retryingDeadlocks(() =>
      withTransaction(ctx, (tx) => handleStkCallback(tx, mpesaActor(request ?? undefined), body)),
    );
  const provider = mobileMoneyProvider(ctx.config, {
    clock: ctx.clock,
    log: ctx.log,
    deliver: (body) => result(null, body),
  });
  app.addHook('onClose', async () => provider.close());

  /** Where the provider sends a push's result: the public address, with the callback token. */
  const callbackUrl = (request: FastifyRequest): string => {
    const base =
      ctx.config.MPESA_CALLBACK_BASE_URL ?? ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
    const url = new URL('/api/webhooks/mpesa/stk/callback', base);
    if (ctx.config.MPESA_CALLBACK_TOKEN) url.searchParams.set('token', ctx.config.MPESA_CALLBACK_TOKEN);
    return url.toString();
  };

  const starter: PushStarter = {
    result,
    async start(request, actor, body) {
      const { id, request: push } = await withTransaction(ctx, (tx) =>
        createPush(tx, actor, provider.name, body, callbackUrl(request)),
      );
      try {
        const accepted = await provider.initiatePush(push);
        await withTransaction(ctx, (tx) => pushSent(tx, id, accepted));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        request.log.warn({ pushId: id, err: error }, 'M-Pesa push refused');
        await withTransaction(ctx, (tx) => pushRefused(tx, id, error.message));
      }
      return id;
    },
  };
  app.decorate('mobileMoneyPushes', starter);
  return starter;
}
