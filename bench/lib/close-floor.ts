import type pg from 'pg';

/**
 * The floor under a close of business on this machine, as `import-floor.ts` is the import's: the
 * rows one close just wrote, written again by plain set-based statements from tables prepared
 * beforehand, on one backend or on two side by side (one per client given), each in a transaction
 * rolled back afterwards. Nothing is searched,
 * computed or checked beyond what the tables' own indexes, triggers and constraints do, and each
 * contract's figures are written once (the close writes those of a contract charged a fee twice:
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
  for (const [name, query, params] of PREPARED(date, since.toISOString())) {
    const made = await first.query(query, params);
    rows[name] = made.rowCount ?? 0;
  }
  // The cases of a first close went into an empty table: their copies go into one too.
  const counted = await first.query<{ all: number }>('SELECT count(*)::int AS all FROM collection_cases');
  const emptyCases = counted.rows[0]?.all === rows.cases;
  await first.query('CHECKPOINT');
  const steps: Record<string, number> = {};
  // One lane per client, each its own transaction: the writes in turn on one backend, or split
  // over two as the close's stages split them, the lanes about even.
  const lanes = clients.length === 1 ? [Object.keys(FLOOR_WRITES)] : LANES;
  for (const client of clients) await client.query('BEGIN');
  const started = performance.now();
  try {
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
  } finally {
    for (const client of clients) await client.query('ROLLBACK');
    for (const name of Object.keys(rows)) await first.query(`DROP TABLE IF EXISTS floor_${name}`);
  }
  return { seconds: (performance.now() - started) / 1000, steps, rows };
}

/** The writes split over two backends, each lane about half of the one-backend floor. */
const LANES = [
  ['installments', 'figures', 'events', 'journal', 'snapshotRead'],
  ['contracts', 'cases', 'messages', 'commands'],
];

/**
 * The rows the close wrote, as tables of the keys to write again or of the rows to insert again
 * under new keys: unlogged tables rather than temporary ones, which a second backend could not read.
 */
const PREPARED = (date: string, since: string): Array<[string, string, unknown[]]> => [
  [
    'installments',
    'CREATE UNLOGGED TABLE floor_installments AS SELECT contract_id, schedule_version, n FROM contract_installments WHERE late_fee_on = $1::date',
    [date],
  ],
  [
    'figures',
    'CREATE UNLOGGED TABLE floor_figures AS SELECT contract_id FROM contract_figures WHERE updated_at >= $1',
    [since],
  ],
  [
    'contracts',
    `CREATE UNLOGGED TABLE floor_contracts AS SELECT id FROM contracts WHERE status = 'defaulted' AND updated_at >= $1`,
    [since],
  ],
  [
    'events',
    `CREATE UNLOGGED TABLE floor_events AS SELECT 'floor-' || id AS id, contract_id, type, message, data, actor_id, at
     FROM contract_events WHERE at >= $1`,
    [since],
  ],
  [
    'entries',
    `CREATE UNLOGGED TABLE floor_entries AS SELECT 'floor-' || id AS id, 'F-' || number AS number, business_date, description,
       source_type, 'floor-' || source_id AS source_id, currency, reversal_of, created_by, created_at
     FROM journal_entries WHERE created_at >= $1`,
    [since],
  ],
  [
    'lines',
    `CREATE UNLOGGED TABLE floor_lines AS SELECT 'floor-' || l.entry_id AS entry_id, l.account_code, l.debit, l.credit,
       l.contract_id, l.customer_id, l.memo
     FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE e.created_at >= $1`,
    [since],
  ],
  [
    'commands',
    `CREATE UNLOGGED TABLE floor_commands AS SELECT * FROM device_commands WHERE created_at >= $1`,
    [since],
  ],
  [
    'messages',
    `CREATE UNLOGGED TABLE floor_messages AS SELECT * FROM messages WHERE created_at >= $1`,
    [since],
  ],
  [
    'cases',
    `CREATE UNLOGGED TABLE floor_cases AS SELECT * FROM collection_cases WHERE updated_at >= $1`,
    [since],
  ],
];

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
  commands: `INSERT INTO device_commands SELECT * FROM (SELECT 'floor-' || id AS id, device_id, contract_id, kind, state,
      reason, source_type, source_id, attempts, next_attempt_at, last_error, requested_by, created_at, sent_at,
      completed_at, payload, provider FROM floor_commands) c`,
  messages: `INSERT INTO messages SELECT * FROM (SELECT 'floor-' || id, customer_id, contract_id, channel, recipient,
      template_key, template_version, body, status, skipped_reason, failure_reason, attempts, next_attempt_at, provider,
      provider_reference, source_type, source_id, 'floor-' || dedupe_key, created_by, created_at, sent_at, delivered_at,
      updated_at, subject, bulk_send_id, conversation_id FROM floor_messages) m`,
  cases: 'INSERT INTO collection_cases SELECT * FROM floor_cases',
  snapshotRead: `SELECT count(*), sum(f.outstanding_total), sum(f.overdue_total) FROM contracts c
    JOIN contract_figures f ON f.contract_id = c.id WHERE c.status IN ('active', 'defaulted')`,
};
