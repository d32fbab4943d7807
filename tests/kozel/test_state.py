"""The position notation (R40), deal setups as data (R4, R5, R33, R43), and dealing."""

from __future__ import annotations

import random

import pytest

from domain.cards import Card, parse_cards
from domain.errors import InvalidSetupError, MalformedError
from domain.kozel import DealSetup, KozelOptions, Position, initial_position
from domain.kozel.pack import PACK
from domain.kozel.state import EXAMPLE
from tests.kozel.support import deck_order, new_deal, playout

START = (
    "dealer=0 leader=1 trump=9C hands=AD,6H,9S,QS/QC,7H,KS,TS/7C,7D,JH,6S/8C,6D,8D,QH "
    "stock=AS,8S,9H,JD,AH,6C,7S,9C,KC,TH,9D,8H,KD,QD,KH,JS,TC,TD,JC,AC trick=- piles=-/- "
    "tricks=0/0"
)


def reached(seed: int, steps: int) -> Position:
    position = new_deal(seed)
    for i, (before, _move) in enumerate(playout(position, random.Random(seed))):
        position = before
        if i == steps:
            break
    return position


class TestPositionText:
    def test_example_is_a_fixed_point(self) -> None:
        assert EXAMPLE == Position.from_text(EXAMPLE).text()

    def test_start_of_a_deal(self) -> None:
        assert START == new_deal(1).text()
        assert new_deal(1) == Position.from_text(START)

    @pytest.mark.parametrize(("seed", "steps"), [(s, s * 3 % 29) for s in range(12)])
    def test_positions_from_playouts_roundtrip(self, seed: int, steps: int) -> None:
        position = reached(seed, steps)
        assert position == Position.from_text(position.text())

    def test_options_are_written_when_not_default(self) -> None:
        options = KozelOptions(loss_limit=8, eggs_double_next=True, open_throws=True)
        position = new_deal(2, options=options)
        assert position.text().endswith(" rules=8+eggs+open")
        assert position == Position.from_text(position.text())

    def test_unknown_stock_and_awaited_draws(self) -> None:
        text = (
            "dealer=0 leader=3 trump=6H hands=7C/8C/9C/JC stock=?12 trick=- "
            "piles=6C,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD,TD,AD,7H,8H/9H,JH,QH,KH tricks=3/1 draw=12"
        )
        position = Position.from_text(text)
        assert (12, 12) == (position.stock_size, position.draw)
        assert text == position.text()

    @pytest.mark.parametrize(
        ("old", "new"),
        [("stock=?12", "stock=?²"), ("stock=?12", "stock=?١٢"), ("draw=12", "draw=+12")],
    )
    def test_counts_are_ascii_digits(self, old: str, new: str) -> None:
        """'²' made int() raise ValueError (no code); '١٢' was read as 12 and written back
        otherwise (#29)."""
        text = (
            "dealer=0 leader=3 trump=6H hands=7C/8C/9C/JC stock=?12 trick=- "
            "piles=6C,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD,TD,AD,7H,8H/9H,JH,QH,KH tricks=3/1 draw=12"
        )
        with pytest.raises(MalformedError) as e:
            Position.from_text(text.replace(old, new))
        assert "MALFORMED" == e.value.code

    @pytest.mark.parametrize("limit", ["²", "١٢", "+12", "1_2"])
    def test_loss_limit_is_ascii_digits(self, limit: str) -> None:
        text = new_deal(2).text() + f" rules={limit}+eggs"
        with pytest.raises(MalformedError) as e:
            Position.from_text(text)
        assert "MALFORMED" == e.value.code

    def test_face_down_pile_cards_are_marked(self) -> None:
        text = (
            "dealer=0 leader=1 trump=6H hands=-/-/-/- stock=- trick=- "
            f"piles={','.join(c.text() for c in PACK[:20])}/"
            f"{','.join(c.text() for c in PACK[20:32])},~{',~'.join(c.text() for c in PACK[32:])} "
            "tricks=2/1"
        )
        position = Position.from_text(text)
        assert parse_cards("QS KS TS AS") == position.face_down[1]
        assert text == position.text()

    @pytest.mark.parametrize(
        "text",
        [
            "dealer=0",
            START.replace("dealer=0", "dealer=4"),
            START.replace("trick=-", "trick=1?QC"),
            START.replace("tricks=0/0", "tricks=0"),
            START.replace("trump=9C", "trump=9X"),
            START + " colour=red",
            START + " rules=12+fast",
        ],
    )
    def test_rejects_unreadable_text(self, text: str) -> None:
        with pytest.raises(MalformedError) as e:
            Position.from_text(text)
        assert "MALFORMED" == e.value.code

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            ("AD,6H,9S,QS/", "AD,6H,9S,QS,AC/"),  # AC twice
            ("AD,6H,9S,QS/", "AD,6H,9S/"),  # QS nowhere
            ("stock=AS,8S,", "stock=AS,8S,QS,"),  # QS twice
            ("trick=-", "trick=2:7C"),  # 7C twice, and not S2's lead
            ("tricks=0/0", "tricks=1/0"),  # a trick with an empty pile
            ("hands=AD,6H,9S,QS/QC", "hands=AD,6H,9S,QS/QC,AC"),  # AC twice
        ],
    )
    def test_rejects_impossible_positions(self, old: str, new: str) -> None:
        with pytest.raises(InvalidSetupError) as e:
            Position.from_text(START.replace(old, new))
        assert "INVALID_POSITION" == e.value.code

    def test_rejects_unequal_hands(self) -> None:
        text = START.replace("AD,6H,9S,QS/QC,7H,KS,TS", "AD,6H,9S,QS,QC/7H,KS,TS")
        with pytest.raises(InvalidSetupError) as e:
            Position.from_text(text)
        assert "INVALID_POSITION" == e.value.code

    def test_rejects_a_failed_beat_in_the_trick(self) -> None:
        text = START.replace("QC,7H,KS,TS/7C", "7H,KS,TS/7C").replace("7C,7D,JH,6S", "7D,JH,6S")
        with pytest.raises(InvalidSetupError) as e:
            Position.from_text(text.replace("trick=-", "trick=1:QC/2+7C"))
        assert "INVALID_POSITION" == e.value.code

    def test_rejects_a_trick_of_four_plays(self) -> None:
        """A trick settles at its fourth play (R13), so no position holds four plays."""
        text = (
            "dealer=0 leader=0 trump=6H hands=-/-/-/- stock=- "
            "trick=0:6C/1~7C/2~8C/3~9C piles=JC,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD,TD,AD,"
            "6H,7H,8H,9H,JH,QH,KH,TH,AH,6S,7S,8S,9S,JS,QS,KS,TS,AS/- tricks=2/0"
        )
        with pytest.raises(InvalidSetupError) as e:
            Position.from_text(text)
        assert "INVALID_POSITION" == e.value.code


