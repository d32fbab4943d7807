"""The §17 rejection codes, each alone and in precedence order (the first code wins)."""

from __future__ import annotations

import pytest

from domain.cards import Card
from domain.cuttle import Move, Position, is_legal, legal_moves, read
from domain.cuttle.rules import apply, decide, step
from domain.errors import IllegalMoveError
from tests.cuttle.helpers import play, pos, refusal

OVER = "result goal P1"


class TestPrecedence:
    def test_malformed_before_round_over(self) -> None:
        p = pos(hands="- / -", phase="ROUND_OVER", extra=OVER)
        assert "MALFORMED" == refusal(p, "P0 fly")

    def test_round_over_before_not_your_turn(self) -> None:
        p = pos(hands="- / -", phase="ROUND_OVER", extra=OVER)
        assert "ROUND_OVER" == refusal(p, "P1 draw")
        assert "ROUND_OVER" == refusal(p, "P0 resign")

    def test_not_your_turn_before_wrong_phase(self) -> None:
        assert "NOT_YOUR_TURN" == refusal(pos(hands="- / 2C"), "P1 decline")

    def test_wrong_phase_before_card_checks(self) -> None:
        p = play(pos(hands="AS / 9C"), "P0 oneoff AS")
        assert "WRONG_PHASE" == refusal(p, "P1 points KH")

    def test_card_not_available_before_frozen_and_type(self) -> None:
        assert "CARD_NOT_AVAILABLE" == refusal(pos(hands="7H / KH"), "P0 points KH")

    def test_frozen_before_wrong_card_type(self) -> None:
        p = pos(hands="KH / -", extra="frozen KH")
        assert "CARD_FROZEN" == refusal(p, "P0 points KH")

    def test_wrong_card_type_before_deck_empty(self) -> None:
        assert "WRONG_CARD_TYPE" == refusal(pos(hands="8C / -", deck="-"), "P0 oneoff 8C")

    def test_deck_empty_before_hand_limit(self) -> None:
        hand = "AC 2C 3C 4C 5C 6C 7C 8C"
        assert "DECK_EMPTY" == refusal(pos(hands=f"{hand} / -", deck="-"), "P0 draw")

    def test_no_effect_before_invalid_target(self) -> None:
        assert "NO_EFFECT" == refusal(pos(hands="3C / -"), "P0 oneoff 3C>7H")
        assert "NO_EFFECT" == refusal(pos(hands="4C / -"), "P0 oneoff 4C>7H")

    def test_invalid_target_before_protection(self) -> None:
        p = pos(hands="2C / -", points="- / 7H[JD:P1,JS:P0,JH:P1]", perms="- / QS")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 2C>JS")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>JH")

    def test_name_cards_refuses_player_actions_first(self) -> None:
        p = play(pos(hands="- / -", deck="?5"), "P0 draw")
        assert "WRONG_PHASE" == refusal(p, "P1 draw")
        assert "WRONG_PHASE" == refusal(p, "P7 fly away")
        with pytest.raises(IllegalMoveError) as e:
            decide(p, "P0 points 9Z")
        assert "WRONG_PHASE" == e.value.code
        assert "MALFORMED" == refusal(p, "cards 9Z")
        assert "ROUND_OVER" == refusal(apply(p, "P1 resign"), "cards 7H")


class TestGeneral:
    def test_wrong_phase_for_choices_not_pending(self) -> None:
        p = pos(hands="5C / -")
        for move in ("P0 take 5C", "P0 discard 5C", "P0 seven points 5C", "P0 accept-draw"):
            assert "WRONG_PHASE" == refusal(p, move)

    def test_cards_with_a_known_deck_is_wrong_phase(self) -> None:
        assert "WRONG_PHASE" == refusal(pos(hands="- / -", deck="7H"), "cards 7H")

    def test_four_player_choosing_the_discard(self) -> None:
        p = play(pos(hands="4S 9C / 5D 8C"), "P0 oneoff 4S", "P1 decline")
        assert "NOT_YOUR_TURN" == refusal(p, "P0 discard 9C")

    def test_opponent_choosing_the_five_discard(self) -> None:
        p = play(pos(hands="5S 9C / 5D", deck="?9"), "P0 oneoff 5S", "P1 decline")
        assert "NOT_YOUR_TURN" == refusal(p, "P1 discard 5D")


class TestDrawPass:
    def test_draw_with_an_empty_deck(self) -> None:
        assert "DECK_EMPTY" == refusal(pos(deck="-"), "P0 draw")

    def test_draw_at_the_limit(self) -> None:
        hand = "AC 2C 3C 4C 5C 6C 7C"
        assert "HAND_LIMIT" == refusal(pos("cutthroat", hands=f"{hand} / - / -"), "P0 draw")

    def test_pass_with_cards_in_the_deck(self) -> None:
        assert "DECK_NOT_EMPTY" == refusal(pos(hands="7H / -"), "P0 pass")


