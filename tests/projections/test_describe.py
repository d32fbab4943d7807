"""Timeline sentences: one per move kind, naming only the cards the data holds.

Sentences write cards as the table draws them (10♣, ★1); the notation keeps the codes (#32).
"""

from __future__ import annotations

import pytest

from domain.cuttle.describe import describe_move as cuttle_sentence
from domain.cuttle.describe import notation as cuttle_notation
from domain.errors import MalformedError
from domain.kozel.describe import describe_move as kozel_sentence
from domain.kozel.describe import notation as kozel_notation

NAMES = ["Ann", "Bob", "Cy", "Di"]


class TestCuttleSentences:
    @pytest.mark.parametrize(
        ("move", "sentence"),
        [
            ("P0 draw", "Ann draws a card"),
            ("P1 pass", "Bob passes"),
            ("P0 points 7H", "Ann plays 7♥ for points"),
            ("P0 scuttle 9S>7H", "Ann scuttles 7♥ with 9♠"),
            ("P0 glasses 8D", "Ann plays 8♦ as glasses"),
            ("P1 queen QS", "Bob plays Q♠ as a permanent"),
            ("P1 king KH", "Bob plays K♥ as a permanent"),
            ("P0 jack JC>7H", "Ann plays J♣ to take 7♥"),
            ("P2 joker X1>QD", "Cy plays ★1 to take Q♦"),
            ("P0 oneoff AS", "Ann plays A♠ as a one-off to scrap every point card"),
            ("P0 oneoff 2C>QH", "Ann plays 2♣ as a one-off to destroy Q♥"),
            ("P0 oneoff 9D>JS", "Ann plays 9♦ as a one-off to return J♠"),
            ("P0 oneoff 4S@P2", "Ann plays 4♠ as a one-off: Cy discards two cards"),
            ("P0 oneoff 6C", "Ann plays 6♣ as a one-off to scrap every permanent"),
            ("P1 counter 2D", "Bob counters with 2♦"),
            ("P1 decline", "Bob declines to counter"),
            ("P0 take 5C", "Ann takes 5♣ from the scrap"),
            ("P1 discard 4C 9H", "Bob discards 4♣ 9♥"),
            ("P0 seven points 6S", "Ann plays 6♠ from the deck for points"),
            ("P0 seven scuttle TD>9C", "Ann scuttles 9♣ with 10♦ from the deck"),
            ("P0 seven scrap JH", "Ann scraps J♥, revealed by the seven"),
            ("P0 resign", "Ann resigns the round"),
            ("P0 offer-draw", "Ann offers a draw"),
            ("P1 accept-draw", "Bob accepts the draw"),
            ("P1 refuse-draw", "Bob refuses the draw"),
            ("cards 7H 8D", "The scorer names 7♥ 8♦"),
        ],
    )
    def test_sentence_per_move_kind(self, move: str, sentence: str) -> None:
        assert sentence == cuttle_sentence({"move": move}, NAMES)

    def test_redacted_cards_give_only_a_count(self) -> None:
        data = {"move": "cards", "count": 2}
        assert "The scorer names 2 cards that left the deck" == cuttle_sentence(data, NAMES)
        assert "cards (2 cards)" == cuttle_notation(data)

    def test_unreadable_move_is_refused(self) -> None:
        with pytest.raises(MalformedError) as e:
            cuttle_sentence({"move": "P0 fly"}, NAMES)
        assert "MALFORMED" == e.value.code


class TestKozelSentences:
    @pytest.mark.parametrize(
        ("kind", "data", "sentence", "notation"),
        [
            ("CardsLed", {"seat": 0, "cards": ["7S", "KS"]}, "Ann leads 7♠ K♠", "S0 lead 7S KS"),
            ("CardsBeaten", {"seat": 1, "cards": ["AS"]}, "Bob beats with A♠", "S1 beat AS"),
            ("CardsThrown", {"seat": 2, "cards": ["6D"]}, "Cy throws 6♦", "S2 throw 6D"),
            (
                "CardsThrown",
                {"seat": 3, "count": 2},
                "Di throws 2 cards face down",
                "S3 throw (2 cards)",
            ),
            (
                "MolodkaDeclared",
                {"seat": 1, "cards": ["6S", "7S", "8S"]},
                "Bob declares molodka",
                "S1 molodka",
            ),
            (
                "CardsDrawn",
                {"draws": [[0, "9H"], [1, "TD"]]},
                "The scorer names the cards drawn: Ann 9♥, Bob 10♦",
                "cards 9H TD",
            ),
            (
                "CardsDrawn",
                {"draws": [[0, None], [1, None]]},
                "The scorer records 2 cards drawn from the stock",
                "cards (2 cards)",
            ),
        ],
    )
    def test_sentence_and_notation(
        self, kind: str, data: dict[str, object], sentence: str, notation: str
    ) -> None:
        assert sentence == kozel_sentence(kind, data, NAMES)
        assert notation == kozel_notation(kind, data)

    def test_derived_events_are_not_moves(self) -> None:
        assert None is kozel_sentence("TrickTaken", {"winner": 1}, NAMES)
