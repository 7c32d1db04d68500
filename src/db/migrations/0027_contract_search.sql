CREATE TABLE "contract_search" (
	"contract_id" text PRIMARY KEY NOT NULL,
	"number_lower" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "contracts_number_trgm_idx";--> statement-breakpoint
ALTER TABLE "contract_search" ADD CONSTRAINT "contract_search_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_search_number_trgm_idx" ON "contract_search" USING gin ("number_lower" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- Decision 034: the number's trigram index lives on contract_search, filled for every contract
-- inserted (one statement trigger over the inserted rows, however they are inserted) and kept
-- right should a number ever change.
INSERT INTO "contract_search" ("contract_id", "number_lower") SELECT "id", lower("number") FROM "contracts";--> statement-breakpoint
CREATE FUNCTION contract_search_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_search (contract_id, number_lower) SELECT id, lower(number) FROM added;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contracts_search_on_insert AFTER INSERT ON "contracts"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION contract_search_add();--> statement-breakpoint
CREATE FUNCTION contract_search_renumber() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contract_search SET number_lower = lower(NEW.number) WHERE contract_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contracts_search_on_renumber AFTER UPDATE OF "number" ON "contracts"
  FOR EACH ROW WHEN (OLD.number IS DISTINCT FROM NEW.number) EXECUTE FUNCTION contract_search_renumber();
