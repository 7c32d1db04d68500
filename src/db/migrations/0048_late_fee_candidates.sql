-- Decision 053: the late-fee step looks only where a new fee may be owed since its last close: the
-- instalments whose grace days ran out since (by due date, per grace value) and the contracts an
-- allocation reopened (`fees_recheck_on`).
ALTER TABLE "contract_figures" ADD COLUMN "fees_recheck_on" date;--> statement-breakpoint
CREATE INDEX "contract_figures_fees_recheck_idx" ON "contract_figures" USING btree ("fees_recheck_on") WHERE "contract_figures"."fees_recheck_on" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "contracts_grace_days_idx" ON "contracts" USING btree ((coalesce(("terms"->>'graceDays')::int, 0)));--> statement-breakpoint
-- Allocations before this migration set no mark: the first close after it looks at every contract
-- in arrears once (a reopened instalment that is overdue puts its contract in arrears).
UPDATE "contract_figures" SET "fees_recheck_on" = s.last
FROM (SELECT max(business_date) AS last FROM "eod_steps" WHERE step = 'late_fees' AND status = 'completed') s
WHERE s.last IS NOT NULL AND "contract_figures"."dpd" > 0;
