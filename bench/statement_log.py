"""Counting what a server sends PostgreSQL, from its statement log (no pg_stat_statements).

``statement_log`` turns ``log_statement = 'all'`` on for a window (ALTER SYSTEM and a
reload, as the server's superuser) and off again after it, and hands back the log's
lines written meanwhile; ``count_statements`` reads them: statements, and
transactions (an explicit BEGIN ... COMMIT, or one statement outside of one), per
backend pid from the default ``log_line_prefix`` ("%m [%p] "), and the size of every
group-commit batch: the streams its ``events_append_batch`` call names (its first
parameter, one stream per event, from the statement's logged parameters).
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

KIND_WIDTH = 60
_LINE = re.compile(r"\[(\d+)\][^:]*LOG:\s+(?:statement|execute [^:]*):\s*(.*)")
_PARAMETERS = re.compile(r"\[(\d+)\][^:]*DETAIL:\s+[Pp]arameters: \$1 = '\{([^}]*)\}'")
_BATCH_APPEND = "events_append_batch("


@dataclass
class LogWindow:
    """The log lines written while a ``statement_log`` window was open."""

    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class StatementCounts:
    """Statements and transactions seen in a window of the statement log."""

    statements: int
    transactions: int
    explicit: int
    kinds: Counter[str]
    """Statements by their first words (``KIND_WIDTH`` characters, spaces squeezed)."""
    batch_sizes: Counter[int]
    """``events_append_batch`` calls by the number of streams they append to."""


def log_file(owner_url: str, pgdata: Path | None) -> Path | None:
    """Return the server's current log file: the collector's, else the embedded server's."""
    with psycopg.connect(owner_url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_logfile()").fetchone()
        directory = conn.execute("SHOW data_directory").fetchone()
    if row and row[0]:
        path = Path(row[0])
        return path if path.is_absolute() else Path(str(directory[0] if directory else "")) / path
    if pgdata is not None and (pgdata / "log").exists():
        return pgdata / "log"
    return None


@contextmanager
def statement_log(owner_url: str, path: Path) -> Iterator[LogWindow]:
    """Log every statement while the block runs; the window then holds the lines."""
    window = LogWindow()
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET log_statement = 'all'")
        conn.execute("SELECT pg_reload_conf()")
        # Backends take the new setting at their next command: give the reload a moment.
        time.sleep(0.5)
        start = path.stat().st_size
        try:
            yield window
        finally:
            conn.execute("ALTER SYSTEM RESET log_statement")
            conn.execute("SELECT pg_reload_conf()")
            time.sleep(0.5)
            with path.open("rb") as log:
                log.seek(start)
                window.lines = log.read().decode(errors="replace").splitlines()


def count_statements(lines: list[str]) -> StatementCounts:
    """Count the statements and transactions of a window's log lines."""
    statements = transactions = explicit = 0
    kinds: Counter[str] = Counter()
    batch_sizes: Counter[int] = Counter()
    open_by_pid: set[str] = set()
    appending: set[str] = set()  # backends whose parameters line names a batch's streams
    for line in lines:
        found = _LINE.search(line)
        if found is None:
            parameters = _PARAMETERS.search(line)
            if parameters is not None and parameters.group(1) in appending:
                appending.discard(parameters.group(1))
                batch_sizes[len(set(parameters.group(2).split(",")))] += 1
            continue
        pid, text = found.groups()
        if _BATCH_APPEND in text:
            appending.add(pid)
        word = text.split(None, 1)[0].upper().rstrip(";") if text.strip() else ""
        statements += 1
        kinds[" ".join(text.split())[:KIND_WIDTH]] += 1
        if word in ("BEGIN", "START"):
            open_by_pid.add(pid)
        elif word in ("COMMIT", "ROLLBACK", "END"):
            if pid in open_by_pid:
                open_by_pid.discard(pid)
                transactions += 1
                explicit += 1
        elif pid not in open_by_pid:
            transactions += 1
    return StatementCounts(statements, transactions, explicit, kinds, batch_sizes)


def batch_line(sizes: Counter[int]) -> str:
    """Return how group commit batched the logged window's writes.

    >>> batch_line(Counter({1: 2, 3: 1, 9: 1}))
    'group commit: 4 batches of 1-9 writes, median 2.0, mean 3.50; by size 1: 2, 2-3: 1, 8-15: 1'
    """
    batches = sorted(sizes.elements())
    by_size: Counter[str] = Counter()
    for size, n in sizes.items():
        low = 1 << (size.bit_length() - 1)
        by_size[str(low) if low == 1 else f"{low}-{2 * low - 1}"] += n
    spread = ", ".join(
        f"{name}: {by_size[name]}" for name in sorted(by_size, key=lambda k: int(k.split("-")[0]))
    )
    return (
        f"group commit: {len(batches)} batches of {batches[0]}-{batches[-1]} writes, median "
        f"{statistics.median(batches):.1f}, mean {statistics.mean(batches):.2f}; by size {spread}"
    )
