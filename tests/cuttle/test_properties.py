"""Property tests over random legal playouts in every variant (hypothesis)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from domain.cards import Card
from domain.cuttle import (
    Move,
    Phase,
    Position,
    Stack,
    Termination,
    Variant,
    decide,
    evolve,
    legal_moves,
    view,
)
from domain.cuttle.rules import GOALS, apply
from domain.cuttle.state import pack, placed_cards
from domain.errors import DomainError, MalformedError
from tests.strategies import CUTTLE_MOVE_CAP, cuttle_playout, cuttle_positions

VALUES = {r: i + 1 for i, r in enumerate("A23456789T")}
CARD_CODE = re.compile(r"\b(?:[A2-9TJQK][CDHS]|X[12])\b")


def expected_controller(stack: Stack, variant: Variant) -> int:
    """§10, written again independently of the engine."""
    if variant is Variant.CLASSIC:
        controller = stack.owner
        for _ in stack.attached:
            controller = 1 - controller
        return controller
    return stack.attached[-1][1] if stack.attached else stack.owner


def expected_totals(p: Position) -> list[int]:
    points = [0] * p.players
    for stack in p.stacks:
        points[expected_controller(stack, p.variant)] += VALUES[stack.base.rank]
    return points


def expected_goal(p: Position, seat: int) -> int:
    kings = sum(
        1 for s in p.permanents if s.base.rank == "K" and expected_controller(s, p.variant) == seat
    )
    return GOALS[p.variant][min(kings, 4)]


def may_see(p: Position, seat: int | None, public_top: set[Card]) -> set[Card]:
    """Cards ``seat`` may see, from the full position and the public events (§16)."""
    seen: set[Card] = set(p.scrap) | set(p.revealed) | {c for c, _ in p.chain} | set(p.frozen)
    for stack in (*p.stacks, *p.permanents):
        seen.add(stack.base)
        seen.update(card for card, _ in stack.attached)
    if seat is not None:
        seen |= p.hands[seat]
    for stack in p.permanents:
        if stack.base.rank != "8":
            continue
        holder = expected_controller(stack, p.variant)
        if p.variant is Variant.CLASSIC:
            seen |= p.hands[1 - holder]
        elif holder == seat:
            for other in range(p.players):
                seen |= p.hands[other]
    seen |= public_top & {c for c in p.deck if c is not None}
    return seen


def cards_in(data: Any) -> set[Card]:
    text = repr(data)
    return {Card.from_text(code) for code in CARD_CODE.findall(text)}


def random_candidate(p: Position, rng: random.Random) -> Move | None:
    actions = ["draw", "pass", "points", "scuttle", "jack", "oneoff", "counter", "take", "king"]
    cards = sorted(pack(p.variant), key=Card.text)
    try:
        return Move(
            rng.choice(actions) if rng.random() < 0.9 else "decline",
            rng.randrange(p.players),
            None if rng.random() < 0.1 else rng.choice(cards),
            rng.choice([None, *cards]),
        )
    except MalformedError:
        return None


class TestPlayouts:
    @given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
    def test_invariants_hold_after_every_step(self, variant: Variant, seed: int) -> None:
        rng = random.Random(seed)
        steps = cuttle_playout(variant, rng)
        start = Counter(placed_cards(steps[0][0]))
        public_top: set[Card] = set()
        for p, move in steps:
            cards = placed_cards(p)
            assert start == Counter(cards), p.text()
            for stack in (*p.stacks, *p.permanents):
                assert expected_controller(stack, variant) == _engine_controller(stack, p)
            for _ in range(4):
                bad = random_candidate(p, rng)
                if bad is not None and bad not in legal_moves(p):
                    before = p.text()
                    try:
                        apply(p, bad)
                    except DomainError as e:
                        named = {c for c in (bad.card, bad.target) if c is not None}
                        allowed = may_see(p, bad.seat, public_top) | named
                        assert cards_in(e.message) <= allowed, (before, e.message)
                    else:
                        raise AssertionError(f"{bad.text()} accepted in {before}")
                    assert before == p.text()
            if move is not None:
                for e in decide(p, move):
                    if e.type == "CardsRevealed":
                        public_top |= {Card.from_text(c) for c in e.data["cards"]}
        final = steps[-1][0]
        result = final.result
        if result is None:
            assert Variant.CLASSIC == variant and CUTTLE_MOVE_CAP + 1 == len(steps)
            event("classic round capped (ruling 36: it may loop)")
            return
        event(f"{variant.value}: {result.termination.value}")
        assert result.termination in (Termination.GOAL, Termination.THREE_PASSES)
        if result.termination is Termination.GOAL:
            assert result.winner is not None
            assert expected_totals(final)[result.winner] >= expected_goal(final, result.winner)
        else:
            assert 3 == final.passes and result.winner is None

    @given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
    def test_views_hold_own_hand_and_nothing_hidden(self, variant: Variant, seed: int) -> None:
        steps = cuttle_playout(variant, random.Random(seed))
        public_top: set[Card] = set()
        for p, move in steps:
            for seat in (*range(p.players), None):
                seen = view(p, seat)
                if seat is not None:
                    own = {Card.from_text(c) for c in seen["hands"][seat]["cards"]}
                    assert set(p.hands[seat]) == own
                assert [len(h) for h in p.hands] == [h["count"] for h in seen["hands"]]
                assert len(p.deck) == seen["deck"]["count"]
                assert sorted(c.text() for c in p.scrap) == sorted(seen["scrap"])
                assert sorted(c.text() for c in p.frozen) == sorted(seen["frozen"])
                assert expected_totals(p) == seen["totals"]
                assert [expected_goal(p, s) for s in range(p.players)] == seen["goals"]
                assert cards_in(seen) <= may_see(p, seat, public_top), (p.text(), seat)
            if move is not None:
                for e in decide(p, move):
                    if e.type == "CardsRevealed":
                        public_top |= {Card.from_text(c) for c in e.data["cards"]}

    @given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
    def test_decide_then_evolve_equals_apply(self, variant: Variant, seed: int) -> None:
        for p, move in cuttle_playout(variant, random.Random(seed)):
            if move is None:
                continue
            events = decide(p, move)
            folded = p
            for e in events:
                folded = evolve(folded, e)
            assert apply(p, move) == folded
            ended = [e for e in events if e.type == "RoundEnded"]
            assert bool(ended) == (folded.result is not None)
            if ended:
                assert events[-1] is ended[0]
                assert folded.result.winner == ended[0].data["winner"]  # type: ignore[union-attr]


class TestNotationRoundTrips:
    @given(cuttle_positions())
    def test_position_text_is_a_fixed_point(self, p: Position) -> None:
        text = p.text()
        again = Position.from_text(text)
        assert p == again
        assert text == again.text()

    @given(cuttle_positions())
    def test_every_legal_move_round_trips(self, p: Position) -> None:
        for move in legal_moves(p):
            assert move == Move.from_text(move.text())
            assert repr(move) == f"Move.from_text({move.text()!r})"

    @given(cuttle_positions())
    def test_phase_and_to_act_agree(self, p: Position) -> None:
        moves = list(legal_moves(p))
        actors = {m.seat for m in moves if m.action != "resign"}
        if p.phase is Phase.ROUND_OVER:
            assert [] == moves
        elif p.phase is Phase.NAME_CARDS:
            assert {None} == actors
        else:
            assert 1 == len(actors)


def _engine_controller(stack: Stack, p: Position) -> int:
    from domain.cuttle import controller

    return controller(stack, p.variant)
