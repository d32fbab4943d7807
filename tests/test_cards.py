from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import Card, deck, format_cards, parse_cards
from domain.errors import MalformedError

ALL_CARDS = deck(jokers=True)


class TestCard:
    @given(st.sampled_from(ALL_CARDS))
    def test_text_roundtrips(self, card: Card) -> None:
        assert card is Card.from_text(card.text())

    @given(st.sampled_from(ALL_CARDS))
    def test_repr_reads_back(self, card: Card) -> None:
        assert card == eval(repr(card), {"Card": Card})

    def test_a_failing_example_can_print_its_cards(self) -> None:
        # Hypothesis prints a falsifying example with its own pretty-printer, which
        # read every annotated attribute (an unset ClassVar once made it raise).
        from hypothesis.vendor.pretty import pretty

        assert "[Card(rank='7', suit='H')]" == pretty([Card.from_text("7H")])

    def test_normalises_case_and_space(self) -> None:
        assert Card.from_text("TH") is Card.from_text(" th ")

    @pytest.mark.parametrize("text", ["10H", "1H", "", "X3", "A H", "ZZ", "7", "JOKER"])
    def test_rejects_non_cards(self, text: str) -> None:
        with pytest.raises(MalformedError) as e:
            Card.from_text(text)
        assert "MALFORMED" == e.value.code

    def test_jokers_have_no_suit_order(self) -> None:
        assert Card.from_text("X2").is_joker
        assert not Card.from_text("KS").is_joker


class TestDeck:
    def test_sizes(self) -> None:
        assert (52, 54, 36) == (len(deck()), len(deck(jokers=True)), len(deck("6789TJQKA")))

    def test_every_card_once(self) -> None:
        assert len(set(ALL_CARDS)) == len(ALL_CARDS)

    def test_format_and_parse_roundtrip(self) -> None:
        assert ALL_CARDS == parse_cards(format_cards(ALL_CARDS))
