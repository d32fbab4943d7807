"""The bench's statement-log reader: statements, transactions and group-commit batches.

The lines are PostgreSQL's own (default ``log_line_prefix``, ``log_statement = 'all'``),
as bench/api_load.py reads them.
"""

from __future__ import annotations

from collections import Counter

from bench.statement_log import batch_line, count_statements

_APPEND = (
    "execute _pg3_2: SELECT global_position, version, recorded_at, hash, metadata FROM "
    "events_append_batch($1::text[], $2::bigint[], $3::int[], $4::uuid[], $5::text[], "
    "$6::text[], $7::text[], $8::timestamptz[])"
)


def _line(pid: int, text: str) -> str:
    return f"2026-11-26 20:35:27.221 UTC [{pid}] {text}"


def _batch(pid: int, streams: list[str]) -> list[str]:
    """A group-commit transaction appending one event to each stream but the first two."""
    events = [streams[0], *streams]  # the first stream appends two events
    return [
        _line(pid, "LOG:  statement: BEGIN"),
        _line(pid, "LOG:  execute _pg3_1: SELECT lock_usable_tokens($1::uuid[])"),
        _line(pid, "LOG:  " + _APPEND),
        _line(pid, f"DETAIL:  Parameters: $1 = '{{{','.join(events)}}}', $2 = '{{1}}'"),
        _line(pid, 'LOG:  execute _pg3_0: NOTIFY "matchlog_events"'),
        _line(pid, "LOG:  statement: COMMIT"),
    ]


def test_batches_are_counted_by_their_streams_and_backends_kept_apart() -> None:
    first = _batch(11, ["kozel-a", "cuttle-b", "kozel-c"])
    second = _batch(12, ["kozel-d"])
    # Two backends' lines interleave in the log.
    lines = [line for pair in zip(first, second, strict=True) for line in pair]
    lines.append(_line(13, "LOG:  execute _pg3_0: SELECT m.* FROM matches m WHERE m.id = $1"))
    counts = count_statements(lines)
    assert Counter({3: 1, 1: 1}) == counts.batch_sizes
    assert 11 == counts.statements
    assert (3, 2) == (counts.transactions, counts.explicit)


def test_a_parameters_line_of_another_statement_is_not_a_batch() -> None:
    lines = [
        _line(11, "LOG:  execute _pg3_1: SELECT lock_usable_tokens($1::uuid[])"),
        _line(11, "DETAIL:  Parameters: $1 = '{0e342c60-956e-47ef-beb5-2622ac11434d}'"),
    ]
    assert Counter() == count_statements(lines).batch_sizes


def test_the_batch_line_says_sizes_and_their_spread() -> None:
    assert (
        "group commit: 4 batches of 1-9 writes, median 2.0, mean 3.50; "
        "by size 1: 2, 2-3: 1, 8-15: 1"
    ) == batch_line(Counter({1: 2, 3: 1, 9: 1}))
