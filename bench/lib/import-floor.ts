import type pg from 'pg';

/**
 * The floor under the statement import on this machine: the rows a posted payment must write
 * (its payment row, two allocation lines, a journal entry of three lines, its instalment, its
 * contract's figures and contract row, a timeline line), written for `rows` contracts by plain
 * set-based statements with no reading, allocating, de-duplicating or marking, in one
 * transaction rolled back afterwards. The import cannot be faster than this; COPY into a bare
 * table is the machine's limit for rows of any kind (decision 044, stop 50).
 *
 * The contracts are the `rows` after the first `skip` by number, descending (the import took the
 * first ones), so their instalments are still unpaid.
 */
export async function importFloor(
  client: pg.Client,
  skip: number,
  rows: number,
): Promise<{ seconds: number; steps: Record<string, number> }> {
  await client.query('BEGIN');
  try {
    await client.query(
      `CREATE TEMP TABLE floor_rows ON COMMIT DROP AS
       SELECT c.id AS contract_id, c.customer_id, c.schedule_version, 'floor-' || row_number() OVER () AS pid,
              (SELECT i.n FROM contract_installments i
               WHERE i.contract_id = c.id AND i.schedule_version = c.schedule_version AND i.settled_at IS NULL
               ORDER BY i.n LIMIT 1) AS n
       FROM contracts c ORDER BY c.number DESC OFFSET $1 LIMIT $2`,
      [skip, rows],
    );
    const steps: Record<string, number> = {};
    for (const [name, statement] of Object.entries(FLOOR_WRITES)) {
      const started = performance.now();
      await client.query(statement);
      steps[name] = performance.now() - started;
    }
    const seconds = Object.values(steps).reduce((sum, ms) => sum + ms, 0) / 1000;
    return { seconds, steps };
  } finally {
    await client.query('ROLLBACK');
  }
}

const FLOOR_WRITES: Record<string, string> = {
  lock: `SELECT count(*) FROM (SELECT 1 FROM contracts c JOIN floor_rows t ON t.contract_id = c.id
         ORDER BY c.id FOR UPDATE OF c) x`,
  payments: `INSERT INTO payments (id, receipt_number, contract_id, customer_id, amount, currency, method, provider,
               reference, received_at, status, posted_at, credit, value_date)
             SELECT pid, 'RF-' || pid, contract_id, customer_id, 1250, 'KES', 'bank_transfer', 'bank_transfer',
               'FLOOR-' || pid, now(), 'posted', now(), 0, current_date FROM floor_rows`,
  allocations: `INSERT INTO payment_allocations (payment_id, contract_id, schedule_version, installment_number, component, amount)
                SELECT pid, contract_id, schedule_version, n, component, 625
                FROM floor_rows, unnest(ARRAY['interest', 'principal']) AS component`,
  journalEntries: `INSERT INTO journal_entries (id, number, business_date, description, source_type, source_id, currency)
                   SELECT 'je-' || pid, 'JE-' || pid, current_date, 'Payment', 'payment', pid, 'KES' FROM floor_rows`,
  journalLines: `INSERT INTO journal_lines (entry_id, account_code, debit, credit, contract_id, customer_id)
                 SELECT 'je-' || pid, account, debit, credit, contract_id, customer_id
                 FROM floor_rows, (VALUES ('1010', 1250, 0), ('4100', 0, 625), ('1100', 0, 625)) AS l(account, debit, credit)`,
  installments: `UPDATE contract_installments i
                 SET interest_paid = LEAST(i.interest_due, i.interest_paid + 625),
                     principal_paid = LEAST(i.principal_due, i.principal_paid + 625)
                 FROM floor_rows t
                 WHERE i.contract_id = t.contract_id AND i.schedule_version = t.schedule_version AND i.n = t.n`,
  figures: `UPDATE contract_figures f SET outstanding_total = f.outstanding_total - 1250, updated_at = now()
            FROM floor_rows t WHERE f.contract_id = t.contract_id`,
  contracts: `UPDATE contracts c SET total_paid = c.total_paid + 1250, outstanding_principal = c.outstanding_principal - 625,
                version = c.version + 1, updated_at = now()
              FROM floor_rows t WHERE c.id = t.contract_id`,
  timeline: `INSERT INTO contract_events (id, contract_id, type, message, data, at)
             SELECT 'ev-' || pid, contract_id, 'payment', 'Payment of KES 12.50 received (bank transfer, statement import)',
               jsonb_build_object('paymentId', pid), now() FROM floor_rows`,
};
