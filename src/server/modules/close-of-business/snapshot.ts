import { type SQL, sql } from 'drizzle-orm';
import type { Organisation } from '../../../contracts/profile';
import { queryRows } from '../../../db/client';
import {
  contractInstallments,
  contracts,
  customers,
  devices,
  investorFigures,
  paymentAllocations,
  payments,
  portfolioSnapshots,
} from '../../../db/schema';
import { addDays } from '../../../domain';
import type { TxContext } from '../../context';
import { bucketCase, dpdOn, figuresJoin } from '../contracts/figures';

/**
 * Close of business step 8: the portfolio at the end of a business date (PRODUCT.md §2 KPIs), in
 * one statement computed *as of the date* from the schedule, the late fees charged and the
 * payments valued up to it, so the same statement back-fills past dates. PAR(n) is the
 * outstanding principal of live contracts more than n days past due over the outstanding
 * principal of live contracts. The collections queue counts live contracts in arrears or with an
 * instalment due on the date still unpaid (promises to pay come with the collections area; a broken
 * one will add its contract). What history does not keep is read as it is now: a contract's
 * defaulted status and its current schedule version; the units' lock state is counted only for
 * the date being closed (`current`), null when back-filled.
 */
export async function writeSnapshot(
  ctx: TxContext,
  org: Organisation,
  date: string,
  options: {
    /** The date being closed: its units' lock state is counted (null when back-filled). */
    current: boolean;
    /** The date is the business date, so the stored figures are its own (`storedFigures`). */
    stored?: boolean;
    replace: boolean;
    /**
     * Write the date's `investor_figures` too (default). They total every payment line up to the
     * date, so a back-fill writes them only for the dates the investor portal reads (month ends
     * and the last month: decision 039).
     */
    investor?: boolean;
  },
): Promise<{ contracts: number }> {
  const month = `${date.slice(0, 7)}-01`;
  const closedOn = sql`((c.closed_at AT TIME ZONE ${org.timeZone})::date + ${org.businessDateOffset}::int)`;
  const locked = options.current
    ? sql`(SELECT count(*)::int FROM live l JOIN ${devices} d ON d.id = l.device_id WHERE d.lock_state = 'locked')`
    : sql`NULL::int`;
  const conflict = options.replace
    ? sql`ON CONFLICT (business_date) DO UPDATE SET ${sql.raw(SNAPSHOT_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', '))}`
    : sql`ON CONFLICT (business_date) DO NOTHING`;
  const figures = options.stored ? storedFigures(date, org) : figuresAsOf(date, org, closedOn);
  const investorConflict = options.replace
    ? sql`ON CONFLICT (fund, business_date, vintage) DO UPDATE SET ${sql.raw(INVESTOR_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', '))}`
    : sql`ON CONFLICT (fund, business_date, vintage) DO NOTHING`;
  // Read first, in a statement that writes nothing, so PostgreSQL may share its scans of the book
  // among parallel workers (a statement that writes runs on one core: at a million contracts
  // the figures took 11 s as one writing statement); then the few rows it computed are written.
  const [row] = await queryRows<{ contracts: number; snapshot: unknown; investor: unknown }>(
    ctx.tx,
    sql`
    WITH ${figures}, totals AS (
      SELECT count(*) FILTER (WHERE status <> 'defaulted')::int AS active_count,
             count(*) FILTER (WHERE status = 'defaulted')::int AS defaulted_count,
             count(*) FILTER (WHERE dpd > 0)::int AS overdue_count,
             count(*) FILTER (WHERE due_today)::int AS due_today_count,
             count(*) FILTER (WHERE dpd > 0 OR due_today_unpaid)::int AS queue_count,
             coalesce(sum(principal), 0)::bigint AS outstanding_principal,
             coalesce(sum(total), 0)::bigint AS outstanding_total,
             coalesce(sum(overdue), 0)::bigint AS overdue_amount,
             coalesce(sum(principal) FILTER (WHERE dpd > 1), 0)::bigint AS par1,
             coalesce(sum(principal) FILTER (WHERE dpd > 30), 0)::bigint AS par30,
             coalesce(sum(principal) FILTER (WHERE dpd > 90), 0)::bigint AS par90
      FROM fig
    ), buckets AS (
      SELECT coalesce(jsonb_object_agg(bucket, jsonb_build_object('count', n, 'principal', principal)), '{}'::jsonb) AS buckets
      FROM (SELECT bucket, count(*)::int AS n, coalesce(sum(principal), 0)::bigint AS principal FROM fig GROUP BY bucket) b
    ), due AS (
      SELECT coalesce(sum(regular_due) FILTER (WHERE due_date = ${date}::date), 0)::bigint AS today,
             coalesce(sum(regular_due) FILTER (WHERE due_date BETWEEN ${month}::date AND ${date}::date), 0)::bigint AS mtd
      FROM dues
    ), collected AS (
      SELECT coalesce(sum(a.amount) FILTER (WHERE p.value_date = ${date}::date), 0)::bigint AS today,
             coalesce(sum(a.amount), 0)::bigint AS mtd
      FROM ${payments} p JOIN ${paymentAllocations} a ON a.payment_id = p.id
      WHERE p.status = 'posted' AND p.method <> 'deposit' AND p.value_date BETWEEN ${month}::date AND ${date}::date
        AND a.superseded_at IS NULL AND a.component <> 'credit' AND a.installment_number IS NOT NULL
    ), disbursed AS (
      SELECT count(*)::int AS n, coalesce(sum(c.principal), 0)::bigint AS amount
      FROM ${contracts} c WHERE c.activated_at IS NOT NULL AND c.start_date = ${date}::date
    )${options.investor === false ? sql`` : sql`, ${investorFiguresOf(date, closedOn, options.stored === true)}`}
    SELECT (t.active_count + t.defaulted_count)::int AS contracts,
           json_build_object('currency', ${org.currency}::text, 'active_count', t.active_count,
             'defaulted_count', t.defaulted_count, 'locked_count', ${locked}, 'overdue_count', t.overdue_count,
             'due_today_count', t.due_today_count, 'queue_count', t.queue_count,
             'outstanding_principal', t.outstanding_principal, 'outstanding_total', t.outstanding_total,
             'overdue_amount', t.overdue_amount, 'par1_amount', t.par1, 'par30_amount', t.par30, 'par90_amount', t.par90,
             'par1_ratio', ${ratio(sql`t.par1`)}, 'par30_ratio', ${ratio(sql`t.par30`)}, 'par90_ratio', ${ratio(sql`t.par90`)},
             'due_amount', due.today, 'due_month_to_date', due.mtd, 'collected_amount', collected.today,
             'collected_month_to_date', collected.mtd, 'disbursed_count', disbursed.n, 'disbursed_amount', disbursed.amount,
             'buckets', buckets.buckets, 'computed_at', ${ctx.clock.now().toISOString()}::timestamptz) AS snapshot,
           ${options.investor === false ? sql`NULL::json` : sql`(SELECT json_agg(g) FROM investor_rows g)`} AS investor
    FROM totals t, due, collected, disbursed, buckets`,
  );
  if (!row) throw new Error('The snapshot read no row');
  await ctx.tx.execute(sql`
    INSERT INTO ${portfolioSnapshots} (business_date, ${sql.raw(SNAPSHOT_COLUMNS.join(', '))})
    SELECT ${date}::date, ${sql.raw(SNAPSHOT_COLUMNS.map((c) => `r.${c}`).join(', '))}
    FROM json_populate_record(NULL::${portfolioSnapshots}, ${JSON.stringify(row.snapshot)}::json) r
    ${conflict}`);
  if (row.investor)
    await ctx.tx.execute(sql`
      INSERT INTO ${investorFigures} (business_date, fund, vintage, ${sql.raw(INVESTOR_COLUMNS.join(', '))})
      SELECT ${date}::date, r.fund, r.vintage, ${sql.raw(INVESTOR_COLUMNS.map((c) => `r.${c}`).join(', '))}
      FROM json_populate_recordset(NULL::${investorFigures}, ${JSON.stringify(row.investor)}::json) r
      ${investorConflict}`);
  return { contracts: row.contracts };
}

