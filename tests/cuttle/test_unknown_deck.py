"""Recording with an unknown deck (§24), round set-ups from data, and the position notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import Card, deck, parse_cards
from domain.cuttle import (
    Phase,
    Position,
    RoundSetup,
    Variant,
    cards_awaited,
    initial_position,
    legal_moves,
    to_act,
)
from domain.cuttle.rules import apply
from domain.cuttle.state import hand_sizes
from domain.errors import InvalidSetupError
from tests.cuttle.helpers import play, pos, refusal
from tests.strategies import cuttle_setup


class TestNaming:
    def test_physical_deck_starts_with_an_unknown_deck(self) -> None:
        hands = (parse_cards("AC 2C 3C 4C 5C 6C"), parse_cards("AD 2D 3D 4D 5D"))
        p = initial_position(RoundSetup(Variant.STANDARD, dealer=0, hands=hands))
        assert 41 == len(p.deck) and 41 == p.deck.count(None)
        p = apply(p, "P1 draw")
        assert (Phase.NAME_CARDS, (), 1) == (p.phase, to_act(p), cards_awaited(p))
        after = apply(p, "cards KS")
        assert Card.from_text("KS") in after.hands[1] and 0 == after.turn

    def test_five_names_its_draws_after_the_discard(self) -> None:
        p = play(pos(hands="5S 9C / -", deck="?10"), "P0 oneoff 5S", "P1 decline")
        p = apply(p, "P0 discard 9C")
        assert 3 == cards_awaited(p)
        after = apply(p, "cards KS KH KD")
        assert frozenset(parse_cards("KS KH KD")) == after.hands[0]

    def test_seven_names_its_reveal_and_skips_a_known_top_card(self) -> None:
        p = play(pos(hands="7S / -", deck="?10"), "P0 oneoff 7S", "P1 decline")
        assert 2 == cards_awaited(p)
        p = play(p, "cards 9H 2C", "P0 seven points 2C")
        assert "9H" == p.deck[0].text() and p.deck[1] is None  # type: ignore[union-attr]
        p = play(p, "P1 draw")
        assert Phase.MAIN == p.phase and Card.from_text("9H") in p.hands[1]

    def test_known_top_card_plus_unknown_waits_only_for_the_unknown(self) -> None:
        p = play(pos(hands="7S / -", deck="9H ?10"), "P0 oneoff 7S", "P1 decline")
        assert 1 == cards_awaited(p)
        p = apply(p, "cards 3C")
        assert (Card.from_text("9H"), Card.from_text("3C")) == p.revealed

    def test_named_cards_must_be_placed_nowhere(self) -> None:
        p = play(pos(hands="7S / -", points="- / 4C", scrap="5C", deck="?10"), "P0 draw")
        for card in ("7S", "4C", "5C"):
            assert "CARD_NOT_AVAILABLE" == refusal(p, f"cards {card}")

    def test_legal_moves_list_every_free_card(self) -> None:
        p = play(pos(hands="7S / -", deck="?10"), "P0 draw")
        assert 51 == sum(1 for m in legal_moves(p) if m.action == "cards")


class TestPhysicalEqualsKnown:
    @given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
    def test_naming_the_real_cards_replays_the_known_round(
        self, variant: Variant, seed: int
    ) -> None:
        rng = random.Random(seed)
        setup = cuttle_setup(variant, rng)
        known = initial_position(setup)
        physical = initial_position(
            RoundSetup(variant, setup.dealer, hands=tuple(tuple(h) for h in known.hands))
        )
        steps = 0
        while known.result is None and steps < 300:
            assert _same_but_deck(known, physical)
            move = rng.choice(list(legal_moves(known)))
            before = known.deck
            known = apply(known, move)
            physical = apply(physical, move)
            if physical.phase is Phase.NAME_CARDS:
                unknown = [k for k, u in zip(before, physical.deck, strict=True) if u is None]
                named = unknown[: cards_awaited(physical)]
                physical = apply(physical, "cards " + " ".join(c.text() for c in named if c))
            steps += 1
        assert _same_but_deck(known, physical)


def _same_but_deck(known: Position, physical: Position) -> bool:
    filled = tuple(
        u if u is not None else k for k, u in zip(known.deck, physical.deck, strict=True)
    )
    return (
        filled == known.deck
        and Position.from_text(
            physical.text().replace(_deck_section(physical), _deck_section(known))
        )
        == known
    )


def _deck_section(p: Position) -> str:
    return next(s for s in p.text().split("; ") if s.startswith("deck "))


class TestRoundSetup:
    @pytest.mark.parametrize("variant", list(Variant))
    def test_data_round_trips(self, variant: Variant) -> None:
        setup = cuttle_setup(variant, random.Random(3))
        assert setup == RoundSetup.from_data(setup.to_data())
        p = initial_position(setup)
        dealt = RoundSetup(variant, setup.dealer, hands=tuple(tuple(h) for h in p.hands))
        assert dealt == RoundSetup.from_data(dealt.to_data())

    def test_hand_sizes(self) -> None:
        assert (6, 5) == hand_sizes(Variant.CLASSIC, 0)
        assert (5, 5, 5) == hand_sizes(Variant.CUTTHROAT, 1)

    @pytest.mark.parametrize(
        "data",
        [
            {"variant": "standard", "dealer": 0, "deck": "AS 2S"},
            {
                "variant": "standard",
                "dealer": 0,
                "deck": " ".join(c.text() for c in deck(jokers=True)),
            },
            {"variant": "standard", "dealer": 2, "deck": " ".join(c.text() for c in deck())},
            {"variant": "standard", "dealer": 0},
            {"variant": "standard", "dealer": 0, "hands": ["AS 2S", "3S"]},
            {"variant": "blitz", "dealer": 0, "deck": ""},
        ],
    )
    def test_bad_set_ups_are_refused(self, data: dict[str, object]) -> None:
        with pytest.raises(InvalidSetupError) as e:
            RoundSetup.from_data(data)
        assert "INVALID_DECK" == e.value.code


class TestPositionNotation:
    FULL = (
        "cutthroat; dealer P2; turn P0; phase COUNTER; deck 9H ?20; hands 2C 3C / 4C X2 / 5C; "
        "points TH[JS:P1,JC:P0] / 3D / -; permanents QS[X1:P1] / - / 8D; scrap AS; frozen 4C; "
        "passes 1; chain 9S:P0 2D:P1; target JC; responder P2; shown 1"
    )

    def test_a_full_position_round_trips(self) -> None:
        p = Position.from_text(self.FULL)
        assert self.FULL == p.text()

    def test_set_up_position_plays_on(self) -> None:
        p = play(Position.from_text(self.FULL), "P2 decline", "P0 decline")
        assert Phase.MAIN == p.phase and 1 == p.turn

    @pytest.mark.parametrize(
        "text",
        [
            "standard; dealer P0",
            "bridge; dealer P0; turn P1; phase MAIN; deck -; hands - / -; points - / -; "
            "permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck -; hands 7H / 7H; points - / -; "
            "permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck -; hands - / -; points KH / -; "
            "permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase COUNTER; deck -; hands - / -; points - / -; "
            "permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck ?50; hands 7H 8H 9H / -; "
            "points - / -; permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck -; hands X1 / -; points - / -; "
            "permanents - / -; scrap -",
            # Counts in other digits than ASCII (``isdigit`` takes them; ``int`` raised
            # ValueError on ``²``, and read ``٣`` as ``3``).
            "standard; dealer P0; turn P1; phase MAIN; deck ?\u00b2; hands - / -; "
            "points - / -; permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck ?\u0663; hands - / -; "
            "points - / -; permanents - / -; scrap -",
            "standard; dealer P0; turn P1; phase MAIN; deck ?3; hands - / -; "
            "points - / -; permanents - / -; scrap -; passes \u00b2",
        ],
    )
    def test_inconsistent_positions_are_refused(self, text: str) -> None:
        with pytest.raises(InvalidSetupError) as e:
            Position.from_text(text)
        assert "INVALID_POSITION" == e.value.code

    def test_cards_placed_nowhere_are_out_of_play_with_an_ordered_deck(self) -> None:
        p = pos(hands="3C / -", deck="7H")
        assert "NO_EFFECT" == refusal(p, "P0 oneoff 3C")


class TestSetUpFromPosition:
    TEXT = (
        "standard; dealer P0; turn P1; phase MAIN; deck ?30; hands 5C / 7H 9S JD QC; "
        "points TH / 3D; permanents - / -; scrap -"
    )

    def test_round_starts_from_the_position(self) -> None:
        setup = RoundSetup(Variant.STANDARD, 0, position=self.TEXT)
        assert setup == RoundSetup.from_data(setup.to_data())
        assert self.TEXT == initial_position(setup).text()

    def test_position_must_match_variant_and_dealer(self) -> None:
        with pytest.raises(InvalidSetupError) as e:
            RoundSetup(Variant.STANDARD, 1, position=self.TEXT)
        assert "INVALID_POSITION" == e.value.code


class TestNamingCount:
    def test_count_matches_the_listed_moves(self) -> None:
        p = play(pos(hands="7S / -", deck="?10"), "P0 oneoff 7S", "P1 decline")
        assert sum(1 for _ in legal_moves(p)) == legal_moves(p).count()
