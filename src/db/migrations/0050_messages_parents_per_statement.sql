ALTER TABLE "messages" DROP CONSTRAINT "messages_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_contract_id_contracts_id_fk";
--> statement-breakpoint
-- Decision 053: the reminders step queues a message per contract owed one (92,682 in a night at a
-- million contracts). Their two foreign keys checked each row on its own and key-share locked its
-- contract and customer rows, dirtying a page of each table per message. The references are
-- checked once per statement instead (declare_parents, migration 0040), as the payments' are.
SELECT declare_parents('messages', ARRAY['customer_id', 'customers', 'id', 'contract_id', 'contracts', 'id']);--> statement-breakpoint
CREATE TRIGGER messages_parents_on_update AFTER UPDATE OF customer_id, contract_id ON messages
  FOR EACH ROW WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.contract_id IS DISTINCT FROM NEW.contract_id)
  EXECUTE FUNCTION row_needs_its_parents('customer_id', 'customers', 'id', 'contract_id', 'contracts', 'id');--> statement-breakpoint
-- The parents' side: contracts are never deleted; a customer named by a message is not deleted
-- either (keys never change: migration 0040).
DROP TRIGGER customers_children_on_delete ON customers;--> statement-breakpoint
CREATE TRIGGER customers_children_on_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rows_keep_their_children('id', 'payments', 'customer_id', 'id', 'messages', 'customer_id');
