ALTER TABLE "contract_events" DROP CONSTRAINT "contract_events_actor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_created_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk";
--> statement-breakpoint
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_account_code_ledger_accounts_code_fk";
--> statement-breakpoint
ALTER TABLE "payment_allocations" DROP CONSTRAINT "payment_allocations_payment_id_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "payment_allocations" DROP CONSTRAINT "payment_allocations_contract_id_contracts_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_contract_id_contracts_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_posted_by_users_id_fk";
--> statement-breakpoint
-- Decision 045: the rows a payment writes name their parents (its contract, customer and poster;
-- a line's payment or journal entry and its ledger account; a timeline line's actor). Each such
-- reference is checked once per statement over every row the statement wrote, as instalments are
-- (decision 006), instead of by a foreign key: a lookup per row, and a key-share lock on the
-- parent row that every concurrent posting took on the same ledger accounts and the same user.
-- `declare_parents(child, refs)` writes the child's check, `<child>_need_their_parents()`, from
-- `refs`, triples of (column, parent table, parent column), as static SQL, so each session plans
-- it once (a dynamic EXECUTE planned per statement cost a single-row insert 0.36 ms, more than
-- the two foreign keys it replaced), and its trigger `<child>_parents_on_insert`, whose arguments
-- repeat `refs` (the demo copy reads each table's parents from them). Each reference is probed
-- through the parent's key row by row (`OFFSET 0` keeps the probe a subplan, never a hash of the
-- parent, whatever size of statement the session planned it for); null references pass.
CREATE FUNCTION declare_parents(child text, refs text[]) RETURNS void LANGUAGE plpgsql AS $declare$
DECLARE
  body text := '';
  i int := 1;
BEGIN
  WHILE i <= coalesce(array_length(refs, 1), 0) LOOP
    body := body || format($check$
  SELECT w.%1$I::text INTO missing FROM written w
  WHERE w.%1$I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.%3$I = w.%1$I OFFSET 0) LIMIT 1;
  IF missing IS NOT NULL THEN
    RAISE EXCEPTION 'A row of %4$s must belong to an existing row of %2$s: %1$s %% is not there', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;$check$, refs[i], refs[i + 1], refs[i + 2], child);
    i := i + 3;
  END LOOP;
  EXECUTE format($fn$CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  missing text;
BEGIN%2$s
  RETURN NULL;
END $body$ $fn$, child || '_need_their_parents', body);
  EXECUTE format('CREATE TRIGGER %1$I AFTER INSERT ON %2$I REFERENCING NEW TABLE AS written '
    'FOR EACH STATEMENT EXECUTE FUNCTION %3$I(%4$s)', child || '_parents_on_insert', child,
    child || '_need_their_parents', (SELECT string_agg(quote_literal(r), ', ') FROM unnest(refs) AS r));
END $declare$;--> statement-breakpoint
-- The same for one updated row (fired only when a reference changes: a suspense payment matched).
CREATE FUNCTION row_needs_its_parents() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  value text;
  present boolean;
BEGIN
  WHILE i < TG_NARGS LOOP
    value := to_jsonb(NEW) ->> TG_ARGV[i];
    IF value IS NOT NULL THEN
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I p WHERE p.%I = $1)', TG_ARGV[i + 1], TG_ARGV[i + 2])
        INTO present USING value;
      IF NOT present THEN
        RAISE EXCEPTION 'A row of % must belong to an existing row of %: % % is not there',
          TG_TABLE_NAME, TG_ARGV[i + 1], TG_ARGV[i], value USING ERRCODE = 'foreign_key_violation';
      END IF;
    END IF;
    i := i + 3;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A parent named by a child is never deleted (none is deleted by the app; this keeps it so).
-- TG_ARGV: (parent column, child table, child column) for each kind of child.
CREATE FUNCTION rows_keep_their_children() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  named text;
BEGIN
  WHILE i < TG_NARGS LOOP
    EXECUTE format(
      'SELECT g.%1$I::text FROM gone g WHERE EXISTS (SELECT 1 FROM %2$I c WHERE c.%3$I = g.%1$I) LIMIT 1',
      TG_ARGV[i], TG_ARGV[i + 1], TG_ARGV[i + 2]) INTO named;
    IF named IS NOT NULL THEN
      RAISE EXCEPTION 'The row % of % is still named by %.%', named, TG_TABLE_NAME, TG_ARGV[i + 1], TG_ARGV[i + 2]
        USING ERRCODE = 'foreign_key_violation';
    END IF;
    i := i + 3;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION keys_never_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The key of a row of % never changes', TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
END $$;--> statement-breakpoint
SELECT declare_parents('payments', ARRAY['contract_id', 'contracts', 'id', 'customer_id', 'customers', 'id', 'posted_by', 'users', 'id']);--> statement-breakpoint
CREATE TRIGGER payments_parents_on_update AFTER UPDATE OF contract_id, customer_id, posted_by ON payments
  FOR EACH ROW WHEN (OLD.contract_id IS DISTINCT FROM NEW.contract_id OR OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.posted_by IS DISTINCT FROM NEW.posted_by)
  EXECUTE FUNCTION row_needs_its_parents('contract_id', 'contracts', 'id', 'customer_id', 'customers', 'id', 'posted_by', 'users', 'id');--> statement-breakpoint