class TestCardTypes:
    @pytest.mark.parametrize(
        "move",
        [
            "P0 points JH",
            "P0 points QH",
            "P0 scuttle KH>2C",
            "P0 glasses 7H",
            "P0 queen KH",
            "P0 king QH",
            "P0 jack 7H>2C",
            "P0 oneoff TH",
            "P0 oneoff 8C",
            "P0 oneoff JH>2C",
        ],
    )
    def test_wrong_card_type(self, move: str) -> None:
        p = pos(hands="JH QH KH 7H TH 8C / -", points="- / 2C")
        assert "WRONG_CARD_TYPE" == refusal(p, move)

    def test_joker_action_with_a_non_joker(self) -> None:
        p = pos("cutthroat", hands="KH X1 / - / -", perms="- / QD / -")
        assert "WRONG_CARD_TYPE" == refusal(p, "P0 joker KH>QD")
        assert "WRONG_CARD_TYPE" == refusal(p, "P0 points X1")
        assert "WRONG_CARD_TYPE" == refusal(p, "P0 oneoff X1")


class TestTargets:
    @pytest.mark.parametrize(
        "move",
        [
            "P0 scuttle 9C",
            "P0 scuttle 9C>4H",
            "P0 scuttle 9C>JD",
            "P0 scuttle 9C>KS",
            "P0 scuttle 9C>3S",
            "P0 jack JC",
            "P0 jack JC>KS",
            "P0 jack JC>JD",
            "P0 jack JC>4H",
            "P0 oneoff 2C",
            "P0 oneoff 2C>2D",
            "P0 oneoff 9S>4H",
            "P0 oneoff 9S>2H",
            "P0 oneoff AS>2D",
            "P0 oneoff 6S@P1",
            "P0 oneoff 9S>2D@P1",
            "P0 oneoff 4D@P0",
            "P0 oneoff 4D>2D",
        ],
    )
    def test_invalid_target_in_standard(self, move: str) -> None:
        p = pos(
            hands="9C JC 2C 9S AS 6S 4D / 3S 2H",
            points="4H / 2D[JD:P1]",
            perms="- / KS",
            scrap="5C",
        )
        assert "INVALID_TARGET" == refusal(p, move)

    def test_four_is_listed_once_in_two_player(self) -> None:
        p = pos(hands="4D / 3S")
        four = Card.from_text("4D")
        fours = [m.text() for m in _legal(p) if m.action == "oneoff" and m.card == four]
        assert ["P0 oneoff 4D"] == fours

    def test_four_naming_the_opponent_in_two_player_is_the_same_move(self) -> None:
        p = pos(hands="4D / 3S")
        assert decide(p, "P0 oneoff 4D") == decide(p, "P0 oneoff 4D@P1")
        assert read(p, Move.from_text("P0 oneoff 4D@P1")) == Move.from_text("P0 oneoff 4D")

    def test_cutthroat_four_naming_nobody(self) -> None:
        assert "INVALID_TARGET" == refusal(pos("cutthroat", hands="4D / 3S / 5S"), "P0 oneoff 4D")

    def test_cutthroat_four_at_an_empty_hand(self) -> None:
        assert "NO_EFFECT" == refusal(pos("cutthroat", hands="4D / - / 5S"), "P0 oneoff 4D@P1")

    def test_three_taking_a_card_not_in_the_scrap(self) -> None:
        p = play(pos(hands="3C 9H / -", scrap="5C"), "P0 oneoff 3C", "P1 decline")
        assert "INVALID_TARGET" == refusal(p, "P0 take 9H")

    def test_classic_nine_cannot_target_a_point_card(self) -> None:
        assert "INVALID_TARGET" == refusal(
            pos("classic", hands="9S / -", points="- / 4H"), "P0 oneoff 9S>4H"
        )


class TestFourWithATarget:
    """A 2-player four naming a card and the opponent is refused, not recorded as the
    bare four (see #29: ``read`` dropped the card)."""

    @pytest.mark.parametrize("variant", ["classic", "standard"])
    def test_four_naming_a_card_and_the_opponent(self, variant: str) -> None:
        p = pos(variant, hands="9C / 4H 5D", points="3H / -", turn=1)
        for text in ("P1 oneoff 4H>3H@P0", "P1 oneoff 4H>3H"):
            assert "INVALID_TARGET" == refusal(p, text)
            for _ in range(2):  # the second time ``step`` knows the text
                with pytest.raises(IllegalMoveError) as e:
                    step(p, text)
                assert "INVALID_TARGET" == e.value.code
        assert not is_legal(p, Move.from_text("P1 oneoff 4H>3H@P0"))

    @pytest.mark.parametrize("variant", ["classic", "standard"])
    def test_seven_four_naming_a_card_and_the_opponent(self, variant: str) -> None:
        p = pos(variant, hands="7S / 9C", points="- / TS", deck="4D 2H 3H")
        p = play(p, "P0 oneoff 7S", "P1 decline")
        for text in ("P0 seven oneoff 4D>TS@P1", "P0 seven oneoff 4D>TS"):
            assert "INVALID_TARGET" == refusal(p, text)
            with pytest.raises(IllegalMoveError) as e:
                step(p, text)
            assert "INVALID_TARGET" == e.value.code
        assert decide(p, "P0 seven oneoff 4D") == decide(p, "P0 seven oneoff 4D@P1")


