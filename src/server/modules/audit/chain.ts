import { timingSafeEqual } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { chainVerificationSchema } from '../../../contracts/audit';
import { queryRows } from '../../../db/client';
import { auditCheckpoints } from '../../../db/schema';
import { CHAINED_COLUMNS, type ChainedContent, chainHash, chainMac, writeMac } from '../../audit';
import { type OverdueRows, SEAL_OVERDUE_SECONDS, sealAuditChain } from '../../audit-sealer';
import type { AppContext } from '../../context';

/** Rows read per query while verifying: the keyed hash is computed here, the key never in SQL. */
const VERIFY_BATCH = 2000;

/** Where the chain stood: its row count and newest row. Signed with the chain key. */
export interface Checkpoint {
  at: string;
  rows: number;
  lastId: number;
  lastHash: string;
  mac: string;
}

/** What `verify` answers, and the newest row's id for a checkpoint. */
export type ChainState = z.infer<typeof chainVerificationSchema> & { lastId: number | null };

type StoredRow = ChainedContent & {
  id: string | number;
  chain_seq: string | number;
  prev_hash: string | null;
  hash: string;
  chain_version: number;
  write_mac: string | null;
};

const signCheckpoint = (c: Omit<Checkpoint, 'mac'>) =>
  chainMac(`checkpoint|${c.at}|${c.rows}|${c.lastId}|${c.lastHash}`);