SELECT declare_parents('payment_allocations', ARRAY['payment_id', 'payments', 'id', 'contract_id', 'contracts', 'id']);--> statement-breakpoint
CREATE TRIGGER payment_allocations_parents_on_update AFTER UPDATE OF payment_id, contract_id ON payment_allocations
  FOR EACH ROW WHEN (OLD.payment_id IS DISTINCT FROM NEW.payment_id OR OLD.contract_id IS DISTINCT FROM NEW.contract_id)
  EXECUTE FUNCTION row_needs_its_parents('payment_id', 'payments', 'id', 'contract_id', 'contracts', 'id');--> statement-breakpoint
SELECT declare_parents('journal_entries', ARRAY['created_by', 'users', 'id']);--> statement-breakpoint
CREATE TRIGGER journal_entries_parents_on_update AFTER UPDATE OF created_by ON journal_entries
  FOR EACH ROW WHEN (OLD.created_by IS DISTINCT FROM NEW.created_by)
  EXECUTE FUNCTION row_needs_its_parents('created_by', 'users', 'id');--> statement-breakpoint
SELECT declare_parents('journal_lines', ARRAY['entry_id', 'journal_entries', 'id', 'account_code', 'ledger_accounts', 'code']);--> statement-breakpoint
CREATE TRIGGER journal_lines_parents_on_update AFTER UPDATE OF entry_id, account_code ON journal_lines
  FOR EACH ROW WHEN (OLD.entry_id IS DISTINCT FROM NEW.entry_id OR OLD.account_code IS DISTINCT FROM NEW.account_code)
  EXECUTE FUNCTION row_needs_its_parents('entry_id', 'journal_entries', 'id', 'account_code', 'ledger_accounts', 'code');--> statement-breakpoint
CREATE TRIGGER contract_events_actor_on_update AFTER UPDATE OF actor_id ON contract_events
  FOR EACH ROW WHEN (OLD.actor_id IS DISTINCT FROM NEW.actor_id)
  EXECUTE FUNCTION row_needs_its_parents('actor_id', 'users', 'id');--> statement-breakpoint
-- The contract checks of decisions 006 and 041 are declared the same way, so every such check is
-- one kind (and the demo copy reads every parent from the triggers' arguments).
DROP TRIGGER contract_events_contract_on_insert ON contract_events;--> statement-breakpoint
SELECT declare_parents('contract_events', ARRAY['contract_id', 'contracts', 'id', 'actor_id', 'users', 'id']);--> statement-breakpoint
DROP TRIGGER late_fee_charges_contract_on_insert ON late_fee_charges;--> statement-breakpoint
SELECT declare_parents('late_fee_charges', ARRAY['contract_id', 'contracts', 'id']);--> statement-breakpoint
DROP TRIGGER contract_installments_contract_on_insert ON contract_installments;--> statement-breakpoint
SELECT declare_parents('contract_installments', ARRAY['contract_id', 'contracts', 'id']);--> statement-breakpoint
DROP FUNCTION rows_need_a_contract();--> statement-breakpoint
DROP FUNCTION contract_installments_need_a_contract();--> statement-breakpoint
-- The parents' side: not deleted while named, keys never changed (contracts are never deleted at all).
CREATE TRIGGER payments_children_on_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'payment_allocations', 'payment_id');--> statement-breakpoint
CREATE TRIGGER journal_entries_children_on_delete AFTER DELETE ON journal_entries REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'journal_lines', 'entry_id');--> statement-breakpoint
CREATE TRIGGER ledger_accounts_children_on_delete AFTER DELETE ON ledger_accounts REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('code', 'journal_lines', 'account_code');--> statement-breakpoint
CREATE TRIGGER customers_children_on_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'payments', 'customer_id');--> statement-breakpoint
CREATE TRIGGER users_children_on_delete AFTER DELETE ON users REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'payments', 'posted_by', 'id', 'journal_entries', 'created_by', 'id', 'contract_events', 'actor_id');--> statement-breakpoint
CREATE TRIGGER payments_key_fixed BEFORE UPDATE OF id ON payments
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();--> statement-breakpoint
CREATE TRIGGER journal_entries_key_fixed BEFORE UPDATE OF id ON journal_entries
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();--> statement-breakpoint
CREATE TRIGGER ledger_accounts_key_fixed BEFORE UPDATE OF code ON ledger_accounts
  FOR EACH ROW WHEN (OLD.code IS DISTINCT FROM NEW.code) EXECUTE FUNCTION keys_never_change();--> statement-breakpoint
CREATE TRIGGER customers_key_fixed BEFORE UPDATE OF id ON customers
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();--> statement-breakpoint
CREATE TRIGGER users_key_fixed BEFORE UPDATE OF id ON users
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();--> statement-breakpoint
CREATE TRIGGER contracts_key_fixed BEFORE UPDATE OF id ON contracts
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();
