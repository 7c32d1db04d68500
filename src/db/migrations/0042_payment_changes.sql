CREATE TABLE "payment_changes" (
	"shard" integer PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Decision 048: each statement that writes payments adds one to its session's row, in the
-- writer's transaction, so the sum a reader sees names exactly the commits whose payments it sees
-- (snapshots only ever grow, and every addition is positive). The counts are kept as before.
CREATE OR REPLACE FUNCTION payments_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (A statement in a branch not taken is never planned, so each names only its own transition tables.)
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM gone) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM written) THEN
    RETURN NULL;
  END IF;
  INSERT INTO payment_changes (shard, n) VALUES (pg_backend_pid(), 1)
  ON CONFLICT (shard) DO UPDATE SET n = payment_changes.n + 1;
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
END $$;
