"""The organiser's desk: records of withdrawals, swaps and taken-back rounds (#31).

``competition_records`` keeps what an organiser changed and why: who (the token's id and
name as it was then; ``matchlog`` at a terminal names its user), when, the reason, and
what was changed (``details``). A withdrawn entrant is one with a ``withdrawal`` record
(at most one: a unique index), so the entrants' rows themselves stay insert-only.

A swap rewrites two tables (or a table and a bye) of a round nothing of which has
started; a takeback removes an unstarted round's rows after copying the round into its
record. Neither touches a played result: the service refuses both once a match is linked
to a table of the round or a table is forfeited. Hence the new grants: UPDATE on
``fixture_rounds`` (a swap's rematches) and ``fixture_byes``, DELETE on the three round
tables.

Revision ID: 0020_desk_records
Revises: 0019_competition_games
Create Date: 2026-12-01
"""

from alembic import op

revision = "0020_desk_records"
down_revision = "0019_competition_games"
branch_labels = None
depends_on = None

APP_ROLE = "matchlog_app"


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE competition_records (
            id             uuid        PRIMARY KEY,
            competition_id uuid        NOT NULL REFERENCES competitions (id),
            position       bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
            kind           text        NOT NULL
                CHECK (kind IN ('withdrawal', 'swap', 'takeback')),
            round          integer     CHECK (round > 0),
            entrant_id     uuid        REFERENCES entrants (id),
            reason         text        NOT NULL CHECK (length(btrim(reason)) > 0),
            token_id       uuid        REFERENCES api_tokens (id),
            by_name        text        NOT NULL,
            details        jsonb       NOT NULL DEFAULT '{}',
            at             timestamptz NOT NULL DEFAULT now(),
            CHECK (kind <> 'withdrawal' OR entrant_id IS NOT NULL),
            CHECK (kind = 'withdrawal' OR round IS NOT NULL)
        )
        """
    )
    op.execute(
        "CREATE INDEX competition_records_competition"
        " ON competition_records (competition_id, position)"
    )
    op.execute(
        "CREATE UNIQUE INDEX competition_records_one_withdrawal"
        " ON competition_records (entrant_id) WHERE kind = 'withdrawal'"
    )
    op.execute(f"GRANT SELECT, INSERT ON competition_records TO {APP_ROLE}")
    op.execute(f"GRANT UPDATE, DELETE ON fixture_rounds TO {APP_ROLE}")
    op.execute(f"GRANT UPDATE, DELETE ON fixture_byes TO {APP_ROLE}")
    op.execute(f"GRANT DELETE ON fixtures TO {APP_ROLE}")


def downgrade() -> None:
    op.execute(f"REVOKE DELETE ON fixtures FROM {APP_ROLE}")
    op.execute(f"REVOKE UPDATE, DELETE ON fixture_byes FROM {APP_ROLE}")
    op.execute(f"REVOKE UPDATE, DELETE ON fixture_rounds FROM {APP_ROLE}")
    op.execute("DROP TABLE competition_records")
