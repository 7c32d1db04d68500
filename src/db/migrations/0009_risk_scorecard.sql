-- Scores given before this have no key: the rescoring pass (customers/rescore.ts) redoes them once.
ALTER TABLE "customers" ADD COLUMN "risk_scorecard" text;
