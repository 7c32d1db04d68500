ALTER TABLE "devices" ADD COLUMN "cost_price" bigint;--> statement-breakpoint
-- Units already received keep their model's cost (what activation credits from now on).
UPDATE "devices" d SET "cost_price" = m."cost_price" FROM "device_models" m WHERE m."id" = d."model_id";--> statement-breakpoint
-- Stock is bought on credit from suppliers until paid: the other side of a receipt into inventory.
INSERT INTO ledger_accounts (code, name, type, description) VALUES
  ('2200', 'Supplier payables', 'liability', 'Devices received from suppliers and not yet paid for')
ON CONFLICT (code) DO NOTHING;
