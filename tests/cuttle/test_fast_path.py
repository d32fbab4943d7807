"""The engine's shortcuts give what its general path gives, over random playouts (hypothesis).

``_quick`` builds the position after the commonest moves without ``_Work``'s copy,
and ``evolve`` answers the ``MovePlayed`` that ``decide`` just gave from a memo;
both must agree with ``_play``, the rule, event for event and field for field.
"""

from __future__ import annotations

from hypothesis import event, given

from domain.cuttle import Move, Position, decide, evolve, step
from domain.cuttle.apply import _play
from domain.cuttle.fast_path import _quick
from domain.events import Event
from tests.strategies import cuttle_playouts


def fields_and_types(position: Position) -> list[tuple[type, object]]:
    """A position's fields with their types (a set equals a frozenset, a list never a tuple)."""
    return [(type(value), value) for value in position]


def played(steps: list[tuple[Position, Move | None]]) -> list[tuple[Position, Move]]:
    """The steps of a playout that play a move (the last position plays none)."""
    return [(position, move) for position, move in steps if move is not None]


class TestQuickMoves:
    @given(cuttle_playouts())
    def test_quick_position_is_the_played_position(
        self, steps: list[tuple[Position, Move | None]]
    ) -> None:
        taken = 0
        for position, move in played(steps):
            quick = _quick(position, move)
            if quick is None:
                continue
            taken += 1
            work = _play(position, move)
            assert [] == work.facts
            assert fields_and_types(work.freeze()) == fields_and_types(quick)
        event("the quick path was taken" if taken else "the quick path was not taken")

    @given(cuttle_playouts())
    def test_decide_gives_the_general_events(
        self, steps: list[tuple[Position, Move | None]]
    ) -> None:
        for position, move in played(steps):
            work = _play(position, move)
            expected = [Event("MovePlayed", {"move": move.text()}), *work.facts]
            assert expected == decide(position, move.text())


class TestStep:
    @given(cuttle_playouts())
    def test_step_is_decide_then_evolve(self, steps: list[tuple[Position, Move | None]]) -> None:
        for position, move in played(steps):
            events, after = step(position, move.text())
            folded = position
            for e in decide(position, move.text()):
                folded = evolve(folded, e)
            assert decide(position, move.text()) == events
            assert fields_and_types(_play(position, move).freeze()) == fields_and_types(after)
            assert fields_and_types(folded) == fields_and_types(after)
