"""Match summaries (an inline projection) and stored answers to idempotent requests.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Folded from each match stream in the recorder's transaction; rebuildable from
    # the events table at any time.
    op.execute(
        """
        CREATE TABLE matches (
            id             uuid        PRIMARY KEY,
            stream         text        NOT NULL UNIQUE,
            game           text        NOT NULL,
            variant        text        NOT NULL,
            competition_id uuid        REFERENCES competitions (id),
            players        uuid[]      NOT NULL,
            dealing        text        NOT NULL,
            status         text        NOT NULL CHECK (status IN ('live', 'finished', 'void')),
            version        bigint      NOT NULL,
            rounds         integer     NOT NULL DEFAULT 0,
            score          jsonb       NOT NULL DEFAULT '{}'::jsonb,
            result         jsonb,
            created_at     timestamptz NOT NULL,
            updated_at     timestamptz NOT NULL,
            ended_at       timestamptz
        )
        """
    )
    op.execute("CREATE INDEX matches_competition_idx ON matches (competition_id, created_at)")
    op.execute("CREATE INDEX matches_players_idx ON matches USING gin (players)")
    # One stored answer per (token, Idempotency-Key): a retry gets the first answer.
    op.execute(
        """
        CREATE TABLE idempotent_requests (
            token_id     uuid        NOT NULL,
            key          text        NOT NULL,
            request_hash bytea       NOT NULL,
            status_code  integer     NOT NULL,
            response     jsonb       NOT NULL,
            headers      jsonb       NOT NULL DEFAULT '{}'::jsonb,
            created_at   timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (token_id, key)
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE idempotent_requests")
    op.execute("DROP TABLE matches")
