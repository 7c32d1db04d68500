-- Decision 049: a new row's id in the RFC 9562 version 7 layout, as the app's `newId()` writes
-- it (src/server/ids.ts): the milliseconds since 1970 in the first 48 bits, then the version,
-- and random bits (74) after. Set-based inserts (timeline lines, lock commands, messages,
-- notifications) use it instead of gen_random_uuid(), so their primary keys grow at the right
-- edge of the index rather than touching a random page of it per row. Named for what it is for,
-- not `uuidv7`, which later PostgreSQL versions define themselves.
CREATE FUNCTION new_row_id() RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid::text
$$;
