-- The balance check runs at commit for every journal line written. Its queries were planned once
-- per connection while journal_lines was small (a sequential scan looked cheap) and that plan was
-- kept as the table grew, so each check read the whole table: a statement import's commits grew
-- from 2 to 7 seconds per 2,000 payments. Planned each time with the entry id at hand, the check is
-- an index lookup whatever the table's size.
ALTER FUNCTION journal_entry_must_balance() SET plan_cache_mode = force_custom_plan;
