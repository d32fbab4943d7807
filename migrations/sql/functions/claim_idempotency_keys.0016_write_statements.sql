CREATE OR REPLACE FUNCTION claim_idempotency_keys(
    p_locks text[],
    p_token_ids uuid[],
    p_keys text[]
) RETURNS TABLE (token_id uuid, key text)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
BEGIN
    -- p_locks names each (token, key) once, sorted by the caller: every transaction
    -- takes its keys' locks in one order. Their own name space, apart from the
    -- tokens' (lock_usable_tokens).
    PERFORM pg_advisory_xact_lock(hashtextextended('idempotency:' || k, 0))
       FROM unnest(p_locks) WITH ORDINALITY AS t(k, ord)
      ORDER BY t.ord;
    -- A query of its own: its snapshot is taken after the locks were granted, so an
    -- answer a concurrent holder committed is seen. Returns the keys already taken.
    RETURN QUERY
        SELECT r.token_id, r.key FROM idempotent_requests r
         WHERE (r.token_id, r.key) IN (SELECT * FROM unnest(p_token_ids, p_keys));
END
$$;
