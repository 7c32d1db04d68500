-- Decision 054: a contract's figures keep the day its arrears began, not its days past due, which
-- every reader derives for its own date. The stored days past due were of the figures' date (the
-- business date when none is recorded), so the day arrears began is that date less them. Only live
-- contracts are in arrears: a closed one's figures stay clear.
ALTER TABLE "contract_figures" ADD COLUMN "arrears_since" date;--> statement-breakpoint
UPDATE "contract_figures" f SET "arrears_since" = d.day - f.dpd
FROM (SELECT coalesce(s.figures_date, (now() AT TIME ZONE s.time_zone)::date + s.business_date_offset) AS day
      FROM "organisation_settings" s WHERE s.id = 1) d
WHERE f.dpd > 0 AND f.contract_id IN (SELECT id FROM "contracts" WHERE status IN ('active', 'defaulted'));--> statement-breakpoint
CREATE INDEX "contract_figures_arrears_idx" ON "contract_figures" USING btree ("arrears_since","contract_id" DESC NULLS LAST);
