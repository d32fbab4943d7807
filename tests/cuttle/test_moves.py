"""The move notation of §23: parsing, printing, round trips and MALFORMED (ruling 33)."""

from __future__ import annotations

import pytest

from domain.cards import Card
from domain.cuttle import Move, legal_moves
from domain.errors import MalformedError
from tests.cuttle.helpers import pos, refusal

SECTION_23 = [
    "P0 draw",
    "P0 pass",
    "P0 points 7H",
    "P0 scuttle 9S>7H",
    "P0 glasses 8D",
    "P0 queen QS",
    "P0 king KH",
    "P0 jack JC>7H",
    "P2 joker X1>QD",
    "P0 oneoff AS",
    "P0 oneoff 2C>QH",
    "P0 oneoff 9D>JS",
    "P0 oneoff 4S@P2",
    "P1 counter 2D",
    "P1 decline",
    "P0 take 5C",
    "P1 discard 4C 9H",
    "P0 discard 3D",
    "P0 seven points 6S",
    "P0 seven scuttle TD>9C",
    "P0 seven jack JH>5S",
    "P0 seven oneoff 2C>KD",
    "P0 seven scrap JH",
    "P0 resign",
    "P0 offer-draw",
    "P1 accept-draw",
    "P1 refuse-draw",
    "cards 7H",
    "cards 7H 8D 9S",
]


class TestMoveText:
    @pytest.mark.parametrize("text", SECTION_23)
    def test_section_23_examples_round_trip(self, text: str) -> None:
        move = Move.from_text(text)
        assert text == move.text()
        assert move == Move.from_text(move.text())

    def test_case_and_spaces_are_ignored(self) -> None:
        assert Move.from_text("P0 scuttle 9S>7H") == Move.from_text("  p0   SCUTTLE 9s>7h ")

    def test_fields_are_parsed(self) -> None:
        move = Move.from_text("P2 oneoff 4S@P0")
        assert ("oneoff", 2, Card.from_text("4S"), None, 0) == (
            move.action,
            move.seat,
            move.card,
            move.target,
            move.player,
        )

    def test_scorer_cards_have_no_seat(self) -> None:
        assert Move.from_text("cards 7H").seat is None

    def test_repr_can_be_pasted_back(self) -> None:
        assert "Move.from_text('P0 points 7H')" == repr(Move.from_text("P0 points 7H"))

    def test_discards_are_kept_in_card_order(self) -> None:
        assert Move.from_text("P1 discard 4C 9H") == Move.from_text("P1 discard 9H 4C")

    def test_named_cards_keep_deck_order(self) -> None:
        assert Move.from_text("cards 9S 7H").cards != Move.from_text("cards 7H 9S").cards


class TestMalformed:
    @pytest.mark.parametrize(
        "text",
        [
            "",
            "P0",
            "P0 fly",
            "P0 points 1H",
            "P0 points 10H",
            "P3 draw",
            "Q0 draw",
            "P0 draw 7H",
            "P0 points 7H>8H",
            "P0 points 7H@P1",
            "P0 jack JC@P1",
            "P0 scuttle 7H>7H",
            "P1 discard 4C 4C",
            "cards 7H 7H",
            "P0 cards 7H",
            "draw",
            "P0 scrap JH",
            "P0 seven draw",
            "P0 seven",
            "P0 decline 2C",
            "P0 oneoff 4S@P9",
        ],
    )
    def test_unreadable_lines_are_malformed(self, text: str) -> None:
        with pytest.raises(MalformedError) as e:
            Move.from_text(text)
        assert "MALFORMED" == e.value.code

    @pytest.mark.parametrize(
        "move", ["P0 oneoff X1", "P0 joker X1>QD", "P0 points X2", "P0 scuttle 9S>X1"]
    )
    def test_jokers_outside_cutthroat_are_malformed(self, move: str) -> None:
        assert "MALFORMED" == refusal(pos("standard", hands="9S / -"), move)

    def test_a_third_seat_outside_cutthroat_is_malformed(self) -> None:
        assert "MALFORMED" == refusal(pos("classic", hands="4S / 5C"), "P0 oneoff 4S@P2")
        assert "MALFORMED" == refusal(pos("classic", hands="4S / 5C"), "P2 draw")

    def test_joker_is_readable_in_cutthroat(self) -> None:
        p = pos("cutthroat", hands="X1 / - / -", perms="- / QD / -")
        assert Move.from_text("P0 joker X1>QD") in legal_moves(p)
