CREATE OR REPLACE FUNCTION live_feed_open(p_feed uuid, p_node uuid, p_client text, p_max integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    held integer;
BEGIN
    -- A node whose lease has lapsed counts none of its feeds: it renews first.
    IF NOT EXISTS (SELECT FROM live_feed_nodes
                    WHERE node_id = p_node AND expires_at > clock_timestamp()) THEN
        RETURN -1;
    END IF;
    -- One client's opens, from any process or server, one at a time until commit:
    -- two racing for its last slot cannot both see it free.
    PERFORM pg_advisory_xact_lock(hashtextextended('live_feed:' || p_client, 0));
    -- A query of its own in a VOLATILE function: its snapshot is taken after the
    -- lock, so the feed the previous holder opened is counted.
    SELECT count(*) INTO held
      FROM live_feeds f JOIN live_feed_nodes n ON n.node_id = f.node_id
     WHERE f.client_key = p_client AND n.expires_at > clock_timestamp();
    IF held < p_max THEN
        INSERT INTO live_feeds (feed_id, node_id, client_key) VALUES (p_feed, p_node, p_client);
    END IF;
    RETURN held;
END
$$;
