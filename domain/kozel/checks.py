"""Kozel's refusals: an action checked against §13 in its documented order (R31, R41)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.cards import Card, format_cards
from domain.errors import IllegalMoveError, MalformedError
from domain.kozel.facts import _declare_limit, _distance, _is_molodka, _placed, _top, read
from domain.kozel.moves import (
    BEAT,
    CARDS,
    LEAD,
    MOLODKA,
    PLAYER_ACTIONS,
    Move,
    canonical_cards,
    make_move,
)
from domain.kozel.pack import PACK_SET, SUIT_NAMES, interned, is_interned, set_beats
from domain.kozel.position import Play, Position


def _refuse(code: str, message: str, **details: Any) -> IllegalMoveError:
    return IllegalMoveError(message, code=code, details=details)


def _seat_name(seat: int) -> str:
    return f"S{seat}"


def check(position: Position, move: Move) -> None:
    """Check an action against §13 in its documented order (R31, R41).

    Raises:
        IllegalMoveError (CARDS_PENDING): a player action while drawn cards await naming.
        MalformedError (MALFORMED): unknown action, seat or card.
        IllegalMoveError (NOT_YOUR_TURN, DUPLICATE_CARD, BAD_LEAD_SIZE, WRONG_COUNT,
            CARD_NOT_IN_HAND, CARD_NOT_AVAILABLE, LEAD_MIXED_SUITS, BEAT_FAILS,
            MOLODKA_NOT_HELD, MOLODKA_NO_PRIORITY): the first check that fails.
    """
    _checked(position, move)


def _checked(position: Position, move: Move) -> Move:
    """Run ``check`` and return the move with the shared card objects."""
    kind, seat, cards = move.kind, move.seat, move.cards
    if kind != CARDS and position.draw:  # 2a
        raise _refuse(
            "CARDS_PENDING",
            f"the scorer must first name the {position.draw} cards drawn from the stock",
            awaited=position.draw,
        )
    cards = _check_malformed(move)  # 3
    if cards is not move.cards:
        move = make_move(kind, seat, cards if kind == CARDS else canonical_cards(cards))
    return _checked_rules(position, read(position, move) if kind == MOLODKA else move)


def _checked_rules(position: Position, move: Move) -> Move:
    """Run checks 4-12 on a well-formed move of shared cards (checks 2a and 3 passed)."""
    kind, seat, cards = move.kind, move.seat, move.cards
    if kind == CARDS:
        _check_cards(position, cards)
        return move
    assert seat is not None
    if kind == MOLODKA:
        _check_molodka(position, seat)
        return move
    trick = position.trick
    if kind == LEAD:  # 4
        if trick:
            raise _refuse("NOT_YOUR_TURN", f"S{seat} cannot lead: this trick has been led")
        if seat != position.leader or not position.hands[seat]:
            raise _refuse("NOT_YOUR_TURN", _turn_message(position, seat, "lead"))
    else:
        if not trick:
            raise _refuse("NOT_YOUR_TURN", f"S{seat} cannot {kind}: nothing has been led yet")
        # ``position.to_play`` with a trick on the table and no draw pending (2a).
        if seat != (trick[0].seat + len(trick)) % 4:
            raise _refuse("NOT_YOUR_TURN", _turn_message(position, seat, kind))
    n = len(cards)
    if n > 1 and len({id(c) for c in cards}) != n:  # 5 (interned: identity is equality)
        raise _refuse("DUPLICATE_CARD", f"{format_cards(cards)!r} names a card twice")
    if kind == LEAD:  # 6
        if not 1 <= n <= 4:
            raise _refuse("BAD_LEAD_SIZE", f"a lead is one to four cards, not {n}", count=n)
    else:  # 7
        k = len(trick[0].cards)
        if n != k:
            raise _refuse(
                "WRONG_COUNT",
                f"{n} cards cannot answer a lead of {k}: "
                f"{kind} exactly {k} card{'s' if k > 1 else ''}",
                count=n,
                expected=k,
            )
    hand = position.hands[seat]  # 8
    if n == 1:
        card = cards[0]
        held = False
        for c in hand:
            if c is card:
                held = True
                break
        missing = [] if held else [card]
    else:
        ids = {id(c) for c in hand}
        missing = [c for c in cards if id(c) not in ids]
    if missing:
        raise _refuse(
            "CARD_NOT_IN_HAND",
            f"S{seat} does not hold {format_cards(missing)!r}",
            cards=[c.text() for c in missing],
        )
    if kind == LEAD:  # 9
        if n > 1 and len({c.suit for c in cards}) != 1:
            raise _refuse(
                "LEAD_MIXED_SUITS",
                f"the lead {format_cards(cards)!r} mixes suits: lead cards of one suit",
            )
        return move
    if kind == BEAT:  # 10
        top = _top(trick)
        trump = position.indicator.suit
        if not set_beats(cards, top.cards, trump):
            raise _refuse("BEAT_FAILS", _beat_fails_message(position, cards, top))
    return move


def _turn_message(position: Position, seat: int, kind: str) -> str:
    who = _seat_name(seat)
    turn = position.to_play
    if turn is None:
        return f"{who} cannot {kind}: the deal is played out"
    if any(play.seat == seat for play in position.trick):
        return f"{who} has already played to this trick; it is S{turn}'s turn"
    return f"{who} cannot {kind} now: it is S{turn}'s turn"


def _beat_fails_message(position: Position, cards: Sequence[Card], top: Play) -> str:
    trumps = SUIT_NAMES[position.indicator.suit]
    verb = "does" if len(cards) == 1 else "do"
    against = format_cards(top.cards)
    whose = "the lead" if top.kind == LEAD else f"S{top.seat}'s beat"
    message = f"{format_cards(cards)} {verb} not beat {against} ({whose}): trumps are {trumps}"
    if len(cards) > 1:
        message += "; every card of the top set must be topped by its own card"
    return message


def _check_malformed(move: Move) -> tuple[Card, ...]:
    """Check 3; return the move's cards as the shared card objects."""
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        ok = seat is None
    else:
        ok = kind in PLAYER_ACTIONS and seat in (0, 1, 2, 3) and type(seat) is int
        ok = ok and not (kind == MOLODKA and move.cards)
    if not ok:
        raise MalformedError(f"{move.text()!r} is not a Kozel action", details={"move": kind})
    cards = move.cards
    if is_interned(cards):
        return cards
    for card in cards:
        if card not in PACK_SET:
            raise MalformedError(
                f"{card.text()!r} is not a Kozel card", details={"card": card.text()}
            )
    return interned(cards)