class TestDealing:
    def test_cards_go_round_from_the_dealers_left(self) -> None:
        """R4: card i goes to seat (dealer + 1 + i) mod 4."""
        deck = deck_order(3)
        p = initial_position(DealSetup(KozelOptions(), 2, 3, deck=deck, indicator_position=0))
        for i in range(16):
            assert deck[i] in p.hands[(2 + 1 + i) % 4]
        assert deck[16:] == p.stock

    def test_indicator_stays_in_its_place(self) -> None:
        """R5: the indicator is shown and put back where it was."""
        deck = deck_order(4)
        p = initial_position(DealSetup(KozelOptions(), 0, 1, deck=deck, indicator_position=9))
        assert (deck[16 + 9], deck[16:]) == (p.indicator, p.stock)

    def test_bottom_option_moves_the_indicator_under_the_stock(self) -> None:
        deck = deck_order(4)
        options = KozelOptions(trump_indicator_bottom=True)
        p = initial_position(DealSetup(options, 0, 1, deck=deck, indicator_position=9))
        assert (*deck[16:25], *deck[26:], deck[25]) == p.stock

    @pytest.mark.parametrize("where", [0, 10, 19])
    def test_any_indicator_position_is_accepted(self, where: int) -> None:
        """R33: 0 to 19, the top and bottom included."""
        setup = DealSetup(KozelOptions(), 0, 1, deck=PACK, indicator_position=where)
        assert PACK[16 + where] == initial_position(setup).indicator

    def test_physical_deck_has_an_unknown_stock(self) -> None:
        hands = tuple(PACK[i * 4 : i * 4 + 4] for i in range(4))
        setup = DealSetup(KozelOptions(), 0, 1, hands=hands, indicator=PACK[20])
        p = initial_position(setup)
        assert ((), 20, PACK[:4]) == (p.stock, p.unknown_stock, p.hands[0])


