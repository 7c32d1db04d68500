ALTER TABLE "contract_events" DROP CONSTRAINT "contract_events_contract_id_contracts_id_fk";
--> statement-breakpoint
ALTER TABLE "late_fee_charges" DROP CONSTRAINT "late_fee_charges_contract_id_contracts_id_fk";
--> statement-breakpoint
-- Decision 041: timeline lines and late fees must name a contract, checked once per statement over
-- every row it wrote (as instalments are, decision 006) instead of a foreign-key lookup per row,
-- which also locked each contract row (FOR KEY SHARE): 60,000 of them in a night's late fees.
-- Contracts are never deleted (migration 0007), so nothing can take the contract away afterwards.
CREATE FUNCTION rows_need_a_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written w WHERE NOT EXISTS (SELECT 1 FROM contracts c WHERE c.id = w.contract_id)) THEN
    RAISE EXCEPTION 'A row of % must belong to an existing contract', TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION rows_keep_their_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'A row of % stays with its contract', TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER contract_events_contract_on_insert AFTER INSERT ON contract_events
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION rows_need_a_contract();--> statement-breakpoint
CREATE TRIGGER contract_events_contract_fixed BEFORE UPDATE OF contract_id ON contract_events
  FOR EACH ROW WHEN (OLD.contract_id IS DISTINCT FROM NEW.contract_id) EXECUTE FUNCTION rows_keep_their_contract();--> statement-breakpoint
CREATE TRIGGER late_fee_charges_contract_on_insert AFTER INSERT ON late_fee_charges
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION rows_need_a_contract();--> statement-breakpoint
CREATE TRIGGER late_fee_charges_contract_fixed BEFORE UPDATE OF contract_id ON late_fee_charges
  FOR EACH ROW WHEN (OLD.contract_id IS DISTINCT FROM NEW.contract_id) EXECUTE FUNCTION rows_keep_their_contract();
