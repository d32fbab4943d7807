"""Conceding a Kozel match (R47): any moment of a live match, through every layer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.errors import IllegalMoveError
from domain.events import Event
from domain.games import rules_for
from domain.kozel import PACK
from domain.logs.base import Lines, LogEvent, LogHeader, LogPlayer, MatchBuilder, MatchLog
from domain.logs.commands import first_difference, replay, steps_from_events, steps_from_moves
from domain.logs.text import read_match, write_match
from domain.standings import FinishedMatch
from domain.stream import (
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    decide,
    fold,
)

PLAYERS = ("a", "b", "c", "d")


def _deck(seed: int) -> list[str]:
    deck = [card.text() for card in PACK]
    random.Random(seed).shuffle(deck)
    return deck


def _match(dealing: str = "scorer") -> tuple[MatchState, list[Event]]:
    config = MatchConfig("kozel", "default", PLAYERS, 0, dealing, None, {"loss_limit": 12})
    events = decide(MatchState(), CreateMatch(config))
    return fold(events), events


def _record(state: MatchState, events: list[Event], command: Command) -> MatchState:
    new = decide(state, command)
    events.extend(new)
    return fold(new, state)


def _in_a_deal(moves: int = 3) -> tuple[MatchState, list[Event]]:
    state, events = _match()
    deal = {"deck": _deck(1), "indicator_position": 7}
    state = _record(state, events, StartRound(deal))
    for _ in range(moves):
        assert state.position is not None
        legal = [m.text() for m in state.rules.legal_moves(state.position)]
        state = _record(state, events, Play(legal[0]))
    return state, events


class TestTheMatch:
    def test_a_concession_mid_deal_ends_the_match_for_the_other_team(self) -> None:
        state, events = _in_a_deal()
        state = _record(state, events, Play("S1 concede"))
        assert state.result is not None
        assert ((0, 2), (1, 3), "concession") == (
            state.result.winners,
            state.result.losers,
            state.result.reason,
        )
        ended = events[-1]
        expected = {
            "winners": [0, 2],
            "losers": [1, 3],
            "reason": "concession",
            "loss_points": [0, 0],
            "eggs": 0,
        }
        assert ("MatchResigned", {"seat": 1}) == (events[-2].type, events[-2].data)
        assert ("MatchEnded", expected) == (ended.type, ended.data)

    def test_a_partner_concedes_for_the_team(self) -> None:
        state, events = _in_a_deal()
        state = _record(state, events, Play("s2 CONCEDE"))
        assert state.result is not None
        assert (1, 3) == state.result.winners

    def test_between_deals(self) -> None:
        state, events = _match()
        assert state.position is None
        state = _record(state, events, Play("S0 concede"))
        assert state.result is not None
        assert (1, 3) == state.result.winners

    def test_while_cards_await_naming(self) -> None:
        state, events = _match("physical")
        deck = _deck(2)
        hands = [deck[i : i + 4] for i in range(0, 16, 4)]
        state = _record(state, events, StartRound({"hands": hands, "indicator": deck[16]}))
        while state.position is not None and not state.rules.cards_awaited(state.position):
            legal = [m.text() for m in state.rules.legal_moves(state.position)]
            state = _record(state, events, Play(legal[0]))
        assert state.position is not None
        state = _record(state, events, Play("S3 concede"))
        assert state.result is not None
        assert "concession" == state.result.reason

    def test_after_the_end_it_is_match_over(self) -> None:
        state, events = _in_a_deal()
        state = _record(state, events, Play("S1 concede"))
        with pytest.raises(IllegalMoveError) as refused:
            decide(state, Play("S0 concede"))
        assert "MATCH_OVER" == refused.value.code

    def test_the_deal_in_progress_is_not_scored(self) -> None:
        state, events = _in_a_deal(moves=8)
        state = _record(state, events, Play("S0 concede"))
        assert state.series is not None
        assert [0, 0] == state.series.score_data()["loss_points"]
        assert [] == rules_for("kozel").rounds_data(state.series)

    def test_the_legal_moves_list_concessions_as_service_moves(self) -> None:
        state, _ = _in_a_deal()
        rules = rules_for("kozel")
        texts = [m.text() for m in rules.service_moves(state.position)]
        between = [m.text() for m in rules.service_moves(None)]
        assert ["S0 concede", "S1 concede", "S2 concede", "S3 concede"] == texts == between


class TestTheRecord:
    def _conceded(self) -> tuple[MatchState, list[LogEvent], LogHeader]:
        state, events = _in_a_deal()
        state = _record(state, events, Play("S1 concede"))
        header = LogHeader(
            None, "kozel", "default", tuple(LogPlayer(i, None, n) for i, n in enumerate(PLAYERS)),
            0, "scorer", None, {"loss_limit": 12},
        )  # fmt: skip
        return state, [LogEvent(0, i, e.type, e.data) for i, e in enumerate(events, 1)], header

    def test_the_text_log_writes_the_concession_and_replays_it(self) -> None:
        _, logged, header = self._conceded()
        written = write_match(header, logged)
        assert "4. S1 concede" in written
        match = read_match(Lines(written.splitlines()), MatchBuilder())
        assert match is not None and [] == match.errors and match.header is not None
        replayed = replay(steps_from_moves(match.header, match.moves, list(PLAYERS)))
        assert None is first_difference(logged, replayed.events)

    def test_the_json_log_replays_the_concession(self) -> None:
        _, logged, header = self._conceded()
        config = MatchConfig.from_data(logged[0].data)
        header = LogHeader(
            None, "kozel", "default", tuple(LogPlayer(i, p, p) for i, p in enumerate(PLAYERS)),
            config.first_dealer, config.dealing, None, dict(config.options),
        )  # fmt: skip
        steps, errors = steps_from_events(MatchLog(header=header, events=logged))
        assert [] == errors
        assert None is first_difference(logged, replay(steps).events)

    def test_the_timeline_says_who_conceded(self) -> None:
        names = ["Ann", "Bob", "Cy", "Di"]
        step = rules_for("kozel").describe_step("MatchResigned", {"seat": 1}, names)
        assert ("S1 concede", "Bob concedes the match: Bob and Di lose it", 1) == step

    def test_standings_count_a_loss_and_never_a_goat(self) -> None:
        state, _, _ = self._conceded()
        assert state.result is not None and state.series is not None
        rules = rules_for("kozel")
        result: dict[str, Any] = {
            "winners": list(state.result.winners),
            "losers": list(state.result.losers),
            "reason": state.result.reason,
            **rules.result_data(state.series),
        }
        match = FinishedMatch("m", "kozel", PLAYERS, (), result)
        lines, _ = rules.tally([match])["players"]
        got = {
            p: (lines[p].stats["won"], lines[p].stats["lost"], lines[p].stats["goat"])
            for p in PLAYERS
        }
        assert {"a": (1, 0, 0), "b": (0, 1, 0), "c": (1, 0, 0), "d": (0, 1, 0)} == got
        assert 1 == result["conceded"]
        assert [1, 2, 1, 2] == rules.places(match)
