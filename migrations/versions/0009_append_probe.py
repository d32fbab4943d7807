"""Appends to an empty stream skip the retry probe; a batch hands out its streams in one pass.

Two costs of the server's CPU per imported event, measured with a driver shaped like
``python bench/append_batch.py`` (docs/benchmarks.md, Import):

- ``events_append`` looked up every event id (``event_id = ANY (...)``, one index
  probe per event) before anything else, to recognise an idempotent retry. A retry
  re-sends events this stream already holds, so on an empty stream there is none to
  recognise. The head is now read first, and the probe runs only when the stream
  holds events or the caller expects it to (so a stale expectation still gets the
  error it got before). An id recorded on another stream then fails the insert on
  ``events_event_id_key``, which the store reports as EVENT_ID_CONFLICT, as it did
  for the probe's MLE01. A new match, which is all an import writes, pays no probe.
- ``events_append_batch`` sliced each stream out of its array arguments. PL/pgSQL
  holds array arguments expanded, and slicing an expanded array flattens all of it
  first, so a batch copied every argument once per stream. It now groups the events
  by stream with one query and calls ``events_append`` per group, in stream order, as
  before.

Both ``events_append`` overloads (0001's and 0005's) change the same way, derived
from their texts so they cannot drift apart.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-22
"""

import importlib.util
from pathlib import Path
from types import ModuleType

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_PROBE = "    -- Idempotent retry, checked before the version.\n"
_HEAD = "    SELECT e.version, e.hash INTO head_version, head_hash\n"
_VERSION_CHECK = (
    "    IF p_expected_version IS NOT NULL AND p_expected_version <> head_version THEN\n"
)
_EXISTS = "    IF EXISTS (SELECT FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN\n"
_EXISTS_IF_HELD = (
    "    -- Idempotent retry, checked before the version. An empty stream holds none of\n"
    "    -- these events: unless the caller expects otherwise, there is nothing to probe,\n"
    "    -- and an id recorded elsewhere fails the insert on events_event_id_key.\n"
    "    IF (head_version > 0 OR coalesce(p_expected_version, 0) <> 0)\n"
    "       AND EXISTS (SELECT FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN\n"
)

BATCH_FUNCTION = """
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
       OR array_length(p_hash_prefixes, 1) IS DISTINCT FROM total
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
               array_agg(e.prefix ORDER BY e.ord) AS prefixes,
               array_agg(e.recorded_at ORDER BY e.ord) AS recorded_at
          FROM unnest(p_event_ids, p_types, p_data, p_metadata, p_hash_prefixes,
                      p_recorded_at,
                      ARRAY(SELECT c.i FROM unnest(p_counts) WITH ORDINALITY AS c(n, i),
                                            generate_series(1, c.n)
                             ORDER BY c.i))
               WITH ORDINALITY AS e(event_id, type, data, metadata, prefix, recorded_at, i, ord)
         GROUP BY e.i
         ORDER BY e.i
    LOOP
        RETURN QUERY
            SELECT s.i::int, a.global_position, a.version, a.recorded_at, a.hash, a.metadata
              FROM events_append(p_streams[s.i], p_expected_versions[s.i], s.event_ids,
                                 s.types, s.data, s.metadata, s.prefixes, NULL::text,
                                 s.recorded_at) AS a;
    END LOOP;
END
$$
"""


def _migration(name: str) -> ModuleType:
    path = next(Path(__file__).parent.glob(f"{name}_*.py"))
    spec = importlib.util.spec_from_file_location(f"_matchlog_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _append_functions() -> list[str]:
    """Return the texts of 0001's and 0005's ``events_append``, as they created them."""
    with_recorded_at = _migration("0005")
    plain: str = with_recorded_at._append_function_0001()
    return [plain, with_recorded_at._with_recorded_at(plain)]


def _probe_after_head(text: str) -> str:
    start, head, check = text.index(_PROBE), text.index(_HEAD), text.index(_VERSION_CHECK)
    assert start < head < check, "events_append changed shape"
    probe = text[start:head].replace(_PROBE, "", 1)
    assert 1 == probe.count(_EXISTS), "events_append changed shape"
    probe = probe.replace(_EXISTS, _EXISTS_IF_HELD).rstrip("\n") + "\n"
    return text[:start] + text[head:check] + probe + text[check:]


def _or_replace(text: str) -> str:
    assert 1 == text.count("CREATE FUNCTION ")
    return text.replace("CREATE FUNCTION ", "CREATE OR REPLACE FUNCTION ")


def upgrade() -> None:
    for text in _append_functions():
        op.execute(_or_replace(_probe_after_head(text)))
    op.execute(BATCH_FUNCTION)


def downgrade() -> None:
    for text in _append_functions():
        op.execute(_or_replace(text))
    op.execute(_or_replace(_migration("0007").APPEND_BATCH_FUNCTION))
