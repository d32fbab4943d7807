"""Every main action and one-off effect (§6, §8-§15), per variant where they differ (§1)."""

from __future__ import annotations

import pytest

from domain.cards import Card, deck
from domain.cuttle import (
    Phase,
    RoundSetup,
    Termination,
    Variant,
    controller,
    goal,
    initial_position,
    legal_moves,
    service_moves,
    totals,
)
from domain.cuttle.rules import apply
from tests.cuttle.helpers import play, pos, refusal


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.from_text(c) for c in text.split())


class TestDeal:
    def test_canonical_deal_gives_dealer_six_last(self) -> None:
        p = initial_position(RoundSetup(Variant.CLASSIC, dealer=0, deck=deck()))
        assert cards("AC 3C 5C 7C 9C") == p.hands[1]
        assert cards("2C 4C 6C 8C TC JC") == p.hands[0]
        assert 41 == len(p.deck) and 1 == p.turn

    def test_cutthroat_deals_five_each_from_the_dealers_left(self) -> None:
        p = initial_position(RoundSetup(Variant.CUTTHROAT, dealer=2, deck=deck(jokers=True)))
        assert [5, 5, 5] == [len(h) for h in p.hands]
        assert Card.from_text("AC") in p.hands[0]
        assert 39 == len(p.deck) and 0 == p.turn


class TestDrawAndPoints:
    def test_draw_takes_the_top_card_and_ends_the_turn(self) -> None:
        p = play(pos(hands="- / -", deck="7H 8C"), "P0 draw")
        assert cards("7H") == p.hands[0] and 1 == p.turn

    def test_points_make_a_stack_owned_and_controlled(self) -> None:
        p = play(pos(hands="7H / -"), "P0 points 7H")
        assert (7, 0) == totals(p)
        assert 0 == controller(p.stacks[0], p.variant)

    def test_points_can_win_at_once(self) -> None:
        p = play(pos(hands="TH / -", points="TS 2C / -"), "P0 points TH")
        assert Termination.GOAL == p.result.termination and 0 == p.result.winner  # type: ignore[union-attr]


class TestScuttle:
    @pytest.mark.parametrize(
        ("attacker", "target", "ok"),
        [("8C", "7S", True), ("7H", "7D", True), ("7H", "7C", True), ("7H", "7S", False)],
    )
    def test_rank_then_suit(self, attacker: str, target: str, ok: bool) -> None:
        p = pos(hands=f"{attacker} / -", points=f"- / {target}")
        move = f"P0 scuttle {attacker}>{target}"
        if ok:
            after = apply(p, move)
            assert cards(f"{attacker} {target}") == after.scrap
        else:
            assert "SCUTTLE_TOO_WEAK" == refusal(p, move)

    def test_nothing_beats_the_ten_of_spades(self) -> None:
        p = pos(hands="TH / -", points="- / TS")
        assert "SCUTTLE_TOO_WEAK" == refusal(p, "P0 scuttle TH>TS")

    def test_scuttle_scraps_the_jacks_and_may_hit_your_own_card(self) -> None:
        p = pos(hands="9C / -", points="5H[JS:P1] / -")
        after = apply(p, "P0 scuttle 9C>5H")
        assert cards("9C 5H JS") == after.scrap and () == after.stacks

    def test_scuttle_ignores_queens(self) -> None:
        p = pos(hands="9C / -", points="- / 5H", perms="- / QS")
        assert () == apply(p, "P0 scuttle 9C>5H").stacks


class TestPermanents:
    def test_king_lowers_the_goal_and_can_win(self) -> None:
        p = pos(hands="KH / -", points="9C 5C / -")
        after = apply(p, "P0 king KH")
        assert 14 == goal(after, 0)
        assert 0 == after.result.winner  # type: ignore[union-attr]

    @pytest.mark.parametrize(
        ("variant", "goals"),
        [
            ("classic", [21, 14, 10, 7, 5]),
            ("standard", [21, 14, 10, 5, 0]),
            ("cutthroat", [14, 9, 5, 0, 0]),
        ],
    )
    def test_goals_by_kings(self, variant: str, goals: list[int]) -> None:
        kings = ["KC", "KD", "KH", "KS"]
        others = " / -" * (2 if variant == "cutthroat" else 1)
        for n in range(5):
            p = pos(variant, hands="-" + others, perms=(" ".join(kings[:n]) or "-") + others)
            assert goals[n] == goal(p, 0)

    def test_four_kings_win_standard_with_no_points(self) -> None:
        p = pos(hands="KS / -", perms="KC KD KH / -")
        assert 0 == apply(p, "P0 king KS").result.winner  # type: ignore[union-attr]

    def test_an_eight_is_points_or_glasses(self) -> None:
        p = pos(hands="8D / -")
        assert {"P0 points 8D", "P0 glasses 8D"} <= {m.text() for m in legal_moves(p)}


