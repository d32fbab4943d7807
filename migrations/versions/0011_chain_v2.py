"""Hash chain v2: a new event's hash covers its whole row, metadata and recorded_at too.

Chain v1 (0001 to 0010) hashes ``{data, event_id, stream, type, version}``, so the
metadata, the recorded-at time and the global position could be rewritten without
breaking a link. ``events.chain_version`` says which form an event's hash takes: the
events already stored keep 1 (the column's default, so nothing is rewritten) and
verify under v1; every event ``events_append`` writes from now on is 2, hashed over

    {"data":…,"event_id":…,"global_position":…,"metadata":…,"recorded_at":"…Z",
     "stream":…,"type":…,"version":…}

(RFC 8785; ``recorded_at`` as UTC with microseconds). Python sends the metadata as
its canonical JSON text, as it sends the data, so ``p_metadata`` becomes ``text[]``
in both functions (``migrations/sql/functions/*.0011.sql``). A chain may switch from
v1 to v2 in the middle of a stream, never back.

The downgrade refuses while any event is hashed under v2: without ``chain_version``
those events would no longer verify, and would look tampered with. ``matchlog db
downgrade`` asks ``refuse_downgrade`` first, before anything is undone
(``store.migrate.plan_downgrade``); the check in ``downgrade`` stays for alembic run
by hand.

Revision ID: 0011_chain_v2
Revises: 0010
Create Date: 2026-11-23
"""

from alembic import op

from migrations.functions import create_function

revision = "0011_chain_v2"
down_revision = "0010"
branch_labels = None
depends_on = None

refuse_downgrade = """
    SELECT count(*) || CASE count(*) WHEN 1 THEN ' event is' ELSE ' events are' END
           || ' hashed under chain v2 and would fail verification without '
           'events.chain_version'
    FROM events WHERE chain_version = 2 HAVING count(*) > 0
"""
"""Why this revision must not be undone on a database (one row of text), if it must not."""

_V1_SIGNATURES = (
    "events_append_batch(text[], bigint[], int[], uuid[], text[], text[], jsonb[], timestamptz[])",
    "events_append(text, bigint, uuid[], text[], text[], jsonb[], text, timestamptz[])",
)
_V2_SIGNATURES = (
    "events_append_batch(text[], bigint[], int[], uuid[], text[], text[], text[], timestamptz[])",
    "events_append(text, bigint, uuid[], text[], text[], text[], text, timestamptz[])",
)


def upgrade() -> None:
    # A constant default: PostgreSQL adds the column without rewriting the table.
    op.execute(
        "ALTER TABLE events ADD COLUMN chain_version smallint NOT NULL DEFAULT 1 "
        "CONSTRAINT events_chain_version_check CHECK (chain_version IN (1, 2))"
    )
    for signature in _V1_SIGNATURES:
        op.execute(f"DROP FUNCTION {signature}")
    create_function("events_append", "0011_chain_v2")
    create_function("events_append_batch", "0011_chain_v2")


def downgrade() -> None:
    op.execute(
        """
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM events WHERE chain_version = 2) THEN
                RAISE EXCEPTION 'events hashed under chain v2 exist'
                    USING HINT = 'without events.chain_version they would fail '
                                 'verification; stay at 0011_chain_v2 or later';
            END IF;
        END
        $$
        """
    )
    for signature in _V2_SIGNATURES:
        op.execute(f"DROP FUNCTION {signature}")
    op.execute("ALTER TABLE events DROP COLUMN chain_version")
    create_function("events_append", "0010")
    create_function("events_append_batch", "0010")
