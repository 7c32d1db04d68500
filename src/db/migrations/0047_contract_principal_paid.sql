ALTER TABLE "contracts" ADD COLUMN "principal_paid" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Decision 052: the principal each schedule records as paid, for the contracts paid before the column.
UPDATE "contracts" c SET "principal_paid" = s.paid
FROM (
  SELECT i.contract_id, i.schedule_version, sum(i.principal_paid) AS paid
  FROM "contract_installments" i
  GROUP BY i.contract_id, i.schedule_version
) s
WHERE s.contract_id = c.id AND s.schedule_version = c.schedule_version AND s.paid <> 0;
--> statement-breakpoint
-- The outbox renders with templates compiled once per statement (`templateSql`); nothing calls this now.
DROP FUNCTION IF EXISTS render_message(text, jsonb);
