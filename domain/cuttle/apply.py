"""Applying a checked Cuttle move: the rules' effects on a mutable copy of the position.

``_play`` carries out any move, deriving its events (a one-off resolved or fizzled,
cards revealed, the round ended); the fast path (``fast_path``) is checked against it.
"""

from __future__ import annotations

from domain.cards import Card
from domain.cuttle.constants import (
    _CLASSIC,
    _COUNTER,
    _DRAW_OFFERED,
    _MAIN,
    _NAME_CARDS,
    _ONES,
    _PERM_ACTIONS,
    _RESOLVE_FIVE,
    _RESOLVE_FOUR,
    _RESOLVE_SEVEN,
    _RESOLVE_THREE,
    _ROUND_OVER,
    _one,
    _strength,
)
from domain.cuttle.facts import _find, _naming_span, _span, _winner, controller
from domain.cuttle.moves import Move
from domain.cuttle.outcome import Outcome, Termination
from domain.cuttle.state import Position, Stack, build_position
from domain.events import Event
from domain.records import builder


def _stack_key(stack: Stack) -> int:
    return _strength(stack.base)


class _Work:
    """A mutable copy of a position used while one move is applied."""

    __slots__ = (
        "chain", "dealer", "deck", "facts", "frozen", "hands", "naming", "offer_refused",
        "passes", "permanents", "phase", "responder", "result", "revealed", "scrap", "shown",
        "stacks", "target", "turn", "variant", "victim",
    )  # fmt: skip

    def __init__(self, p: Position) -> None:
        (
            self.variant,
            self.dealer,
            self.turn,
            self.phase,
            self.deck,
            hands,
            self.stacks,
            self.permanents,
            self.scrap,
            self.frozen,
            self.passes,
            self.chain,
            self.target,
            self.victim,
            self.responder,
            self.revealed,
            self.naming,
            self.shown,
            self.offer_refused,
            self.result,
        ) = p
        self.hands = list(hands)
        self.facts: list[Event] = []

    def freeze(self) -> Position:
        return build_position(
            (
                self.variant,
                self.dealer,
                self.turn,
                self.phase,
                self.deck,
                tuple(self.hands),
                self.stacks,
                self.permanents,
                self.scrap,
                self.frozen,
                self.passes,
                self.chain,
                self.target,
                self.victim,
                self.responder,
                self.revealed,
                self.naming,
                self.shown,
                self.offer_refused,
                self.result,
            )
        )

    @property
    def players(self) -> int:
        return len(self.hands)

    def end_round(self, result: Outcome) -> None:
        self.result = result
        self.phase = _ROUND_OVER
        self.chain = ()
        self.target = self.victim = self.responder = self.naming = None
        self.revealed = ()
        self.facts.append(
            _event(
                "RoundEnded",
                {
                    "termination": result.termination.value,
                    "winner": result.winner,
                    "resigned": result.resigned,
                },
            )
        )

    def finish(self) -> None:
        """Run the win check (§15.2), then end the turn unless the round ended."""
        if self.win_check():
            return
        self.end_turn()

    def win_check(self) -> bool:
        winner = _winner(self.variant, len(self.hands), self.stacks, self.permanents, self.turn)
        if winner is None:
            return False
        self.end_round(Outcome(Termination.GOAL, winner))
        return True

    def end_turn(self) -> None:
        seat = self.turn
        if self.frozen:
            self.frozen = self.frozen - self.hands[seat]
        self.turn = (seat + 1) % len(self.hands)
        self.phase = _MAIN
        self.chain = ()
        self.target = self.victim = self.responder = self.naming = None
        self.revealed = ()
        self.offer_refused = False

    def take_from_hand(self, seat: int, card: Card) -> None:
        self.hands[seat] = self.hands[seat] - _one(card)

    def put_stack(self, stack: Stack) -> None:
        self.stacks = tuple(sorted((*self.stacks, stack), key=_stack_key))

    def put_perm(self, stack: Stack) -> None:
        self.permanents = tuple(sorted((*self.permanents, stack), key=_stack_key))

    def replace(self, old: Stack, new: Stack | None, perm: bool) -> None:
        stacks = self.permanents if perm else self.stacks
        if new is None:
            result = tuple(s for s in stacks if s is not old)
        else:
            result = tuple(new if s is old else s for s in stacks)
        if perm:
            self.permanents = result
        else:
            self.stacks = result

    def to_scrap(self, *cards: Card) -> None:
        try:
            # Prebuilt singletons carry their hashes: no card is hashed again.
            self.scrap = self.scrap.union(*map(_ONES.__getitem__, map(id, cards)))
        except KeyError:  # a card that is not interned
            self.scrap = self.scrap | set(cards)

    def take_top(self, n: int) -> tuple[Card, ...]:
        cards = self.deck[:n]
        self.deck = self.deck[n:]
        self.shown = max(0, self.shown - n)
        return cards  # type: ignore[return-value]