class TestJack:
    def test_jack_steals_a_stack(self) -> None:
        p = apply(pos(hands="JC / -", points="- / 7H"), "P0 jack JC>7H")
        assert (7, 0) == totals(p)

    def test_jack_on_jack_takes_it_back(self) -> None:
        p = pos(hands="- / JD", points="- / 7H[JC:P0]", turn=1)
        assert (0, 7) == totals(apply(p, "P1 jack JD>7H"))

    def test_classic_jack_on_own_card_hands_it_over(self) -> None:
        p = apply(pos("classic", hands="JC / -", points="7H / -"), "P0 jack JC>7H")
        assert (0, 7) == totals(p)

    @pytest.mark.parametrize("variant", ["standard", "cutthroat"])
    def test_jack_on_own_card_is_refused_outside_classic(self, variant: str) -> None:
        extra = " / -" if variant == "cutthroat" else ""
        p = pos(variant, hands="JC / -" + extra, points="7H / -" + extra)
        assert "INVALID_TARGET" == refusal(p, "P0 jack JC>7H")

    def test_cutthroat_jack_may_steal_from_either_opponent(self) -> None:
        p = pos("cutthroat", hands="JC / - / -", points="- / 7H / 3C")
        assert {"P0 jack JC>7H", "P0 jack JC>3C"} <= {m.text() for m in legal_moves(p)}

    def test_a_steal_can_win(self) -> None:
        p = pos(hands="JC / -", points="TC 5C / 7H")
        assert 0 == apply(p, "P0 jack JC>7H").result.winner  # type: ignore[union-attr]

    def test_jack_cannot_target_a_jack(self) -> None:
        p = pos(hands="JC / -", points="- / 7H[JD:P1]")
        assert "INVALID_TARGET" == refusal(p, "P0 jack JC>JD")


class TestJoker:
    def test_joker_steals_a_king_for_the_goal(self) -> None:
        p = pos("cutthroat", hands="X1 / - / -", perms="- / KD / -", points="9C / - / -")
        after = apply(p, "P0 joker X1>KD")
        assert 0 == after.result.winner  # type: ignore[union-attr]

    def test_joker_on_joker_is_named_by_the_permanent(self) -> None:
        p = pos("cutthroat", hands="- / X2 / -", perms="QD[X1:P0] / - / -", turn=1)
        after = apply(p, "P1 joker X2>QD")
        assert 1 == controller(after.permanents[0], after.variant)
        assert "INVALID_TARGET" == refusal(p, "P1 joker X2>X1")

    def test_joker_cannot_take_point_cards(self) -> None:
        p = pos("cutthroat", hands="X1 / - / -", points="- / 7H / -")
        assert "INVALID_TARGET" == refusal(p, "P0 joker X1>7H")


class TestAce:
    def test_ace_scraps_every_point_stack_but_no_permanent(self) -> None:
        p = pos(hands="AS / -", points="7H[JC:P1] / 3D", perms="QC / KD")
        after = play(p, "P0 oneoff AS", "P1 decline")
        assert () == after.stacks and 2 == len(after.permanents)
        assert cards("AS 7H JC 3D") == after.scrap

    def test_ace_is_legal_with_nothing_to_destroy(self) -> None:
        assert "P0 oneoff AS" in {m.text() for m in legal_moves(pos(hands="AS / -"))}