class TestDealSetup:
    def test_known_deck_data_roundtrips(self) -> None:
        setup = DealSetup(
            KozelOptions(open_throws=True), 1, 2, deck=deck_order(5), indicator_position=3
        )
        assert setup == DealSetup.from_data(setup.to_data())

    def test_physical_deck_data_roundtrips(self) -> None:
        hands = tuple(PACK[i * 4 : i * 4 + 4] for i in range(4))
        setup = DealSetup(KozelOptions(), 3, 0, hands=hands, indicator=PACK[35])
        data = setup.to_data()
        assert ["6C", "7C", "8C", "9C"] == data["hands"][0] and "AS" == data["indicator"]
        assert setup == DealSetup.from_data(data)

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"deck": PACK[:35], "indicator_position": 0},
            {"deck": (*PACK[:35], PACK[0]), "indicator_position": 0},
            {"deck": PACK, "indicator_position": 20},
            {"deck": PACK, "indicator_position": None},
            {"hands": (PACK[:4], PACK[4:8], PACK[8:12], PACK[12:15]), "indicator": PACK[20]},
            {"hands": (PACK[:4], PACK[4:8], PACK[8:12], PACK[12:16]), "indicator": PACK[0]},
            {"deck": PACK, "indicator_position": 0, "indicator": PACK[16]},
            {},
        ],
    )
    def test_rejects_bad_cards(self, kwargs: dict) -> None:  # type: ignore[type-arg]
        with pytest.raises(InvalidSetupError) as e:
            DealSetup(KozelOptions(), 0, 1, **kwargs)
        assert "INVALID_DECK" == e.value.code

    def test_cards_built_apart_from_the_shared_ones_make_the_same_deal(self) -> None:
        """Equal cards that are not the shared objects (``Card(r, s)``) take the general
        pack test and the deal holds the shared objects all the same."""
        copies = tuple(Card(c.rank, c.suit) for c in deck_order(3))
        setup = DealSetup(KozelOptions(), 0, 1, deck=copies, indicator_position=4)
        expected = initial_position(
            DealSetup(KozelOptions(), 0, 1, deck=deck_order(3), indicator_position=4)
        )
        assert expected == initial_position(setup)
        assert all(c is PACK[PACK.index(c)] for h in initial_position(setup).hands for c in h)

    @pytest.mark.parametrize("shared", [True, False])
    def test_rejects_a_deck_with_a_card_twice(self, shared: bool) -> None:
        deck = (*PACK[:35], PACK[0] if shared else Card(PACK[0].rank, PACK[0].suit))
        with pytest.raises(InvalidSetupError) as e:
            DealSetup(KozelOptions(), 0, 1, deck=deck, indicator_position=0)
        assert "INVALID_DECK" == e.value.code

    def test_rejects_bad_seats(self) -> None:
        with pytest.raises(InvalidSetupError) as e:
            DealSetup(KozelOptions(), 4, 1, deck=PACK, indicator_position=0)
        assert "INVALID_FORMAT" == e.value.code

    def test_rejects_a_loss_limit_below_two(self) -> None:
        """R34."""
        data = DealSetup(KozelOptions(), 0, 1, deck=PACK, indicator_position=0).to_data()
        data["options"]["loss_limit"] = 1
        with pytest.raises(InvalidSetupError) as e:
            DealSetup.from_data(data)
        assert "INVALID_FORMAT" == e.value.code
