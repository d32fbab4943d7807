"""The fast path of Cuttle's step: the common moves that derive no event, built in one go."""

from __future__ import annotations

from domain.cards import Card
from domain.cuttle.constants import (
    _COUNTER,
    _MAIN,
    _PERM_ACTIONS,
    _RANK_STRENGTH,
    _SUIT_STRENGTH,
    _one,
)
from domain.cuttle.facts import _facts
from domain.cuttle.moves import Move
from domain.cuttle.state import Position, Stack, build_position


def _quick(p: Position, m: Move) -> Position | None:
    """Return the position after a common move that derives no event, or ``None``.

    A draw, points, a glasses 8, queen or king, a scuttle, a jack, a joker, the start
    of a one-off, and a decline that passes a chain on are most moves of a round;
    they are built here in one step instead of through ``_Work``'s copy. ``_play``
    stays the rule: any other move, or one of these that ends the round, returns
    ``None`` and goes there (tests/cuttle/test_fast_path.py checks that both give the
    same).
    """
    if m.seven:
        return None
    action = m.action
    seat = m.seat
    if action == "decline":
        assert seat is not None
        nxt = (seat + 1) % len(p.hands)
        if nxt == p.chain[-1][1]:
            return None  # the chain closes: the one-off resolves or fizzles
        v, d, t, ph, dk, h, st, pm, sc, fz, ps, ch, tg, vc, _, rv, nm, sh, off, rs = p
        return build_position(
            (v, d, t, ph, dk, h, st, pm, sc, fz, ps, ch, tg, vc, nxt, rv, nm, sh, off, rs)
        )
    if p.phase is not _MAIN or seat is None:
        return None
    hands = p.hands
    if action == "draw":
        deck = p.deck
        drawn = deck[0]
        if drawn is None:
            return None  # the scorer names it first
        hands = (*hands[:seat], hands[seat] | _one(drawn), *hands[seat + 1 :])
        return _quick_finish(p, hands, p.stacks, p.permanents, deck[1:], max(0, p.shown - 1))
    card = m.card
    if card is None or action not in _QUICK_CARD_ACTIONS:
        return None  # a pass, an offer of a draw, a resignation
    rest = hands[seat] - _one(card)
    hands = (*hands[:seat], rest, *hands[seat + 1 :])
    if action == "points":
        stacks = _inserted(p.stacks, _new_stack(Stack, (card, seat, ())))
        return _quick_finish(p, hands, stacks, p.permanents, p.deck, p.shown)
    if action in _PERM_ACTIONS:
        perms = _inserted(p.permanents, _new_stack(Stack, (card, seat, ())))
        return _quick_finish(p, hands, p.stacks, perms, p.deck, p.shown)
    if action != "oneoff":
        return _quick_table(p, m, seat, card, hands)
    victim = m.player
    if victim is None and card.rank == "4":
        victim = 1 - seat
    return build_position(
        (
            p.variant, p.dealer, p.turn, _COUNTER, p.deck, hands, p.stacks, p.permanents,
            p.scrap, p.frozen, 0, ((card, seat),), m.target, victim, (seat + 1) % len(hands),
            p.revealed, p.naming, p.shown, p.offer_refused, p.result,
        )
    )  # fmt: skip


_QUICK_CARD_ACTIONS = frozenset({"points", "oneoff", "scuttle", "jack", "joker", *_PERM_ACTIONS})


def _quick_table(
    p: Position, m: Move, seat: int, card: Card, hands: tuple[frozenset[Card], ...]
) -> Position | None:
    """``_quick`` of a scuttle, jack or joker: its target stack leaves or gains a card."""
    action = m.action
    target = m.target
    group = p.permanents if action == "joker" else p.stacks
    for i, stack in enumerate(group):
        if stack.base is not target:
            continue
        if action == "scuttle":
            scrap = p.scrap.union(
                _one(card), _one(stack.base), *[_one(c) for c, _ in stack.attached]
            )
            stacks = (*group[:i], *group[i + 1 :])
            return _quick_finish(p, hands, stacks, p.permanents, p.deck, p.shown, scrap)
        # A stack keeps its base, so it keeps its place in card order.
        new = _new_stack(Stack, (stack.base, stack.owner, (*stack.attached, (card, seat))))
        changed = (*group[:i], new, *group[i + 1 :])
        if action == "joker":
            return _quick_finish(p, hands, p.stacks, changed, p.deck, p.shown)
        return _quick_finish(p, hands, changed, p.permanents, p.deck, p.shown)
    return None  # the target is not there (``_find``'s answer), for an unchecked move


_new_stack = tuple.__new__
"""``Stack(base, owner, attached)`` without the named tuple's Python-level ``__new__``."""


def _inserted(stacks: tuple[Stack, ...], stack: Stack) -> tuple[Stack, ...]:
    """Return ``stacks`` (in card order) with ``stack`` put in its place."""
    ranks, suits = _RANK_STRENGTH, _SUIT_STRENGTH
    base = stack.base
    key = ranks[base.rank] + suits[base.suit]
    for i, other in enumerate(stacks):
        base = other.base
        if ranks[base.rank] + suits[base.suit] > key:
            return (*stacks[:i], stack, *stacks[i:])
    return (*stacks, stack)


def _quick_finish(
    p: Position,
    hands: tuple[frozenset[Card], ...],
    stacks: tuple[Stack, ...],
    perms: tuple[Stack, ...],
    deck: tuple[Card | None, ...],
    shown: int,
    scrap: frozenset[Card] | None = None,
) -> Position | None:
    """End the turn after a main action, as ``_Work.finish`` does; ``None`` if a seat won."""
    turn = p.turn
    # ``_winner`` finds a seat exactly when one is at its goal (a third seat of two
    # players never is).
    if True in _facts(p.variant, stacks, perms).at_goal:
        return None
    frozen = p.frozen
    if frozen:
        frozen = frozen - hands[turn]
    return build_position(
        (
            p.variant, p.dealer, (turn + 1) % len(hands), _MAIN, deck, hands, stacks, perms,
            p.scrap if scrap is None else scrap, frozen, 0, (), None, None, None, (), None,
            shown, False, None,
        )
    )  # fmt: skip
