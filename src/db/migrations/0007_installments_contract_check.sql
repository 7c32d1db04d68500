ALTER TABLE "contract_installments" DROP CONSTRAINT "contract_installments_contract_id_contracts_id_fk";
--> statement-breakpoint
-- Every instalment belongs to a contract: checked once per statement over all the rows it wrote
-- (a 3,660-row daily schedule is one check, not 3,660 foreign-key lookups).
CREATE FUNCTION contract_installments_need_a_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written w WHERE NOT EXISTS (SELECT 1 FROM contracts c WHERE c.id = w.contract_id)) THEN
    RAISE EXCEPTION 'An instalment must belong to an existing contract' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contract_installments_contract_on_insert
  AFTER INSERT ON contract_installments REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION contract_installments_need_a_contract();
--> statement-breakpoint
CREATE TRIGGER contract_installments_contract_on_update
  AFTER UPDATE ON contract_installments REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION contract_installments_need_a_contract();
--> statement-breakpoint
-- Contracts are closed, never deleted (their history is the lender's record), so no instalment
-- is ever left without one.
CREATE FUNCTION contracts_are_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Contracts are never deleted; cancel or close them' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_never_deleted
  BEFORE DELETE ON contracts
  FOR EACH STATEMENT EXECUTE FUNCTION contracts_are_never_deleted();