/**
 * The figures as of a past date (`backfillSnapshots`, a catch-up close): computed from the
 * schedule, the late fees charged by then and the payments valued by then, per contract. CTEs
 * `live`, `fig` (a row per live contract) and `dues` (its instalments' regular dues by date).
 */
function figuresAsOf(date: string, org: Organisation, closedOn: SQL): SQL {
  return sql`
    live AS (
      SELECT c.id, c.device_id, c.schedule_version, c.status
      FROM ${contracts} c
      WHERE c.activated_at IS NOT NULL AND c.start_date <= ${date}::date
        AND (c.status IN ('active', 'defaulted') OR (c.closed_at IS NOT NULL AND ${closedOn} > ${date}::date))
    ), paid AS (
      SELECT a.contract_id, a.schedule_version, a.installment_number AS n,
             sum(a.amount) FILTER (WHERE a.component = 'principal') AS principal, sum(a.amount) AS total
      FROM ${paymentAllocations} a JOIN ${payments} p ON p.id = a.payment_id
      WHERE a.superseded_at IS NULL AND p.status = 'posted' AND p.value_date <= ${date}::date
        AND a.installment_number IS NOT NULL AND a.component <> 'credit'
      GROUP BY 1, 2, 3
    ), inst AS (
      SELECT i.contract_id, i.due_date, i.principal_due, i.principal_due + i.interest_due + i.fee_due AS regular_due,
             i.principal_due + i.interest_due + i.fee_due
               + CASE WHEN i.late_fee_on <= ${date}::date THEN i.penalty_due ELSE 0 END AS due,
             coalesce(p.principal, 0) AS principal_paid, coalesce(p.total, 0) AS paid
      FROM live l
      JOIN ${contractInstallments} i ON i.contract_id = l.id AND i.schedule_version = l.schedule_version
      LEFT JOIN paid p ON p.contract_id = i.contract_id AND p.schedule_version = i.schedule_version AND p.n = i.n
    ), per AS (
      SELECT contract_id,
             sum(principal_due - principal_paid) AS principal,
             sum(due - paid) AS total,
             sum(due - paid) FILTER (WHERE due_date < ${date}::date) AS overdue,
             coalesce(${date}::date - min(due_date) FILTER (WHERE due_date < ${date}::date AND paid < due), 0) AS dpd,
             bool_or(due_date = ${date}::date) AS due_today,
             bool_or(due_date = ${date}::date AND paid < due) AS due_today_unpaid
      FROM inst GROUP BY contract_id
    ), fig AS (
      SELECT per.*, l.status, ${bucketCase(org.delinquencyBuckets, sql`per.dpd`)} AS bucket
      FROM per JOIN live l ON l.id = per.contract_id
    ), dues AS (
      SELECT due_date, regular_due FROM inst
    )`;
}