_event = builder(Event)
"""``Event(type, data)`` through its slots: the engine builds one or more per move."""


def _play(p: Position, m: Move) -> _Work:
    """Apply a checked move and return the work copy with its derived facts."""
    w = _Work(p)
    action = m.action
    if action == "resign":
        seat = m.seat
        assert seat is not None
        winner = 1 - seat if w.players == 2 else None
        w.end_round(Outcome(Termination.RESIGNATION, winner, seat))
        return w
    if action == "cards":
        deck_list = list(w.deck)
        names = iter(m.cards)
        for i in range(_naming_span(p)):
            if deck_list[i] is None:
                deck_list[i] = next(names)
        w.deck = tuple(deck_list)
        _after_naming(w)
        return w
    if m.seven:
        _play_seven(w, m)
        return w
    seat = m.seat
    assert seat is not None
    if action == "offer-draw":
        w.phase = _DRAW_OFFERED
        w.responder = (seat + 1) % w.players
    elif action == "accept-draw":
        nxt = (seat + 1) % w.players
        if nxt == w.turn:
            w.end_round(Outcome(Termination.AGREED_DRAW, None))
        else:
            w.responder = nxt
    elif action == "refuse-draw":
        w.phase = _MAIN
        w.responder = None
        w.offer_refused = True
    elif action == "counter":
        card = m.card
        assert card is not None
        w.take_from_hand(seat, card)
        w.chain = (*w.chain, (card, seat))
        w.responder = (seat + 1) % w.players
    elif action == "decline":
        nxt = (seat + 1) % w.players
        if nxt == w.chain[-1][1]:
            _close_chain(w)
        else:
            w.responder = nxt
    elif action == "take":
        card = m.card
        assert card is not None
        w.scrap = w.scrap - {card}
        w.hands[seat] = w.hands[seat] | {card}
        w.to_scrap(w.chain[0][0])
        w.finish()
    elif action == "discard":
        cards = frozenset(m.cards)
        w.hands[seat] = w.hands[seat] - cards
        w.scrap = w.scrap | cards
        if w.frozen:
            w.frozen = w.frozen - cards
        if w.phase is _RESOLVE_FOUR:
            w.to_scrap(w.chain[0][0])
            w.finish()
        else:
            _five_draw(w)
    elif action == "pass":
        w.passes += 1
        if w.win_check():
            return w
        if w.passes >= 3:
            w.end_round(Outcome(Termination.THREE_PASSES, None))
        else:
            w.end_turn()
    else:
        card = m.card
        if card is not None:
            w.take_from_hand(seat, card)
        _main_action(w, m, seat)
    return w


def _main_action(w: _Work, m: Move, seat: int) -> None:
    """Carry out a main action whose card already left the hand (or the seven's reveal)."""
    action = m.action
    w.passes = 0
    card = m.card
    if action == "draw":
        if w.deck[0] is None:
            w.phase = _NAME_CARDS
            w.naming = "draw"
            return
        (drawn,) = w.take_top(1)
        w.hands[seat] = w.hands[seat] | _one(drawn)
        w.finish()
        return
    assert card is not None
    if action == "points":
        w.put_stack(Stack(card, seat))
    elif action == "scuttle":
        found = _locate_w(w, m.target)
        stack = found[1]
        w.replace(stack, None, perm=False)
        w.to_scrap(card, stack.base, *(c for c, _ in stack.attached))
    elif action in _PERM_ACTIONS:
        w.put_perm(Stack(card, seat))
    elif action == "jack" or action == "joker":
        _, stack = _locate_w(w, m.target)
        new = Stack(stack.base, stack.owner, (*stack.attached, (card, seat)))
        w.replace(stack, new, perm=action == "joker")
    else:
        victim = m.player
        if card.rank == "4" and victim is None:
            victim = 1 - seat
        w.chain = ((card, seat),)
        w.target = m.target
        w.victim = victim
        w.phase = _COUNTER
        w.responder = (seat + 1) % w.players
        return
    w.finish()


def _locate_w(w: _Work, card: Card | None) -> tuple[str, Stack]:
    assert card is not None
    found = _find(w.stacks, w.permanents, card)
    assert found is not None, f"{card.text()} is not on the table"
    return found


