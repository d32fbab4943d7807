"""Checking a Cuttle move: the §17 refusals, raised first in precedence order."""

from __future__ import annotations

from domain.cards import Card
from domain.cuttle.constants import (
    _CLASSIC,
    _COUNTER,
    _CUTTHROAT,
    _DRAW_OFFERED,
    _MAIN,
    _NAME_CARDS,
    _ONEOFF_RANKS,
    _PERM_ACTIONS,
    _POINT_RANKS,
    _RESOLVE_FIVE,
    _RESOLVE_FOUR,
    _RESOLVE_SEVEN,
    _RESOLVE_THREE,
    _ROUND_OVER,
    _one,
    _strength,
)
from domain.cuttle.facts import (
    _eligible_scrap,
    _facts,
    _limit_room,
    _locate,
    _protectors,
    _queens,
    _unplaced,
    cards_awaited,
    controller,
)
from domain.cuttle.generation import _card_plays, _main_moves, _plan, _seven_view
from domain.cuttle.moves import MAIN_ACTIONS, Move
from domain.cuttle.state import Position
from domain.errors import IllegalMoveError, MalformedError

_RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
    "K": "king", "X": "joker",
}  # fmt: skip
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


_PHASE_ACTIONS = {
    _MAIN: MAIN_ACTIONS | {"offer-draw"},
    _COUNTER: frozenset({"counter", "decline"}),
    _RESOLVE_THREE: frozenset({"take"}),
    _RESOLVE_FOUR: frozenset({"discard"}),
    _RESOLVE_FIVE: frozenset({"discard"}),
    _RESOLVE_SEVEN: frozenset(),  # seven moves are recognised by their flag
    _DRAW_OFFERED: frozenset({"accept-draw", "refuse-draw"}),
    _NAME_CARDS: frozenset({"cards"}),
    _ROUND_OVER: frozenset(),
}


def _card_name(card: Card) -> str:
    if card.is_joker:
        return f"joker {card.text()}"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]} ({card.text()})"


def _fail(code: str, message: str, move: Move) -> IllegalMoveError:
    text = move.text()
    return IllegalMoveError(f"{text!r}: {message}", code=code, details={"move": text})


def _check(p: Position, m: Move) -> None:
    """Raise the first §17 refusal for ``m`` in ``p``, or return if it is legal."""
    players = p.players
    action = m.action
    if p.phase is _NAME_CARDS and m.seat is not None and action != "resign":
        raise _fail("WRONG_PHASE", "the scorer must first name the cards that left the deck", m)
    if (m.seat is not None and m.seat >= players) or (m.player is not None and m.player >= players):
        raise MalformedError(
            f"{m.text()!r} names a seat that {p.variant.value} does not have",
            details={"move": m.text()},
        )
    if p.variant is not _CUTTHROAT and (action == "joker" or _names_joker(m)):
        raise MalformedError(
            f"{m.text()!r}: jokers are only in cutthroat", details={"move": m.text()}
        )
    _check_rules(p, m)


def _check_rules(p: Position, m: Move) -> None:
    """``_check`` after its checks of the names: the scorer's turn, seats and jokers."""
    action = m.action
    if p.result is not None:
        raise _fail("ROUND_OVER", "the round is over", m)
    if action == "resign":
        return
    if action == "cards":
        if p.phase is not _NAME_CARDS:
            raise _fail("WRONG_PHASE", "no cards are waiting to be named", m)
        free = _unplaced(p)
        for card in m.cards:
            if card not in free:
                raise _fail(
                    "CARD_NOT_AVAILABLE",
                    f"{card.text()} cannot come off the deck: it is already placed or out of play",
                    m,
                )
        wanted = cards_awaited(p)
        if len(m.cards) != wanted:
            raise _fail("WRONG_COUNT", f"name exactly {wanted} card(s), in deck order", m)
        return
    seat = m.seat
    assert seat is not None
    phase = p.phase
    # ``to_act`` inlined (the round is not over here): one seat acts, or none.
    if phase is _MAIN:
        actor: int | None = p.turn
    elif phase is _COUNTER or phase is _DRAW_OFFERED:
        actor = p.responder
    elif phase is _RESOLVE_FOUR:
        actor = p.victim
    elif phase is _NAME_CARDS or phase is _ROUND_OVER:
        actor = None
    else:
        actor = p.turn
    if seat != actor:
        raise _fail("NOT_YOUR_TURN", f"P{seat} is not the one to act now", m)
    if m.seven:
        if phase is not _RESOLVE_SEVEN:
            raise _fail("WRONG_PHASE", "no seven is waiting for its revealed card", m)
        _check_seven(p, m, seat)
        return
    if action not in _PHASE_ACTIONS[phase]:
        raise _fail("WRONG_PHASE", f"{action!r} is not accepted in phase {phase.value}", m)
    if phase is _MAIN:
        if action == "offer-draw":
            if p.offer_refused:
                raise _fail("WRONG_PHASE", "a draw was already refused this turn", m)
            return
        _check_main(p, m, seat, seven=False)
    elif phase is _COUNTER:
        if action == "counter":
            _check_counter(p, m, seat)
    elif phase is _RESOLVE_THREE:
        taken = m.card
        assert taken is not None
        if taken not in p.scrap:
            raise _fail("INVALID_TARGET", f"{taken.text()} is not in the scrap", m)
        if taken.rank == "3" and p.variant is not _CLASSIC:
            raise _fail("INVALID_TARGET", "a three cannot take a three", m)
    elif phase is _RESOLVE_FOUR or phase is _RESOLVE_FIVE:
        hand = p.hands[seat]
        wanted = min(2, len(hand)) if phase is _RESOLVE_FOUR else 1
        if len(m.cards) != wanted:
            raise _fail("WRONG_DISCARD", f"discard exactly {wanted} card(s)", m)
        for card in m.cards:
            if card not in hand:
                raise _fail("WRONG_DISCARD", f"you hold no {card.text()}", m)


