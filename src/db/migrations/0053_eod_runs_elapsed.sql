-- Decision 056: the steps of a close may run side by side, so a run's time is no longer its steps' durations
-- added up; the app measures it around the steps of each attempt.
ALTER TABLE "eod_runs" ADD COLUMN "elapsed_ms" integer;
