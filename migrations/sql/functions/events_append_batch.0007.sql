CREATE OR REPLACE FUNCTION events_append_batch(
    p_streams text[],
    p_expected_versions bigint[],
    p_counts int[],
    p_event_ids uuid[],
    p_types text[],
    p_data jsonb[],
    p_metadata jsonb[],
    p_hash_prefixes text[],
    p_recorded_at timestamptz[]
) RETURNS TABLE (
    stream_index int,
    global_position bigint,
    version bigint,
    recorded_at timestamptz,
    hash bytea,
    metadata jsonb
) LANGUAGE plpgsql
-- No enable_seqscan setting here: this function reads no table; events_append
-- carries its own.
AS $$
#variable_conflict use_column
DECLARE
    -- Stream i owns the events p_counts[i] long after those of streams 1..i-1 in
    -- the flat arrays. p_recorded_at may be NULL as a whole: every event then takes
    -- the database's clock, as NULL entries do.
    n int := coalesce(array_length(p_streams, 1), 0);
    total bigint;
    first int := 1;
    last int;
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
       OR array_length(p_hash_prefixes, 1) IS DISTINCT FROM total
       OR (p_recorded_at IS NOT NULL
           AND array_length(p_recorded_at, 1) IS DISTINCT FROM total) THEN
        RAISE EXCEPTION 'events_append_batch needs one or more streams, each with one or '
                        'more events, and every event array as long as the counts add up to'
            USING ERRCODE = 'MLA01';
    END IF;

    FOR i IN 1..n LOOP
        last := first + p_counts[i] - 1;
        RETURN QUERY
            SELECT i, a.global_position, a.version, a.recorded_at, a.hash, a.metadata
              FROM events_append(p_streams[i], p_expected_versions[i],
                                 p_event_ids[first:last], p_types[first:last],
                                 p_data[first:last], p_metadata[first:last],
                                 p_hash_prefixes[first:last], NULL::text,
                                 p_recorded_at[first:last]) AS a;
        first := last + 1;
    END LOOP;
END
$$;
