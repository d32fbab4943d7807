"""Appends take each event's data as its canonical JSON text, and the server builds what it hashes.

Until now the client sent each event's data twice: as ``jsonb`` for the row, and
inside a "hash prefix" (the event's RFC 8785 canonical JSON up to its version) for
the chain. Both were escaped into array literals and parsed again by the server.
Now ``p_data`` is the canonical JSON text of each event's data, sent once: the row
stores it as ``jsonb``, and the chain hashes

    {"data":<data>,"event_id":"<id>","stream":<stream>,"type":<type>,"version":<n>}

with the stream and type written by ``to_json``, whose escaping of a string is RFC
8785's (quote, backslash, the short escapes, ``\\u00xx`` in lower case for the other
control characters; a property test holds the two to each other). The hashes are the
same as before, byte for byte; only who assembles their input changed.

The functions' signatures change, so the old ones are dropped and new ones created:
``events_append`` (one function; ``p_recorded_at`` NULL takes the database's clock,
as the 0001 overload did) and ``events_append_batch``. Their behaviour is otherwise
0009's. Their texts: ``migrations/sql/functions/*.0010.sql``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-22
"""

from alembic import op

from migrations.functions import create_function

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_OLD_SIGNATURES = (
    "events_append_batch(text[], bigint[], int[], uuid[], text[], jsonb[], jsonb[], text[], "
    "timestamptz[])",
    "events_append(text, bigint, uuid[], text[], jsonb[], jsonb[], text[], text, timestamptz[])",
    "events_append(text, bigint, uuid[], text[], jsonb[], jsonb[], text[], text)",
)
_NEW_SIGNATURES = (
    "events_append_batch(text[], bigint[], int[], uuid[], text[], text[], jsonb[], timestamptz[])",
    "events_append(text, bigint, uuid[], text[], text[], jsonb[], text, timestamptz[])",
)


def upgrade() -> None:
    for signature in _OLD_SIGNATURES:
        op.execute(f"DROP FUNCTION {signature}")
    create_function("events_append", "0010")
    create_function("events_append_batch", "0010")


def downgrade() -> None:
    for signature in _NEW_SIGNATURES:
        op.execute(f"DROP FUNCTION {signature}")
    for name in ("events_append", "events_append_recorded_at", "events_append_batch"):
        create_function(name, "0009")