/**
 * The figures of the business date itself, read as stored (decision 034): step 1 has just brought
 * each live contract's arrears date (days past due derive from it), next due and arrears
 * (`overdue_total`) to the date,
 * payments keep the outstanding and overdue amounts and late fees add to both, so nothing is
 * summed from the payments. Only the instalments due this month up to the date are read, through
 * their due-date index. The same figures as
 * `figuresAsOf` for this date (a test holds the two equal).
 */
function storedFigures(date: string, org: Organisation): SQL {
  const month = `${date.slice(0, 7)}-01`;
  return sql`
    live AS (
      SELECT c.id, c.device_id, c.schedule_version, c.status, ${dpdOn(date)} AS dpd, f.next_due_date,
             c.outstanding_principal, f.outstanding_total, f.overdue_total
      FROM ${contracts} c ${figuresJoin()}
      WHERE c.status IN ('active', 'defaulted') AND c.activated_at IS NOT NULL AND c.start_date <= ${date}::date
    ), dues AS (
      -- The month's instalments (its due-date index) probe their contracts: joined to \`live\`,
      -- PostgreSQL sorted the whole book to merge them (3-5 s at a million contracts).
      SELECT i.contract_id, i.due_date, i.principal_due + i.interest_due + i.fee_due AS regular_due
      FROM ${contractInstallments} i JOIN ${contracts} c ON c.id = i.contract_id AND c.schedule_version = i.schedule_version
      WHERE i.due_date BETWEEN ${month}::date AND ${date}::date
        AND c.status IN ('active', 'defaulted') AND c.activated_at IS NOT NULL AND c.start_date <= ${date}::date
    ), fig AS (
      SELECT l.id AS contract_id, l.outstanding_principal AS principal, l.outstanding_total AS total,
             l.overdue_total AS overdue, l.dpd,
             EXISTS (SELECT 1 FROM dues d WHERE d.contract_id = l.id AND d.due_date = ${date}::date) AS due_today,
             coalesce(l.next_due_date = ${date}::date, false) AS due_today_unpaid,
             l.status, ${bucketCase(org.delinquencyBuckets, sql`l.dpd`)} AS bucket
      FROM live l
    )`;
}

