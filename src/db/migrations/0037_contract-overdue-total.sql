ALTER TABLE "contracts" ADD COLUMN "overdue_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The arrears of every contract whose stored figures show some (days past due above 0), as of the
-- date those figures are for: its oldest unpaid due date plus its days past due.
UPDATE "contracts" c SET "overdue_total" = o.amount
FROM (
  SELECT k.id, sum(i.principal_due - i.principal_paid + i.interest_due - i.interest_paid + i.fee_due - i.fee_paid
                   + i.penalty_due - i.penalty_paid) FILTER (WHERE i.due_date < f.oldest + k.dpd) AS amount
  FROM "contracts" k
  CROSS JOIN LATERAL (
    SELECT min(due_date) AS oldest FROM "contract_installments"
    WHERE contract_id = k.id AND schedule_version = k.schedule_version AND settled_at IS NULL) f
  JOIN "contract_installments" i
    ON i.contract_id = k.id AND i.schedule_version = k.schedule_version AND i.settled_at IS NULL
  WHERE k.dpd > 0
  GROUP BY k.id
) o
WHERE c.id = o.id AND o.amount IS NOT NULL;
