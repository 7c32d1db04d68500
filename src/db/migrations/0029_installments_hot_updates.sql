CREATE INDEX "contract_installments_due_idx" ON "contract_installments" USING btree ("due_date");--> statement-breakpoint
-- Decision 034: a tenth of each page left free, so that the updates of payments and late fees
-- (which change no indexed column) stay on their page as HOT updates, adding no index entries.
ALTER TABLE "contract_installments" SET (fillfactor = 90);--> statement-breakpoint
-- An update never moves an instalment to another contract: refused outright (a column-scoped row
-- trigger fires only when contract_id is set), instead of checking every updated row's contract at
-- the end of each statement (a late fees step updates 40,000 instalments).
DROP TRIGGER contract_installments_contract_on_update ON contract_installments;--> statement-breakpoint
CREATE FUNCTION contract_installments_keep_their_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'An instalment stays with its contract' USING ERRCODE = 'foreign_key_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER contract_installments_contract_fixed BEFORE UPDATE OF contract_id ON contract_installments
  FOR EACH ROW WHEN (OLD.contract_id IS DISTINCT FROM NEW.contract_id)
  EXECUTE FUNCTION contract_installments_keep_their_contract();