def _close_chain(w: _Work) -> None:
    root, seat = w.chain[0]
    twos = [card for card, _ in w.chain[1:]]
    if twos:
        w.to_scrap(*twos)
    w.chain = ((root, seat),)
    w.responder = None
    data = {"card": root.text(), "seat": seat}
    if len(twos) % 2:
        w.facts.append(_event("OneOffFizzled", data))
        w.to_scrap(root)
        w.finish()
        return
    w.facts.append(_event("OneOffResolved", data))
    _resolve(w, root, seat)


def _resolve(w: _Work, root: Card, seat: int) -> None:
    rank = root.rank
    variant = w.variant
    if rank == "A":
        scrapped: list[Card] = []
        for stack in w.stacks:
            scrapped.append(stack.base)
            scrapped.extend(c for c, _ in stack.attached)
        w.stacks = ()
        w.to_scrap(root, *scrapped)
    elif rank == "6":
        scrapped = []
        for stack in w.permanents:
            scrapped.append(stack.base)
            scrapped.extend(c for c, _ in stack.attached)
        stacks = []
        for stack in w.stacks:
            scrapped.extend(c for c, _ in stack.attached)
            stacks.append(Stack(stack.base, stack.owner) if stack.attached else stack)
        w.stacks = tuple(stacks)
        w.permanents = ()
        w.to_scrap(root, *scrapped)
    elif rank == "2":
        kind, stack = _locate_w(w, w.target)
        if kind == "perm":
            w.replace(stack, None, perm=True)
            w.to_scrap(stack.base, *(c for c, _ in stack.attached))
        else:
            w.replace(stack, Stack(stack.base, stack.owner, stack.attached[:-1]), kind == "permtop")
            w.to_scrap(stack.attached[-1][0])
        w.to_scrap(root)
    elif rank == "9":
        kind, stack = _locate_w(w, w.target)
        if kind == "base" or kind == "perm":
            holder = controller(stack, variant)
            returned = stack.base
            w.replace(stack, None, perm=kind == "perm")
            attached = [c for c, _ in stack.attached]
            if attached:
                w.to_scrap(*attached)
        else:
            returned, holder = stack.attached[-1]
            w.replace(stack, Stack(stack.base, stack.owner, stack.attached[:-1]), kind == "permtop")
        w.hands[holder] = w.hands[holder] | {returned}
        if variant is not _CLASSIC:
            w.frozen = w.frozen | {returned}
        w.to_scrap(root)
    elif rank == "3":
        w.phase = _RESOLVE_THREE
        return
    elif rank == "4":
        victim = w.victim
        assert victim is not None
        if w.hands[victim]:
            w.phase = _RESOLVE_FOUR
            return
        w.to_scrap(root)
    elif rank == "5":
        if variant is not _CLASSIC and w.hands[seat]:
            w.phase = _RESOLVE_FIVE
            return
        _five_draw(w)
        return
    elif rank == "7":
        _seven_reveal(w)
        return
    w.finish()


def _five_draw(w: _Work) -> None:
    n = _span("five", w.variant, len(w.deck), len(w.hands[w.turn]))
    if None in w.deck[:n]:
        w.phase = _NAME_CARDS
        w.naming = "five"
        return
    drawn = w.take_top(n)
    w.hands[w.turn] = w.hands[w.turn] | set(drawn)
    w.to_scrap(w.chain[0][0])
    w.finish()


def _seven_reveal(w: _Work) -> None:
    n = _span("seven", w.variant, len(w.deck), len(w.hands[w.turn]))
    if None in w.deck[:n]:
        w.phase = _NAME_CARDS
        w.naming = "seven"
        return
    w.revealed = w.take_top(n)
    w.phase = _RESOLVE_SEVEN
    w.facts.append(_event("CardsRevealed", {"cards": [c.text() for c in w.revealed]}))


def _after_naming(w: _Work) -> None:
    kind = w.naming
    w.naming = None
    if kind == "draw":
        (drawn,) = w.take_top(1)
        w.hands[w.turn] = w.hands[w.turn] | _one(drawn)
        w.finish()
    elif kind == "five":
        _five_draw(w)
    else:
        _seven_reveal(w)


def _play_seven(w: _Work, m: Move) -> None:
    card = m.card
    assert card is not None
    seat = w.turn
    rest = tuple(c for c in w.revealed if c is not card)
    w.to_scrap(w.chain[0][0])
    w.deck = rest + w.deck
    w.shown += len(rest)
    w.revealed = ()
    w.chain = ()
    w.phase = _MAIN
    if m.action == "scrap":
        w.to_scrap(card)
        w.finish()
        return
    _main_action(w, m, seat)
