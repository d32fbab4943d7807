"""Read your own writes when reads go to a hot standby (``MATCHLOG_READ_DATABASE_URL``).

A write's answer carries ``Matchlog-Position``: the primary's WAL position once the
write has committed. A read that sends it back is served by the standby once the
standby has replayed that far (waiting up to ``MATCHLOG_READ_WAIT`` seconds), else
by the primary. Without a read database there is no header and every read goes to
the primary, as before.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request
from litestar.datastructures import MutableScopeHeaders, State
from litestar.types import Message, Scope
from psycopg_pool import AsyncConnectionPool

from service.wiring import Databases, format_position, parse_position

POSITION_HEADER = "Matchlog-Position"
"""The header a write's answer carries and a read sends back."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_log = logging.getLogger("matchlog.database")


async def provide_reads(request: Request[Any, Any, Any], state: State) -> AsyncConnectionPool:
    """Return the pool a read route reads through (``Databases.for_read``).

    A ``Matchlog-Position`` that is not a position sends the read to the primary:
    it cannot be waited for, and the primary has every write.
    """
    databases: Databases = state.databases
    header = request.headers.get(POSITION_HEADER)
    if header is None or not databases.standby:
        return await databases.for_read()
    position = parse_position(header)
    if position is None:
        databases.routed["primary"] += 1
        return databases.primary
    return await databases.for_read(position)


async def add_position(message: Message, scope: Scope) -> None:
    """Give a write's answer the primary's position, when reads go to a standby.

    Every answer to a method that may write gets it (refusals too: a 409's reader
    must see the write it lost to). Writes answered together share one statement
    (``WalPositions``); none without a standby.
    """
    if message["type"] != "http.response.start" or scope.get("method") in SAFE_METHODS:
        return
    state = getattr(scope.get("app"), "state", None)
    databases: Databases | None = getattr(state, "databases", None)
    if databases is None or not databases.standby or message["status"] >= 500:
        return
    try:
        position = await databases.positions.after_commit()
    except Exception as e:  # a lost primary: the answer goes out without the header
        _log.debug("no position for the answer: %s", e)
        return
    MutableScopeHeaders.from_message(message)[POSITION_HEADER] = format_position(position)


__all__ = ["POSITION_HEADER", "add_position", "provide_reads"]
