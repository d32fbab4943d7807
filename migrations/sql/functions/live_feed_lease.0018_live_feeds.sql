CREATE OR REPLACE FUNCTION live_feed_lease(p_node uuid, p_seconds double precision)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    created boolean;
BEGIN
    -- Whoever renews clears the nodes whose leases have lapsed (a process killed,
    -- or cut off from the database), and their feeds with them.
    DELETE FROM live_feed_nodes WHERE expires_at <= clock_timestamp();
    INSERT INTO live_feed_nodes AS n (node_id, expires_at)
    VALUES (p_node, clock_timestamp() + make_interval(secs => p_seconds))
    ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at
    RETURNING (n.xmax = 0) INTO created;
    RETURN created;
END
$$;
