"""Every refusal code of §13, one code per refusal, in the documented order (R30, R31, R41)."""

from __future__ import annotations

import pytest

from domain.cards import parse_cards
from domain.errors import DomainError
from domain.kozel import Move, Position, apply, decide, legal_moves
from tests.kozel.support import make_position

# Trumps hearts; S0 is due to lead; S3 holds a molodka of spades.
HANDS = "7S 8S JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS"
# Molodkas for S0 (clubs), S1 (diamonds) and S2 (spades).
MOLODKAS = "6C 7C 8C 9C/6D 7D 8D 9D/6S 7S 8S 9S/JC QD AH KS"


def refusal(position: Position, command: str | Move) -> str:
    """The code with which ``decide`` refuses; ``apply`` must refuse with the same one."""
    with pytest.raises(DomainError) as e:
        decide(position, command)
    with pytest.raises(DomainError) as again:
        apply(position, command)
    assert e.value.code == again.value.code
    assert command not in legal_moves(position) if isinstance(command, Move) else True
    return e.value.code


@pytest.fixture(name="start")
def _start() -> Position:
    return make_position(HANDS)


@pytest.fixture(name="led")
def _led() -> Position:
    """S0 has led 7S."""
    return make_position(HANDS.replace("7S ", ""), trick="0:7S")


@pytest.fixture(name="naming")
def _naming() -> Position:
    """A physical deck after the first trick: S1 took it, four cards await naming."""
    text = (
        "dealer=3 leader=1 trump=9H hands=8S,JC,QD/6C,7D,AH/9C,6D,8D/JS,QS,AS "
        "stock=?20 trick=- piles=-/7S,KS,TS,~9S tricks=0/1 draw=4"
    )
    return Position.from_text(text)


class TestCardsPending:
    @pytest.mark.parametrize("command", ["S1 lead 6C", "S3 molodka", "S9 dance 1H", "", "S0"])
    def test_player_action_while_cards_await_naming(self, naming: Position, command: str) -> None:
        """Check 2a comes before 3: even unreadable player actions are CARDS_PENDING."""
        assert "CARDS_PENDING" == refusal(naming, command)

    def test_move_objects_too(self, naming: Position) -> None:
        assert "CARDS_PENDING" == refusal(naming, Move.from_text("S1 lead 6C"))


class TestMalformed:
    @pytest.mark.parametrize("command", ["S0 lead 10H", "S0 lead 1H", "S4 lead 7S", "S0 fold"])
    def test_unreadable_text(self, start: Position, command: str) -> None:
        assert "MALFORMED" == refusal(start, command)

    @pytest.mark.parametrize(
        "move",
        [
            Move("lead", 7, parse_cards("7S")),
            Move("lead", 0, parse_cards("2S")),
            Move("pass", 0),
            Move("cards", 1, parse_cards("7S")),
        ],
    )
    def test_bad_move_values(self, start: Position, move: Move) -> None:
        assert "MALFORMED" == refusal(start, move)

    def test_malformed_cards_action_while_naming(self, naming: Position) -> None:
        assert "MALFORMED" == refusal(naming, "cards 7C 5C 8C QC")


class TestNotYourTurn:
    @pytest.mark.parametrize("command", ["S1 lead 6C", "S1 beat KS", "S1 throw 6C"])
    def test_before_the_lead_only_the_leader_leads(self, start: Position, command: str) -> None:
        assert "NOT_YOUR_TURN" == refusal(start, command)

    @pytest.mark.parametrize("command", ["S0 lead 8S", "S1 lead KS", "S2 throw 6D", "S3 beat AS"])
    def test_after_the_lead_only_the_next_seat_answers(self, led: Position, command: str) -> None:
        assert "NOT_YOUR_TURN" == refusal(led, command)

    def test_no_second_play_in_a_trick(self, led: Position) -> None:
        """R13."""
        p = apply(led, "S1 beat KS")
        assert "NOT_YOUR_TURN" == refusal(p, "S1 throw 6C")

    def test_cards_with_a_known_stock(self, start: Position) -> None:
        assert "NOT_YOUR_TURN" == refusal(start, "cards 9H 7C 8C QC")

    def test_cards_when_none_are_awaited(self, naming: Position) -> None:
        p = apply(naming, "cards 7C 8C QC KC")
        assert "NOT_YOUR_TURN" == refusal(p, "cards TC AC 9D JD")

    def test_comes_before_duplicates(self, start: Position) -> None:
        assert "NOT_YOUR_TURN" == refusal(start, "S2 lead 6D 6D")


