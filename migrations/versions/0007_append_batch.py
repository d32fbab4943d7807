"""Append to several streams in one statement: ``events_append_batch``.

Every SQL statement costs the importer a fixed slice of Python CPU, so recording a
batch of matches with one statement instead of one per match pays once. The
function only delegates: for each stream in order it calls the nine-argument
``events_append`` of 0005 (no NOTIFY) with that stream's slice of the flat arrays,
so the hash chain, the version check, the idempotent retry and the positions are
exactly those of sequential appends in one transaction, and each call sees the rows
of the ones before it (a stream may appear twice). An error in any call aborts the
whole statement. Its text: ``migrations/sql/functions/events_append_batch.0007.sql``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from alembic import op

from migrations.functions import create_function

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_SIGNATURE = "text[], bigint[], int[], uuid[], text[], jsonb[], jsonb[], text[], timestamptz[]"


def upgrade() -> None:
    create_function("events_append_batch", "0007")


def downgrade() -> None:
    op.execute(f"DROP FUNCTION events_append_batch({_SIGNATURE})")
