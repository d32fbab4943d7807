"""The counter chain of §7: seat order, explicit declines, queens, fizzle and resolve."""

from __future__ import annotations

from domain.cards import Card
from domain.cuttle import Phase, decide, legal_moves
from domain.cuttle.rules import apply
from tests.cuttle.helpers import play, pos, refusal


def texts(p: object) -> set[str]:
    return {m.text() for m in legal_moves(p) if m.action != "resign"}  # type: ignore[arg-type]


class TestTwoPlayerChain:
    def test_responses_alternate(self) -> None:
        p = play(pos(hands="AS 2C / 2D 2H", points="- / 9C"), "P0 oneoff AS")
        assert (Phase.COUNTER, 1) == (p.phase, p.responder)
        p = apply(p, "P1 counter 2D")
        assert 0 == p.responder
        assert "NOT_YOUR_TURN" == refusal(p, "P1 counter 2H")

    def test_odd_twos_fizzle_the_one_off(self) -> None:
        p = pos(hands="AS / 2D", points="- / 9C")
        p = play(p, "P0 oneoff AS", "P1 counter 2D")
        events = decide(p, "P0 decline")
        assert ["MovePlayed", "OneOffFizzled"] == [e.type for e in events]
        after = apply(p, "P0 decline")
        assert 1 == len(after.stacks) and 1 == after.turn
        assert {Card.from_text("AS"), Card.from_text("2D")} == after.scrap

    def test_even_twos_resolve_the_one_off(self) -> None:
        p = pos(hands="AS 2C / 2D", points="- / 9C")
        p = play(p, "P0 oneoff AS", "P1 counter 2D", "P0 counter 2C")
        events = decide(p, "P1 decline")
        assert "OneOffResolved" == events[1].type
        assert () == apply(p, "P1 decline").stacks

    def test_responder_without_twos_must_still_decline(self) -> None:
        p = play(pos(hands="AS / 9C"), "P0 oneoff AS")
        assert {"P1 decline"} == texts(p)

    def test_queen_stops_counters_to_its_controllers_one_offs(self) -> None:
        p = play(pos(hands="AS / 2D", perms="QH / -"), "P0 oneoff AS")
        assert {"P1 decline"} == texts(p)
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P1 counter 2D")

    def test_queen_makes_its_controllers_counters_uncounterable(self) -> None:
        p = play(pos(hands="AS 2C / 2D", perms="- / QH"), "P0 oneoff AS", "P1 counter 2D")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P0 counter 2C")

    def test_classic_queens_also_stop_counters(self) -> None:
        p = play(pos("classic", hands="AS / 2D", perms="QH / -"), "P0 oneoff AS")
        assert "PROTECTED_BY_QUEEN" == refusal(p, "P1 counter 2D")

    def test_frozen_two_cannot_counter(self) -> None:
        p = play(pos(hands="AS / 2D", extra="frozen 2D"), "P0 oneoff AS")
        assert "CARD_FROZEN" == refusal(p, "P1 counter 2D")

    def test_only_a_two_counters(self) -> None:
        p = play(pos(hands="AS / 3D"), "P0 oneoff AS")
        assert "WRONG_CARD_TYPE" == refusal(p, "P1 counter 3D")

    def test_counter_needs_an_open_chain(self) -> None:
        assert "WRONG_PHASE" == refusal(pos(hands="2C / -"), "P0 counter 2C")
        assert "WRONG_PHASE" == refusal(pos(hands="2C / -"), "P0 decline")
        assert "NOT_YOUR_TURN" == refusal(pos(hands="- / 2C"), "P1 counter 2C")

    def test_nothing_is_checked_inside_a_chain(self) -> None:
        p = play(pos(hands="6S / -", points="- / TH[JC:P0] TS 3C"), "P0 oneoff 6S")
        assert p.result is None


class TestCutthroatChain:
    def test_seat_order_after_the_latest_card(self) -> None:
        p = pos("cutthroat", hands="AS / 2D / 2C", points="- / 9C / 8C")
        p = play(p, "P0 oneoff AS", "P1 decline")
        assert 2 == p.responder
        p = apply(p, "P2 counter 2C")
        assert 0 == p.responder
        p = apply(p, "P0 decline")
        assert 1 == p.responder, "a player who declined earlier may answer the new top card"
        p = play(p, "P1 counter 2D", "P2 decline", "P0 decline")
        assert () == p.stacks and 1 == p.turn

    def test_counter_out_of_seat_order_is_refused(self) -> None:
        p = play(pos("cutthroat", hands="AS / 2D / 2C"), "P0 oneoff AS")
        assert "NOT_YOUR_TURN" == refusal(p, "P2 counter 2C")

    def test_all_others_declining_closes_the_chain(self) -> None:
        p = pos("cutthroat", hands="AS / - / -", points="- / 9C / -")
        p = play(p, "P0 oneoff AS", "P1 decline")
        assert Phase.COUNTER == p.phase
        after = apply(p, "P2 decline")
        assert () == after.stacks and 1 == after.turn