class TestDuplicateCard:
    def test_same_card_five_times_is_a_duplicate_not_a_size(self, start: Position) -> None:
        """R41: check 5 before check 6."""
        assert "DUPLICATE_CARD" == refusal(start, "S0 lead 7S 7S 7S 7S 7S")

    def test_in_a_beat(self, led: Position) -> None:
        assert "DUPLICATE_CARD" == refusal(led, "S1 beat KS KS")

    def test_in_named_cards(self, naming: Position) -> None:
        assert "DUPLICATE_CARD" == refusal(naming, "cards 7C 7C 8C QC")


class TestBadLeadSize:
    def test_no_card(self, start: Position) -> None:
        assert "BAD_LEAD_SIZE" == refusal(start, "S0 lead")

    def test_five_cards_even_if_not_held(self, start: Position) -> None:
        """Check 6 before check 8."""
        assert "BAD_LEAD_SIZE" == refusal(start, "S0 lead 7S 8S JC QD AS")


class TestWrongCount:
    @pytest.mark.parametrize("command", ["S1 beat KS AH", "S1 throw", "S1 throw 6C 7D 9H"])
    def test_answer_must_match_the_lead(self, led: Position, command: str) -> None:
        assert "WRONG_COUNT" == refusal(led, command)

    @pytest.mark.parametrize("command", ["cards 7C 8C QC", "cards 7C 8C QC KC TC"])
    def test_named_cards_must_match_the_draws(self, naming: Position, command: str) -> None:
        assert "WRONG_COUNT" == refusal(naming, command)


class TestCardNotInHand:
    @pytest.mark.parametrize(
        "command",
        ["S0 lead TS", "S0 lead 9H", "S0 lead 7C", "S0 lead 7S 9S"],
        ids=["other-hand", "indicator-in-stock", "stock", "one-of-two"],
    )
    def test_lead(self, start: Position, command: str) -> None:
        assert "CARD_NOT_IN_HAND" == refusal(start, command)

    def test_card_already_played(self, led: Position) -> None:
        assert "CARD_NOT_IN_HAND" == refusal(led, "S1 beat 7S")

    def test_comes_before_the_suit_check(self, start: Position) -> None:
        assert "CARD_NOT_IN_HAND" == refusal(start, "S0 lead 7S AH")

    def test_message_names_only_the_cards_given(self, start: Position) -> None:
        with pytest.raises(DomainError) as e:
            apply(start, "S0 lead TS")
        assert "TS" in e.value.message and "S3" not in e.value.message


class TestCardNotAvailable:
    @pytest.mark.parametrize(
        "command",
        ["cards 8S 7C 8C QC", "cards 7C 8C QC KS", "cards 7C 9S 8C QC"],
        ids=["in-a-hand", "in-a-pile", "face-down-in-a-pile"],
    )
    def test_named_card_is_placed(self, naming: Position, command: str) -> None:
        assert "CARD_NOT_AVAILABLE" == refusal(naming, command)

    def test_indicator_may_be_named(self, naming: Position) -> None:
        """R43: the indicator lies in the stock and may be drawn by whoever reaches it."""
        p = apply(naming, "cards 7C 8C 9H QC")
        assert parse_cards("6C 7C 7D AH") == p.hands[1]
        assert parse_cards("9H JS QS AS") == p.hands[3]


