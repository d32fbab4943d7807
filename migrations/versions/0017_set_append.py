"""``events_append_batch`` appends a batch's streams in a few statements, not per stream.

Before, it called ``events_append`` once a stream, several statements each (its
lock, its head, a probe for retried ids, its position, its INSERT); under load the
call was 60% of PostgreSQL's CPU for a group-commit batch of the recording API
(``log_statement_stats``: 1.1 ms a call of about 7 streams). Now it takes the
streams' locks, reads their heads, checks and hashes all of them, and inserts every
event with one statement each. A batch that names a stream twice or carries an
event id already recorded goes the old way, through ``events_append`` a stream, so
retries and conflicts are decided as before; tests/store/test_append_batch.py
checks rows, results and errors against ``events_append`` called one by one.

Measured side by side on one database (the code before calling this function's
0011 text under another name), ``python bench/api_load.py --seconds 10 --rounds 5
--compare DIR``, paired rounds, medians: moves/s 1.14x, PostgreSQL CPU a move 0.73x.
Imports send far bigger batches; ``python bench/import.py --compare DIR --runs 3
--matches 1000``: 0.96x events/s with 2 workers, 1.01x with ``--jobs 1``, server CPU
an event within the rounds' noise. The events are read by ``unnest`` in order, never
by subscript: a subscript walks a flat ``text[]`` from its start, and indexing the
batch's arrays made the import's server CPU an event about 20% higher.

Revision ID: 0017_set_append
Revises: 0016_write_statements
Create Date: 2026-11-26
"""

from migrations.functions import create_function

revision = "0017_set_append"
down_revision = "0016_write_statements"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_function("events_append_batch", "0017_set_append")


def downgrade() -> None:
    create_function("events_append_batch", "0011_chain_v2")
