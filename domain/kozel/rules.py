"""The Kozel rules engine: legal moves, refusals, and the deal as a decider.

``legal_moves`` lists the deal's actions, ``service_moves`` the concessions (R47),
which end the match and so are the match layer's to record; ``read`` gives a move
the form they list it in (the due leader's molodka is its lead, R36).

``decide(position, command) -> events`` checks an action against §13 in its
documented order (R31, R41) and returns the events it causes, derived ones
included (the trick taken, the draws from a known stock, the deal played out);
``evolve(position, event) -> position`` folds one stored event and never raises.
``apply`` is ``decide`` then ``evolve`` without building events; ``play`` applies a
move known to be legal without checking it (python-chess's ``push``).

Checks 1 (``MATCH_OVER``) and 2 (``DEAL_NOT_STARTED``) belong to the match layer
and run before the engine is asked.

The parts live beside it and are re-exported here as the engine's one face: ``facts``
(who acts, the deal's end, what waits), ``generation`` and ``legal`` (``legal_moves``,
``service_moves``, ``is_legal``), ``checks`` (the §13 order), ``apply`` (the
transitions and ``play``) and ``views`` (``view``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.cards import Card
from domain.errors import IllegalMoveError
from domain.events import Event
from domain.kozel.apply import (
    _do_declare,
    _do_draws,
    _do_play,
    _do_settle,
    _draw_seats,
    _drawn_hands,
    _known_draws,
    _settled,
    play,
)
from domain.kozel.checks import _checked, _checked_rules, _refuse, check
from domain.kozel.facts import (
    can_declare,
    cards_awaited,
    cards_to_name,
    is_terminal,
    outcome,
    read,
    to_act,
    unplaced_cards,
)
from domain.kozel.generation import generate_legal_moves
from domain.kozel.legal import LegalMoves, is_legal, legal_moves, service_moves
from domain.kozel.moves import BEAT, CARDS, CONCEDE, LEAD, MOLODKA, THROW, Move
from domain.kozel.outcome import team_of
from domain.kozel.pack import card_points, interned, is_interned, parse_kozel_cards, sort_cards
from domain.kozel.state import DealSetup, Position, new_position
from domain.kozel.views import view

# --- setting up a deal --------------------------------------------------------------


def initial_position(setup: DealSetup) -> Position:
    """Deal the cards of ``setup`` (R4, R5) and return the position before the first lead.

    >>> from domain.cards import format_cards
    >>> from domain.kozel.pack import PACK
    >>> from domain.kozel.outcome import KozelOptions
    >>> p = initial_position(DealSetup(KozelOptions(), 3, 0, deck=PACK, indicator_position=2))
    >>> format_cards(p.hands[0]), p.indicator.text(), p.stock_size
    ('6C JC AC 9D', '6H', 20)
    """
    if setup.position is not None:
        return setup.start()[1]
    dealer = setup.dealer
    if setup.deck is not None:
        deck = tuple(setup.deck) if is_interned(setup.deck) else interned(setup.deck)
        dealt: list[list[Card]] = [[], [], [], []]
        for i in range(16):
            dealt[(dealer + 1 + i) % 4].append(deck[i])
        stock = deck[16:]
        ip = setup.indicator_position
        assert ip is not None
        indicator = stock[ip]
        if setup.options.trump_indicator_bottom:
            stock = (*stock[:ip], *stock[ip + 1 :], indicator)
        hands = tuple(sort_cards(h) for h in dealt)
        unknown = 0
    else:
        assert setup.hands is not None and setup.indicator is not None
        hands = tuple(sort_cards(interned(h)) for h in setup.hands)
        indicator = interned((setup.indicator,))[0]
        stock = ()
        unknown = 20
    return Position(
        options=setup.options,
        dealer=dealer,
        leader=setup.leader,
        indicator=indicator,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock=stock,
        unknown_stock=unknown,
        trick=(),
        piles=((), ()),
        face_down=((), ()),
        tricks=(0, 0),
    )


def deal_started(setup: DealSetup) -> Event:
    """Return the event that starts a deal; ``evolve`` folds it into ``initial_position``."""
    return Event("DealStarted", {"setup": setup.to_data()})


def apply(position: Position, command: Move | str) -> Position:
    """Check an action (§13) and return the position after it and all that follows.

    Raises:
        MalformedError, IllegalMoveError: as ``decide``.
    """
    return play(position, _command(position, command))


# --- the decider --------------------------------------------------------------------


def _not_a_deal_move(move: Move) -> IllegalMoveError:
    return _refuse(
        "WRONG_PHASE",
        f"{move.text()!r} ends the match, not the deal: the match records it (R47)",
    )


def _command(position: Position, command: Move | str) -> Move:
    if isinstance(command, str):
        if position.draw:
            tokens = command.split()
            if not tokens or tokens[0].lower() != CARDS:  # 2a comes before parsing (3)
                raise _refuse(
                    "CARDS_PENDING",
                    f"the scorer must first name the {position.draw} cards drawn from the stock",
                    awaited=position.draw,
                )
        # A parsed text passed 2a just now (only ``cards`` gets here while cards are
        # awaited) and 3 by construction: a seat S0-S3, a known action, the shared
        # Kozel cards, none after ``molodka``.
        move = Move.from_text(command)
        if move.kind == MOLODKA:
            move = read(position, move)
        elif move.kind == CONCEDE:
            raise _not_a_deal_move(move)
        return _checked_rules(position, move)
    if command.kind == CONCEDE:
        raise _not_a_deal_move(command)
    return _checked(position, command)


_PLAYED = {LEAD: "CardsLed", BEAT: "CardsBeaten", THROW: "CardsThrown"}
"""The event type of each kind of play."""


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.rank + c.suit for c in cards]


def decide(position: Position, command: Move | str) -> list[Event]:
    """Check an action and return the events it causes, derived ones included.

    Events: ``CardsLed``, ``CardsBeaten``, ``CardsThrown``, ``MolodkaDeclared``, then,
    after the fourth play, ``TrickTaken``, ``CardsDrawn`` (known stock) and, when the
    deal is played out, ``DealPlayed`` with the ``DealOutcome`` data. The scorer's
    ``cards`` gives ``CardsDrawn``.

    Raises:
        IllegalMoveError (CARDS_PENDING): a player action while drawn cards await naming.
        MalformedError (MALFORMED): the text or move cannot be read.
        IllegalMoveError: the §13 code of the first failing check.
    """
    return step(position, command)[0]


def step(position: Position, command: Move | str) -> tuple[list[Event], Position]:
    """Return ``decide``'s events and the position they lead to (their fold), in one pass.

    Raises:
        IllegalMoveError, MalformedError: as ``decide``.
    """
    move = _command(position, command)
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        draws = list(zip(_draw_seats(position.leader, position.draw), move.cards, strict=True))
        return [_drawn_event(draws)], _do_draws(position, draws)
    assert seat is not None
    if kind == MOLODKA and (position.trick or seat != position.leader):
        returned = [[play.seat, _codes(play.cards)] for play in position.trick]
        data = {"seat": seat, "cards": _codes(position.hands[seat]), "returned": returned}
        return [Event("MolodkaDeclared", data)], _do_declare(position, seat)
    if kind == MOLODKA:
        kind = LEAD
        cards = position.hands[seat]
    else:
        cards = move.cards
    p = _do_play(position, seat, kind, cards)
    trick = p.trick
    # ``_do_play`` took the cards out of the sorted hand: they are in canonical order.
    data = {"seat": seat, "cards": _codes(trick[-1].cards)}
    events = [Event(_PLAYED[kind], data)]
    if len(trick) < 4:
        return events, p
    # Settling and the draws from a known stock build one position, not two.
    winner, piles, face_down, tricks, draw = _settled(p)
    all_cards = [c for play in trick for c in play.cards]
    events.append(
        Event(
            "TrickTaken",
            {
                "winner": winner,
                "team": team_of(winner),
                "cards": _codes(all_cards),
                "points": card_points(all_cards),
            },
        )
    )
    hands, stock = p.hands, p.stock
    if stock:  # a known stock: the unknown one waits for the scorer's ``cards``
        draws = _known_draws(winner, hands, stock)
        events.append(_drawn_event(draws))
        hands, stock = _drawn_hands(hands, draws), stock[len(draws) :]
    p = new_position(
        p.options,
        p.dealer,
        winner,
        p.indicator,
        hands,
        stock,
        p.unknown_stock,
        (),
        piles,
        face_down,
        tricks,
        draw,
    )
    result = outcome(p)
    if result is not None:
        events.append(
            Event(
                "DealPlayed",
                {
                    "card_points": list(result.card_points),
                    "tricks": list(result.tricks),
                    "last_trick_seat": result.last_trick_seat,
                },
            )
        )
    return events, p


def _drawn_event(draws: Sequence[tuple[int, Card]]) -> Event:
    return Event("CardsDrawn", {"draws": [[seat, card.text()] for seat, card in draws]})


def _cards_of(data: Mapping[str, Any], key: str = "cards") -> tuple[Card, ...]:
    return parse_kozel_cards(data[key])


def evolve(position: Position | None, event: Event) -> Position:
    """Fold one stored event into the position; events of other types change nothing.

    ``DealStarted`` (with the setup's data under ``setup``) starts a new position
    whatever ``position`` is. Events are trusted: checking is ``decide``'s job.
    """
    kind, data = event.type, event.data
    if kind == "DealStarted":
        return initial_position(DealSetup.from_data(data["setup"]))
    assert position is not None
    if kind == "CardsLed":
        return _do_play(position, data["seat"], LEAD, _cards_of(data))
    if kind == "CardsBeaten":
        return _do_play(position, data["seat"], BEAT, _cards_of(data))
    if kind == "CardsThrown":
        return _do_play(position, data["seat"], THROW, _cards_of(data))
    if kind == "MolodkaDeclared":
        return _do_declare(position, data["seat"])
    if kind == "TrickTaken":
        return _do_settle(position)
    if kind == "CardsDrawn":
        draws = [(seat, Card.from_text(code)) for seat, code in data["draws"]]
        return _do_draws(position, draws)
    return position


__all__ = [
    "LegalMoves",
    "apply",
    "can_declare",
    "cards_awaited",
    "cards_to_name",
    "check",
    "deal_started",
    "decide",
    "evolve",
    "generate_legal_moves",
    "initial_position",
    "is_legal",
    "is_terminal",
    "legal_moves",
    "outcome",
    "play",
    "read",
    "service_moves",
    "step",
    "to_act",
    "unplaced_cards",
    "view",
]