class TestTwo:
    def test_two_destroys_a_permanent_with_its_jokers(self) -> None:
        p = pos("cutthroat", hands="2C / - / -", perms="- / KD[X1:P2] / -")
        after = play(p, "P0 oneoff 2C>KD", "P1 decline", "P2 decline")
        assert cards("2C KD X1") == after.scrap

    def test_two_on_top_jack_returns_control(self) -> None:
        p = pos(hands="2C / -", points="7H[JS:P1] / -")
        after = play(p, "P0 oneoff 2C>JS", "P1 decline")
        assert (7, 0) == totals(after)

    def test_covered_jack_is_not_a_target(self) -> None:
        p = pos(hands="2C / -", points="7H[JS:P1,JD:P0,JH:P1] / -")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 2C>JD")

    def test_two_cannot_target_a_point_card(self) -> None:
        assert "INVALID_TARGET" == refusal(pos(hands="2C / -", points="- / 7H"), "P0 oneoff 2C>7H")

    def test_classic_two_may_hit_own_permanent(self) -> None:
        p = pos("classic", hands="2C / -", perms="KD / -")
        assert "P0 oneoff 2C>KD" in {m.text() for m in legal_moves(p)}
        assert "INVALID_TARGET" == refusal(pos(hands="2C / -", perms="KD / -"), "P0 oneoff 2C>KD")

    def test_removing_top_joker_reverts_control(self) -> None:
        p = pos("cutthroat", hands="- / 2C / -", perms="QD[X1:P2] / - / -", turn=1)
        after = play(p, "P1 oneoff 2C>X1", "P2 decline", "P0 decline")
        assert 0 == controller(after.permanents[0], after.variant)


class TestThree:
    def test_three_takes_a_card_and_then_is_scrapped(self) -> None:
        p = play(pos(hands="3C / -", scrap="KD 9S"), "P0 oneoff 3C", "P1 decline")
        assert Phase.RESOLVE_THREE == p.phase
        after = apply(p, "P0 take KD")
        assert cards("KD") == after.hands[0] and cards("9S 3C") == after.scrap

    def test_standard_three_cannot_take_a_three(self) -> None:
        assert "NO_EFFECT" == refusal(pos(hands="3C / -", scrap="3D"), "P0 oneoff 3C")
        p = play(pos(hands="3C / -", scrap="3D 4D"), "P0 oneoff 3C", "P1 decline")
        assert "INVALID_TARGET" == refusal(p, "P0 take 3D")

    def test_classic_three_may_take_a_three(self) -> None:
        p = play(pos("classic", hands="3C / -", scrap="3D"), "P0 oneoff 3C", "P1 decline")
        assert cards("3D") == apply(p, "P0 take 3D").hands[0]

    def test_three_may_take_the_counter_twos_but_never_itself(self) -> None:
        p = pos(hands="3C 2S / 2D", scrap="9S")
        p = play(p, "P0 oneoff 3C", "P1 counter 2D", "P0 counter 2S", "P1 decline")
        assert Phase.RESOLVE_THREE == p.phase
        assert {"P0 take 2D", "P0 take 2S", "P0 take 9S"} == {
            m.text() for m in legal_moves(p) if m.action == "take"
        }


class TestFour:
    def test_opponent_discards_two(self) -> None:
        p = play(pos(hands="4S / 5D 8C KH"), "P0 oneoff 4S", "P1 decline")
        assert Phase.RESOLVE_FOUR == p.phase and (1,) == (p.victim,)
        after = apply(p, "P1 discard 5D KH")
        assert cards("8C") == after.hands[1] and cards("4S 5D KH") == after.scrap
        assert 1 == after.turn

    def test_one_card_is_still_submitted(self) -> None:
        p = play(pos(hands="4S / 5D"), "P0 oneoff 4S", "P1 decline")
        assert ["P1 discard 5D"] == [m.text() for m in legal_moves(p) if m.action == "discard"]

    def test_discard_count_is_measured_at_resolution(self) -> None:
        p = pos(hands="4S 2C / 2D")
        after = play(p, "P0 oneoff 4S", "P1 counter 2D", "P0 counter 2C", "P1 decline")
        assert Phase.MAIN == after.phase and 1 == after.turn
        assert cards("4S 2C 2D") == after.scrap

    def test_cutthroat_four_names_the_victim(self) -> None:
        p = pos("cutthroat", hands="4S / 5D / 6D")
        after = play(p, "P0 oneoff 4S@P2", "P1 decline", "P2 decline")
        assert (2,) == (after.victim,)
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 4S")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 4S@P0")

    def test_frozen_cards_may_be_discarded(self) -> None:
        p = pos(hands="4S / 5D 8C", extra="frozen 5D")
        after = play(p, "P0 oneoff 4S", "P1 decline", "P1 discard 5D 8C")
        assert frozenset() == after.frozen


