CREATE OR REPLACE FUNCTION events_append_batch(
    p_streams text[],
    p_expected_versions bigint[],
    p_counts int[],
    p_event_ids uuid[],
    p_types text[],
    p_data text[],
    p_metadata text[],
    p_recorded_at timestamptz[]
) RETURNS TABLE (
    stream_index int,
    global_position bigint,
    version bigint,
    recorded_at timestamptz,
    hash bytea,
    metadata jsonb
) LANGUAGE plpgsql
-- Every lookup here is by key (as in events_append).
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
    -- Stream i owns the events p_counts[i] long after those of streams 1..i-1 in
    -- the flat arrays. p_recorded_at may be NULL as a whole: every event then takes
    -- the database's clock, as NULL entries do. The rows, results and errors are
    -- those of events_append called once a stream in order (tests/store/
    -- test_append_batch.py compares the two); this does it in a few statements for
    -- all the streams, where events_append runs several a stream.
    n int := coalesce(array_length(p_streams, 1), 0);
    total bigint;
    s record;
    wrote_before boolean := pg_current_xact_id_if_assigned() IS NOT NULL;
    now_text text := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    heads bigint[];
    head_hashes bytea[];
    -- Per event, in order, built as the loop goes: read back by unnest, never by
    -- subscript (a subscript walks a flat array of text from its start).
    streams text[] := '{}';
    versions bigint[] := '{}';
    prevs bytea[] := '{}';
    hashes bytea[] := '{}';
    ev record;
    stream_name text;
    stream_json text;
    prev bytea;
    base bigint;
    first_position bigint;
    si int := 0;  -- the stream of the event in hand, and its place in the stream
    sj int := 0;
    k int := 0;
