"""Read models folded from the event log: match series, competition standings.

Both are inline projections (written in the recorder's transaction) and are
recomputed from the events table by ``matchlog projections rebuild``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # One row per match: every scored round with running totals, and the result.
    # ended_position is the global position of MatchEnded: ratings follow it.
    op.execute(
        """
        CREATE TABLE match_series (
            match_id       uuid        PRIMARY KEY,
            stream         text        NOT NULL UNIQUE,
            game           text        NOT NULL,
            variant        text        NOT NULL,
            competition_id uuid,
            players        uuid[]      NOT NULL,
            rounds         jsonb       NOT NULL DEFAULT '[]'::jsonb,
            totals         jsonb       NOT NULL DEFAULT '{}'::jsonb,
            result         jsonb,
            ended_position bigint
        )
        """
    )
    op.execute(
        "CREATE INDEX match_series_competition_idx"
        " ON match_series (competition_id, ended_position)"
        " WHERE ended_position IS NOT NULL"
    )
    # What a rebuild folds (projections.rebuild.SERIES_EVENTS), in global order,
    # without scanning the engine events around them.
    op.execute(
        "CREATE INDEX events_series_idx ON events (global_position) WHERE type IN"
        " ('MatchCreated', 'RoundStarted', 'DealStarted', 'RoundScored', 'DealScored',"
        " 'MatchResigned', 'MatchEnded')"
    )
    # One row per competition with finished matches: the tables and the ratings.
    op.execute(
        """
        CREATE TABLE competition_standings (
            competition_id uuid    PRIMARY KEY,
            game           text    NOT NULL,
            matches        integer NOT NULL,
            last_position  bigint  NOT NULL,
            standings      jsonb   NOT NULL
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE competition_standings")
    op.execute("DROP TABLE match_series")
    op.execute("DROP INDEX events_series_idx")
