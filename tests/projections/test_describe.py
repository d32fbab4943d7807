"""Timeline sentences: one per move kind, naming only the cards the data holds."""

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
            ("P0 points 7H", "Ann plays 7H for points"),
            ("P0 scuttle 9S>7H", "Ann scuttles 7H with 9S"),
            ("P0 glasses 8D", "Ann plays 8D as glasses"),
            ("P1 queen QS", "Bob plays QS as a permanent"),
            ("P1 king KH", "Bob plays KH as a permanent"),
            ("P0 jack JC>7H", "Ann plays JC to take 7H"),
            ("P2 joker X1>QD", "Cy plays X1 to take QD"),
            ("P0 oneoff AS", "Ann plays AS as a one-off to scrap every point card"),
            ("P0 oneoff 2C>QH", "Ann plays 2C as a one-off to destroy QH"),
            ("P0 oneoff 9D>JS", "Ann plays 9D as a one-off to return JS"),
            ("P0 oneoff 4S@P2", "Ann plays 4S as a one-off: Cy discards two cards"),
            ("P0 oneoff 6C", "Ann plays 6C as a one-off to scrap every permanent"),
            ("P1 counter 2D", "Bob counters with 2D"),
            ("P1 decline", "Bob declines to counter"),
            ("P0 take 5C", "Ann takes 5C from the scrap"),
            ("P1 discard 4C 9H", "Bob discards 4C 9H"),
            ("P0 seven points 6S", "Ann plays 6S from the deck for points"),
            ("P0 seven scuttle TD>9C", "Ann scuttles 9C with TD from the deck"),
            ("P0 seven scrap JH", "Ann scraps JH, revealed by the seven"),
            ("P0 resign", "Ann resigns the round"),
            ("P0 offer-draw", "Ann offers a draw"),
            ("P1 accept-draw", "Bob accepts the draw"),
            ("P1 refuse-draw", "Bob refuses the draw"),
            ("cards 7H 8D", "The scorer names 7H 8D"),
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
            ("CardsLed", {"seat": 0, "cards": ["7S", "KS"]}, "Ann leads 7S KS", "S0 lead 7S KS"),
            ("CardsBeaten", {"seat": 1, "cards": ["AS"]}, "Bob beats with AS", "S1 beat AS"),
            ("CardsThrown", {"seat": 2, "cards": ["6D"]}, "Cy throws 6D", "S2 throw 6D"),
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
                "The scorer names the cards drawn: Ann 9H, Bob TD",
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