def _names_joker(m: Move) -> bool:
    """Whether a move names a joker (its card, its target or one of its cards)."""
    card, target = m.card, m.target
    if (card is not None and card.rank == "X") or (target is not None and target.rank == "X"):
        return True
    return bool(m.cards) and any(c.rank == "X" for c in m.cards)


def _check_counter(p: Position, m: Move, seat: int) -> None:
    card = m.card
    assert card is not None
    if not _one(card) <= p.hands[seat]:
        raise _fail("CARD_NOT_AVAILABLE", f"you hold no {card.text()}", m)
    if p.frozen and card in p.frozen:
        raise _fail("CARD_FROZEN", f"{card.text()} is frozen until your turn ends", m)
    if card.rank != "2":
        raise _fail("WRONG_CARD_TYPE", "only a two can counter", m)
    top_seat = p.chain[-1][1]
    queens = _queens(p.permanents, p.variant, top_seat)
    if queens:
        raise _fail(
            "PROTECTED_BY_QUEEN",
            f"P{top_seat}'s {_card_name(queens[0])} stops counters against their cards",
            m,
        )


def _check_seven(p: Position, m: Move, seat: int) -> None:
    card = m.card
    assert card is not None
    if card not in p.revealed:
        raise _fail("CARD_NOT_AVAILABLE", f"{card.text()} is not a revealed card", m)
    if m.action == "scrap":
        for other in p.revealed:
            judged = _seven_view(p, other)
            playable: list[Move] = []
            table = _facts(judged.variant, judged.stacks, judged.permanents).table(seat)
            _card_plays(judged, table, _plan(seat, other, True), playable)
            if playable:
                raise _fail("MUST_PLAY_REVEALED", f"{other.text()} can be played, so it must be", m)
        return
    _check_main(_seven_view(p, card), m, seat, seven=True)


