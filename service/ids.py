"""Reading the ids people type: a whole id, or any unique prefix of one (as git takes commits).

A match may also be named by its stream (``cuttle-<id>``), as exports and logs name it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg

from domain.errors import ConflictError, MalformedError, NotFoundError
from domain.games import GAMES
from store.ids import Kind, ids_with_prefix, labels

SHOWN = 10
"""The most candidates an ambiguous prefix lists."""

_HEX = frozenset("0123456789abcdef")


def hex_prefix(text: str, kind: Kind) -> str:
    """Return the hex digits of a typed id or prefix (dashes dropped, lower case).

    >>> hex_prefix('5A1C-0', 'match')
    '5a1c0'
    >>> hex_prefix('kozel-5a1c', 'match')
    '5a1c'

    Raises:
        MalformedError (MALFORMED): not the start of an id.
    """
    typed = text.strip().lower()
    if kind == "match":
        game, dash, rest = typed.partition("-")
        if dash and game in GAMES:
            typed = rest
    digits = typed.replace("-", "")
    if not digits or len(digits) > 32 or not set(digits) <= _HEX:
        raise MalformedError(f"{text!r} is not a {kind} id or the start of one")
    return digits


async def resolve_id(conn: psycopg.AsyncConnection[Any], kind: Kind, text: str) -> UUID:
    """Return the one ``kind`` id that ``text`` is, or starts.

    Raises:
        MalformedError (MALFORMED): ``text`` is not hex digits (and dashes).
        NotFoundError (<KIND>_NOT_FOUND): no id starts with it.
        ConflictError (AMBIGUOUS_ID): several do; the message lists them.
    """
    digits = hex_prefix(text, kind)
    found = await ids_with_prefix(conn, kind, digits, limit=SHOWN + 1)
    if not found:
        said = "has id" if len(digits) == 32 else "id starts with"
        raise NotFoundError(f"no {kind} {said} {text!r}", code=f"{kind.upper()}_NOT_FOUND")
    if len(found) == 1:
        return found[0][0]
    more = " and more" if len(found) > SHOWN else ""
    listed = "".join(f"\n  {id_}  {label}" for id_, label in found[:SHOWN])
    raise ConflictError(
        f"{text!r} starts several {kind} ids{more}; type more of one:{listed}",
        code="AMBIGUOUS_ID",
        details={"candidates": [str(id_) for id_, _ in found[:SHOWN]]},
    )


async def names_of(
    conn: psycopg.AsyncConnection[Any], kind: Kind, ids: list[UUID]
) -> dict[UUID, str]:
    """Return the names (labels) of those of ``ids`` that exist, by id."""
    return await labels(conn, kind, ids)


__all__ = ["Kind", "hex_prefix", "names_of", "resolve_id"]
