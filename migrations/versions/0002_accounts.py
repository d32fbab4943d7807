"""Reference data: players, competitions, and hashed API tokens with roles.

These are plain tables, not event streams: they are looked up by id and listed,
and a change to them is not part of any match's record.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ``position`` orders listings newest first and backs the opaque cursors: ids are
    # random and timestamps can tie, an identity column never does.
    op.execute(
        """
        CREATE TABLE players (
            id           uuid        PRIMARY KEY,
            position     bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
            display_name text        NOT NULL CHECK (length(btrim(display_name)) > 0),
            created_at   timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute(
        """
        CREATE TABLE competitions (
            id           uuid        PRIMARY KEY,
            position     bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
            name         text        NOT NULL CHECK (length(btrim(name)) > 0),
            game         text        NOT NULL CHECK (game IN ('cuttle', 'kozel')),
            variant      text        NOT NULL,
            match_format jsonb       NOT NULL,
            tiebreaks    text[]      NOT NULL DEFAULT '{}',
            public_reads boolean     NOT NULL DEFAULT true,
            created_at   timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute(
        """
        CREATE TABLE api_tokens (
            id           uuid        PRIMARY KEY,
            name         text        NOT NULL DEFAULT '',
            role         text        NOT NULL CHECK (role IN ('admin', 'scorer')),
            competitions uuid[]      CHECK (role = 'scorer' OR competitions IS NULL),
            token_hash   bytea       NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
            created_at   timestamptz NOT NULL DEFAULT now(),
            revoked_at   timestamptz
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE api_tokens")
    op.execute("DROP TABLE competitions")
    op.execute("DROP TABLE players")
