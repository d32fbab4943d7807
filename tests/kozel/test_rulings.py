"""Play of a deal, ruling by ruling (R1, R7-R23, R36, R37, R43, R46, and the §11 flags)."""

from __future__ import annotations

from dataclasses import replace
from functools import reduce

import pytest

from domain.cards import Card, parse_cards
from domain.errors import DomainError
from domain.events import Event
from domain.kozel import (
    KozelOptions,
    Move,
    Position,
    apply,
    deal_started,
    decide,
    evolve,
    is_terminal,
    legal_moves,
    outcome,
    to_act,
)
from domain.kozel.rules import initial_position
from tests.kozel.support import make_position, setup_from_text

HANDS = "7S 8S JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS"
MOLODKAS = "6C 7C 8C 9C/6D 7D 8D 9D/6S 7S 8S 9S/JC QD AH KS"
# Four cards each and four left in the stock (JD QD KD TD, top first).
ENDGAME = (
    "dealer=3 leader=0 trump=9H hands=6C,7C,8C,6D/9C,JC,QC,7D/KC,TC,AC,8D/6H,7H,8H,9D "
    "stock=JD,QD,KD,TD trick=- piles=AD,9H,JH,QH,KH,TH,AH,6S,7S,8S,9S,JS,QS,KS,TS,AS/- "
    "tricks=2/0"
)


def run(position: Position, *commands: str) -> Position:
    for command in commands:
        position = apply(position, command)
    return position


def texts(position: Position) -> set[str]:
    return {m.text() for m in legal_moves(position)}


