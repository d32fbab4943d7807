"""``step`` of a move text gives what the general path gives, errors included (hypothesis).

``step`` keeps what it needs of each text it parsed (``rules._known``) and, for a
known text, runs only the checks of ``_check`` that the position can fail: the
general path parses with ``Move.from_text`` and runs every check. Both must give
the same events and position, or raise the same error with the same code,
message and details, for legal moves, illegal ones and lines that are no move.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cuttle import Position, step
from domain.cuttle.apply import _play
from domain.cuttle.checks import _check
from domain.cuttle.moves import _canonical, _parse
from domain.cuttle.rules import _to_move
from domain.errors import DomainError
from domain.events import Event
from tests.cuttle.candidates import candidate_moves
from tests.strategies import (
    cuttle_move_texts,
    cuttle_one_card_texts,
    cuttle_positions,
)


def general_step(position: Position, text: str) -> tuple[list[Event], Position]:
    """The step with no shortcut: parse, every check, then the rule (``_play``)."""
    move = _to_move(position, text)
    _check(position, move)
    work = _play(position, move)
    return [Event("MovePlayed", {"move": move.text()}), *work.facts], work.freeze()


def result_of(position: Position, text: str, stepper: Any) -> tuple[Any, ...]:
    """What stepping gives: the events and the position's typed fields, or the error."""
    try:
        events, after = stepper(position, text)
    except DomainError as e:
        return (type(e), e.code, e.message, e.details)
    return (events, [(type(value), value) for value in after])


def spellings(text: str) -> list[str]:
    """The canonical text and two other spellings of the same move."""
    return [text, text.lower(), "  " + text.replace(" ", "   ") + " "]


class TestStepTexts:
    @given(cuttle_positions(), cuttle_move_texts() | cuttle_one_card_texts())
    def test_any_text_steps_as_the_general_path(self, position: Position, text: str) -> None:
        expected = result_of(position, text, general_step)
        # Twice: the second time the text is known.
        assert expected == result_of(position, text, step)
        assert expected == result_of(position, text, step)

    @given(cuttle_positions(), st.data())
    def test_candidate_moves_step_as_the_general_path(
        self, position: Position, data: st.DataObject
    ) -> None:
        moves = list(candidate_moves(position))
        move = data.draw(st.sampled_from(moves))
        for text in spellings(move.text()):
            expected = result_of(position, text, general_step)
            assert expected == result_of(position, text, step)
            assert expected == result_of(position, text, step)


EDGE_TEXTS = (
    "P0 points 9S", "P1 scuttle 9S>7H", "P2 oneoff 4S@P0", "P0 oneoff 2C>QH", "P1 jack JH>5S",
    "P0 joker X1>KS", "P0 scuttle 9S>9S", "P0 oneoff 2C>2C", "P0 points 9S>7H", "P0 king KS@P1",
    "P0 oneoff 4S@P3", "P0 counter 2C@P1", "P0 scrap 9S", "P0 draw 9S", "P0 oneoff 2C>QH@P1",
    "P3 points 9S", "p0 points 9S", "P0 Points 9S", "P0 points 9s", "P0  points 9S",
    "P0 points 9S ", "P0 points 9", "P0 points ", "P0 scuttle 9S>", "P0 oneoff 4S@",
    "P0 oneoff 4S@Q1", "P0 points 9SS", "P0 glasses 8D", "P1 take 3C", "cards 9S",
)  # fmt: skip


def parsed(parse: Any, text: str) -> tuple[Any, ...]:
    """What a parse gives: the move and its text, or the error."""
    try:
        move = parse(text)
    except DomainError as e:
        return (type(e), e.code, e.message, e.details)
    return (move, move.text())


class TestCanonicalParse:
    @pytest.mark.parametrize("text", EDGE_TEXTS)
    def test_an_edge_text_parses_as_the_general_parse(self, text: str) -> None:
        assert parsed(_parse, text) == parsed(lambda t: _canonical(t) or _parse(t), text)

    @given(cuttle_move_texts() | cuttle_one_card_texts())
    def test_a_canonical_parse_is_the_general_parse(self, text: str) -> None:
        move = _canonical(text)
        if move is not None:
            general = _parse(text)
            assert (general, general.text()) == (move, move.text())
            assert text == general.text()

    @given(cuttle_positions(), st.data())
    def test_candidate_texts_parse_as_the_general_parse(
        self, position: Position, data: st.DataObject
    ) -> None:
        move = data.draw(st.sampled_from(list(candidate_moves(position))))
        canonical = _canonical(move.text())
        assert canonical is None or (move, move.text()) == (canonical, canonical.text())
