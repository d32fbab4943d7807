CREATE OR REPLACE FUNCTION events_append_batch(
    p_streams text[],
    p_expected_versions bigint[],
    p_counts int[],
    p_event_ids uuid[],
    p_types text[],
    p_data text[],
    p_metadata jsonb[],
    p_recorded_at timestamptz[]
) RETURNS TABLE (
    stream_index int,
    global_position bigint,
    version bigint,
    recorded_at timestamptz,
    hash bytea,
    metadata jsonb
) LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    -- Stream i owns the events p_counts[i] long after those of streams 1..i-1 in
    -- the flat arrays. p_recorded_at may be NULL as a whole: every event then takes
    -- the database's clock, as NULL entries do.
    n int := coalesce(array_length(p_streams, 1), 0);
    total bigint;
    s record;
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

    -- One pass over the arrays: each event is tagged with its stream's index, and
    -- each stream's events gathered in order.
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
END
$$;
