"""How a match's rounds are recorded: ``matches.recording`` (moves or results).

A match recorded by results (a score sheet, Cuttle §27 and Kozel R48) is listed with
its way of recording, so a page can offer a score-sheet form without reading the
stream. Every match before this revision was recorded by moves.

Revision ID: 0015_recording
Revises: 0014_fixture_scoring
Create Date: 2026-11-26
"""

from alembic import op

revision = "0015_recording"
down_revision = "0014_fixture_scoring"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE matches ADD COLUMN recording text NOT NULL DEFAULT 'moves'")


def downgrade() -> None:
    op.execute("ALTER TABLE matches DROP COLUMN recording")
