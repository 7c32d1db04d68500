import type { Actor } from '../../audit';
import type { AppContext } from '../../context';
import { withTransaction } from '../../transaction';
import { postBatch } from './batch-posting';
import { type PaymentInput, type PaymentRequest, type Posted, postPayment, requestOf } from './posting';

interface Waiting {
  asked: PaymentRequest;
  resolve: (posted: Posted) => void;
  reject: (error: unknown) => void;
}

export interface PaymentBatcherOptions {
  /** Payments in one batch at most. */
  maxBatch?: number;
  /** Batches under way at once (each a transaction on a connection of its own). */
  parallel?: number;
  /** How many must be waiting for a batch to start beside one under way. */
  crowd?: number;
}

/**
 * The API's payments, posted in batches (decision 044). A payment that arrives while the
 * database is idle goes at once, in a batch of one; those that arrive while batches are under
 * way wait for the next, which takes every one waiting (one per contract, and no contract a
 * batch under way holds), so under load each transaction posts many payments for about the
 * statements of one. What a batch leaves alone (a replay, a back-dated payment, one that pays a
 * contract off, a refusal) is posted by `postPayment` on its own afterwards, which gives every
 * answer and error a single payment gives; so does every payment of a batch that failed, whose
 * transaction rolled back whole.
 */
export class PaymentBatcher {
  private readonly waiting: Waiting[] = [];
  /** The contracts of the batches under way, their single payments included. */
  private readonly busy = new Set<string>();
  private running = 0;
  private readonly maxBatch: number;
  private readonly parallel: number;
  private readonly crowd: number;

  constructor(
    private readonly ctx: AppContext,
    options: PaymentBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 64;
    this.crowd = options.crowd ?? 16;
    // The embedded database is one connection: a second batch would only queue behind the first.
    this.parallel = options.parallel ?? (ctx.database.kind === 'postgres' ? 2 : 1);
  }

  /** Posts a payment as `postPayment` does, in whichever batch takes it. */
  async post(actor: Actor, input: PaymentInput): Promise<Posted> {
    const asked = await requestOf(this.ctx, this.ctx.db, actor, input);
    return new Promise<Posted>((resolve, reject) => {
      this.waiting.push({ asked, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.parallel) {
      // A second batch beside the first only for a crowd: two small batches cost about twice one
      // big one, whose statements are the same (measured: CPU per payment nearly halves).
      if (this.running > 0 && this.waiting.length < this.crowd) return;
      const batch = this.take();
      if (!batch.length) return;
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        for (const item of batch) this.busy.delete(item.asked.input.contractId);
        this.next();
      });
    }
  }

  /** The waiting payments the next batch takes, in arrival order; the rest keep their places. */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const contracts = new Set<string>();
    for (let i = 0; i < this.waiting.length && batch.length < this.maxBatch; ) {
      const item = this.waiting[i] as Waiting;
      const contract = item.asked.input.contractId;
      if (this.busy.has(contract) || contracts.has(contract)) {
        i += 1;
        continue;
      }
      contracts.add(contract);
      batch.push(item);
      this.waiting.splice(i, 1);
    }
    for (const contract of contracts) this.busy.add(contract);
    return batch;
  }

  private async run(batch: readonly Waiting[]): Promise<void> {
    let posted: Array<Posted | null>;
    try {
      posted = await withTransaction(this.ctx, (tx) =>
        postBatch(
          tx,
          batch.map((item) => item.asked),
        ),
      );
    } catch (error) {
      // Nothing of the batch was written: each payment goes on its own, and meets its own error.
      this.ctx.log.warn(
        { err: error, payments: batch.length },
        'a batch of payments failed; posting each alone',
      );
      posted = batch.map(() => null);
    }
    const alone: Waiting[] = [];
    for (const [i, item] of batch.entries()) {
      const answer = posted[i];
      if (answer) item.resolve(answer);
      else alone.push(item);
    }
    await Promise.all(
      alone.map((item) =>
        withTransaction(this.ctx, (tx) => postPayment(tx, item.asked.actor, item.asked.input)).then(
          item.resolve,
          item.reject,
        ),
      ),
    );
  }
}
