"""legal_moves is exact: generated from the rules, and apply accepts exactly what it lists.

``legal_moves`` and ``service_moves`` together are what ``apply`` accepts, each move
as the position reads it (``read``: a 2-player four's ``@P1`` is the listed ``4S``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain.cuttle import Position, Variant, is_legal, legal_moves, read, service_moves, to_act
from domain.cuttle.rules import apply
from domain.errors import DomainError
from tests.cuttle.candidates import candidate_moves
from tests.strategies import cuttle_playout

DATA = Path(__file__).resolve().parent.parent / "data" / "cuttle_legal_counts.txt"


def _accepted(p: Position) -> set[str]:
    accepted = set()
    for move in set(candidate_moves(p)):
        try:
            apply(p, move)
        except DomainError:
            continue
        accepted.add(read(p, move).text())
    return accepted


def _listed(p: Position) -> list[str]:
    return [m.text() for m in (*legal_moves(p), *service_moves(p))]


def _sampled_positions(variant: Variant, seed: int, every: int) -> list[Position]:
    steps = cuttle_playout(variant, random.Random(seed))
    phases = {}
    picked = []
    for i, (position, _) in enumerate(steps):
        if position.phase not in phases or i % every == 0:
            phases[position.phase] = True
            picked.append(position)
    return picked


class TestExactness:
    @pytest.mark.parametrize("variant", list(Variant))
    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_apply_accepts_exactly_the_listed_moves(self, variant: Variant, seed: int) -> None:
        for p in _sampled_positions(variant, seed, every=9):
            listed = _listed(p)
            assert len(listed) == len(set(listed)), p.text()
            accepted = _accepted(p)
            assert set(listed) >= accepted, (p.text(), accepted - set(listed))
            candidates = {m.text() for m in candidate_moves(p)}
            assert set(listed) & candidates == accepted, (p.text(), set(listed) - accepted)

    @pytest.mark.parametrize("variant", list(Variant))
    def test_every_listed_move_is_accepted(self, variant: Variant) -> None:
        for p in _sampled_positions(variant, 7, every=1):
            for move in legal_moves(p):
                assert move in legal_moves(p), (p.text(), move.text())

    @pytest.mark.parametrize("variant", list(Variant))
    def test_membership_iteration_and_is_legal_agree(self, variant: Variant) -> None:
        for p in _sampled_positions(variant, 5, every=3):
            listed = set(legal_moves(p))
            service = set(service_moves(p))
            for move in set(candidate_moves(p)):
                in_legal = move in legal_moves(p)
                assert (move in listed) == in_legal, (p.text(), move.text())
                assert is_legal(p, move) == (in_legal or move in service), move.text()
            assert len(listed) == len(legal_moves(p)) == len(list(legal_moves(p)))

    @pytest.mark.parametrize("variant", list(Variant))
    def test_only_the_side_to_act_is_listed(self, variant: Variant) -> None:
        for p in _sampled_positions(variant, 11, every=2):
            seats = {m.seat for m in legal_moves(p)}
            assert seats <= {None, *to_act(p)}, p.text()
            assert not {m.action for m in legal_moves(p)} & {"resign", "offer-draw"}


def _cases() -> list[tuple[str, int, str]]:
    cases = []
    name = ""
    position = ""
    for line in DATA.read_text().splitlines():
        if line.startswith("== "):
            name = line[3:].strip()
        elif line.startswith("position: "):
            position = line[len("position: ") :]
        elif line.startswith("count: "):
            cases.append((name, int(line[len("count: ") :]), position))
    return cases


class TestCountsByHand:
    @pytest.mark.parametrize(("name", "count", "text"), _cases(), ids=[c[0] for c in _cases()])
    def test_count_matches_hand_derivation(self, name: str, count: int, text: str) -> None:
        p = Position.from_text(text)
        assert count == legal_moves(p).count() + len(service_moves(p))
        assert count == len(_accepted(p) & set(_listed(p)))

    def test_every_phase_has_a_case(self) -> None:
        phases = {Position.from_text(text).phase.value for _, _, text in _cases()}
        assert {
            "MAIN",
            "COUNTER",
            "RESOLVE_THREE",
            "RESOLVE_FOUR",
            "RESOLVE_FIVE",
            "RESOLVE_SEVEN",
            "NAME_CARDS",
            "DRAW_OFFERED",
            "ROUND_OVER",
        } == phases
