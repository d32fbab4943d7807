"""The Cuttle rules engine's public decider: one for classic, standard and cutthroat.

``apply`` checks a move (raising ``IllegalMoveError`` with the §17 code, first in
precedence order) and returns the next position; ``decide``/``evolve`` are the
event-sourced form of the same step, ``step`` both at once, ``push`` the step of a
move known to be legal. The parts live beside it and are re-exported here as the
engine's one face: ``checks`` (the §17 order), ``apply`` and ``fast_path`` (the
effects of a move), ``generation`` and ``legal`` (``legal_moves``, ``service_moves``,
``read``), ``facts`` (controllers, totals, goals, who acts) and ``views`` (``view``).

>>> from domain.cards import deck
>>> setup = RoundSetup(Variant.STANDARD, dealer=0, deck=deck())
>>> p = initial_position(setup)
>>> to_act(p)
(1,)
>>> p2 = apply(p, 'P1 points AC')
>>> to_act(p2), outcome(p2)
((0,), None)
"""

from __future__ import annotations

from domain.cuttle.apply import _event, _play
from domain.cuttle.checks import _check, _check_rules, _names_joker
from domain.cuttle.constants import _CUTTHROAT, _MAIN, _NAME_CARDS, GOALS, HAND_LIMITS
from domain.cuttle.facts import (
    cards_awaited,
    cards_to_name,
    controller,
    goal,
    is_terminal,
    outcome,
    to_act,
    totals,
)
from domain.cuttle.fast_path import _quick
from domain.cuttle.generation import SERVICE_ACTIONS, generate_moves, read
from domain.cuttle.legal import LegalMoves, is_legal, legal_moves, service_moves
from domain.cuttle.moves import Move
from domain.cuttle.outcome import Outcome, Termination, Variant
from domain.cuttle.state import Position, RoundSetup, deal
from domain.cuttle.views import view, visible_hands
from domain.errors import IllegalMoveError
from domain.events import Event

__all__ = [
    "GOALS",
    "HAND_LIMITS",
    "RULES_VERSION",
    "SERVICE_ACTIONS",
    "LegalMoves",
    "Variant",
    "apply",
    "cards_awaited",
    "cards_to_name",
    "controller",
    "decide",
    "evolve",
    "generate_moves",
    "goal",
    "initial_position",
    "is_legal",
    "is_terminal",
    "legal_moves",
    "outcome",
    "outcome_of",
    "push",
    "read",
    "service_moves",
    "step",
    "to_act",
    "totals",
    "view",
    "visible_hands",
]

RULES_VERSION = 1
"""Version of the rules this engine decides (docs/rules/cuttle.md with rulings 1-40).

The recorder stores it with a round's set-up, so that a later change of rules can
replay old rounds under their own version.
"""


def initial_position(setup: RoundSetup) -> Position:
    """Deal a round (§4): hands by ruling 2, the player after the dealer to act.

    A set-up given as a position (ruling 25) starts from that position as it is.
    """
    if setup.position is not None:
        return Position.from_text(setup.position)
    hands, rest = deal(setup)
    players = setup.variant.players
    return Position(
        variant=setup.variant,
        dealer=setup.dealer,
        turn=(setup.dealer + 1) % players,
        phase=_MAIN,
        deck=rest,
        hands=hands,
    )


def push(position: Position, move: Move) -> Position:
    """Apply a move known to be legal (from ``legal_moves``) without checking it again.

    Like python-chess's ``push``: an illegal move gives an undefined position.
    """
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after


def _to_move(position: Position, command: Move | str) -> Move:
    if isinstance(command, Move):
        return read(position, command)
    if position.phase is _NAME_CARDS and position.result is None:
        words = command.split()
        is_cards = bool(words) and words[0].lower() == "cards"
        is_resign = len(words) == 2 and words[1].lower() == "resign"
        if not is_cards and not is_resign:
            raise IllegalMoveError(
                "the scorer must first name the cards that left the deck",
                code="WRONG_PHASE",
                details={"move": command},
            )
    return read(position, Move.from_text(command))


