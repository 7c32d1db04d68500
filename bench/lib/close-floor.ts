import type pg from 'pg';

/**
 * The floor under a close of business on this machine, as `import-floor.ts` is the import's: the
 * rows one close just wrote, written again by plain set-based statements from tables prepared
 * beforehand, on one backend or on two side by side (one per client given), each in a transaction
 * rolled back afterwards. Nothing is searched, computed or checked beyond what the tables' own
 * indexes, triggers and constraints do, and each contract's figures are written once (the close writes those of a contract charged a fee twice:
 * step 1's arrears, then the fee). The one read kept is a pass over the book's figures, which the
 * snapshot cannot do without. So the close cannot be faster than this on this machine and this
 * data model, unless it wrote fewer rows.
 *
 * `since` is when the close started: the rows it wrote are those changed since (nothing else writes
 * these tables while a bench copy closes). The prepared tables are made first and the copy
 * checkpointed, so the writes meet the book at rest, as the close did.
 */
export async function closeFloor(
  clients: readonly pg.Client[],
  date: string,
  since: Date,
): Promise<{ seconds: number; steps: Record<string, number>; rows: Record<string, number> }> {
  const [first] = clients;
  if (!first) throw new Error('closeFloor needs a client');
  const rows: Record<string, number> = {};
  const steps: Record<string, number> = {};
  let seconds = 0;
  try {
    for (const [name, { select, on, renamed = [] }] of Object.entries(PREPARED)) {
      const made = await first.query(`CREATE UNLOGGED TABLE floor_${name} AS ${select}`, [
        on === 'date' ? date : since.toISOString(),
      ]);
      rows[name] = made.rowCount ?? 0;
      if (renamed.length)
        await first.query(
          `UPDATE floor_${name} SET ${renamed.map((column) => `${column} = 'floor-' || ${column}`).join(', ')}`,
        );
    }
    // The cases of a first close went into an empty table: their copies go into one too.
    const counted = await first.query<{ all: number }>('SELECT count(*)::int AS all FROM collection_cases');
    const emptyCases = counted.rows[0]?.all === rows.cases;
    await first.query('CHECKPOINT');
    // One lane per client, each its own transaction: the writes in turn on one backend, or split
    // over two as the close's stages split them, the lanes about even.
    const lanes = clients.length === 1 ? [Object.keys(FLOOR_WRITES)] : LANES;
    for (const client of clients) await client.query('BEGIN');
    const started = performance.now();
    await Promise.all(
      lanes.map(async (lane, n) => {
        const client = clients[n] as pg.Client;
        for (const name of lane) {
          const at = performance.now();
          if (name === 'cases')
            await client.query(
              emptyCases
                ? 'TRUNCATE collection_cases'
                : 'DELETE FROM collection_cases c USING floor_cases f WHERE c.contract_id = f.contract_id',
            );
          await client.query(FLOOR_WRITES[name] as string);
          steps[name] = Math.round(performance.now() - at);
        }
      }),
    );
    seconds = (performance.now() - started) / 1000;
  } finally {
    for (const client of clients) await client.query('ROLLBACK');
    for (const name of Object.keys(PREPARED)) await first.query(`DROP TABLE IF EXISTS floor_${name}`);
  }
  return { seconds, steps, rows };
}

/** The writes split over two backends, each lane about half of the one-backend floor. */
const LANES = [
  ['installments', 'figures', 'events', 'journal', 'snapshotRead'],
  ['contracts', 'cases', 'messages', 'commands'],
];

/**
 * The rows the close wrote, as unlogged tables (a second backend could not read another's temporary
 * ones): the keys of the rows to write again, or whole rows to insert again, their unique columns
 * (`renamed`) prefixed so that the copies stand beside the originals. Each select takes the close's
 * start (`since`), or its business date (`on: 'date'`), as $1.
 */
const PREPARED: Record<string, { select: string; on?: 'date'; renamed?: string[] }> = {
  installments: {
    select: 'SELECT contract_id, schedule_version, n FROM contract_installments WHERE late_fee_on = $1::date',
    on: 'date',
  },
  figures: { select: 'SELECT contract_id FROM contract_figures WHERE updated_at >= $1' },
  contracts: { select: `SELECT id FROM contracts WHERE status = 'defaulted' AND updated_at >= $1` },
  events: { select: 'SELECT * FROM contract_events WHERE at >= $1', renamed: ['id'] },
  entries: {
    select: 'SELECT * FROM journal_entries WHERE created_at >= $1',
    renamed: ['id', 'number', 'source_id'],
  },
  // Without their own ids, which the identity column gives the copies.
  lines: {
    select: `SELECT l.entry_id, l.account_code, l.debit, l.credit, l.contract_id, l.customer_id, l.memo
      FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.created_at >= $1`,
    renamed: ['entry_id'],
  },
  commands: { select: 'SELECT * FROM device_commands WHERE created_at >= $1', renamed: ['id'] },
  messages: { select: 'SELECT * FROM messages WHERE created_at >= $1', renamed: ['id', 'dedupe_key'] },
  cases: { select: 'SELECT * FROM collection_cases WHERE updated_at >= $1' },
};

const FLOOR_WRITES: Record<string, string> = {
  installments: `UPDATE contract_installments i SET penalty_due = i.penalty_due + 0, late_fee_on = i.late_fee_on
    FROM floor_installments t
    WHERE i.contract_id = t.contract_id AND i.schedule_version = t.schedule_version AND i.n = t.n`,
  // An indexed value changes, as the close's arrears and fees change theirs: no HOT update.
  figures: `UPDATE contract_figures f SET outstanding_total = f.outstanding_total + 1, updated_at = now()
    FROM floor_figures t WHERE f.contract_id = t.contract_id`,
  contracts: `UPDATE contracts c SET status = 'active', version = c.version + 1, updated_at = now()
    FROM floor_contracts t WHERE c.id = t.id`,
  events: 'INSERT INTO contract_events SELECT * FROM floor_events',
  journal: `WITH e AS (INSERT INTO journal_entries SELECT * FROM floor_entries)
    INSERT INTO journal_lines (entry_id, account_code, debit, credit, contract_id, customer_id, memo)
    SELECT * FROM floor_lines`,
  commands: 'INSERT INTO device_commands SELECT * FROM floor_commands',
  messages: 'INSERT INTO messages SELECT * FROM floor_messages',
  cases: 'INSERT INTO collection_cases SELECT * FROM floor_cases',
  snapshotRead: `SELECT count(*), sum(f.outstanding_total), sum(f.overdue_total) FROM contracts c
    JOIN contract_figures f ON f.contract_id = c.id WHERE c.status IN ('active', 'defaulted')`,
};
