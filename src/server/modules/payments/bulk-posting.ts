import { sql } from 'drizzle-orm';
import type { DraftMapping } from '../../../contracts/payment-imports';
import type { paymentImportRows } from '../../../db/schema';
import type { Actor } from '../../audit';
import type { TxContext } from '../../context';
import { AppError } from '../../errors';
import { savepoint } from '../../transaction';
import { rowMethod } from './imports';
import { postPayment } from './posting';

type ImportRowRecord = typeof paymentImportRows.$inferSelect;
type Method = Parameters<typeof postPayment>[2]['method'];

export interface ChunkInput {
  importId: string;
  method: Method;
  mapping: { columns: string[]; mapping: DraftMapping };
  rows: ImportRowRecord[];
}

export interface ChunkResult {
  /** Rows posted by this chunk, and their sum. */
  posted: number;
  amount: number;
  /** Rows that turned out not to be postable (already posted meanwhile, or refused by the posting rules). */
  refused: number;
}

/**
 * Posts one chunk of an import's valid rows in the caller's transaction. Each row goes through
 * `postPayment` under a savepoint, so one row refused by the posting rules (the contract closed
 * since the preview) is marked with its reason and the others post.
 */
export async function postImportChunk(ctx: TxContext, actor: Actor, input: ChunkInput): Promise<ChunkResult> {
  const outcome: { rowNumber: number; paymentId: string | null; error: string | null }[] = [];
  let posted = 0;
  let amount = 0;
  for (const row of input.rows) {
    const cells = (row.raw as { cells: string[] }).cells;
    const method =
      rowMethod(input.mapping.mapping, input.mapping.columns, cells, input.method) ?? input.method;
    try {
      const result = await savepoint(ctx, (tx) =>
        postPayment(tx, actor, {
          contractId: row.contractId as string,
          amount: row.amount as number,
          method,
          reference: row.reference,
          receivedAt: row.receivedAt,
          importId: input.importId,
        }),
      );
      if (result.created) {
        posted += 1;
        amount += row.amount as number;
        outcome.push({ rowNumber: row.rowNumber, paymentId: result.paymentId, error: null });
      } else {
        outcome.push({
          rowNumber: row.rowNumber,
          paymentId: result.paymentId,
          error: 'already_posted: Posted meanwhile by another delivery of the same payment',
        });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.push({ rowNumber: row.rowNumber, paymentId: null, error: `failed: ${error.message}` });
    }
  }
  await markRows(ctx, input.importId, outcome);
  return { posted, amount, refused: outcome.filter((o) => o.error !== null).length };
}

/** Each row's payment or reason, in one statement. */
export async function markRows(
  ctx: TxContext,
  importId: string,
  outcome: readonly { rowNumber: number; paymentId: string | null; error: string | null }[],
): Promise<void> {
  if (!outcome.length) return;
  await ctx.tx.execute(sql`
    UPDATE payment_import_rows r SET payment_id = v.payment_id, error = v.error
    FROM unnest(${sql.param(outcome.map((o) => o.rowNumber))}::int[], ${sql.param(outcome.map((o) => o.paymentId))}::text[],
                ${sql.param(outcome.map((o) => o.error))}::text[]) AS v(row_number, payment_id, error)
    WHERE r.import_id = ${importId} AND r.row_number = v.row_number`);
}
