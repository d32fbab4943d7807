"""Listing a match's legal moves: who acts, what they may play, what cards to name.

Legal moves reveal hands, so a live match's need a scorer's rights on it
(``service.access.can_see_hidden``); a finished one's are anyone's who may read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import ForbiddenError
from domain.stream import Choice, MatchState, choices, result_choices
from domain.words import ENGLISH, Words
from projections.reports import player_names
from service.access import Principal, can_see_hidden, readable_match
from store.recorder import Recorder


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """A match's legal moves at ``version``: each a ``Choice`` (move, cards, sentence).

    While cards are awaited (a physical deck's draw) nothing is listed: the scorer
    names ``cards_awaited`` cards from ``nameable``, then ``name_last`` if set.
    """

    version: int
    to_act: list[int] = field(default_factory=list)
    cards_awaited: int = 0
    nameable: list[str] = field(default_factory=list)
    name_last: str | None = None
    choices: list[Choice] = field(default_factory=list)
    service_choices: list[Choice] = field(default_factory=list)
    """Moves any seat may make besides playing (resignations, draw offers, concessions)."""

    @property
    def moves(self) -> list[str]:
        """The listed moves in notation, in ``choices``' order."""
        return [c.move for c in self.choices]


def list_legal_moves(
    state: MatchState, version: int, names: Sequence[str], words: Words = ENGLISH
) -> LegalMoves:
    """Return the legal moves of ``state`` (seats named by ``names`` in the sentences,
    written in ``words``' language)."""
    listed: list[Choice] = []
    service: list[Choice] = []
    if state.config is not None and not state.is_over:
        if state.config.recording == "results":
            # A score sheet takes results only: no moves, no concessions (§27, R48).
            listed = result_choices(state, names, words)
        else:
            service = choices(state, state.rules.service_moves(state.position), names, words)
    if state.position is None or state.is_over:
        return LegalMoves(version, choices=listed, service_choices=service)
    rules = state.rules
    to_act = list(rules.to_act(state.position))
    ask = rules.cards_to_name(state.position)
    if ask is None:
        listed = choices(state, rules.legal_moves(state.position), names, words)
        return LegalMoves(version, to_act, choices=listed, service_choices=service)
    # Namings are never listed (63,960 orderings after a Cuttle five, 20!/4! in a
    # Kozel deal): a pad names them from ``nameable`` (#29).
    return LegalMoves(
        version,
        to_act,
        cards_awaited=ask.count,
        nameable=[c.text() for c in ask.candidates],
        name_last=None if ask.last is None else ask.last.text(),
        choices=listed,
        service_choices=service,
    )


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
