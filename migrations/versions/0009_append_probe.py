"""Appends to an empty stream skip the retry probe; a batch hands out its streams in one pass.

Two costs of the server's CPU per imported event, measured with a driver shaped like
``python bench/append_batch.py`` (docs/benchmarks.md, Import):

- ``events_append`` looked up every event id (``event_id = ANY (...)``, one index
  probe per event) before anything else, to recognise an idempotent retry. A retry
  re-sends events this stream already holds, so on an empty stream there is none to
  recognise. The head is now read first, and the probe runs only when the stream
  holds events or the caller expects it to (so a stale expectation still gets the
  error it got before). An id recorded on another stream then fails the insert on
  ``events_event_id_key``, which the store reports as EVENT_ID_CONFLICT, as it did
  for the probe's MLE01. A new match, which is all an import writes, pays no probe.
- ``events_append_batch`` sliced each stream out of its array arguments. PL/pgSQL
  holds array arguments expanded, and slicing an expanded array flattens all of it
  first, so a batch copied every argument once per stream. It now groups the events
  by stream with one query and calls ``events_append`` per group, in stream order, as
  before.

Both ``events_append`` overloads (0001's and 0005's) change the same way
(``migrations/sql/functions/*.0009.sql``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-22
"""

from migrations.functions import create_function

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# Each revision's texts of the two events_append overloads and of events_append_batch.
_FUNCTIONS = ("events_append", "events_append_recorded_at", "events_append_batch")


def upgrade() -> None:
    for name in _FUNCTIONS:
        create_function(name, "0009")


def downgrade() -> None:
    create_function("events_append", "0001")
    create_function("events_append_recorded_at", "0005")
    create_function("events_append_batch", "0007")
