-- Decision 036: a write statement whose parts must happen together or not at all (a payment's
-- idempotency claim and the payment it claims, written in one autocommit statement) calls this
-- when they came apart, which rolls the whole statement back; its caller then takes the
-- transactional path.
CREATE FUNCTION statement_conflict(message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', message USING ERRCODE = 'serialization_failure';
END $$;
