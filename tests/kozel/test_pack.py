"""Cards, rank order, points and the beating tests of rules §3 (R9)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import Card, parse_cards
from domain.errors import MalformedError
from domain.kozel.pack import (
    PACK,
    PACK_SET,
    beats,
    card_points,
    parse_kozel_cards,
    set_beats,
    sort_cards,
)
from tests.strategies import kozel_card_tokens


def c(text: str) -> Card:
    return Card.from_text(text)


class TestPack:
    def test_has_36_cards_worth_120(self) -> None:
        assert (36, 120) == (len(set(PACK)), card_points(PACK))

    def test_each_suit_holds_30(self) -> None:
        for suit in "CDHS":
            assert 30 == card_points(card for card in PACK if card.suit == suit)

    def test_ten_ranks_between_king_and_ace(self) -> None:
        assert beats(c("TS"), c("KS"), "H") and beats(c("AS"), c("TS"), "H")
        assert not beats(c("KS"), c("TS"), "H")

    def test_canonical_order_is_suit_then_rank(self) -> None:
        assert parse_cards("9C TC 6D AS") == sort_cards(parse_cards("AS 6D TC 9C"))

    def test_rejects_cards_outside_the_pack(self) -> None:
        with pytest.raises(MalformedError) as e:
            parse_kozel_cards("2H")
        assert "MALFORMED" == e.value.code


class TestParseKozelCards:
    """Kozel's parse: ``parse_cards``, then every card must be one of the 36."""

    @staticmethod
    def outcome(parse: Any, items: Any) -> tuple[Any, ...]:
        try:
            cards = parse(items)
        except MalformedError as e:
            return ("refused", e.code, e.details)
        return ("parsed", [id(card) for card in cards])

    @staticmethod
    def card_by_card(items: Any) -> tuple[Card, ...]:
        cards = parse_cards(items)
        for card in cards:
            if card not in PACK_SET:
                raise MalformedError("not a Kozel card", details={"card": card.text()})
        return cards

    @given(tokens=st.lists(kozel_card_tokens, max_size=6))
    def test_parses_and_refuses_as_card_by_card(self, tokens: list[str]) -> None:
        expected = self.outcome(self.card_by_card, tokens)
        assert expected == self.outcome(parse_kozel_cards, tokens)
        assert expected == self.outcome(parse_kozel_cards, tuple(tokens))
        assert expected == self.outcome(parse_kozel_cards, iter(tokens))
        if all(t.strip() == t and " " not in t and t for t in tokens):
            assert expected == self.outcome(parse_kozel_cards, " ".join(tokens))

    def test_gives_the_shared_card_objects(self) -> None:
        parsed = parse_kozel_cards([c.text() for c in PACK])
        assert [id(c) for c in PACK] == [id(c) for c in parsed]

    def test_an_item_that_is_no_text_fails_as_before(self) -> None:
        """A non-string item reaches Card.from_text, whose error is not a DomainError."""
        with pytest.raises(AttributeError):
            parse_kozel_cards(["AS", ["AS"]])  # type: ignore[list-item]


class TestBeats:
    """The examples of §3.4 (trumps hearts)."""

    @pytest.mark.parametrize(
        ("x", "y", "expected"),
        [
            ("9H", "7H", True),
            ("TC", "QC", True),
            ("6H", "AS", True),
            ("AS", "TD", False),
            ("TD", "AS", False),
            ("AS", "6H", False),
            ("7H", "9H", False),
        ],
    )
    def test_card_beats_card(self, x: str, y: str, expected: bool) -> None:
        assert expected == beats(c(x), c(y), "H")


class TestSetBeats:
    def test_pairing_ignores_listed_order(self) -> None:
        """§3.5: TH QH beats 9H KH (trumps clubs) as TH->KH, QH->9H."""
        assert set_beats(parse_cards("TH QH"), parse_cards("9H KH"), "C")

    def test_search_does_not_give_up_after_a_bad_first_pair(self) -> None:
        """§3.5: 8D 6D beats AS 7D (trumps diamonds) only as 8D->7D, 6D->AS."""
        assert set_beats(parse_cards("8D 6D"), parse_cards("AS 7D"), "D")
        assert set_beats(parse_cards("6D 8D"), parse_cards("7D AS"), "D")

    def test_partial_beat_fails(self) -> None:
        """R10: topping only some of the top set is no beat."""
        assert not set_beats(parse_cards("AH 6S"), parse_cards("KH 7S"), "C")
        assert not set_beats(parse_cards("AH 8S"), parse_cards("KH 9S"), "C")

    def test_one_card_cannot_cover_two(self) -> None:
        """R9: each card covers exactly one card of the top set."""
        assert not set_beats(parse_cards("AH 6S"), parse_cards("KH QH"), "C")

    def test_mixed_suits_and_trumps(self) -> None:
        assert set_beats(parse_cards("6C AH 7C 9S"), parse_cards("AD KH TS 8S"), "C")

    def test_sizes_must_match(self) -> None:
        assert not set_beats(parse_cards("AH"), parse_cards("6H 7H"), "C")
