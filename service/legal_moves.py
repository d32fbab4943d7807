"""Listing a match's legal moves: who acts, what they may play, what cards to name.

Legal moves reveal hands, so a live match's need a scorer's rights on it
(``service.access.can_see_hidden``); a finished one's are anyone's who may read it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import ForbiddenError
from domain.stream.choices import LegalMoves, list_legal_moves
from domain.words import ENGLISH, Words
from projections.reports import player_names
from service.access import Principal, can_see_hidden, readable_match
from store.recorder import Recorder


async def legal_moves(
    pool: AsyncConnectionPool[Any],
    recorder: Recorder,
    principal: Principal | None,
    match_id: UUID,
    words: Words = ENGLISH,
) -> LegalMoves:
    """Return a match's legal moves now, if the caller may see them (sentences in ``words``).

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
        UnauthenticatedError, ForbiddenError: its competition's reads are private.
        ForbiddenError (FORBIDDEN): the match is live and the caller may not record it.
    """
    row = await readable_match(pool, principal, match_id)
    if row["status"] == "live" and not can_see_hidden(principal, row["competition_id"]):
        raise ForbiddenError(
            "legal moves reveal hands: a scorer's token for this match is needed",
            details={"match_id": str(match_id)},
        )
    async with pool.connection() as conn:
        state, version = await recorder.load(conn, row["stream"])
        names = await player_names(conn, [str(p) for p in row["players"]])
    return list_legal_moves(state, version, names, words)


__all__ = ["LegalMoves", "legal_moves", "list_legal_moves"]
