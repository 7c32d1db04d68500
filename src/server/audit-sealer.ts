import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, queryRows } from '../db/client';
import { CHAINED_COLUMNS, type ChainedContent, chainHash, onAuditWritten } from './audit';
import type { Executor, Tx } from './context';

/**
 * The audit chain is sealed after commit (decision 023): `writeAudit` inserts a row with its write
 * seal but no hash and no place in the chain, and the sealer gives the rows that have committed
 * since it last ran their place (`chain_seq`, consecutive) and chained hash, in batches. Chain
 * order is seal order. It does not check write seals (verify does): a row is chained as it stands.
 */

/** Held by whoever seals, to the end of its transaction: one sealer at a time per database. */
const CHAIN_LOCK = 5150212;
/** Rows chained per transaction (one UPDATE each). */
const SEAL_BATCH = 500;
/**
 * A row still unsealed this long after it was written means no sealer ran meanwhile (they run
 * within a second of a write): `verify` reports it and the sealer logs it, since the row was open
 * to change without the chain noticing all that time.
 */
export const SEAL_OVERDUE_SECONDS = 30;

interface ChainHead {
  hash: string | null;
  seq: number;
}

type ChainRow = ChainedContent & { id: string | number };

/** Rows sealed later than `SEAL_OVERDUE_SECONDS` after they were written. */
export interface OverdueRows {
  firstId: number;
  count: number;
  /** The oldest one's time, in epoch microseconds. */
  oldestAtUs: string;
}

export interface SealResult {
  sealed: number;
  /** Another sealer held the lock (only without `wait`): it seals what is pending. */
  skipped: boolean;
  overdue: OverdueRows | null;
}