class TestQueenProtection:
    def test_one_queen_protects_everything_but_itself_in_standard(self) -> None:
        p = pos(hands="2C 9S JC / -", points="- / 4H[JD:P0,JH:P1]", perms="- / QS KS")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>KS")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 9S>4H")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>JH")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 jack JC>4H")
        assert "P0 oneoff 2C>QS" in {m.text() for m in _legal(p)}

    def test_two_queens_protect_each_other_in_standard(self) -> None:
        p = pos(hands="2C / -", perms="- / QS QH")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>QS")

    def test_classic_queens_never_protect_queens(self) -> None:
        p = pos("classic", hands="2C / -", perms="- / QS QH KS")
        assert "P0 oneoff 2C>QS" in {m.text() for m in _legal(p)}
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>KS")

    def test_own_queen_never_stops_own_effects_in_classic(self) -> None:
        p = pos("classic", hands="2C / -", perms="QS KS / -")
        assert "P0 oneoff 2C>KS" in {m.text() for m in _legal(p)}

    def test_joker_shares_its_hosts_protection(self) -> None:
        p = pos("cutthroat", hands="2C X2 / - / -", perms="- / QH[X1:P1] KS / -")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 oneoff 2C>KS")
        assert "P0 oneoff 2C>X1" in {m.text() for m in _legal(p)}
        p2 = pos("cutthroat", hands="2C X2 / - / -", perms="- / QH[X1:P1] QD / -")
        assert "PROTECTED_BY_QUEEN" == refusal(p2, "P0 oneoff 2C>X1")
        assert "PROTECTED_BY_QUEEN" == refusal(p2, "P0 joker X2>QH")

    def test_scuttle_ignores_queens(self) -> None:
        p = pos(hands="9C / -", points="- / 4H", perms="- / QS")
        assert "P0 scuttle 9C>4H" in {m.text() for m in _legal(p)}

    def test_message_names_the_queen_and_no_hidden_card(self) -> None:
        p = pos(hands="9S / 7C 8C", points="- / 7D", perms="- / QH")
        with pytest.raises(IllegalMoveError) as e:
            apply(p, "P0 oneoff 9S>7D")
        assert "PROTECTED_BY_QUEEN" == e.value.code
        assert "7C" not in e.value.message and "8C" not in e.value.message


class TestResolutionChoices:
    def test_wrong_discard_count_or_card(self) -> None:
        p = play(pos(hands="4S 9C / 5D 8C KH"), "P0 oneoff 4S", "P1 decline")
        assert "WRONG_DISCARD" == refusal(p, "P1 discard 5D")
        assert "WRONG_DISCARD" == refusal(p, "P1 discard 5D 8C KH")
        assert "WRONG_DISCARD" == refusal(p, "P1 discard 5D 9C")

    def test_five_discard_must_be_one_card_from_hand(self) -> None:
        p = play(pos(hands="5S 9C 8C / -", deck="?9"), "P0 oneoff 5S", "P1 decline")
        assert "WRONG_DISCARD" == refusal(p, "P0 discard 9C 8C")
        assert "WRONG_DISCARD" == refusal(p, "P0 discard 5S")

    def test_seven_card_not_revealed(self) -> None:
        p = play(pos(hands="7S 9C / -", deck="AH 2H 3H"), "P0 oneoff 7S", "P1 decline")
        assert "CARD_NOT_AVAILABLE" == refusal(p, "P0 seven points 9C")
        assert "MUST_PLAY_REVEALED" == refusal(p, "P0 seven scrap AH")

    def test_seven_play_gets_the_code_the_play_would_get(self) -> None:
        p = pos(hands="7S / -", points="- / 9D", deck="4H 2H 3H")
        p = play(p, "P0 oneoff 7S", "P1 decline")
        assert "SCUTTLE_TOO_WEAK" == refusal(p, "P0 seven scuttle 4H>9D")
        assert "WRONG_CARD_TYPE" == refusal(p, "P0 seven king 4H")


class TestNamingCards:
    def test_card_already_placed_before_wrong_count(self) -> None:
        p = play(pos(hands="7H / -", deck="?5"), "P0 draw")
        assert "CARD_NOT_AVAILABLE" == refusal(p, "cards 7H 8H")
        assert "WRONG_COUNT" == refusal(p, "cards 8H 9H")
        assert "WRONG_COUNT" == refusal(p, "cards")


def _legal(p: Position) -> list[Move]:
    return list(legal_moves(p))
