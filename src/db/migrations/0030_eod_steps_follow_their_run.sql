-- A run's steps follow its business date when it moves (the demo book brought to today moves
-- every date, load.ts): the date is the run's key, and its steps point at it.
ALTER TABLE "eod_steps" DROP CONSTRAINT "eod_steps_business_date_eod_runs_business_date_fk";
--> statement-breakpoint
ALTER TABLE "eod_steps" ADD CONSTRAINT "eod_steps_business_date_eod_runs_business_date_fk" FOREIGN KEY ("business_date") REFERENCES "public"."eod_runs"("business_date") ON DELETE cascade ON UPDATE cascade;