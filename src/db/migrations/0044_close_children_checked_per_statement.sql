ALTER TABLE "collection_cases" DROP CONSTRAINT "collection_cases_contract_id_contracts_id_fk";
--> statement-breakpoint
ALTER TABLE "device_commands" DROP CONSTRAINT "device_commands_device_id_devices_id_fk";
--> statement-breakpoint
-- Decision 034: the close of business opens a collections case for every contract in arrears and
-- queues a lock for every unit past its lock-after days, each in one statement (200,000 cases and
-- 100,000 locks in a million-contract catch-up). A foreign key checked each new row on its own and
-- key-share locked its contract or unit row, dirtying a page of the contracts or devices table
-- per row: 5.9 s of the cases' statement and 3.7 s of the locks'. The references are checked once
-- per statement instead, as the payment's rows are (migration 0040): every row the statement
-- wrote, probed through the parent's key.
SELECT declare_parents('collection_cases', ARRAY['contract_id', 'contracts', 'id']);--> statement-breakpoint
CREATE TRIGGER collection_cases_parents_on_update AFTER UPDATE OF contract_id ON collection_cases
  FOR EACH ROW WHEN (OLD.contract_id IS DISTINCT FROM NEW.contract_id)
  EXECUTE FUNCTION row_needs_its_parents('contract_id', 'contracts', 'id');--> statement-breakpoint
SELECT declare_parents('device_commands', ARRAY['device_id', 'devices', 'id']);--> statement-breakpoint
CREATE TRIGGER device_commands_parents_on_update AFTER UPDATE OF device_id ON device_commands
  FOR EACH ROW WHEN (OLD.device_id IS DISTINCT FROM NEW.device_id)
  EXECUTE FUNCTION row_needs_its_parents('device_id', 'devices', 'id');--> statement-breakpoint
-- The parents' side: contracts are never deleted and their keys never change (migration 0040); a
-- unit named by a command is not deleted (none is, by the app) and no unit's key changes.
CREATE TRIGGER devices_children_on_delete AFTER DELETE ON devices REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'device_commands', 'device_id');--> statement-breakpoint
CREATE TRIGGER devices_key_fixed BEFORE UPDATE OF id ON devices
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION keys_never_change();
