"""Corrections: the series index also covers takebacks, voids and notes (issue #8).

A rebuild reads ``projections.rebuild.SERIES_EVENTS`` in global order; the partial
index of 0004 is recreated with the three correction events added.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_BEFORE = (
    "'MatchCreated', 'RoundStarted', 'DealStarted', 'RoundScored', 'DealScored',"
    " 'MatchResigned', 'MatchEnded'"
)


def upgrade() -> None:
    op.execute("DROP INDEX events_series_idx")
    op.execute(
        "CREATE INDEX events_series_idx ON events (global_position) WHERE type IN"
        f" ({_BEFORE}, 'TakenBack', 'MatchVoided', 'NoteAdded')"
    )


def downgrade() -> None:
    op.execute("DROP INDEX events_series_idx")
    op.execute(
        f"CREATE INDEX events_series_idx ON events (global_position) WHERE type IN ({_BEFORE})"
    )
