CREATE TABLE "contract_figures" (
	"contract_id" text PRIMARY KEY NOT NULL,
	"dpd" integer DEFAULT 0 NOT NULL,
	"bucket" text DEFAULT 'current' NOT NULL,
	"next_due_date" date,
	"outstanding_total" bigint DEFAULT 0 NOT NULL,
	"overdue_total" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "contracts_dpd_idx";--> statement-breakpoint
DROP INDEX "contracts_status_dpd_idx";--> statement-breakpoint
DROP INDEX "contracts_outstanding_idx";--> statement-breakpoint
ALTER TABLE "contract_figures" ADD CONSTRAINT "contract_figures_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_figures_dpd_idx" ON "contract_figures" USING btree ("dpd","contract_id");--> statement-breakpoint
CREATE INDEX "contract_figures_outstanding_idx" ON "contract_figures" USING btree ("outstanding_total","contract_id");--> statement-breakpoint
-- Decision 041: the nightly figures move to their own narrow row, every contract's as it stands.
INSERT INTO "contract_figures" ("contract_id", "dpd", "bucket", "next_due_date", "outstanding_total", "overdue_total", "updated_at")
SELECT "id", "dpd", "bucket", "next_due_date", "outstanding_total", "overdue_total", "updated_at" FROM "contracts";--> statement-breakpoint
-- Every contract has its figures row from its insert on, however it is inserted (API, bench SQL,
-- fixtures, the demo copy): the writers update it, the readers join it.
CREATE FUNCTION contract_figures_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_figures (contract_id) SELECT id FROM added;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contract_figures_add AFTER INSERT ON "contracts"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION contract_figures_add();--> statement-breakpoint
ALTER TABLE "contracts" DROP COLUMN "dpd";--> statement-breakpoint
ALTER TABLE "contracts" DROP COLUMN "bucket";--> statement-breakpoint
ALTER TABLE "contracts" DROP COLUMN "next_due_date";--> statement-breakpoint
ALTER TABLE "contracts" DROP COLUMN "outstanding_total";--> statement-breakpoint
ALTER TABLE "contracts" DROP COLUMN "overdue_total";--> statement-breakpoint
-- A payment's update of the contract row now changes no indexed column: with room left on each
-- page it stays there as a HOT update, writing no index entries (pages written from now on).
ALTER TABLE "contracts" SET (fillfactor = 85);