def apply(position: Position, command: Move | str) -> Position:
    """Check a move and return the position after it.

    Raises:
        MalformedError (MALFORMED): the move cannot be read or names what the
            variant lacks (a third seat, a joker outside cutthroat).
        IllegalMoveError: the first §17 code that applies, in precedence order
            (ROUND_OVER, NOT_YOUR_TURN, WRONG_PHASE, CARD_NOT_AVAILABLE, ...).
    """
    move = _to_move(position, command)
    _check(position, move)
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after


def decide(position: Position, command: Move | str) -> list[Event]:
    """Check a move and return its events: the move, then derived facts.

    ``MovePlayed`` carries the move text; ``OneOffResolved``/``OneOffFizzled``,
    ``CardsRevealed`` and ``RoundEnded`` (termination, winner, resigned) are derived
    by the engine. Folding them with ``evolve`` gives ``apply``'s position.

    Raises:
        MalformedError (MALFORMED), IllegalMoveError: as ``apply``.
    """
    return step(position, command)[0]


def step(position: Position, command: Move | str) -> tuple[list[Event], Position]:
    """Check a move and return its events and the position after it, the move played once.

    The same as ``decide`` followed by ``evolve`` of each event, for a caller that
    wants both.

    Raises:
        MalformedError (MALFORMED), IllegalMoveError: as ``apply``.
    """
    known = None
    if command.__class__ is str and position.phase is not _NAME_CARDS:
        known = _known.get(command)
        if known is None:
            known = _know(command)
    if known is None:
        move = _to_move(position, command)
        _check(position, move)
        text = move.text()
    else:
        move, text, top_seat, joker = known
        if top_seat >= len(position.hands) or (joker and position.variant is not _CUTTHROAT):
            _check(position, move)  # raises MALFORMED as it does for any move
        if move.player is not None:
            canonical = read(position, move)
            if canonical is not move:
                move, text = canonical, canonical.text()
        _check_rules(position, move)
    after = _quick(position, move)
    if after is not None:
        return [_event("MovePlayed", {"move": text})], after
    work = _play(position, move)
    return [_event("MovePlayed", {"move": text}), *work.facts], work.freeze()


_known: dict[str, tuple[Move, str, int, bool]] = {}
"""What ``step`` needs of a move text outside ``NAME_CARDS``, by the text as given.

The move, its canonical text, the highest seat it names (-1 for none) and whether
it names a joker: ``_check``'s checks of the names need only these two, and a
parse (``Move.from_text``) cannot change them. Bounded like ``Move.from_text``'s
parses (100,000 texts, then texts are only parsed).
"""


def _know(command: str) -> tuple[Move, str, int, bool]:
    """Parse a move text for ``step`` and keep what it needs (see ``_known``).

    Raises:
        MalformedError (MALFORMED): as ``Move.from_text``.
    """
    move = Move.from_text(command)
    seats = [-1 if move.seat is None else move.seat, -1 if move.player is None else move.player]
    known = (move, move.text(), max(seats), move.action == "joker" or _names_joker(move))
    if len(_known) < 100_000:
        _known[command] = known
    return known


def outcome_of(event: Event) -> Outcome | None:
    """Return the round's outcome carried by a ``RoundEnded`` event, else ``None``.

    >>> outcome_of(Event("RoundEnded", {"termination": "goal", "winner": 1, "resigned": None}))
    Outcome(termination=<Termination.GOAL: 'goal'>, winner=1, resigned=None)
    """
    if event.type != "RoundEnded":
        return None
    data = event.data
    return Outcome(Termination(data["termination"]), data["winner"], data.get("resigned"))


def evolve(position: Position, event: Event) -> Position:
    """Fold one event into the position; derived facts change nothing, unknown types are ignored."""
    if event.type != "MovePlayed":
        return position
    move = Move.from_text(str(event.data["move"]))
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after
