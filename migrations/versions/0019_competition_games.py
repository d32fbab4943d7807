"""Drop the competitions' ``CHECK (game IN ('cuttle', 'kozel'))`` of 0002: the registry says.

Which games a competition may be of is ``domain.games``'s to say: every writer of a
competition passes through ``domain.competitions.checked_settings``, which refuses a game
the registry does not hold (the store's ``create_competition`` calls it too), and a
reader trusts a row only if it passes (``store.accounts.readable``). A list of games in
the schema would be a second list, to edit in a migration for each game added.

The downgrade restores the constraint; it fails while a competition of another game
is stored, which the older code could not read.

Revision ID: 0019_competition_games
Revises: 0018_live_feeds
Create Date: 2026-11-28
"""

from alembic import op

revision = "0019_competition_games"
down_revision = "0018_live_feeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE competitions DROP CONSTRAINT competitions_game_check")


def downgrade() -> None:
    op.execute(
        "ALTER TABLE competitions ADD CONSTRAINT competitions_game_check"
        " CHECK (game IN ('cuttle', 'kozel'))"
    )