class TestTrick:
    def test_worked_example_of_6_3(self) -> None:
        """7S, KS beats, 6D thrown, TS beats: S3 takes 14 points for team B and leads (R12, R17)."""
        p = make_position(HANDS)
        events = []
        for command in ["S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS"]:
            events += decide(p, command)
            p = apply(p, command)
        taken = next(e for e in events if e.type == "TrickTaken")
        assert {"winner": 3, "team": 1, "points": 14} == {
            k: taken.data[k] for k in ("winner", "team", "points")
        }
        assert (3, (0, 1)) == (p.leader, p.tricks)
        assert parse_cards("7S KS TS") == p.piles[1] and parse_cards("6D") == p.face_down[1]

    def test_play_goes_clockwise_from_the_leader(self) -> None:
        """R1: after S3 leads, S0 answers, then S1, then S2."""
        p = make_position(HANDS, leader=3)
        seats = []
        for _ in range(4):
            seats.append(p.to_play)
            p = apply(p, next(m for m in legal_moves(p) if m.kind != "molodka"))
        assert [3, 0, 1, 2] == seats

    def test_leads_are_one_to_four_cards_of_one_suit_trumps_included(self) -> None:
        """R7."""
        p = make_position("7H 8H JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS")
        leads = {m.text() for m in legal_moves(p) if m.seat == 0}
        expected = {"S0 lead JC", "S0 lead QD", "S0 lead 7H", "S0 lead 8H", "S0 lead 7H 8H"}
        assert expected == leads

    def test_no_duty_to_follow_suit_or_to_trump(self) -> None:
        """R8, R11: S1 may throw anything, even cards that would beat."""
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        throws = {m.text() for m in legal_moves(p) if m.kind == "throw"}
        assert {"S1 throw 6C", "S1 throw 7D", "S1 throw AH", "S1 throw KS"} == throws
        assert 0 == run(p, "S1 throw AH", "S2 throw 6D", "S3 throw TS").leader

    def test_no_regional_extras(self) -> None:
        """R28: no same-rank leads of different suits, no extra round after four plays."""
        p = make_position("7S 7H JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS")
        assert "S0 lead 7S 7H" not in texts(p)
        p = run(p, "S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        assert ((), 3) == (p.trick, p.leader)

    def test_beat_in_any_order_of_the_cards(self) -> None:
        """R9 and the first example of §3.5 (trumps clubs)."""
        p = make_position("9H KH 6D 7D/TH QH 6S 7S/8D 9D JD QD/JS QS KS AS", trump="9C")
        p = run(p, "S0 lead 9H KH", "S1 beat TH QH")
        assert 1 == p.trick[-1].seat and "beat" == p.trick[-1].kind

    def test_beat_needs_the_right_pairing(self) -> None:
        """The second example of §3.5 (trumps diamonds): 8D 6D over AS 7D, listed either way."""
        p = make_position("6S 7S 6C 7C/AS 7D 8C 9C/8D 6D JC QC/JS QS KC TC", trump="TD")
        p = run(p, "S0 lead 6S 7S", "S1 beat AS 7D")
        assert "S2 beat 6D 8D" in texts(p)
        assert apply(p, "S2 beat 8D 6D") == apply(p, "S2 beat 6D 8D")
        assert 2 == apply(p, "S2 beat 8D 6D").trick[-1].seat

    def test_partner_may_be_beaten_and_the_last_beater_takes_it(self) -> None:
        """R11, R12: S2 beats its partner S0's lead, S3 throws; S2 takes the trick."""
        p = make_position("8S JC QD/KS 6C 7D AH/6D 9C 8D 9S/TS JS QS AS", trick="0:7S")
        p = run(p, "S1 throw 6C", "S2 beat 9S", "S3 throw JS")
        assert (2, (1, 0)) == (p.leader, p.tricks)

    def test_leader_takes_the_trick_if_nobody_beats(self) -> None:
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        assert 0 == run(p, "S1 throw 6C", "S2 throw 6D", "S3 throw TS").leader

    def test_one_play_each_then_the_trick_is_settled(self) -> None:
        """R13, R14: after the fourth play every card, face down too, is in the pile."""
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        p = run(p, "S1 beat KS", "S2 throw 6D", "S3 throw TS")
        assert () == p.trick
        assert (parse_cards("7S KS"), parse_cards("6D TS")) == (p.piles[1], p.face_down[1])


class TestDrawing:
    def test_round_robin_from_the_winner(self) -> None:
        """R15: S3 takes the trick and draws first."""
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        top = p.stock[:4]
        p = run(p, "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        assert [top[0] in p.hands[3], top[1] in p.hands[0], top[2] in p.hands[1]] == [True] * 3
        assert top[3] in p.hands[2] and 16 == len(p.stock)

    def test_partial_draw_at_the_end_of_the_stock(self) -> None:
        """§8.1 note: 4 left after a three-card trick gives one card each, from the winner."""
        p = Position.from_text(ENDGAME)
        p = run(p, "S0 lead 6C 7C 8C", "S1 beat 9C JC QC", "S2 beat KC TC AC", "S3 throw 6H 7H 8H")
        assert (2, 0) == (p.leader, p.stock_size)
        assert [parse_cards(h) for h in ("6D KD", "7D TD", "8D JD", "9D QD")] == list(p.hands)

    def test_play_goes_on_after_the_stock_is_empty(self) -> None:
        """R16: hands shrink to nothing; the deal ends with 120 points shared."""
        p = Position.from_text(ENDGAME)
        p = run(p, "S0 lead 6C 7C 8C", "S1 beat 9C JC QC", "S2 beat KC TC AC", "S3 throw 6H 7H 8H")
        while not is_terminal(p):
            p = apply(p, next(iter(legal_moves(p))))
        result = outcome(p)
        assert result is not None and 120 == sum(result.card_points)

    def test_indicator_drawn_last_with_bottom_option(self) -> None:
        """§11 trump_indicator_bottom: the indicator lies under the stock, drawn last."""
        setup = setup_from_text(
            HANDS,
            "7C 8C QC KC TC AC 9D JD KD TD AD 6H 7H 8H 9H JH QH KH TH 6S",
            dealer=3,
            leader=0,
            indicator_position=2,
        )
        p = initial_position(replace(setup, options=KozelOptions(trump_indicator_bottom=True)))
        assert (p.indicator, p.indicator) == (p.stock[-1], setup.deck[18])  # type: ignore[index]


class TestMolodka:
    def test_declared_before_the_lead(self) -> None:
        """R19, R20: S2 declares before S0 leads; S3 answers next."""
        p = apply(make_position(MOLODKAS), "S2 molodka")
        assert (2, "lead", parse_cards("6S 7S 8S 9S")) == tuple(p.trick[0])
        assert (3, 0) == (p.to_play, p.leader)

    def test_declared_after_plays_returns_them(self) -> None:
        """R19, R20: after S0 led and S1 beat, S3 declares; both get their cards back."""
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        p = run(p, "S1 beat KS", "S2 throw 6D", "S3 molodka")
        assert parse_cards("JC QD 7S 8S") == p.hands[0]
        assert parse_cards("6C 7D AH KS") == p.hands[1]
        assert parse_cards("9C 6D 8D 9S") == p.hands[2]
        assert (1, 0, 0) == (len(p.trick), p.to_play, p.leader)

    def test_declarer_holds_until_beaten(self) -> None:
        """R20: the declarer takes the trick if nobody beats the four cards."""
        p = apply(make_position(MOLODKAS), "S2 molodka")
        p = run(p, "S3 throw JC QD AH KS", "S0 throw 6C 7C 8C 9C", "S1 throw 6D 7D 8D 9D")
        assert 2 == p.leader

    def test_too_late_once_the_fourth_play_is_made(self) -> None:
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        p = run(p, "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        assert "S3 molodka" not in texts(p)

    def test_molodka_is_optional(self) -> None:
        """R23: the holder may beat with one of the four cards instead."""
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        p = run(p, "S1 throw 6C", "S2 throw 6D")
        assert {"S3 beat TS", "S3 molodka", "S3 throw TS"} <= texts(p)

    def test_four_trumps_are_a_molodka_and_nothing_more(self) -> None:
        """R18."""
        p = make_position("7S 8S JC QD/6H 7H 8H JH/6D 9C 8D 9S/TS JS QS AS")
        assert "S1 molodka" in texts(p)
        p = apply(p, "S1 molodka")
        assert not is_terminal(p) and 2 == p.to_play

    def test_due_leaders_molodka_is_its_lead_listed_once(self) -> None:
        """R22, R36: S0's declaration before leading is recorded as a lead of four."""
        p = make_position(MOLODKAS)
        assert "S0 molodka" not in texts(p) and "S0 lead 6C 7C 8C 9C" in texts(p)
        assert apply(p, "S0 lead 6C 7C 8C 9C") == apply(p, "S0 molodka")
        assert ["CardsLed"] == [e.type for e in decide(p, "S0 molodka")]

    def test_priority_by_distance_from_the_original_leader(self) -> None:
        """R21, R37: S2 declares, then S1 (nearer to S0) displaces it, then S0 takes it back."""
        p = apply(make_position(MOLODKAS), "S2 molodka")
        assert {0, 1, 3} == set(to_act(p)) and "S1 molodka" in texts(p)
        p = apply(p, "S1 molodka")
        assert {"S0 molodka"} == {m.text() for m in legal_moves(p) if m.kind == "molodka"}
        assert 0 == p.leader
        p = apply(p, "S0 molodka")
        assert not any(m.kind == "molodka" for m in legal_moves(p))
        assert (0, 1) == (p.trick[0].seat, p.to_play)

    def test_original_leader_keeps_its_distance_after_a_displacement(self) -> None:
        """R37: the original leader stays the seat due when the trick opened."""
        p = make_position(MOLODKAS, leader=1)
        p = run(p, "S0 molodka")  # distance 3 from S1
        molodkas = {m.text() for m in legal_moves(p) if m.kind == "molodka"}
        assert {"S1 molodka", "S2 molodka"} == molodkas
        assert "S1 lead 6D 7D 8D 9D" not in texts(p)
        assert 1 == apply(p, "S1 molodka").trick[0].seat

    def test_displaced_holder_plays_in_turn_again(self) -> None:
        """R21: the displaced molodka goes back; its owner may beat or throw with it."""
        p = run(make_position(MOLODKAS), "S2 molodka", "S1 molodka")
        p = run(p, "S2 throw 6S 7S 8S 9S")
        assert 3 == p.to_play


class TestUnknownStock:
    def test_draws_wait_for_the_scorer(self) -> None:
        """R43, R46: after the trick the deal waits; nobody may act but the scorer."""
        p = make_position(HANDS, rest="unknown")
        p = run(p, "S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        assert (4, (), 20) == (p.draw, to_act(p), p.stock_size)
        events = decide(p, "cards 7C 8C 9H QC")
        assert [[3, "7C"], [0, "8C"], [1, "9H"], [2, "QC"]] == events[0].data["draws"]
        p = apply(p, "cards 7C 8C 9H QC")
        assert (0, 16, 3) == (p.draw, p.stock_size, p.to_play)

    def test_bottom_indicator_must_be_named_last(self) -> None:
        p = make_position(HANDS, rest="unknown", rules="12+bottom")
        p = run(p, "S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS")
        with pytest.raises(DomainError) as e:
            apply(p, "cards 9H 7C 8C QC")
        assert "CARD_NOT_AVAILABLE" == e.value.code


class TestDecider:
    def test_events_fold_to_the_applied_position(self) -> None:
        p = make_position(HANDS)
        for command in ["S0 lead 7S", "S1 beat KS", "S2 throw 6D", "S3 beat TS"]:
            assert apply(p, command) == reduce(evolve, decide(p, command), p)
            p = apply(p, command)

    def test_molodka_event_names_the_returned_cards(self) -> None:
        p = make_position(HANDS.replace("7S ", ""), trick="0:7S")
        p = run(p, "S1 beat KS", "S2 throw 6D")
        (event,) = decide(p, Move.from_text("S3 molodka"))
        assert "MolodkaDeclared" == event.type
        assert [[0, ["7S"]], [1, ["KS"]], [2, ["6D"]]] == event.data["returned"]

    def test_cards_built_directly_are_the_same_cards(self) -> None:
        """A move holding equal but separately built Card objects is the same move."""
        p = make_position(HANDS)
        move = Move("lead", 0, (Card("7", "S"), Card("8", "S")))
        assert apply(p, "S0 lead 7S 8S") == apply(p, move)
        assert decide(p, "S0 lead 7S 8S") == decide(p, move)


def given(*events: Event) -> Position:
    """The position a stream of stored events folds to."""
    position: Position | None = None
    for event in events:
        position = evolve(position, event)
    assert position is not None
    return position


class TestDeciderSpecification:
    """Given stored events, when a command, then events (style.md §5)."""

    SETUP = setup_from_text(
        HANDS, "9H 7C 8C QC KC TC AC 9D JD KD TD AD 6H 7H 8H JH QH KH TH 6S", dealer=3, leader=0
    )

    def test_a_beat_after_a_lead(self) -> None:
        p = given(deal_started(self.SETUP), Event("CardsLed", {"seat": 0, "cards": ["7S"]}))
        assert [Event("CardsBeaten", {"seat": 1, "cards": ["KS"]})] == decide(p, "S1 beat KS")

    def test_the_fourth_play_settles_and_draws(self) -> None:
        p = given(
            deal_started(self.SETUP),
            Event("CardsLed", {"seat": 0, "cards": ["7S"]}),
            Event("CardsBeaten", {"seat": 1, "cards": ["KS"]}),
            Event("CardsThrown", {"seat": 2, "cards": ["6D"]}),
        )
        events = decide(p, "S3 beat TS")
        assert ["CardsBeaten", "TrickTaken", "CardsDrawn"] == [e.type for e in events]
        assert [[3, "9H"], [0, "7C"], [1, "8C"], [2, "QC"]] == events[2].data["draws"]

    def test_unknown_events_change_nothing(self) -> None:
        p = given(deal_started(self.SETUP))
        assert p == evolve(p, Event("NoteAdded", {"text": "tea break"}))