/** Takes the chain lock, waiting for it or not; a statement of its own, so later ones see what its holder committed. */
async function lockChain(tx: Tx, wait: boolean): Promise<boolean> {
  if (wait) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(CHAIN_LOCK))})`);
    return true;
  }
  const [row] = await queryRows<{ locked: boolean }>(
    tx,
    sql`SELECT pg_try_advisory_xact_lock(${sql.raw(String(CHAIN_LOCK))}) AS locked`,
  );
  return row?.locked === true;
}

/** Links `rows` after `head` in their order, in one UPDATE; returns the new head. */
async function chainRows(tx: Tx, head: ChainHead, rows: ChainRow[]): Promise<ChainHead> {
  let { hash: prevHash, seq } = head;
  const values = rows.map((row) => {
    const hash = chainHash(prevHash, row);
    seq += 1;
    const value = sql`(${Number(row.id)}::bigint, ${prevHash}::text, ${hash}::text, ${seq}::bigint)`;
    prevHash = hash;
    return value;
  });
  // A sha256 row (1) re-chained with the key becomes 2; a row written with its write seal stays 3.
  await tx.execute(sql`
    UPDATE audit_log SET prev_hash = v.prev_hash, hash = v.hash, chain_seq = v.seq,
                         chain_version = CASE audit_log.chain_version WHEN 1 THEN 2 ELSE audit_log.chain_version END
    FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, prev_hash, hash, seq) WHERE audit_log.id = v.id`);
  return { hash: prevHash, seq };
}

/**
 * Seals one batch in its own transaction: the lock, the rows still unsealed (in id order, locked),
 * the newest sealed row, then one UPDATE. Null when another sealer held the lock.
 */
async function sealBatch(
  db: Db,
  wait: boolean,
): Promise<{ rows: number; overdue: OverdueRows | null } | null> {
  return db.transaction(async (tx) => {
    if (!(await lockChain(tx, wait))) return null;
    const rows = await queryRows<ChainRow & { overdue: boolean }>(
      tx,
      sql`SELECT id, ${CHAINED_COLUMNS},
                 at < clock_timestamp() - ${SEAL_OVERDUE_SECONDS} * interval '1 second' AS overdue
          FROM audit_log WHERE chain_seq IS NULL AND chain_version = 3
          ORDER BY id LIMIT ${SEAL_BATCH} FOR UPDATE`,
    );
    if (!rows.length) return { rows: 0, overdue: null };
    const [newest] = await queryRows<{ hash: string; chain_seq: string | number }>(
      tx,
      sql`SELECT hash, chain_seq FROM audit_log WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1`,
    );
    // The first keyed rows follow the sha256 rows, once those are sealed (decision 016).
    const head = newest
      ? { hash: newest.hash, seq: Number(newest.chain_seq) }
      : ((await sealLegacyRows(tx)) ?? { hash: null, seq: 0 });
    await chainRows(tx, head, rows);
    const overdue = rows
      .filter((row) => row.overdue)
      .reduce<OverdueRows | null>(
        (found, row) => mergeOverdue(found, { firstId: Number(row.id), count: 1, oldestAtUs: row.at_us }),
        null,
      );
    return { rows: rows.length, overdue };
  });
}

function mergeOverdue(a: OverdueRows | null, b: OverdueRows | null): OverdueRows | null {
  if (!a || !b) return a ?? b;
  return {
    firstId: Math.min(a.firstId, b.firstId),
    count: a.count + b.count,
    oldestAtUs: BigInt(a.oldestAtUs) < BigInt(b.oldestAtUs) ? a.oldestAtUs : b.oldestAtUs,
  };
}

/**
 * Seals every committed unsealed row, batch by batch. Without `wait` it skips when another sealer
 * holds the lock (the background loop: that one seals them); with it, it waits for that one, so
 * what was committed before the call is sealed when it returns (verify and checkpoints).
 */
export async function sealAuditChain(db: Db, options: { wait?: boolean } = {}): Promise<SealResult> {
  let sealed = 0;
  let overdue: OverdueRows | null = null;
  for (;;) {
    const batch = await sealBatch(db, options.wait ?? false);
    if (!batch) return { sealed, skipped: true, overdue };
    sealed += batch.rows;
    overdue = mergeOverdue(overdue, batch.overdue);
    if (batch.rows < SEAL_BATCH) return { sealed, skipped: false, overdue };
  }
}

/**
 * Re-chains the rows hashed with plain sha256 (migration 0002, `chain_version` 1) with the keyed
 * hash, once, in id order, as the chain's first rows: the legacy sealing the append-only trigger
 * allows. Only an intact sha256 chain with no sealed keyed row yet is sealed (sealing must not
 * launder an edit made before it); else the rows stay unsealed and `verify` reports them. Run at
 * start; the sealer runs it too before chaining the first keyed row.
 */
export async function sealLegacyAuditRows(executor: Executor): Promise<void> {
  const seal = async (tx: Tx) => {
    await lockChain(tx, true);
    await sealLegacyRows(tx);
  };
  await (executor instanceof PgTransaction ? seal(executor as Tx) : executor.transaction(seal));
}

/** `sealLegacyAuditRows` under the chain lock; the chain's head when it sealed, else null. */
async function sealLegacyRows(tx: Tx): Promise<ChainHead | null> {
  const [state] = await queryRows<{ pending: boolean; keyed: boolean; broken: boolean }>(
    tx,
    sql`SELECT EXISTS (SELECT 1 FROM audit_log WHERE chain_version = 1) AS pending,
               EXISTS (SELECT 1 FROM audit_log WHERE chain_seq IS NOT NULL) AS keyed,
               EXISTS (SELECT 1 FROM (
                 SELECT prev_hash, hash, lag(hash) OVER (ORDER BY id) AS expected_prev,
                        audit_hash(prev_hash, audit_payload(at, actor_id, actor_label, action, entity_type,
                                   entity_id, before, after, ip, request_id)) AS expected_hash
                 FROM audit_log WHERE chain_version = 1) chain
               WHERE prev_hash IS DISTINCT FROM expected_prev OR hash IS DISTINCT FROM expected_hash) AS broken`,
  );
  if (!state?.pending || state.keyed || state.broken) return null;
  let head: ChainHead = { hash: null, seq: 0 };
  for (;;) {
    const rows = await queryRows<ChainRow>(
      tx,
      sql`SELECT id, ${CHAINED_COLUMNS} FROM audit_log WHERE chain_version = 1 ORDER BY id LIMIT ${SEAL_BATCH}`,
    );
    if (!rows.length) return head;
    head = await chainRows(tx, head, rows);
  }
}

export interface AuditSealerOptions {
  /** How long after a write the sealer runs, gathering the writes meanwhile into one batch. */
  debounceMs?: number;
  /** How often it looks anyway: rows left by an instance that stopped before sealing them. */
  sweepMs?: number;
  /** The sweep waits for this (migrations applied); writes only happen once it holds anyway. */
  isReady?: () => boolean;
}

/**
 * One app's background sealing: shortly after this process writes audit rows (debounced), again
 * while there is work, and a periodic sweep. It only skips when another sealer holds the lock.
 * `stop` waits for a run in progress and seals once more what this process left.
 */
export class AuditSealer {
  private debounce: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private pending = false;
  private stopped = false;
  private paused = false;
  private unsubscribe: (() => void) | undefined;
  private readonly options: Required<AuditSealerOptions>;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: AuditSealerOptions = {},
  ) {
    this.options = { debounceMs: 200, sweepMs: 5000, isReady: () => true, ...options };
  }

  start(): void {
    this.unsubscribe = onAuditWritten(() => this.wake());
    this.sweep = setInterval(() => {
      if (this.options.isReady()) this.wake();
    }, this.options.sweepMs);
    this.sweep.unref();
  }

  /** Seals within the debounce unless a run is due or under way (that one comes back for more). */
  private wake(): void {
    this.pending = true;
    if (this.stopped || this.paused || this.debounce || this.running) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.run();
    }, this.options.debounceMs);
    this.debounce.unref();
  }

  private run(): void {
    this.pending = false;
    this.running = sealAuditChain(this.db)
      .then((result) => {
        if (result.overdue)
          this.log.error(
            { ...result.overdue, overdueSeconds: SEAL_OVERDUE_SECONDS },
            'audit rows were sealed late: no sealer ran meanwhile',
          );
        // Rows committed while it ran, or held by the other sealer: look again shortly. A failure
        // waits for the sweep instead, so a database that is down is not asked five times a second.
        if (result.sealed > 0 || result.skipped) this.pending = true;
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'sealing the audit chain failed'))
      .finally(() => {
        this.running = null;
        if (this.pending) this.wake();
      });
  }

  /**
   * Holds sealing until the returned function is called: waits for a run under way, and what is
   * written meanwhile is sealed on resume. Tests that count one request's statements use it, so a
   * sweep's transaction does not fall inside their window.
   */
  async pause(): Promise<() => void> {
    this.paused = true;
    clearTimeout(this.debounce);
    this.debounce = undefined;
    await this.running;
    return () => {
      this.paused = false;
      if (this.pending) this.wake();
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.debounce);
    clearInterval(this.sweep);
    await this.running;
    if (!this.pending) return;
    // What this process wrote last is sealed now rather than by the next instance's sweep.
    await sealAuditChain(this.db).catch((error: unknown) =>
      this.log.error({ err: error }, 'sealing the audit chain at stop failed'),
    );
  }
}
