"""A log recorded before the engine wrote a 2-player four one way still imports."""

from __future__ import annotations

import random

from domain.logs.base import LogEvent, LogHeader, LogPlayer, MatchLog
from domain.logs.commands import first_difference, replay, steps_from_events
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, decide, fold
from tests.recording.play import shuffled_deal


def _match_with_a_four() -> list[LogEvent]:
    """A 2-player match up to its first four one-off, that move logged as ``4X@P<n>``."""
    for seed in range(200):
        rng = random.Random(seed)
        config = MatchConfig("cuttle", "standard", ("a", "b"), 0, "server", "short")
        events = decide(MatchState(), CreateMatch(config, shuffled_deal("cuttle", "standard", rng)))
        state = fold(events)
        for _ in range(60):
            if state.position is None or state.is_over:
                break
            moves = [m.text() for m in state.rules.legal_moves(state.position)]
            fours = [m for m in moves if " oneoff 4" in m]
            move = fours[0] if fours else rng.choice(moves)
            new = decide(state, Play(move, next_deal=shuffled_deal("cuttle", "standard", rng)))
            if fours:
                seat = int(move[1])
                assert {"move": move} == new[0].data
                new[0] = type(new[0])(new[0].type, {"move": f"{move}@P{1 - seat}"})
                events.extend(new)
                return [LogEvent(0, i, e.type, e.data) for i, e in enumerate(events, 1)]
            events.extend(new)
            state = fold(new, state)
    raise AssertionError("no four one-off in 200 matches")


def test_a_four_naming_its_victim_replays_as_the_canonical_move() -> None:
    logged = _match_with_a_four()
    players = tuple(LogPlayer(i, p, p) for i, p in enumerate(("a", "b")))
    header = LogHeader(None, "cuttle", "standard", players, 0, "server", "short", {})
    steps, errors = steps_from_events(MatchLog(header=header, events=logged))
    assert [] == errors
    replayed = replay(steps)
    assert None is replayed.error
    assert None is first_difference(logged, replayed.events)
    spelled = [e.data["move"] for e in logged if " oneoff 4" in e.data.get("move", "")]
    written = [e.data["move"] for e in replayed.events if " oneoff 4" in e.data.get("move", "")]
    assert [spelled[0].split("@")[0]] == written
