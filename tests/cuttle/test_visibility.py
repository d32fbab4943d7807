"""What each seat and a spectator may see (§9 glasses, §16, rulings 31-32)."""

from __future__ import annotations

from typing import Any

from domain.cuttle import view
from tests.cuttle.helpers import play, pos


def hand_cards(v: dict[str, Any], seat: int) -> list[str] | None:
    cards: list[str] | None = v["hands"][seat].get("cards")
    return cards


class TestHands:
    def test_own_hand_only(self) -> None:
        p = pos(hands="7H 2C / 9S", deck="KD QD")
        v = view(p, 0)
        assert ["2C", "7H"] == hand_cards(v, 0)
        assert hand_cards(v, 1) is None and 1 == v["hands"][1]["count"]
        assert "KD" not in repr(v) and "9S" not in repr(v)

    def test_spectator_sees_no_hand(self) -> None:
        v = view(pos(hands="7H / 9S"), None)
        assert [None, None] == [hand_cards(v, 0), hand_cards(v, 1)]


class TestGlasses:
    def test_classic_glasses_expose_the_hand_to_everyone(self) -> None:
        p = pos("classic", hands="7H / 9S", perms="8D / -")
        assert ["9S"] == hand_cards(view(p, None), 1)
        assert ["9S"] == hand_cards(view(p, 0), 1)
        assert hand_cards(view(p, 1), 0) is None

    def test_standard_glasses_show_only_their_controller(self) -> None:
        p = pos(hands="7H / 9S", perms="8D / -")
        assert ["9S"] == hand_cards(view(p, 0), 1)
        assert hand_cards(view(p, None), 1) is None

    def test_cutthroat_glasses_show_both_opponents_to_the_controller_only(self) -> None:
        p = pos("cutthroat", hands="7H / 9S / 3C", perms="- / 8D / -")
        v = view(p, 1)
        assert (["7H"], ["3C"]) == (hand_cards(v, 0), hand_cards(v, 2))
        assert hand_cards(view(p, 2), 0) is None

    def test_stolen_glasses_show_hands_to_the_thief(self) -> None:
        p = pos("cutthroat", hands="7H / 9S / 3C", perms="- / 8D[X1:P2] / -")
        assert ["7H"] == hand_cards(view(p, 2), 0)
        assert hand_cards(view(p, 1), 0) is None


class TestPublicKnowledge:
    def test_frozen_cards_are_public(self) -> None:
        p = pos(hands="- / 3D 9C", extra="frozen 3D")
        assert ["3D"] == view(p, 0)["frozen"]
        assert "9C" not in repr(view(p, 0))

    def test_revealed_cards_are_public_and_the_one_put_back_stays_known(self) -> None:
        p = play(pos(hands="7S / -", deck="9H 2C 3C"), "P0 oneoff 7S", "P1 decline")
        assert ["9H", "2C"] == view(p, None)["revealed"]
        after = play(p, "P0 seven points 2C")
        v = view(after, 1)
        assert {"count": 2, "top": ["9H"]} == v["deck"]
        assert "3C" not in repr(v)

    def test_drawn_card_is_private(self) -> None:
        after = play(pos(hands="- / -", deck="9H 2C"), "P0 draw")
        assert "9H" not in repr(view(after, 1)) and "9H" not in repr(view(after, None))
        assert ["9H"] == hand_cards(view(after, 0), 0)

    def test_table_totals_and_goals_are_public(self) -> None:
        p = pos(hands="- / -", points="7H[JC:P1] / 3D", perms="KS / -")
        v = view(p, None)
        assert [0, 10] == v["totals"] and [14, 21] == v["goals"]
        assert {"stack": "7H[JC:P1]", "owner": 0, "controller": 1} in v["points"]
