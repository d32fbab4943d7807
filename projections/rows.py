"""Writing many read-model rows with one statement whose text never changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec
import psycopg

_ENCODE: Final = msgspec.json.Encoder().encode


class _JsonRows:
    """A statement that takes any number of rows as one JSON array (``jsonb_to_recordset``).

    Subclasses set ``sql`` and ``_names``, the record keys in row order.
    """

    sql: str
    _names: tuple[str, ...]

    async def execute(
        self, conn: psycopg.AsyncConnection[Any], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Write ``rows`` (values in column order) in ``conn``'s transaction; none: no query."""
        if rows:
            records = [dict(zip(self._names, row, strict=True)) for row in rows]
            await conn.execute(self.sql, (_ENCODE(records).decode(),))


class RowsInsert(_JsonRows):
    """An INSERT of any number of rows, sent as one JSON array (``jsonb_to_recordset``).

    A ``VALUES`` list with a placeholder per value makes new statement text for each
    row count, and psycopg parses a statement of more than 50 parameters again on
    every call: about 9x the client CPU of this (``bench/rows_insert.py``,
    docs/projections.md). Values are what msgspec writes as JSON: UUIDs and times as
    text, lists as arrays (read into array columns), dicts as objects (for jsonb).

    >>> RowsInsert('t', [('id', 'uuid'), ('n', 'int')]).sql
    'INSERT INTO t (id, n) SELECT id, n FROM jsonb_to_recordset(%s::jsonb) AS r(id uuid, n int)'
    """

    def __init__(self, table: str, columns: Sequence[tuple[str, str]], then: str = "") -> None:
        """Name the table, its ``(column, SQL type)`` in row order, and an ``ON CONFLICT`` tail."""
        self._names = tuple(name for name, _ in columns)
        names = ", ".join(self._names)
        types = ", ".join(f"{name} {kind}" for name, kind in columns)
        self.sql = (
            f"INSERT INTO {table} ({names}) SELECT {names} "
            f"FROM jsonb_to_recordset(%s::jsonb) AS r({types}){then}"
        )


class RowsUpdate(_JsonRows):
    """An UPDATE of any number of rows by key, sent as one JSON array, like ``RowsInsert``.

    ``execute`` takes each row as the key, then the values in column order.

    >>> RowsUpdate('t', ('id', 'uuid'), [('n', 'int')]).sql
    'UPDATE t SET n = r.n FROM jsonb_to_recordset(%s::jsonb) AS r(id uuid, n int) WHERE t.id = r.id'
    """

    def __init__(
        self, table: str, key: tuple[str, str], columns: Sequence[tuple[str, str]]
    ) -> None:
        """Name the table, its key ``(column, SQL type)``, and the columns set, in row order."""
        self._names = (key[0], *(name for name, _ in columns))
        sets = ", ".join(f"{name} = r.{name}" for name, _ in columns)
        types = ", ".join(f"{name} {kind}" for name, kind in (key, *columns))
        self.sql = (
            f"UPDATE {table} SET {sets} FROM jsonb_to_recordset(%s::jsonb) AS r({types}) "
            f"WHERE {table}.{key[0]} = r.{key[0]}"
        )


__all__ = ["RowsInsert", "RowsUpdate"]