function sameText(a: string | null, b: string): boolean {
  return a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The newest checkpoint outside the database: an insider with SQL alone cannot roll it back. */
export function checkpointFile(ctx: Pick<AppContext, 'config'>): string {
  return path.join(ctx.config.DATA_DIR, 'audit-checkpoint.json');
}

async function readCheckpointFile(file: string): Promise<Checkpoint | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Checkpoint;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Seals what is pending, then recomputes every sealed row's keyed hash, link and write seal in
 * chain order (in batches, since only the app holds the key), then checks every checkpoint: each must be signed
 * with the key, and the chain must still hold its row count up to its newest row with that row's
 * hash, so rows cut from the end are missed. Rows the seal found overdue break it too.
 */
export async function verifyAuditChain(ctx: Pick<AppContext, 'db' | 'config'>): Promise<ChainState> {
  const { overdue } = await sealAuditChain(ctx.db, { wait: true });
  const state = await verifyRowsAfter(ctx, null);
  return stateOf(state, await chainBreak(ctx, state, overdue, true));
}

type Broken = { id: number | null; reason: string } | null;

interface RowsState {
  rows: number;
  /** The newest sealed row's hash, id and place in the chain. */
  prevHash: string | null;
  lastId: number | null;
  lastSeq: number;
  broken: Broken;
}

/**
 * The first thing wrong, most serious first: a row's link, hash or write seal, rows left out of
 * the chain (sha256 rows never sealed with the key), a checkpoint's rows gone (only when no
 * trusted checkpoint was the starting point), then rows sealed late.
 */
async function chainBreak(
  ctx: Pick<AppContext, 'db' | 'config'>,
  state: RowsState,
  overdue: OverdueRows | null,
  checkpoints: boolean,
): Promise<Broken> {
  if (state.broken) return state.broken;
  // Only rows written with a write seal (3) wait to be chained; anything else unchained is wrong.
  const [unchained] = await queryRows<{ id: string | number; chain_version: number }>(
    ctx.db,
    sql`SELECT id, chain_version FROM audit_log WHERE chain_seq IS NULL AND chain_version <> 3 ORDER BY id LIMIT 1`,
  );
  if (unchained)
    return {
      id: Number(unchained.id),
      reason:
        Number(unchained.chain_version) === 1
          ? 'it predates the keyed chain and was never sealed with the app key'
          : 'it was not written by the app (no write seal) and is left out of the chain',
    };
  const cut = checkpoints ? await checkCheckpoints(ctx) : null;
  if (cut) return cut;
  if (!overdue) return null;
  const since = new Date(Number(BigInt(overdue.oldestAtUs) / 1000n)).toISOString();
  return {
    id: overdue.firstId,
    reason:
      `${overdue.count} row(s) waited more than ${SEAL_OVERDUE_SECONDS} s to be sealed (the oldest written at ` +
      `${since}): no sealer was running, and they could be changed without the chain noticing until now`,
  };
}

function stateOf(state: RowsState, broken: Broken): ChainState {
  return {
    ok: !broken,
    rows: state.rows,
    firstBrokenId: broken?.id ?? null,
    reason: broken?.reason ?? null,
    lastHash: state.prevHash,
    lastId: state.lastId,
  };
}

/** Checks the sealed rows after a trusted point (none: from the first), continuing its count and hash. */
async function verifyRowsAfter(
  ctx: Pick<AppContext, 'db'>,
  from: (Pick<Checkpoint, 'rows' | 'lastId' | 'lastHash'> & { seq: number }) | null,
): Promise<RowsState> {
  let rows = from?.rows ?? 0;
  let prevHash: string | null = from?.lastHash ?? null;
  let lastId: number | null = from?.lastId ?? null;
  let lastSeq = from?.seq ?? 0;
  let broken: Broken = null;
  for (;;) {
    const batch: StoredRow[] = await queryRows<StoredRow>(
      ctx.db,
      sql`SELECT id, chain_seq, prev_hash, hash, chain_version, write_mac, ${CHAINED_COLUMNS}
          FROM audit_log WHERE chain_seq > ${lastSeq} ORDER BY chain_seq LIMIT ${VERIFY_BATCH}`,
    );
    for (const row of batch) {
      const id = Number(row.id);
      rows += 1;
      if (!broken) {
        if (row.prev_hash !== prevHash) broken = { id, reason: 'a row before it was removed or reordered' };
        else if (Number(row.chain_version) === 1)
          broken = { id, reason: 'it predates the keyed chain and was never sealed with the app key' };
        else if (!sameText(row.hash, chainHash(prevHash, row)))
          broken = { id, reason: 'its content was changed' };
        else if (Number(row.chain_version) === 3 && !sameText(row.write_mac, writeMac(row)))
          broken = {
            id,
            reason: 'it was not written by the app as it stands (changed or added before it was chained)',
          };
      }
      prevHash = row.hash;
      lastId = id;
      lastSeq = Number(row.chain_seq);
    }
    if (batch.length < VERIFY_BATCH) break;
  }
  return { rows, prevHash, lastId, lastSeq, broken };
}

/** The sealed row a checkpoint names: its hash, its place, and how many sealed rows go up to it. */
async function chainRowAt(
  ctx: Pick<AppContext, 'db'>,
  id: number,
): Promise<{ hash: string; seq: number; rows: number } | null> {
  const [found] = await queryRows<{ hash: string; seq: string | number; rows: string | number }>(
    ctx.db,
    sql`SELECT a.hash, a.chain_seq AS seq, (SELECT count(*) FROM audit_log b WHERE b.chain_seq <= a.chain_seq) AS rows
        FROM audit_log a WHERE a.id = ${id} AND a.chain_seq IS NOT NULL`,
  );
  return found ? { hash: found.hash, seq: Number(found.seq), rows: Number(found.rows) } : null;
}

/**
 * The newest checkpoint, when it is signed with the key and the chain still holds it (its row,
 * with its hash, at its count) and not behind the copy in DATA_DIR: the point before which the
 * growing log need not be re-read by the checkpoint job.
 */
async function trustedCheckpoint(
  ctx: Pick<AppContext, 'db' | 'config'>,
): Promise<(Checkpoint & { seq: number }) | null> {
  const [newest] = await ctx.db
    .select()
    .from(auditCheckpoints)
    .orderBy(sql`${auditCheckpoints.id} DESC`)
    .limit(1);
  if (!newest) return null;
  const checkpoint: Checkpoint = {
    at: new Date(newest.at).toISOString(),
    rows: Number(newest.rows),
    lastId: Number(newest.lastId),
    lastHash: newest.lastHash,
    mac: newest.mac,
  };
  const { mac, ...signed } = checkpoint;
  if (!sameText(mac, signCheckpoint(signed))) return null;
  // The copy in DATA_DIR must not be ahead of it: checkpoint rows deleted with the rows they
  // named would otherwise make an older checkpoint look like the newest. Ahead is by row count,
  // since chain order is seal order, not id order.
  const file = await readCheckpointFile(checkpointFile(ctx));
  if (
    file &&
    (file.rows > checkpoint.rows || (file.rows === checkpoint.rows && file.lastHash !== checkpoint.lastHash))
  )
    return null;
  const found = await chainRowAt(ctx, checkpoint.lastId);
  return found && found.hash === checkpoint.lastHash && found.rows === checkpoint.rows
    ? { ...checkpoint, seq: found.seq }
    : null;
}

async function checkCheckpoints(ctx: Pick<AppContext, 'db' | 'config'>): Promise<Broken> {
  // One pass numbers the rows; each checkpoint is joined to the row it names.
  const recorded = await queryRows<{
    at: Date | string;
    rows: string | number;
    last_id: string | number;
    last_hash: string;
    mac: string;
    found_hash: string | null;
    found_rows: string | number | null;
  }>(
    ctx.db,
    sql`SELECT c.at, c.rows, c.last_id, c.last_hash, c.mac, a.hash AS found_hash, a.n AS found_rows
        FROM audit_checkpoints c
        LEFT JOIN (SELECT id, hash, row_number() OVER (ORDER BY chain_seq) AS n
                   FROM audit_log WHERE chain_seq IS NOT NULL) a ON a.id = c.last_id
        ORDER BY c.id`,
  );
  const checkpoints = recorded.map((row) => ({
    checkpoint: {
      at: new Date(row.at).toISOString(),
      rows: Number(row.rows),
      lastId: Number(row.last_id),
      lastHash: row.last_hash,
      mac: row.mac,
    },
    found: row.found_hash === null ? null : { hash: row.found_hash, rows: Number(row.found_rows) },
  }));
  const file = await readCheckpointFile(checkpointFile(ctx));
  if (file) checkpoints.push({ checkpoint: file, found: await chainRowAt(ctx, file.lastId) });
  for (const { checkpoint, found } of checkpoints) {
    const { mac, ...signed } = checkpoint;
    if (!sameText(mac, signCheckpoint(signed)))
      return { id: null, reason: `the checkpoint of ${checkpoint.at} is not signed with the app key` };
    if (!found || found.hash !== checkpoint.lastHash || found.rows !== checkpoint.rows)
      return {
        id: checkpoint.lastId,
        reason: `rows up to it, counted by the checkpoint of ${checkpoint.at}, were removed`,
      };
  }
  return null;
}

/**
 * Seals what is pending, verifies the chain and, when it holds, records where it stands: a row in
 * audit_checkpoints (when the chain grew since the last one) and the same in DATA_DIR. A broken chain records
 * nothing: a checkpoint must never bless a cut.
 */
export async function recordAuditCheckpoint(ctx: AppContext): Promise<ChainState & { recorded: boolean }> {
  // Only the rows after the newest trusted checkpoint are re-read, so each run costs what the log
  // grew by, not its whole length; `verify` (the API) still reads everything.
  const { overdue } = await sealAuditChain(ctx.db, { wait: true });
  const newest = await trustedCheckpoint(ctx);
  const rows = await verifyRowsAfter(ctx, newest);
  const state = stateOf(rows, await chainBreak(ctx, rows, overdue, !newest));
  if (!state.ok || state.lastId === null || state.lastHash === null) return { ...state, recorded: false };
  const at = ctx.clock.now();
  const signed = { at: at.toISOString(), rows: state.rows, lastId: state.lastId, lastHash: state.lastHash };
  const checkpoint: Checkpoint = { ...signed, mac: signCheckpoint(signed) };
  const recorded = newest?.lastId !== state.lastId;
  if (recorded) await ctx.db.insert(auditCheckpoints).values({ ...checkpoint, at });
  const file = checkpointFile(ctx);
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, `${JSON.stringify(checkpoint)}\n`, { mode: 0o600 });
  await rename(partial, file);
  return { ...state, recorded };
}