/**
 * The investor portal's figures (issue 16, `investor_figures`): every contract activated by the
 * date, per fund (each of its customer's tags, and '' for the whole book) and vintage (its start
 * month): what was disbursed, collected and due up to the date, and from `fig` (the same per-
 * contract figures as the portfolio row) what is outstanding and at risk at its end. Collected is
 * counted as the portfolio row counts it: instalment lines of posted payments valued by the date,
 * deposits and credit excluded. On the business date itself (`stored`) every line posted so far is
 * valued by it, and the contract row keeps their totals (decision 052): what went to instalments
 * (`total_paid - credit_balance`) and of it the principal (`principal_paid`). As of a past date
 * (a back-fill) the lines valued by then are summed, as a back-dated payment or a reversal since
 * may have changed what was collected by then.
 */
function investorFiguresOf(date: string, closedOn: SQL, stored: boolean): SQL {
  const collected = stored
    ? {
        ctes: sql``,
        join: sql``,
        total: sql`k.total_paid - k.credit_balance`,
        principal: sql`k.principal_paid`,
      }
    : {
        ctes: sql`inv_paid AS (
          SELECT a.contract_id, sum(a.amount) AS collected,
                 sum(a.amount) FILTER (WHERE a.component = 'principal') AS principal
          FROM ${paymentAllocations} a JOIN ${payments} p ON p.id = a.payment_id
          WHERE a.superseded_at IS NULL AND p.status = 'posted' AND p.method <> 'deposit' AND p.value_date <= ${date}::date
            AND a.installment_number IS NOT NULL AND a.component <> 'credit'
          GROUP BY a.contract_id
        ), `,
        join: sql`LEFT JOIN inv_paid pd ON pd.contract_id = k.id`,
        total: sql`coalesce(pd.collected, 0)`,
        principal: sql`coalesce(pd.principal, 0)`,
      };
  return sql`
    inv_contracts AS (
      SELECT c.id, c.principal, c.schedule_version, date_trunc('month', c.start_date)::date AS vintage,
             CASE WHEN c.closed_at IS NOT NULL AND ${closedOn} <= ${date}::date THEN c.status END AS closed_as,
             c.total_paid, c.credit_balance, c.principal_paid, cu.tags
      FROM ${contracts} c JOIN ${customers} cu ON cu.id = c.customer_id
      WHERE c.activated_at IS NOT NULL AND c.start_date <= ${date}::date
    ), ${collected.ctes}inv_due AS (
      -- Every schedule's dues by the date, matched to the contract's current schedule in inv_rows.
      -- Joined to inv_contracts here, PostgreSQL sorted every contract to merge the instalments:
      -- 13.5 s for the investor figures at a million contracts, 9.4 s this way (decision 034).
      SELECT i.contract_id, i.schedule_version, sum(i.principal_due + i.interest_due + i.fee_due) AS due
      FROM ${contractInstallments} i
      WHERE i.due_date <= ${date}::date
      GROUP BY i.contract_id, i.schedule_version
    ), inv_rows AS (
      SELECT f.fund, k.vintage, k.principal, k.closed_as,
             ${collected.total} AS collected, ${collected.principal} AS collected_principal,
             coalesce(d.due, 0) AS due, fig.contract_id IS NOT NULL AS live, coalesce(fig.principal, 0) AS outstanding,
             coalesce(fig.dpd, 0) AS dpd, fig.status
      FROM inv_contracts k
      ${collected.join}
      LEFT JOIN inv_due d ON d.contract_id = k.id AND d.schedule_version = k.schedule_version
      LEFT JOIN fig ON fig.contract_id = k.id
      CROSS JOIN LATERAL unnest(ARRAY[''] || k.tags) AS f(fund)
    ), investor_rows AS (
      SELECT fund, vintage, count(*)::int AS contracts, sum(principal)::bigint AS disbursed,
             sum(collected)::bigint AS collected, sum(collected_principal)::bigint AS collected_principal,
             sum(due)::bigint AS due, count(*) FILTER (WHERE live)::int AS live_count,
             sum(outstanding)::bigint AS outstanding_principal,
             coalesce(sum(outstanding) FILTER (WHERE dpd > 30), 0)::bigint AS par30_amount,
             coalesce(sum(outstanding) FILTER (WHERE dpd > 90), 0)::bigint AS par90_amount,
             count(*) FILTER (WHERE status = 'defaulted')::int AS defaulted_count,
             coalesce(sum(outstanding) FILTER (WHERE status = 'defaulted'), 0)::bigint AS defaulted_principal,
             count(*) FILTER (WHERE closed_as = 'written_off')::int AS written_off_count,
             coalesce(sum(principal - collected_principal) FILTER (WHERE closed_as = 'written_off'), 0)::bigint AS written_off_principal,
             count(*) FILTER (WHERE closed_as = 'repossessed')::int AS repossessed_count,
             coalesce(sum(principal - collected_principal) FILTER (WHERE closed_as = 'repossessed'), 0)::bigint AS repossessed_principal
      FROM inv_rows GROUP BY fund, vintage
    )`;
}

