CREATE OR REPLACE FUNCTION lock_usable_tokens(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql
AS $$
BEGIN
    -- Shared: revoke_token takes these exclusive (store/accounts.py). In the order
    -- given (sorted by the caller), so two writes never wait on each other.
    PERFORM pg_advisory_xact_lock_shared(hashtextextended('api_token:' || id::text, 0))
       FROM unnest(p_ids) WITH ORDINALITY AS t(id, ord)
      ORDER BY t.ord;
    -- A query of its own in a VOLATILE function: its snapshot is taken after the
    -- locks were granted, so a revocation committed meanwhile is seen.
    RETURN QUERY
        SELECT a.id FROM api_tokens a
         WHERE a.id = ANY (p_ids) AND a.revoked_at IS NULL
           AND (a.expires_at IS NULL OR a.expires_at > statement_timestamp());
END
$$;