def _check_molodka(position: Position, seat: int) -> None:
    who = _seat_name(seat)
    if not _is_molodka(position.hands[seat]):  # 11
        raise _refuse("MOLODKA_NOT_HELD", f"{who} does not hold a molodka: four cards of one suit")
    trick = position.trick
    if trick and _distance(position, seat) >= _declare_limit(position):  # 12
        lead = trick[0]
        raise _refuse(
            "MOLODKA_NO_PRIORITY",
            f"S{lead.seat}'s four-card lead stands: {who} is not nearer to "
            f"S{position.leader}, who opened the trick",
        )


def _check_cards(position: Position, cards: tuple[Card, ...]) -> None:
    awaited = position.draw
    if not awaited:  # 4
        why = "" if position.unknown_stock else ": a known deck order draws by itself"
        raise _refuse("NOT_YOUR_TURN", f"no drawn cards await naming{why}")
    if len({id(c) for c in cards}) != len(cards):  # 5
        raise _refuse("DUPLICATE_CARD", f"{format_cards(cards)!r} names a card twice")
    if len(cards) != awaited:  # 7
        raise _refuse(
            "WRONG_COUNT",
            f"{awaited} cards were drawn; name them all, in draw order, not {len(cards)}",
            count=len(cards),
            expected=awaited,
        )
    placed = {id(c) for c in _placed(position)}  # 8a
    bottom = position.options.trump_indicator_bottom
    last = position.unknown_stock - 1
    for i, card in enumerate(cards):
        if id(card) in placed:
            raise _refuse(
                "CARD_NOT_AVAILABLE",
                f"{card.text()!r} cannot have been drawn: it is in a hand, on the table "
                "or in a pile",
                card=card.text(),
            )
        if bottom and (card == position.indicator) != (i == last):
            raise _refuse(
                "CARD_NOT_AVAILABLE",
                f"{card.text()!r} cannot have been drawn there: the indicator "
                f"{position.indicator.text()} lies face up under the stock and is drawn last",
                card=card.text(),
            )