class TestFive:
    def test_classic_draws_two_without_limit(self) -> None:
        p = pos("classic", hands="5S 2C 3C 4C 6C 7C 8C 9C TC / -", deck="AH AD AS")
        after = play(p, "P0 oneoff 5S", "P1 decline")
        assert cards("2C 3C 4C 6C 7C 8C 9C TC AH AD") == after.hands[0]
        assert cards("5S") == after.scrap

    def test_standard_discards_one_then_draws_three(self) -> None:
        p = pos(hands="5S 9C / -", deck="AH AD AS 2H")
        p = play(p, "P0 oneoff 5S", "P1 decline")
        assert Phase.RESOLVE_FIVE == p.phase
        assert "WRONG_DISCARD" == refusal(p, "P0 discard")
        after = apply(p, "P0 discard 9C")
        assert cards("AH AD AS") == after.hands[0] and cards("5S 9C") == after.scrap

    def test_five_draws_only_up_to_the_limit(self) -> None:
        p = pos(hands="5S 2C 3C 4C 6C 7C 8C 9C / -", deck="AH AD AS 2H")
        after = play(p, "P0 oneoff 5S", "P1 decline", "P0 discard 2C")
        assert 8 == len(after.hands[0]) and ("AS", "2H") == tuple(c.text() for c in after.deck)  # type: ignore[union-attr]

    def test_empty_hand_skips_the_discard(self) -> None:
        after = play(pos(hands="5S / -", deck="AH"), "P0 oneoff 5S", "P1 decline")
        assert cards("AH") == after.hands[0]

    def test_five_needs_a_deck(self) -> None:
        assert "DECK_EMPTY" == refusal(pos(hands="5S / -", deck="-"), "P0 oneoff 5S")


class TestSix:
    def test_six_scraps_permanents_and_returns_stacks_to_owners(self) -> None:
        p = pos(hands="6S / -", points="7H[JC:P1] / 3D", perms="QC / KD")
        after = play(p, "P0 oneoff 6S", "P1 decline")
        assert () == after.permanents and (7, 3) == totals(after)
        assert cards("6S JC QC KD") == after.scrap

    def test_six_can_make_the_opponent_win(self) -> None:
        p = pos(hands="6S / -", points="- / TH[JC:P0] TS 3C")
        after = play(p, "P0 oneoff 6S", "P1 decline")
        assert 1 == after.result.winner  # type: ignore[union-attr]


