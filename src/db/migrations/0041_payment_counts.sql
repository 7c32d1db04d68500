CREATE TABLE "payment_counts" (
	"shard" integer NOT NULL,
	"status" text NOT NULL,
	"method" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "payment_counts_shard_status_method_pk" PRIMARY KEY("shard","status","method")
);
--> statement-breakpoint
-- Decision 045: the payments list's total is a sum of these rows unless a search or a narrowing
-- filter is given. Kept per statement from the rows it wrote, in the writer's transaction (so a
-- reader sees the count and the rows of the same commits), in the row of the writer's session.
CREATE FUNCTION payments_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (A statement in a branch not taken is never planned, so each names only its own transition tables.)
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_counts (shard, status, method, n)
    SELECT pg_backend_pid(), status, method, count(*) FROM written GROUP BY status, method
    ON CONFLICT (shard, status, method) DO UPDATE SET n = payment_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_counts (shard, status, method, n)
    SELECT pg_backend_pid(), status, method, -count(*) FROM gone GROUP BY status, method
    ON CONFLICT (shard, status, method) DO UPDATE SET n = payment_counts.n + excluded.n;
  ELSE
    -- Only the pairs that moved (a reversal, a suspense payment matched); most updates move none.
    INSERT INTO payment_counts (shard, status, method, n)
    SELECT pg_backend_pid(), status, method, sum(d)
    FROM (SELECT status, method, -1 AS d FROM gone UNION ALL SELECT status, method, 1 FROM written) AS moved
    GROUP BY status, method HAVING sum(d) <> 0
    ON CONFLICT (shard, status, method) DO UPDATE SET n = payment_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER payments_counted_on_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION payments_counted();--> statement-breakpoint
CREATE TRIGGER payments_counted_on_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS gone NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION payments_counted();--> statement-breakpoint
CREATE TRIGGER payments_counted_on_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION payments_counted();--> statement-breakpoint
-- Shard 0 holds what the folds gathered (no session has pid 0); the payments already there start it.
INSERT INTO payment_counts (shard, status, method, n)
SELECT 0, status, method, count(*) FROM payments GROUP BY status, method;
