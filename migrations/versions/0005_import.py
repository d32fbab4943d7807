"""Log import keeps each event's recorded-at time: an ``events_append`` overload.

The new overload takes a ninth argument, ``p_recorded_at timestamptz[]`` (one entry
per event; NULL takes the database's clock), so ``matchlog import`` stores the times
a canonical log carries and a re-export is byte for byte the same. Its body is the
0001 function with only the ``recorded_at`` column added, derived from that text so
the two cannot drift apart; the eight-argument function is untouched.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

import importlib.util
from pathlib import Path

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_SIGNATURE = "text, bigint, uuid[], text[], jsonb[], jsonb[], text[], text, timestamptz[]"


def _append_function_0001() -> str:
    spec = importlib.util.spec_from_file_location(
        "_matchlog_0001_events", Path(__file__).with_name("0001_events.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.APPEND_FUNCTION
    return text


def _with_recorded_at(text: str) -> str:
    changes = (
        (
            "    p_channel text\n) RETURNS",
            "    p_channel text,\n    p_recorded_at timestamptz[]\n) RETURNS",
        ),
        (
            "metadata, tx_id, prev_hash, hash)",
            "metadata, recorded_at, tx_id, prev_hash, hash)",
        ),
        (
            "t.type, t.data, t.metadata, pg_current_xact_id(),",
            "t.type, t.data, t.metadata, coalesce(p_recorded_at[t.ord], now()),\n"
            "               pg_current_xact_id(),",
        ),
    )
    for old, new in changes:
        assert 1 == text.count(old), f"0001's events_append changed shape near {old!r}"
        text = text.replace(old, new)
    return text


def upgrade() -> None:
    op.execute(_with_recorded_at(_append_function_0001()))


def downgrade() -> None:
    op.execute(f"DROP FUNCTION events_append({_SIGNATURE})")
