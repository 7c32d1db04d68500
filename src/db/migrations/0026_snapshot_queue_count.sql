ALTER TABLE "portfolio_snapshots" ADD COLUMN "queue_count" integer;