def _check_main(p: Position, m: Move, seat: int, seven: bool) -> None:
    action = m.action
    variant = p.variant
    if action == "draw":
        if not p.deck:
            raise _fail("DECK_EMPTY", "the deck is empty", m)
        room = _limit_room(p, seat)
        if room is not None and room <= 0:
            raise _fail("HAND_LIMIT", f"a hand of {len(p.hands[seat])} cards is at the limit", m)
        return
    if action == "pass":
        if p.deck and _main_moves(p, seat):
            raise _fail("DECK_NOT_EMPTY", "you may pass only when the deck is empty", m)
        return
    card = m.card
    assert card is not None
    if not seven:
        # ``_one(card) <= hand`` looks the card up by its stored hash: ``card in hand``
        # would call the dataclass's Python-level ``__hash__``.
        if not _one(card) <= p.hands[seat]:
            raise _fail("CARD_NOT_AVAILABLE", f"you hold no {card.text()}", m)
        if p.frozen and card in p.frozen:
            raise _fail("CARD_FROZEN", f"{card.text()} is frozen until your turn ends", m)
    rank = card.rank
    # A joker's rank is "X": a rank in _POINT_RANKS, _PERM_ACTIONS or _ONEOFF_RANKS is
    # never a joker's, so ``is_joker`` (a property call) is not asked below.
    if action == "points" or action == "scuttle":
        if rank not in _POINT_RANKS:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a point card", m)
        if action == "scuttle":
            _check_scuttle(p, m, seat, card)
        return
    if action in _PERM_ACTIONS:
        if rank != _PERM_ACTIONS[action]:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} cannot be played as {action}", m)
        return
    if action == "jack":
        if rank != "J":
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a jack", m)
        found = None if m.target is None else _locate(p, m.target)
        if found is None or found[0] != "base":
            raise _fail("INVALID_TARGET", "a jack goes on the base card of a point stack", m)
        stack = found[1]
        ctrl = controller(stack, variant)
        if ctrl == seat and variant is not _CLASSIC:
            raise _fail("INVALID_TARGET", "a jack only steals: that stack is already yours", m)
        _check_queens(p, m, stack.base, ctrl, seat, "jack")
        return
    if action == "joker":
        if not card.is_joker:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a joker", m)
        found = None if m.target is None else _locate(p, m.target)
        if found is None or found[0] != "perm":
            raise _fail(
                "INVALID_TARGET", "a joker goes on an opponent's glasses 8, queen or king", m
            )
        stack = found[1]
        ctrl = controller(stack, variant)
        if ctrl == seat:
            raise _fail("INVALID_TARGET", "a joker only steals: that card is already yours", m)
        _check_queens(p, m, stack.base, ctrl, seat, "joker")
        return
    # one-off
    if rank not in _ONEOFF_RANKS:
        raise _fail("WRONG_CARD_TYPE", f"{card.text()} cannot be played as a one-off", m)
    if rank == "5" or rank == "7":
        if not p.deck:
            raise _fail("DECK_EMPTY", f"a {_RANK_NAMES[rank]} needs cards in the deck", m)
    elif rank == "3":
        if not _eligible_scrap(p):
            raise _fail("NO_EFFECT", "the scrap holds nothing a three may take", m)
    elif rank == "4":
        victim = m.player
        if victim is None and p.players == 2:
            victim = 1 - seat
        if victim is None or victim == seat:
            raise _fail("INVALID_TARGET", "a four names one opponent with @P<n>", m)
        if not p.hands[victim]:
            raise _fail("NO_EFFECT", f"P{victim} has no cards to discard", m)
        if m.target is not None:
            raise _fail("INVALID_TARGET", "a four names a player, not a card", m)
        return
    if rank in "2" or rank == "9":
        if m.player is not None:
            raise _fail("INVALID_TARGET", f"a {_RANK_NAMES[rank]} names a card, not a player", m)
        _check_two_nine(p, m, seat, rank)
        return
    if m.target is not None or m.player is not None:
        raise _fail("INVALID_TARGET", f"a {_RANK_NAMES[rank]} takes no target", m)


def _check_scuttle(p: Position, m: Move, seat: int, card: Card) -> None:
    found = None if m.target is None else _locate(p, m.target)
    if found is None or found[0] != "base" or controller(found[1], p.variant) == seat:
        raise _fail(
            "INVALID_TARGET", "a scuttle hits the base card of an opponent's point stack", m
        )
    base = found[1].base
    if _strength(card) < _strength(base):
        raise _fail("SCUTTLE_TOO_WEAK", f"{card.text()} does not beat {base.text()}", m)


def _check_two_nine(p: Position, m: Move, seat: int, rank: str) -> None:
    classic = p.variant is _CLASSIC
    what = "two" if rank == "2" else "nine"
    found = None if m.target is None else _locate(p, m.target)
    if found is None:
        raise _fail("INVALID_TARGET", f"a {what} needs a target card on the table", m)
    kind, stack = found
    if kind == "covered":
        raise _fail("INVALID_TARGET", "only the top jack or joker of a stack can be targeted", m)
    if kind == "base" and (rank == "2" or classic):
        raise _fail("INVALID_TARGET", f"a {what} cannot target a point card here", m)
    ctrl = controller(stack, p.variant)
    if ctrl == seat and not classic:
        raise _fail("INVALID_TARGET", f"a {what} targets an opponent's card", m)
    _check_queens(p, m, stack.base, ctrl, seat, what)


def _check_queens(p: Position, m: Move, host: Card, ctrl: int, seat: int, what: str) -> None:
    queens = _protectors(p, host, ctrl, seat)
    if queens:
        target = m.target
        assert target is not None
        raise _fail(
            "PROTECTED_BY_QUEEN",
            f"the {_card_name(queens[0])} protects {target.text()} from your {what}",
            m,
        )