class TestSeven:
    def test_classic_reveals_one_and_must_play_it(self) -> None:
        p = play(pos("classic", hands="7S / -", deck="9H 2C"), "P0 oneoff 7S", "P1 decline")
        assert (Card.from_text("9H"),) == p.revealed
        assert "MUST_PLAY_REVEALED" == refusal(p, "P0 seven scrap 9H")
        after = apply(p, "P0 seven points 9H")
        assert cards("7S") == after.scrap and (9, 0) == totals(after)

    def test_classic_jack_must_go_on_own_card_when_nothing_else(self) -> None:
        p = pos("classic", hands="7S / -", points="4D / -", deck="JH 2C")
        p = play(p, "P0 oneoff 7S", "P1 decline")
        assert ["P0 seven jack JH>4D"] == [m.text() for m in legal_moves(p) if m.seven]
        assert (0, 4) == totals(apply(p, "P0 seven jack JH>4D"))

    def test_standard_reveals_two_and_the_other_stays_on_top(self) -> None:
        p = play(pos(hands="7S / -", deck="9H 2C 3C"), "P0 oneoff 7S", "P1 decline")
        after = apply(p, "P0 seven points 2C")
        assert ("9H", "3C") == tuple(c.text() for c in after.deck)  # type: ignore[union-attr]
        assert 1 == after.shown

    def test_unplayable_jacks_are_scrapped_one_by_choice(self) -> None:
        p = play(pos(hands="7S / -", deck="JH JD 3C"), "P0 oneoff 7S", "P1 decline")
        assert {"P0 seven scrap JH", "P0 seven scrap JD"} == {
            m.text() for m in legal_moves(p) if m.seven
        }
        after = apply(p, "P0 seven scrap JD")
        assert cards("7S JD") == after.scrap and "JH" == after.deck[0].text()  # type: ignore[union-attr]

    def test_last_card_five_cannot_be_a_one_off_but_must_be_played(self) -> None:
        p = play(pos(hands="7S / 9C", deck="5H"), "P0 oneoff 7S", "P1 decline")
        assert "DECK_EMPTY" == refusal(p, "P0 seven oneoff 5H")
        assert "MUST_PLAY_REVEALED" == refusal(p, "P0 seven scrap 5H")

    def test_a_three_through_a_seven_may_take_the_seven(self) -> None:
        p = play(pos(hands="7S / -", deck="3H"), "P0 oneoff 7S", "P1 decline")
        p = play(p, "P0 seven oneoff 3H", "P1 decline")
        assert cards("7S") == apply(p, "P0 take 7S").hands[0]

    def test_a_revealed_one_off_opens_its_own_chain(self) -> None:
        p = play(pos(hands="7S / 2D", deck="AH 5C"), "P0 oneoff 7S", "P1 decline")
        p = apply(p, "P0 seven oneoff AH")
        assert Phase.COUNTER == p.phase and ((Card.from_text("AH"), 0),) == p.chain
        after = play(p, "P1 counter 2D", "P0 decline")
        assert cards("7S AH 2D") == after.scrap and 1 == after.turn


class TestNine:
    def test_standard_nine_returns_a_point_card_frozen(self) -> None:
        p = pos(hands="9S / -", points="- / 7H[JC:P0] 3D")
        after = play(p, "P0 oneoff 9S>3D", "P1 decline")
        assert cards("3D") == after.hands[1] and cards("3D") == after.frozen
        assert "CARD_FROZEN" == refusal(after, "P1 points 3D")

    def test_stolen_card_returns_to_its_controller(self) -> None:
        p = pos(hands="- / 9S", points="- / 7H[JC:P0]", turn=1)
        after = play(p, "P1 oneoff 9S>7H", "P0 decline")
        assert cards("7H") == after.hands[0] and cards("9S JC") == after.scrap

    def test_returned_jack_goes_to_who_played_it(self) -> None:
        p = pos(hands="- / 9S", points="- / 7H[JC:P0]", turn=1)
        after = play(p, "P1 oneoff 9S>JC", "P0 decline")
        assert cards("JC") == after.hands[0] and (0, 7) == totals(after)

    def test_freeze_ends_with_the_holders_next_turn(self) -> None:
        p = pos(hands="9S / 2H", points="- / 3D", deck="AC AD AH AS")
        p = play(p, "P0 oneoff 9S>3D", "P1 decline")
        assert "CARD_FROZEN" == refusal(p, "P1 points 3D")
        p = play(p, "P1 draw")
        assert frozenset() == p.frozen
        assert "P0 draw" in {m.text() for m in legal_moves(p)}

    def test_classic_nine_targets_permanents_only_and_never_freezes(self) -> None:
        p = pos("classic", hands="9S / -", points="- / 3D", perms="KH / -")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 9S>3D")
        after = play(p, "P0 oneoff 9S>KH", "P1 decline")
        assert cards("KH") == after.hands[0] and frozenset() == after.frozen

    def test_nine_may_push_a_hand_over_the_limit(self) -> None:
        p = pos(hands="9S / 2C 3C 4C 5C 6C 7C 8C 9C", points="- / TH")
        after = play(p, "P0 oneoff 9S>TH", "P1 decline")
        assert 9 == len(after.hands[1])
        assert "HAND_LIMIT" == refusal(after, "P1 draw")


