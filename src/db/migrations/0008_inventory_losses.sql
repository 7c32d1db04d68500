-- Units that leave stock without a sale (lost, damaged beyond use) are written out of inventory
-- at cost against this expense; a lost unit found again comes back through the same account.
INSERT INTO ledger_accounts (code, name, type, description) VALUES
  ('5300', 'Inventory losses', 'expense', 'Devices lost or written off from stock, at cost')
ON CONFLICT (code) DO NOTHING;
