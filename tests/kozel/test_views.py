"""What a seat or a spectator may see (§12, R27, R32, R38, R39)."""

from __future__ import annotations

from domain.kozel import Position, apply, view
from tests.kozel.support import make_position

HANDS = "7S 8S JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS"


def after(*commands: str, rules: str = "") -> Position:
    p = make_position(HANDS, rules=rules)
    for command in commands:
        p = apply(p, command)
    return p


class TestSeatView:
    def test_own_hand_and_only_sizes_of_the_others(self) -> None:
        v = view(after(), 1)
        assert ["6C", "7D", "AH", "KS"] == v["hand"]
        assert [4, 4, 4, 4] == v["hand_sizes"]
        assert {"6C", "7D", "AH", "KS", "9H"} >= {
            x for x in str(v).replace("'", " ").split() if len(x) == 2 and x[1] in "CDHS"
        }

    def test_stock_is_a_count_and_the_indicator_a_card(self) -> None:
        """R32: the indicator card is shown, never its place in the stock."""
        v = view(after(), 0)
        assert (20, "9H", "H") == (v["stock"], v["indicator"], v["trump"])
        assert "indicator_position" not in v

    def test_throws_are_counts_to_others_and_cards_to_their_owner(self) -> None:
        p = after("S0 lead 7S", "S1 beat KS", "S2 throw 6D")
        assert {"seat": 2, "kind": "throw", "count": 1} == view(p, 1)["trick"][2]
        assert ["6D"] == view(p, 2)["trick"][2]["cards"]
        assert ["KS"] == view(p, 3)["trick"][1]["cards"]

    def test_open_throws_shows_them_to_everyone(self) -> None:
        p = after("S0 lead 7S", "S1 beat KS", "S2 throw 6D", rules="12+open")
        assert ["6D"] == view(p, None)["trick"][2]["cards"]

    def test_only_plays_since_the_restart(self) -> None:
        """R38: after a molodka the view shows the new lead only; returned cards go home."""
        p = after("S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 molodka")
        v = view(p, 1)
        assert [{"seat": 3, "kind": "lead", "count": 4, "cards": ["JS", "QS", "TS", "AS"]}] == v[
            "trick"
        ]
        assert "KS" in v["hand"] and [4, 4, 4, 0] == v["hand_sizes"]

    def test_finished_tricks_show_face_up_cards_counts_and_no_points(self) -> None:
        """R39: trick counts and face-up cards of finished tricks; no running points."""
        p = after("S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        v = view(p, 0)
        assert [0, 1] == v["tricks"]
        assert {"face_up": ["7S", "KS", "TS"], "face_down": 1} == v["piles"][1]
        assert "card_points" not in v

    def test_can_declare_is_the_seats_own_business(self) -> None:
        p = after()
        assert view(p, 3)["can_declare_molodka"] and not view(p, 1)["can_declare_molodka"]
        assert "can_declare_molodka" not in view(p, None)


class TestPublicView:
    def test_no_hand(self) -> None:
        v = view(after("S0 lead 7S"), None)
        assert "hand" not in v and None is v["seat"]
        assert [{"seat": 0, "kind": "lead", "count": 1, "cards": ["7S"]}] == v["trick"]

    def test_card_points_once_the_deal_is_played_out(self) -> None:
        text = (
            "dealer=0 leader=2 trump=6H hands=-/-/-/- stock=- trick=- "
            "piles=6C,7C,8C,9C,JC,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD,TD,AD,6H,7H/"
            "8H,9H,JH,QH,KH,TH,AH,6S,7S,8S,9S,JS,QS,KS,TS,AS tricks=4/2"
        )
        v = view(Position.from_text(text), None)
        assert ([60, 60], 2) == (v["card_points"], v["last_trick_seat"])