class TestLeadMixedSuits:
    def test_two_suits(self, start: Position) -> None:
        assert "LEAD_MIXED_SUITS" == refusal(start, "S0 lead 7S JC")


class TestBeatFails:
    @pytest.mark.parametrize(
        "command",
        ["S1 beat 6C", "S1 beat 7D"],
        ids=["other-non-trump-suit", "another-other-suit"],
    )
    def test_no_cover(self, led: Position, command: str) -> None:
        assert "BEAT_FAILS" == refusal(led, command)

    def test_lower_card_of_the_same_suit(self) -> None:
        p = make_position(HANDS.replace("8S ", ""), trick="0:8S", leader=0)
        assert "BEAT_FAILS" == refusal(apply(p, "S1 throw 6C"), "S2 beat 6D")
        p2 = make_position("7S JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS", trick="0:8S")
        assert "BEAT_FAILS" == refusal(apply(p2, "S1 throw 6C"), "S2 beat 9C")

    def test_non_trump_against_a_trump(self) -> None:
        p = make_position("7S 8S JC/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS", trick="0:QD")
        p = apply(p, "S1 beat AH")
        assert "BEAT_FAILS" == refusal(p, "S2 beat 9S")

    def test_measured_against_the_last_beat(self, led: Position) -> None:
        """R12: 9S beats the lead 7S but not S1's KS."""
        p = apply(led, "S1 beat KS")
        assert "BEAT_FAILS" == refusal(p, "S2 beat 9S")
        assert "S2 throw 9S" in [m.text() for m in legal_moves(p)]

    def test_partial_beat_is_refused_not_thrown(self) -> None:
        """R10: TS tops 8S but 6C tops nothing of 7S 8S; the player must choose to throw."""
        p = make_position("JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS", trick="0:7S,8S")
        assert "BEAT_FAILS" == refusal(p, "S1 beat KS 6C")
        assert 1 == len(apply(p, "S1 throw KS 6C").trick) - 1

    def test_message_reads_like_a_person(self, led: Position) -> None:
        with pytest.raises(DomainError) as e:
            apply(led, "S1 beat 6C")
        assert "6C does not beat 7S (the lead): trumps are hearts" == e.value.message


class TestMolodkaNotHeld:
    @pytest.mark.parametrize("command", ["S1 molodka", "S0 molodka"])
    def test_hand_not_of_one_suit(self, start: Position, command: str) -> None:
        assert "MOLODKA_NOT_HELD" == refusal(start, command)

    def test_fewer_than_four_cards(self, led: Position) -> None:
        assert "MOLODKA_NOT_HELD" == refusal(led, "S0 molodka")


class TestMolodkaNoPriority:
    def test_after_the_original_leaders_four_card_lead(self) -> None:
        p = apply(make_position(MOLODKAS), "S0 lead 6C 7C 8C 9C")
        assert "MOLODKA_NO_PRIORITY" == refusal(p, "S2 molodka")
        assert "MOLODKA_NO_PRIORITY" == refusal(p, "S1 molodka")

    def test_same_seat_cannot_take_it_back(self) -> None:
        p = apply(make_position(MOLODKAS), "S2 molodka")
        p = apply(p, "S1 molodka")
        assert "MOLODKA_NO_PRIORITY" == refusal(p, "S2 molodka")

    def test_held_is_checked_first(self) -> None:
        p = apply(make_position(MOLODKAS), "S0 lead 6C 7C 8C 9C")
        assert "MOLODKA_NOT_HELD" == refusal(p, "S3 molodka")


class TestRefusalChangesNothing:
    def test_position_is_unchanged_and_the_seat_may_try_again(self, led: Position) -> None:
        """R30."""
        before = led.text()
        with pytest.raises(DomainError):
            apply(led, "S1 beat 6C")
        assert before == led.text()
        assert 2 == len(apply(led, "S1 beat KS").trick)
