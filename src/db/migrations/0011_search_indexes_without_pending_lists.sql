-- Searches scan a trigram index's whole pending list on every query until a vacuum merges it:
-- after a busy day (or always on the embedded database, which never vacuums) that was ~10 ms a
-- search. Without a pending list each insert files its trigrams at once, and searches stay fast.
ALTER INDEX "contracts_number_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "customers_search_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "devices_search_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('contracts_number_trgm_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('customers_search_trgm_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('devices_search_trgm_idx'::regclass);
