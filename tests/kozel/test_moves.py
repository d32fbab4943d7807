"""The move notation of R45 and its codec."""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

import pytest
from hypothesis import given

from domain.cards import parse_cards
from domain.errors import MalformedError
from domain.kozel import Move
from domain.kozel.moves import _PARSED, _parse
from tests.strategies import kozel_move_texts


class TestMoveText:
    @pytest.mark.parametrize(
        "text",
        ["S0 lead 7S KS", "S1 beat TS AS", "S2 throw 6D 8C", "S3 molodka", "cards 7H 8D 9S 6C"],
    )
    def test_examples_of_r45_roundtrip(self, text: str) -> None:
        move = Move.from_text(text)
        assert move == Move.from_text(move.text())
        assert sorted(text.split()) == sorted(move.text().split())

    def test_normalises_case_and_space(self) -> None:
        """R35: codes are trimmed and upper-cased before they are read."""
        assert Move.from_text("S1 beat TS AS") == Move.from_text("  s1   BEAT ts as ")

    def test_fields(self) -> None:
        move = Move.from_text("S2 throw 6D 8C")
        assert ("throw", 2, parse_cards("8C 6D")) == (move.kind, move.seat, move.cards)

    def test_cards_action_has_no_seat(self) -> None:
        assert Move.from_text("cards 7H").seat is None

    def test_repr_can_be_pasted_back(self) -> None:
        assert "Move.from_text('S0 lead 7S KS')" == repr(Move.from_text("S0 lead 7S KS"))

    def test_a_plays_cards_are_a_set_written_in_canonical_order(self) -> None:
        assert Move.from_text("S0 lead AH QH") == Move.from_text("S0 lead QH AH")
        assert "S0 lead QH AH" == Move.from_text("S0 lead AH QH").text()
        assert "S1 beat TS AS" == Move.from_text("S1 beat AS TS").text()
        assert "S2 throw 8C 6D" == Move("throw", 2, parse_cards("6D 8C")).text()

    def test_named_draws_keep_their_order(self) -> None:
        assert "cards 9S 6C" == Move.from_text("cards 9S 6C").text()

    def test_concede_names_a_seat_and_no_card(self) -> None:
        assert ("concede", 1, ()) == astuple(Move.from_text("s1 CONCEDE"))
        with pytest.raises(MalformedError):
            Move.from_text("S1 concede 7S")

    def test_empty_lead_is_readable(self) -> None:
        """An empty lead is refused later, as BAD_LEAD_SIZE (check 6), not as MALFORMED."""
        assert () == Move.from_text("S0 lead").cards

    @pytest.mark.parametrize(
        "text",
        [
            "",
            "S4 lead 7S",
            "S-1 lead 7S",
            "P0 lead 7S",
            "S0 pass",
            "S0",
            "S0 lead 10H",
            "S0 lead 1H",
            "S0 lead 2H",
            "S0 lead XH",
            "S3 molodka 7S 8S 9S TS",
            "cards 7H 5D",
        ],
    )
    def test_rejects_malformed(self, text: str) -> None:
        with pytest.raises(MalformedError) as e:
            Move.from_text(text)
        assert "MALFORMED" == e.value.code


class TestMoveTextCache:
    """``Move.from_text`` keeps the moves it parsed: a cached move is the same value."""

    @staticmethod
    def outcome(parse: Any, text: str) -> tuple[Any, ...]:
        try:
            move = parse(text)
        except MalformedError as e:
            return ("refused", e.code, str(e), e.details)
        return ("parsed", move.kind, move.seat, [id(card) for card in move.cards])

    @given(text=kozel_move_texts())
    def test_cached_parse_equals_a_fresh_parse(self, text: str) -> None:
        expected = self.outcome(_parse, text)
        assert expected == self.outcome(Move.from_text, text)  # fills the cache
        assert expected == self.outcome(Move.from_text, text)  # reads it
        if expected[0] == "parsed":
            assert _PARSED[text] == _parse(text)

    def test_refused_texts_are_not_kept(self) -> None:
        for _ in range(2):
            with pytest.raises(MalformedError):
                Move.from_text("S0 lead 7S 2H")
        assert "S0 lead 7S 2H" not in _PARSED
