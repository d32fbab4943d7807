"""The events table: one append-only log of every match, Message DB style.

``events_append`` is the writer. Each event's global position carries its
transaction id in the high bits (``tx_id << 16`` plus its rank in the transaction),
so position order is transaction-id order by construction, with no lock between
appenders; tailing readers read below the snapshot's ``xmin`` and so never skip a
late commit. See docs/event-store.md. The functions' texts are in
``migrations/sql/functions/*.0001.sql``.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from alembic import op

from migrations.functions import create_function

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE events (
            global_position bigint      PRIMARY KEY
                                        DEFAULT (pg_current_xact_id()::text::bigint << 16),
            stream          text        NOT NULL CHECK (stream ~ '^[a-z]+-.+$'),
            version         bigint      NOT NULL CHECK (version >= 1),
            event_id        uuid        NOT NULL,
            type            text        NOT NULL,
            data            jsonb       NOT NULL,
            metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
            recorded_at     timestamptz NOT NULL DEFAULT now(),
            tx_id           xid8        NOT NULL DEFAULT pg_current_xact_id(),
            prev_hash       bytea,
            hash            bytea       NOT NULL CHECK (octet_length(hash) = 32),
            CONSTRAINT events_position_tx_check
                CHECK (global_position >> 16 = tx_id::text::bigint),
            CONSTRAINT events_stream_version_key UNIQUE (stream, version),
            CONSTRAINT events_event_id_key UNIQUE (event_id)
        )
        """
    )
    op.execute(
        "CREATE INDEX events_category_idx ON events (split_part(stream, '-', 1), global_position)"
    )
    create_function("events_refuse_change", "0001")
    op.execute(
        """
        CREATE TRIGGER events_append_only
        BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_refuse_change()
        """
    )
    op.execute(
        """
        CREATE TRIGGER events_no_truncate
        BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()
        """
    )
    create_function("events_append", "0001")


def downgrade() -> None:
    op.execute(
        "DROP FUNCTION events_append(text, bigint, uuid[], text[], jsonb[], jsonb[], text[], text)"
    )
    op.execute("DROP TABLE events")
    op.execute("DROP FUNCTION events_refuse_change()")
