"""Log import keeps each event's recorded-at time: an ``events_append`` overload.

The new overload takes a ninth argument, ``p_recorded_at timestamptz[]`` (one entry
per event; NULL takes the database's clock), so ``matchlog import`` stores the times
a canonical log carries and a re-export is byte for byte the same. Its body
(``migrations/sql/functions/events_append_recorded_at.0005.sql``) is the 0001
function with only the ``recorded_at`` column added; the eight-argument function is
untouched.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from alembic import op

from migrations.functions import create_function

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_SIGNATURE = "text, bigint, uuid[], text[], jsonb[], jsonb[], text[], text, timestamptz[]"


def upgrade() -> None:
    create_function("events_append_recorded_at", "0005")


def downgrade() -> None:
    op.execute(f"DROP FUNCTION events_append({_SIGNATURE})")
