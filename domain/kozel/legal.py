"""The legal moves of a Kozel position as a lazy view, the concessions, and ``is_legal``."""

from __future__ import annotations

from domain.errors import DomainError
from domain.kozel.checks import check
from domain.kozel.facts import cards_to_name, is_terminal, read
from domain.kozel.generation import generate_legal_moves
from domain.kozel.moves import CONCEDE, Move, make_move
from domain.kozel.position import Position
from domain.legal import LegalMoveView


class LegalMoves(LegalMoveView[Position, Move]):
    """A lazy view of the legal player actions of a position (``domain.legal``).

    Iterating generates the moves from the rules; ``in`` runs the §13 checks on one
    move; ``bool`` and ``len`` agree with the iteration. While cards await naming
    ``len`` counts the namings and iteration walks them lazily, never keeping them.
    Concessions are ``service_moves``.
    """

    __slots__ = ()

    def __init__(self, position: Position) -> None:
        # The base named, not ``super()``: a view per playout step, and the super
        # object cost 0.8% of a Kozel playout's instructions (see ``build_move``).
        LegalMoveView.__init__(self, position, generate_legal_moves, _is_listed, _naming_count)


def _naming_count(position: Position) -> int | None:
    """Count the namings (up to 20!/4! of them) instead of keeping them."""
    if not position.draw:
        return None
    ask = cards_to_name(position)
    return None if ask is None else ask.orderings()


def _is_listed(position: Position, move: object) -> bool:
    return isinstance(move, Move) and move.kind != CONCEDE and is_legal(position, move)


def legal_moves(position: Position) -> LegalMoves:
    """Return the lazy view of the legal player actions (no concessions)."""
    return LegalMoves(position)


def service_moves(position: Position) -> tuple[Move, ...]:
    """Return the concessions (R47): any seat, for its team, while the deal is live.

    A concession ends the match, not the deal: the match layer records it
    (``domain.stream``), between deals too; ``apply`` refuses it.
    """
    if is_terminal(position):
        return ()
    return _CONCESSIONS


_CONCESSIONS = tuple(make_move(CONCEDE, seat) for seat in range(4))


def is_legal(position: Position, move: Move) -> bool:
    """Whether ``move`` is one that ``legal_moves`` or ``service_moves`` lists.

    A move is taken as listed: the due leader's ``S0 molodka`` before the lead is
    not, though ``apply`` reads it (``read``) as the listed four-card lead (R36).
    """
    if move.kind == CONCEDE:
        return move in service_moves(position)
    if read(position, move) is not move:
        return False
    try:
        check(position, move)
    except DomainError:
        return False
    return True
