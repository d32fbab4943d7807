"""Ids as people type and read them: every id that starts with a prefix, and ids' labels.

A prefix is looked up as the range of UUIDs it spans, so the primary key's index
answers it, whatever the table's size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal
from uuid import UUID

import psycopg

Kind = Literal["match", "player", "competition", "token"]

_TABLES: dict[Kind, tuple[str, str]] = {
    "match": ("matches", "game || ' ' || variant || ', ' || to_char(created_at, 'YYYY-MM-DD')"),
    "player": ("players", "display_name"),
    "competition": ("competitions", "name"),
    "token": ("api_tokens", "name"),
}
"""Each kind's table, and the SQL of the label that tells its rows apart."""


def prefix_range(hex_digits: str) -> tuple[UUID, UUID]:
    """Return the lowest and highest UUIDs that start with ``hex_digits`` (up to 32).

    >>> [str(u) for u in prefix_range('5a1c')]
    ['5a1c0000-0000-0000-0000-000000000000', '5a1cffff-ffff-ffff-ffff-ffffffffffff']
    """
    return UUID(hex_digits.ljust(32, "0")), UUID(hex_digits.ljust(32, "f"))


async def ids_with_prefix(
    conn: psycopg.AsyncConnection[Any], kind: Kind, hex_digits: str, *, limit: int
) -> list[tuple[UUID, str]]:
    """Return up to ``limit`` (id, label) of ``kind`` whose id starts with ``hex_digits``."""
    table, label = _TABLES[kind]
    low, high = prefix_range(hex_digits)
    cur = await conn.execute(
        f"SELECT id, {label} FROM {table} WHERE id BETWEEN %s AND %s ORDER BY id LIMIT %s",
        (low, high, limit),
    )
    return [(row[0], str(row[1])) for row in await cur.fetchall()]


async def labels(
    conn: psycopg.AsyncConnection[Any], kind: Kind, ids: Sequence[UUID]
) -> dict[UUID, str]:
    """Return the labels (names) of those of ``ids`` that exist."""
    table, label = _TABLES[kind]
    cur = await conn.execute(f"SELECT id, {label} FROM {table} WHERE id = ANY(%s)", (list(ids),))
    return {row[0]: str(row[1]) for row in await cur.fetchall()}


__all__ = ["Kind", "ids_with_prefix", "labels", "prefix_range"]
