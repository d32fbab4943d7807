CREATE OR REPLACE FUNCTION events_append(
    p_stream text,
    p_expected_version bigint,
    p_event_ids uuid[],
    p_types text[],
    p_data jsonb[],
    p_metadata jsonb[],
    p_hash_prefixes text[],
    p_channel text
) RETURNS TABLE (
    global_position bigint,
    version bigint,
    recorded_at timestamptz,
    hash bytea,
    metadata jsonb
) LANGUAGE plpgsql
-- Every lookup here is by key. PL/pgSQL caches generic plans, and one made while the
-- table was tiny would keep a sequential scan until the next ANALYZE.
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
    -- p_hash_prefixes[i] is the RFC 8785 canonical JSON of event i up to its version
    -- (see store/events.py); the version and the closing brace are added here.
    n int := coalesce(array_length(p_event_ids, 1), 0);
    wrote_before boolean := pg_current_xact_id_if_assigned() IS NOT NULL;
    head_version bigint;
    head_hash bytea;
    found int;
    matching int;
    offsets int;
    hashes bytea[] := '{}';
    prev bytea;
    base bigint;
    first_position bigint;
BEGIN
    IF n = 0 OR array_length(p_types, 1) IS DISTINCT FROM n
       OR array_length(p_data, 1) IS DISTINCT FROM n
       OR array_length(p_metadata, 1) IS DISTINCT FROM n
       OR array_length(p_hash_prefixes, 1) IS DISTINCT FROM n THEN
        RAISE EXCEPTION 'events_append needs one or more events, with every array as long'
            USING ERRCODE = 'MLA01';
    END IF;

    -- Same-stream appends queue here until the earlier one commits, so the head
    -- read below is current and a stale writer gets a clean version conflict.
    PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 0));

    SELECT e.version, e.hash INTO head_version, head_hash
      FROM events e WHERE e.stream = p_stream ORDER BY e.version DESC LIMIT 1;
    head_version := coalesce(head_version, 0);
    -- Idempotent retry, checked before the version. An empty stream holds none of
    -- these events: unless the caller expects otherwise, there is nothing to probe,
    -- and an id recorded elsewhere fails the insert on events_event_id_key.
    IF (head_version > 0 OR coalesce(p_expected_version, 0) <> 0)
       AND EXISTS (SELECT FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN
        SELECT count(*),
               count(*) FILTER (WHERE e.stream = p_stream AND e.type = t.type
                                  AND e.data = t.data),
               count(DISTINCT e.version - t.ord)
          INTO found, matching, offsets
          FROM unnest(p_event_ids, p_types, p_data)
               WITH ORDINALITY AS t(event_id, type, data, ord)
          JOIN events e ON e.event_id = t.event_id;
        IF found = n AND matching = n AND offsets = 1 THEN
            RETURN QUERY
                SELECT e.global_position, e.version, e.recorded_at, e.hash, e.metadata
                  FROM unnest(p_event_ids) WITH ORDINALITY AS t(event_id, ord)
                  JOIN events e ON e.event_id = t.event_id
                 ORDER BY t.ord;
            RETURN;
        END IF;
        RAISE EXCEPTION 'event ids already recorded with different content or place'
            USING ERRCODE = 'MLE01';
    END IF;
    IF p_expected_version IS NOT NULL AND p_expected_version <> head_version THEN
        RAISE EXCEPTION 'stream % is at version %, not %',
            p_stream, head_version, p_expected_version
            USING ERRCODE = 'MLV01', DETAIL = head_version::text;
    END IF;

    prev := coalesce(head_hash, ''::bytea);
    FOR i IN 1..n LOOP
        prev := sha256(prev || convert_to(p_hash_prefixes[i] || (head_version + i)::text || '}',
                                          'UTF8'));
        hashes := hashes || prev;
    END LOOP;

    -- The position is the transaction id shifted left 16 bits plus the event's rank
    -- in the transaction, so position order is transaction-id order and readers can
    -- stop below the snapshot's xmin. A transaction may append more than once.
    base := pg_current_xact_id()::text::bigint << 16;
    first_position := base;
    IF wrote_before THEN
        SELECT coalesce(max(e.global_position) + 1, base) INTO first_position
          FROM events e WHERE e.global_position >= base AND e.global_position < base + 65536;
    END IF;
    IF first_position - base + n > 65536 THEN
        RAISE EXCEPTION 'more than 65536 events in one transaction' USING ERRCODE = 'MLT01';
    END IF;
    RETURN QUERY
        INSERT INTO events AS e (global_position, stream, version, event_id, type, data,
                                 metadata, tx_id, prev_hash, hash)
        SELECT first_position + t.ord - 1, p_stream, head_version + t.ord, t.event_id,
               t.type, t.data, t.metadata, pg_current_xact_id(),
               CASE WHEN t.ord = 1 THEN head_hash ELSE hashes[t.ord - 1] END,
               hashes[t.ord]
          FROM unnest(p_event_ids, p_types, p_data, p_metadata)
               WITH ORDINALITY AS t(event_id, type, data, metadata, ord)
         ORDER BY t.ord
        RETURNING e.global_position, e.version, e.recorded_at, e.hash, NULL::jsonb;

    -- A hint for live readers, delivered on commit; the payload names the stream.
    -- A transaction that notifies holds PostgreSQL's notify-queue lock through its
    -- commit, so notifying appends commit one at a time (see docs/event-store.md).
    IF p_channel IS NOT NULL THEN
        PERFORM pg_notify(p_channel, p_stream);
    END IF;
END
$$;
