"""Fixture scoring: what a bye scores, forfeited tables, and each table's first dealer.

``competitions.bye`` is what a bye scores in Swiss rankings (``win``, ``draw`` or
``loss``; existing competitions keep the win they always had). ``fixtures.forfeited_by``
holds the entrants who forfeited a table (all of them: a double forfeit), set once by
an admin; ``fixtures.first_dealer`` is the seat that deals first at the table, chosen
when the round is made so each entrant deals first as evenly as the rounds allow.
Tables made before this migration have no first dealer: their matches draw one.

Revision ID: 0014_fixture_scoring
Revises: 0013_fixtures
Create Date: 2026-11-26
"""

from alembic import op

revision = "0014_fixture_scoring"
down_revision = "0013_fixtures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE competitions ADD COLUMN bye text NOT NULL DEFAULT 'win'"
        " CHECK (bye IN ('win', 'draw', 'loss'))"
    )
    op.execute(
        "ALTER TABLE fixtures ADD COLUMN forfeited_by uuid[] CHECK (cardinality(forfeited_by) >= 1)"
    )
    op.execute("ALTER TABLE fixtures ADD COLUMN first_dealer integer CHECK (first_dealer >= 0)")


def downgrade() -> None:
    op.execute("ALTER TABLE fixtures DROP COLUMN first_dealer, DROP COLUMN forfeited_by")
    op.execute("ALTER TABLE competitions DROP COLUMN bye")