class TestHandLimit:
    @pytest.mark.parametrize(("variant", "limit"), [("standard", 8), ("cutthroat", 7)])
    def test_draw_is_refused_at_the_limit(self, variant: str, limit: int) -> None:
        hand = " ".join(["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"][:limit])
        extra = " / -" if variant == "cutthroat" else ""
        assert "HAND_LIMIT" == refusal(pos(variant, hands=f"{hand} / -{extra}"), "P0 draw")

    def test_classic_has_no_limit(self) -> None:
        hand = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"
        assert "P0 draw" in {m.text() for m in legal_moves(pos("classic", hands=f"{hand} / -"))}


class TestPassing:
    def test_three_passes_draw_the_round(self) -> None:
        p = play(pos(hands="- / -", deck="-"), "P0 pass", "P1 pass")
        assert 2 == p.passes
        after = apply(p, "P0 pass")
        assert Termination.THREE_PASSES == after.result.termination  # type: ignore[union-attr]

    def test_a_main_action_resets_the_pass_count(self) -> None:
        p = play(pos(hands="- / 7H", deck="-"), "P0 pass", "P1 points 7H")
        assert 0 == p.passes

    def test_a_fizzled_one_off_resets_the_pass_count(self) -> None:
        p = play(pos(hands="- / AS", deck="-", extra="passes 1"), "P0 pass")
        p = apply(p, "P1 oneoff AS")
        assert 0 == p.passes

    def test_counters_do_not_touch_the_pass_count(self) -> None:
        p = pos(hands="AS / 2D", deck="-", extra="passes 2", turn=0)
        p = play(p, "P0 oneoff AS", "P1 counter 2D", "P0 decline")
        assert 0 == p.passes and 1 == p.turn

    def test_forced_pass_in_cutthroat(self) -> None:
        hand = "JC JD JH JS X1 X2 2C"
        p = pos("cutthroat", hands=f"{hand} / - / -", extra="frozen 2C")
        assert ["P0 pass"] == [m.text() for m in legal_moves(p) if m.action != "resign"][:1]
        assert 1 == apply(p, "P0 pass").passes


class TestWinCheck:
    def test_tie_goes_to_the_active_player(self) -> None:
        p = pos(hands="6S / -", points="TH[JC:P1] TS 3C / TD[JD:P0] 9D 4D")
        after = play(p, "P0 oneoff 6S", "P1 decline")
        assert 0 == after.result.winner  # type: ignore[union-attr]

    def test_tie_without_active_player_goes_by_seat_order(self) -> None:
        p = pos(
            "cutthroat",
            hands="6S / - / -",
            points="- / TH[JC:P0] 4C / TD[JD:P0] 4D",
        )
        after = play(p, "P0 oneoff 6S", "P1 decline", "P2 decline")
        assert 1 == after.result.winner  # type: ignore[union-attr]

    def test_set_up_winner_ends_at_the_first_step(self) -> None:
        p = pos(hands="- / -", points="- / TH TS 3C", deck="AC")
        assert 1 == apply(p, "P0 draw").result.winner  # type: ignore[union-attr]

    def test_shared_table_is_judged_by_each_positions_variant(self) -> None:
        # The engine reuses a table's facts while positions share its tuples; a
        # position of another variant with the very same tuples must not inherit them.
        standard = pos(hands="- / -", points="TH[JS:P1,JC:P1] / 9H 2H", deck="AC")
        classic = standard._replace(variant=Variant.CLASSIC)
        assert standard.stacks is classic.stacks
        for first, second in ((standard, classic), (classic, standard)):
            results = {p.variant: apply(p, "P0 draw").result for p in (first, second)}
            assert results[Variant.CLASSIC] is None
            assert (Termination.GOAL, 1) == (
                results[Variant.STANDARD].termination,  # type: ignore[union-attr]
                results[Variant.STANDARD].winner,  # type: ignore[union-attr]
            )