const INVESTOR_COLUMNS = [
  'contracts',
  'disbursed',
  'collected',
  'collected_principal',
  'due',
  'live_count',
  'outstanding_principal',
  'par30_amount',
  'par90_amount',
  'defaulted_count',
  'defaulted_principal',
  'written_off_count',
  'written_off_principal',
  'repossessed_count',
  'repossessed_principal',
] as const;

const ratio = (amount: ReturnType<typeof sql>) =>
  sql`CASE WHEN t.outstanding_principal > 0 THEN round(${amount}::numeric / t.outstanding_principal, 6) ELSE 0 END`;

const SNAPSHOT_COLUMNS = [
  'currency',
  'active_count',
  'defaulted_count',
  'locked_count',
  'overdue_count',
  'due_today_count',
  'queue_count',
  'outstanding_principal',
  'outstanding_total',
  'overdue_amount',
  'par1_amount',
  'par30_amount',
  'par90_amount',
  'par1_ratio',
  'par30_ratio',
  'par90_ratio',
  'due_amount',
  'due_month_to_date',
  'collected_amount',
  'collected_month_to_date',
  'disbursed_count',
  'disbursed_amount',
  'buckets',
  'computed_at',
] as const;

/**
 * The investor portal reads month ends (cash flows, vintages, reports) and its PAR trend's last
 * 30 dates: a back-fill writes daily investor figures for this many days before its end only.
 */
const INVESTOR_DAILY_DAYS = 31;

/**
 * Snapshots for the past dates `from` to `to` that have none (the demo's year of history; a date
 * closed keeps its own), each computed as of its date. In the caller's transaction; answers how
 * many dates it looked at.
 */
export async function backfillSnapshots(
  ctx: TxContext,
  org: Organisation,
  from: string,
  to: string,
): Promise<number> {
  let days = 0;
  const lastMonth = addDays(to, -INVESTOR_DAILY_DAYS);
  for (let date = from; date <= to; date = addDays(date, 1), days += 1) {
    const monthEnd = addDays(date, 1).endsWith('-01');
    await writeSnapshot(ctx, org, date, {
      current: false,
      replace: false,
      investor: monthEnd || date === to || date > lastMonth,
    });
  }
  return days;
}
