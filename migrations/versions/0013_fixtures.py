"""Entrants and fixtures: who plays in a competition, and who meets whom in each round.

An entrant is one player (Cuttle) or a fixed pair (Kozel, partners sitting
opposite). ``entrant_players`` holds each of its players once per competition, so
the primary key itself refuses a player entered twice, even by two racing writes.
Players are checked to exist when entered but not tied by a foreign key, as
``matches.players`` is not: players are never removed.

A fixture is one table of one round: its entrants in seat order and, once one is
recorded, the match played there. ``fixture_rounds`` says how each round was made and
how many rematches it could not avoid; ``fixture_byes`` who sat out.

Revision ID: 0013_fixtures
Revises: 0012_roles
Create Date: 2026-11-26
"""

from alembic import op

revision = "0013_fixtures"
down_revision = "0012_roles"
branch_labels = None
depends_on = None

APP_ROLE = "matchlog_app"

_GRANTS = {
    "entrants": "SELECT, INSERT",
    "entrant_players": "SELECT, INSERT",
    "fixture_rounds": "SELECT, INSERT",
    "fixtures": "SELECT, INSERT, UPDATE",
    "fixture_byes": "SELECT, INSERT",
}


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE entrants (
            id             uuid        PRIMARY KEY,
            competition_id uuid        NOT NULL REFERENCES competitions (id),
            position       bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
            players        uuid[]      NOT NULL CHECK (cardinality(players) BETWEEN 1 AND 2),
            created_at     timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute("CREATE INDEX entrants_competition ON entrants (competition_id, position)")
    op.execute(
        """
        CREATE TABLE entrant_players (
            competition_id uuid NOT NULL REFERENCES competitions (id),
            player_id      uuid NOT NULL,
            entrant_id     uuid NOT NULL REFERENCES entrants (id),
            PRIMARY KEY (competition_id, player_id)
        )
        """
    )
    op.execute(
        """
        CREATE TABLE fixture_rounds (
            competition_id uuid        NOT NULL REFERENCES competitions (id),
            number         integer     NOT NULL CHECK (number > 0),
            system         text        NOT NULL CHECK (system IN ('round-robin', 'swiss')),
            rematches      integer     NOT NULL DEFAULT 0 CHECK (rematches >= 0),
            created_at     timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (competition_id, number)
        )
        """
    )
    op.execute(
        """
        CREATE TABLE fixtures (
            id             uuid    PRIMARY KEY,
            competition_id uuid    NOT NULL,
            round          integer NOT NULL,
            table_number   integer NOT NULL CHECK (table_number > 0),
            entrants       uuid[]  NOT NULL CHECK (cardinality(entrants) >= 2),
            match_id       uuid    UNIQUE,
            FOREIGN KEY (competition_id, round) REFERENCES fixture_rounds (competition_id, number),
            UNIQUE (competition_id, round, table_number)
        )
        """
    )
    op.execute(
        """
        CREATE TABLE fixture_byes (
            competition_id uuid    NOT NULL,
            round          integer NOT NULL,
            entrant_id     uuid    NOT NULL REFERENCES entrants (id),
            FOREIGN KEY (competition_id, round) REFERENCES fixture_rounds (competition_id, number),
            PRIMARY KEY (competition_id, round, entrant_id)
        )
        """
    )
    for table, privileges in _GRANTS.items():
        op.execute(f"GRANT {privileges} ON {table} TO {APP_ROLE}")


def downgrade() -> None:
    for table in reversed(list(_GRANTS)):
        op.execute(f"DROP TABLE {table}")
