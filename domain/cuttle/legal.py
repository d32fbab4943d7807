"""Cuttle's legal moves as users ask for them, on ``domain.legal``'s lazy view.

``legal_moves`` (iterated from ``generation``, ``in`` asked of ``checks``),
``is_legal`` and ``service_moves``.
"""

from __future__ import annotations

from math import perm

from domain.cuttle.checks import _check
from domain.cuttle.constants import _NAME_CARDS
from domain.cuttle.facts import _unplaced, cards_awaited
from domain.cuttle.generation import SERVICE_ACTIONS, _generate, _service, read
from domain.cuttle.moves import Move
from domain.cuttle.state import Position
from domain.errors import IllegalMoveError, MalformedError
from domain.legal import LegalMoveView


class LegalMoves(LegalMoveView[Position, Move]):
    """A lazy view of the moves of whoever must act now (``domain.legal``).

    Iteration generates the moves from the rules; ``in`` checks one move with the
    same checks ``apply`` makes. Resignations and draw offers are ``service_moves``;
    while cards await naming, ``len`` counts the permutations without listing them.
    """

    __slots__ = ()

    def __init__(self, position: Position) -> None:
        super().__init__(position, _generate, _is_listed, _naming_count)


def _naming_count(p: Position) -> int | None:
    if p.phase is _NAME_CARDS and p.result is None:
        return perm(len(_unplaced(p)), cards_awaited(p))
    return None


def _is_listed(p: Position, move: object) -> bool:
    return is_legal(p, move) and move.action not in SERVICE_ACTIONS  # type: ignore[attr-defined]


def legal_moves(position: Position) -> LegalMoves:
    """Return the legal moves of whoever must act now (no resignations or draw offers).

    In 2-player a four is listed once, as ``P0 oneoff 4S`` (see ``read``).
    """
    return LegalMoves(position)


def service_moves(position: Position) -> tuple[Move, ...]:
    """Return the legal resignations and draw offers (§25), which any moment may allow."""
    return tuple(_service(position))


def is_legal(position: Position, move: object) -> bool:
    """Whether ``move`` is one ``legal_moves`` or ``service_moves`` lists.

    A move is taken as listed: ``P0 oneoff 4S@P1`` in 2-player is not, though
    ``apply`` reads it (``read``) as the listed ``P0 oneoff 4S``.
    """
    if not isinstance(move, Move) or read(position, move) is not move:
        return False
    try:
        _check(position, move)
    except (IllegalMoveError, MalformedError):
        return False
    return True
