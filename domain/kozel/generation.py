"""Kozel's move generator: every legal player action, from the rules (R7-R13, R19-R22)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from domain.kozel.facts import _top, cards_to_name
from domain.kozel.moves import BEAT, CARDS, LEAD, MOLODKA, THROW, Move, build_move, make_move
from domain.kozel.pack import RANK_INDEX, beat_masks, covers
from domain.kozel.position import Position


def generate_legal_moves(position: Position) -> Iterator[Move]:
    """Yield every legal player action, from the rules, without trying any (R7-R13, R19-R22).

    Cards in each move are in canonical order; a molodka of the seat due to lead
    before the lead is listed once, as its four-card lead (R36). While drawn cards
    await naming, the scorer's ``cards`` namings are yielded, lazily, every ordering
    (``cards_to_name`` says which without listing them).
    """
    if position.draw:
        ask = cards_to_name(position)
        assert ask is not None
        for names in ask.generate_namings():
            yield make_move(CARDS, None, names)
        return
    # ``build_move``, not ``make_move``: one Python call less per listed move.
    trick = position.trick
    hands = position.hands
    leader = position.leader
    if not trick:
        hand = hands[leader]
        n = len(hand)
        i = 0
        while i < n:  # hands are sorted by suit: each run of one suit gives the leads
            suit = hand[i].suit
            j = i + 1
            while j < n and hand[j].suit == suit:
                j += 1
            group = hand[i:j]
            for size in range(1, j - i + 1):
                for cards in combinations(group, size):
                    yield build_move(LEAD, leader, cards)
            i = j
        limit = 4
    else:
        lead = trick[0]
        k = len(lead.cards)
        seat = (lead.seat + len(trick)) % 4
        top = _top(trick).cards
        trump = position.indicator.suit
        if k == 1:
            target = top[0]
            t_suit = target.suit
            t_rank = RANK_INDEX[target.rank]
            for card in hands[seat]:
                cards = (card,)
                suit = card.suit
                if (suit == t_suit and RANK_INDEX[card.rank] > t_rank) or (
                    suit == trump and t_suit != trump
                ):
                    yield build_move(BEAT, seat, cards)
                yield build_move(THROW, seat, cards)
        else:
            hand = hands[seat]
            masks = beat_masks(hand, top, trump)
            full = (1 << k) - 1
            for cards, chosen in zip(combinations(hand, k), combinations(masks, k), strict=True):
                union = 0
                for mask in chosen:
                    union |= mask
                if union == full and covers(chosen):
                    yield build_move(BEAT, seat, cards)
                yield build_move(THROW, seat, cards)
        limit = (lead.seat - leader) % 4 if k == 4 else 4
    for s in range(4):
        hand = hands[s]
        if (
            len(hand) == 4
            and hand[0].suit == hand[3].suit
            and ((s != leader) if not trick else (s - leader) % 4 < limit)
        ):
            yield build_move(MOLODKA, s, ())
