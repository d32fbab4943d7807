from __future__ import annotations

from typing import Any

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


# Codes as logs and scorers write them: canonical, other cases, space, no card at all.
card_tokens = st.one_of(
    st.sampled_from([card.text() for card in ALL_CARDS]),
    st.sampled_from([card.text().lower() for card in ALL_CARDS]),
    st.sampled_from([f" {card.text()}" for card in ALL_CARDS]),
    st.sampled_from(["10H", "ZZ", "X3", ",", "", "S"]),
)


def parsed(parse: Any, items: Any) -> tuple[Any, ...]:
    """The cards (as the shared objects' ids), or the error's code, message and details."""
    try:
        return ("parsed", [id(card) for card in parse(items)])
    except MalformedError as e:
        return ("refused", e.code, e.message, e.details)


class TestParseCards:
    """The look-up of canonical codes against the general path (``Card.from_text``)."""

    @given(st.lists(card_tokens, max_size=6), st.sampled_from([" ", "  ", "\t"]))
    def test_parses_and_refuses_as_card_by_card(self, tokens: list[str], gap: str) -> None:
        expected = parsed(lambda items: tuple(Card.from_text(i) for i in items), tokens)
        assert expected == parsed(parse_cards, tokens)
        assert expected == parsed(parse_cards, tuple(tokens))
        assert expected == parsed(parse_cards, iter(tokens))
        if all(t.strip() == t and t for t in tokens):
            assert expected == parsed(parse_cards, gap.join(tokens))

    def test_an_item_that_is_no_text_fails_as_card_by_card(self) -> None:
        """A non-string item reaches Card.from_text, whose error is not a DomainError."""
        with pytest.raises(AttributeError):
            parse_cards(["AS", ["AS"]])  # type: ignore[list-item]
