DROP INDEX "contracts_dpd_idx";--> statement-breakpoint
CREATE INDEX "contracts_status_dpd_idx" ON "contracts" USING btree ("status","dpd","id");--> statement-breakpoint
CREATE INDEX "contracts_outstanding_idx" ON "contracts" USING btree ("outstanding_total","id");--> statement-breakpoint
CREATE INDEX "contracts_activated_idx" ON "contracts" USING btree ("activated_at","id");--> statement-breakpoint
CREATE INDEX "contracts_device_idx" ON "contracts" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "contracts_dpd_idx" ON "contracts" USING btree ("dpd","id");