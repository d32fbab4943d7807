"""Corrected results on record: a fixture's void match replaced by a new one (#31).

A table whose match an admin voided may take a new match (``store.fixtures.link_match``
relinks it; the void match keeps its events). The replacement is kept in
``competition_records`` as a ``correction``: who, when, the void's reason, and in
``details`` the table, the void match and the new one. Only the kinds' check changes.

Revision ID: 0021_correction_records
Revises: 0020_desk_records
Create Date: 2026-12-02
"""

from alembic import op

revision = "0021_correction_records"
down_revision = "0020_desk_records"
branch_labels = None
depends_on = None

OLD_KINDS = "('withdrawal', 'swap', 'takeback')"
NEW_KINDS = "('withdrawal', 'swap', 'takeback', 'correction')"


def upgrade() -> None:
    op.execute(
        "ALTER TABLE competition_records DROP CONSTRAINT competition_records_kind_check,"
        " ADD CONSTRAINT competition_records_kind_check"
        f" CHECK (kind IN {NEW_KINDS})"
    )


def downgrade() -> None:
    # NOT VALID: corrections already kept stay on record; new rows obey the old check.
    op.execute(
        "ALTER TABLE competition_records DROP CONSTRAINT competition_records_kind_check,"
        " ADD CONSTRAINT competition_records_kind_check"
        f" CHECK (kind IN {OLD_KINDS}) NOT VALID"
    )
