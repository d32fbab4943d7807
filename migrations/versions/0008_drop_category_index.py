"""Drop ``events_category_idx``: no query reads events by category, and every append paid for it.

0001 copied Message DB's category index (the stream name's part before its first
dash, then the global position). No reader of matchlog asks for a category: live
readers, the rebuild and the replays read by stream or by global position. Every
insert still computed ``split_part`` and added a key to the index; measured with
``python bench/append_batch.py``-shaped appends, that was about a tenth of the
server's CPU per event. A reader that needs a category can bring the index back in
its own migration.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX events_category_idx")


def downgrade() -> None:
    op.execute(
        "CREATE INDEX events_category_idx ON events (split_part(stream, '-', 1), global_position)"
    )
