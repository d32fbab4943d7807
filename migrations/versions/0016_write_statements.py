"""A write's token check and key claim as one statement each; answers kept as text.

``lock_usable_tokens`` and ``claim_idempotency_keys`` each take their advisory locks
and then read, as two queries of one VOLATILE function (each query its own
snapshot, taken after the locks), where the recorder sent two statements: a round
trip fewer each in every write's transaction. ``idempotent_requests.response``
becomes the answer's JSON text as it was sent, not ``jsonb``: a retry gets the very
bytes of the first answer (``jsonb`` reordered its keys), and storing an answer no
longer parses it.

Measured together, ``python bench/api_load.py --seconds 10 --rounds 5 --compare DIR``
against the code before (paired rounds, medians): moves/s 1.08x, server CPU a move
0.93x; with ``--idempotency-keys`` 1.14x, server CPU 0.91x, PostgreSQL's 0.82x.

Revision ID: 0016_write_statements
Revises: 0015_recording
Create Date: 2026-11-26
"""

from alembic import op

from migrations.functions import create_function

revision = "0016_write_statements"
down_revision = "0015_recording"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_function("lock_usable_tokens", "0016_write_statements")
    create_function("claim_idempotency_keys", "0016_write_statements")
    op.execute(
        "ALTER TABLE idempotent_requests ALTER COLUMN response TYPE text USING response::text"
    )


def downgrade() -> None:
    op.execute(
        "ALTER TABLE idempotent_requests ALTER COLUMN response TYPE jsonb USING response::jsonb"
    )
    op.execute("DROP FUNCTION claim_idempotency_keys(text[], uuid[], text[])")
    op.execute("DROP FUNCTION lock_usable_tokens(uuid[])")