class TestServiceEndings:
    def test_two_player_resignation_gives_the_round_away(self) -> None:
        after = apply(pos(hands="7H / -"), "P1 resign")
        assert (Termination.RESIGNATION, 0, 1) == (
            after.result.termination,  # type: ignore[union-attr]
            after.result.winner,  # type: ignore[union-attr]
            after.result.resigned,  # type: ignore[union-attr]
        )

    def test_cutthroat_resignation_has_no_winner(self) -> None:
        after = apply(pos("cutthroat", hands="- / - / -"), "P2 resign")
        assert after.result.winner is None and 2 == after.result.resigned  # type: ignore[union-attr]

    def test_resignation_in_any_phase(self) -> None:
        p = play(pos(hands="AS / -"), "P0 oneoff AS")
        assert Phase.ROUND_OVER == apply(p, "P0 resign").phase

    def test_all_accept_an_agreed_draw(self) -> None:
        p = play(pos("cutthroat", hands="- / - / -"), "P0 offer-draw", "P1 accept-draw")
        assert Phase.DRAW_OFFERED == p.phase and 2 == p.responder
        after = apply(p, "P2 accept-draw")
        assert Termination.AGREED_DRAW == after.result.termination  # type: ignore[union-attr]

    def test_refusal_resumes_and_blocks_a_second_offer(self) -> None:
        p = play(pos(hands="7H / -"), "P0 offer-draw", "P1 refuse-draw")
        assert Phase.MAIN == p.phase and 0 == p.turn
        assert "WRONG_PHASE" == refusal(p, "P0 offer-draw")
        p = play(p, "P0 points 7H")
        assert "P1 offer-draw" in {m.text() for m in service_moves(p)}


class TestNineTargetsByVariant:
    def test_cutthroat_nine_returns_a_top_joker_to_its_player(self) -> None:
        p = pos("cutthroat", hands="9S / - / -", perms="- / KD[X1:P2] / -")
        after = play(p, "P0 oneoff 9S>X1", "P1 decline", "P2 decline")
        assert cards("X1") == after.hands[2] and cards("X1") == after.frozen
        assert 1 == controller(after.permanents[0], after.variant)

    def test_classic_nine_may_return_own_permanent(self) -> None:
        p = pos("classic", hands="9S / -", perms="QH / -")
        after = play(p, "P0 oneoff 9S>QH", "P1 decline")
        assert cards("QH") == after.hands[0]

    def test_standard_nine_never_targets_own_cards(self) -> None:
        p = pos(hands="9S / -", points="7H / -", perms="QH / -")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 9S>7H")
        assert "INVALID_TARGET" == refusal(p, "P0 oneoff 9S>QH")

    def test_nine_on_a_jacked_stack_scraps_the_jacks(self) -> None:
        p = pos(hands="9S / -", points="7H[JC:P1] / -")
        after = play(p, "P0 oneoff 9S>7H", "P1 decline")
        assert cards("7H") == after.hands[1] and cards("9S JC") == after.scrap


class TestRulingsAtTheEdges:
    def test_seven_needs_a_deck(self) -> None:
        """Ruling 5."""
        assert "DECK_EMPTY" == refusal(pos(hands="7S / -", deck="-"), "P0 oneoff 7S")

    def test_cutthroat_three_passes_is_one_cycle(self) -> None:
        """Ruling 19."""
        p = play(pos("cutthroat", hands="- / - / -", deck="-"), "P0 pass", "P1 pass")
        assert Termination.THREE_PASSES == apply(p, "P2 pass").result.termination  # type: ignore[union-attr]

    def test_a_winning_one_off_is_already_in_the_scrap(self) -> None:
        """Ruling 30."""
        p = pos(hands="9S / -", points="TH 2C TS[JC:P1] / -")
        after = play(p, "P0 oneoff 9S>JC", "P1 decline")
        assert 0 == after.result.winner  # type: ignore[union-attr]
        assert Card.from_text("9S") in after.scrap

    def test_classic_threes_can_loop_without_end(self) -> None:
        """Ruling 36: no length limit; the same position comes back."""
        p = pos("classic", hands="3C / 3D", scrap="3H", deck="-")
        seen = {p}
        for _ in range(12):
            seat = p.turn
            three = next(iter(p.hands[seat]))
            p = play(p, f"P{seat} oneoff {three}", f"P{1 - seat} decline")
            p = apply(p, f"P{seat} take {next(iter(p.scrap - {three}))}")
            assert p.result is None and 0 == p.passes
            seen.add(p)
        assert len(seen) < 13