BEGIN
    SELECT sum(c) INTO total FROM unnest(p_counts) AS c;
    IF n = 0 OR array_length(p_expected_versions, 1) IS DISTINCT FROM n
       OR array_length(p_counts, 1) IS DISTINCT FROM n
       OR array_position(p_counts, NULL) IS NOT NULL
       OR EXISTS (SELECT FROM unnest(p_counts) AS c WHERE c < 1)
       OR array_length(p_event_ids, 1) IS DISTINCT FROM total
       OR array_length(p_types, 1) IS DISTINCT FROM total
       OR array_length(p_data, 1) IS DISTINCT FROM total
       OR array_length(p_metadata, 1) IS DISTINCT FROM total
       OR (p_recorded_at IS NOT NULL
           AND array_length(p_recorded_at, 1) IS DISTINCT FROM total) THEN
        RAISE EXCEPTION 'events_append_batch needs one or more streams, each with one or '
                        'more events, and every event array as long as the counts add up to'
            USING ERRCODE = 'MLA01';
    END IF;

    -- The streams' locks in item order, as events_append takes them one by one; then
    -- the reads below see every earlier append to these streams.
    PERFORM pg_advisory_xact_lock(hashtextextended(t.stream, 0))
       FROM unnest(p_streams) WITH ORDINALITY AS t(stream, ord);

    -- A stream given twice (a later item decided on the earlier one's events) or an
    -- event id already recorded (a retry, or a conflict): events_append a stream, in
    -- order, decides these exactly as it always has.
    IF (SELECT count(DISTINCT t.stream) FROM unnest(p_streams) AS t(stream)) < n
       OR EXISTS (SELECT FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN
        FOR s IN
            SELECT e.i,
                   array_agg(e.event_id ORDER BY e.ord) AS event_ids,
                   array_agg(e.type ORDER BY e.ord) AS types,
                   array_agg(e.data ORDER BY e.ord) AS data,
                   array_agg(e.metadata ORDER BY e.ord) AS metadata,
                   array_agg(e.recorded_at ORDER BY e.ord) AS recorded_at
              FROM unnest(p_event_ids, p_types, p_data, p_metadata, p_recorded_at,
                          ARRAY(SELECT c.i FROM unnest(p_counts) WITH ORDINALITY AS c(n, i),
                                                generate_series(1, c.n)
                                 ORDER BY c.i))
                   WITH ORDINALITY AS e(event_id, type, data, metadata, recorded_at, i, ord)
             GROUP BY e.i
             ORDER BY e.i
        LOOP
            RETURN QUERY
                SELECT s.i::int, a.global_position, a.version, a.recorded_at, a.hash, a.metadata
                  FROM events_append(p_streams[s.i], p_expected_versions[s.i], s.event_ids,
                                     s.types, s.data, s.metadata, NULL::text,
                                     s.recorded_at) AS a;
        END LOOP;
        RETURN;
    END IF;

    -- Every stream's head in one statement.
    SELECT array_agg(coalesce(h.version, 0) ORDER BY t.ord), array_agg(h.hash ORDER BY t.ord)
      INTO heads, head_hashes
      FROM unnest(p_streams) WITH ORDINALITY AS t(stream, ord)
      LEFT JOIN LATERAL (SELECT e.version, e.hash FROM events e WHERE e.stream = t.stream
                          ORDER BY e.version DESC LIMIT 1) AS h ON true;

    -- Positions as in events_append: the transaction id shifted left 16 bits plus
    -- the event's rank in the transaction, after whatever it appended before.
    base := pg_current_xact_id()::text::bigint << 16;
    first_position := base;
    IF wrote_before THEN
        SELECT coalesce(max(e.global_position) + 1, base) INTO first_position
          FROM events e WHERE e.global_position >= base AND e.global_position < base + 65536;
    END IF;

    -- Stream by stream, the checks events_append makes, in its order.
    FOR i IN 1..n LOOP
        IF p_expected_versions[i] IS NOT NULL AND p_expected_versions[i] <> heads[i] THEN
            RAISE EXCEPTION 'stream % is at version %, not %',
                p_streams[i], heads[i], p_expected_versions[i]
                USING ERRCODE = 'MLV01', DETAIL = heads[i]::text;
        END IF;
        IF first_position - base + k + p_counts[i] > 65536 THEN
            RAISE EXCEPTION 'more than 65536 events in one transaction' USING ERRCODE = 'MLT01';
        END IF;
        k := k + p_counts[i];
    END LOOP;

    -- Chain v2, each stream's links from its own head (events_append's text exactly).
    FOR ev IN
        SELECT t.event_id, t.type, t.data, t.metadata, t.recorded_at, t.ord
          FROM unnest(p_event_ids, p_types, p_data, p_metadata, p_recorded_at)
               WITH ORDINALITY AS t(event_id, type, data, metadata, recorded_at, ord)
         ORDER BY t.ord
    LOOP
        IF si = 0 OR sj = p_counts[si] THEN  -- the next stream's first event
            si := si + 1;
            sj := 0;
            stream_name := p_streams[si];
            stream_json := to_json(stream_name)::text;
            prev := coalesce(head_hashes[si], ''::bytea);
        END IF;
        sj := sj + 1;
        prevs := array_append(prevs, CASE WHEN sj = 1 THEN head_hashes[si] ELSE prev END);
        prev := sha256(prev || convert_to(
            '{"data":' || ev.data || ',"event_id":"' || ev.event_id::text
            || '","global_position":' || (first_position + ev.ord - 1)::text
            || ',"metadata":' || ev.metadata || ',"recorded_at":"'
            || CASE WHEN ev.recorded_at IS NULL THEN now_text
                    ELSE to_char(ev.recorded_at AT TIME ZONE 'UTC',
                                 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END
            || '","stream":' || stream_json || ',"type":' || to_json(ev.type)::text
            || ',"version":' || (heads[si] + sj)::text || '}', 'UTF8'));
        hashes := array_append(hashes, prev);
        streams := array_append(streams, stream_name);
        versions := array_append(versions, heads[si] + sj);
    END LOOP;

    RETURN QUERY
        WITH inserted AS (
            INSERT INTO events AS e (global_position, stream, version, event_id, type, data,
                                     metadata, recorded_at, tx_id, prev_hash, hash,
                                     chain_version)
            SELECT first_position + t.ord - 1, t.stream, t.version, t.event_id, t.type,
                   t.data::jsonb, t.metadata::jsonb, coalesce(t.recorded_at, now()),
                   pg_current_xact_id(), t.prev, t.hash, 2
              FROM unnest(p_event_ids, p_types, p_data, p_metadata, p_recorded_at, streams,
                          versions, prevs, hashes)
                   WITH ORDINALITY AS t(event_id, type, data, metadata, recorded_at, stream,
                                        version, prev, hash, ord)
            RETURNING e.stream, e.global_position, e.version, e.recorded_at, e.hash
        )
        SELECT st.ord::int, r.global_position, r.version, r.recorded_at, r.hash, NULL::jsonb
          FROM inserted AS r
          JOIN unnest(p_streams) WITH ORDINALITY AS st(stream, ord) ON st.stream = r.stream
         ORDER BY r.global_position;
END
$$;
