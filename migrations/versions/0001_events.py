"""The events table: one append-only log of every match, Message DB style.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE events (
            global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
            CONSTRAINT events_stream_version_key UNIQUE (stream, version),
            CONSTRAINT events_event_id_key UNIQUE (event_id)
        )
        """
    )
    op.execute(
        "CREATE INDEX events_category_idx ON events (split_part(stream, '-', 1), global_position)"
    )
    op.execute(
        """
        CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'events are append-only: % refused', TG_OP
                USING ERRCODE = 'insufficient_privilege';
        END
        $$
        """
    )
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


def downgrade() -> None:
    op.execute("DROP TABLE events")
    op.execute("DROP FUNCTION events_refuse_change()")
