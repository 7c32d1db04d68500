-- Decision 060: a late fee is kept on the instalment it was charged on, as the date whose close
-- charged it, written by the update that already raised the instalment's penalty due (which
-- nothing else raises, so it is the fee), instead of a row of its own in late_fee_charges (a heap
-- row, two index entries and a parent check per fee: 643,900 of them in a million-contract
-- catch-up close). The charges so far move onto their instalments first.
ALTER TABLE "contract_installments" ADD COLUMN "late_fee_on" date;--> statement-breakpoint
UPDATE "contract_installments" i SET "late_fee_on" = x.business_date
  FROM "late_fee_charges" x
  WHERE x.contract_id = i.contract_id AND x.schedule_version = i.schedule_version AND x.n = i.n;--> statement-breakpoint
ALTER TABLE "contract_installments" ADD CONSTRAINT "contract_installments_late_fee_check" CHECK (("contract_installments"."late_fee_on" IS NULL) = ("contract_installments"."penalty_due" = 0));--> statement-breakpoint
DROP TABLE "late_fee_charges";
