"""The pad's engine (``projections.pad_engine``) in CPython: guesses, confirmation, refolds.

Its agreement with the server's answers is checked in Chromium
(``tests/viewer/test_engine_parity.py``); here, how it keeps the server's events and its
own guesses apart.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.cards import deck
from domain.errors import DomainError
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, StartRound, step
from projections.pad_engine import LocalMatch


def listed(events: list[Any], start: int = 1) -> list[dict[str, Any]]:
    """Events as ``GET /matches/{id}/events`` lists them (JSON data, versions)."""
    return [
        {"version": v, "type": e.type, "data": json.loads(json.dumps(e.data)), "metadata": {}}
        for v, e in enumerate(events, start=start)
    ]


@pytest.fixture(name="dealt")
def _dealt() -> tuple[MatchState, list[dict[str, Any]]]:
    """A scorer-dealt Cuttle match with its first round dealt: its state and its events."""
    config = MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing="scorer")
    created, state = step(MatchState(), CreateMatch(config))
    started, state = step(state, StartRound({"deck": " ".join(c.text() for c in deck())}))
    return state, listed([*created, *started])


def test_guesses_the_server_confirms_are_kept_without_a_refold(
    dealt: tuple[MatchState, list[dict[str, Any]]],
) -> None:
    state, events = dealt
    match = LocalMatch(["Ann", "Bob"])
    assert match.confirm(events)
    first = match.answer()["legal"]["moves"][0]
    match.play([first])
    guessed = match.answer()
    assert guessed["guesses"] >= 1 and guessed["replay"]["ply"] == 1
    recorded, _ = step(state, Play(first))
    track = match._track  # the same track, extended: no refold
    assert match.confirm(listed(recorded, start=len(events) + 1))
    assert match._track is track
    confirmed = match.answer()
    assert confirmed["guesses"] == 0
    assert {k: v for k, v in confirmed.items() if k != "guesses"} == {
        k: v for k, v in guessed.items() if k != "guesses"
    }


def test_a_server_event_unlike_the_guess_drops_every_guess(
    dealt: tuple[MatchState, list[dict[str, Any]]],
) -> None:
    state, events = dealt
    match = LocalMatch(["Ann", "Bob"])
    match.confirm(events)
    moves = match.answer()["legal"]["moves"]
    match.play([moves[0]])
    match.play([match.answer()["legal"]["moves"][0]])
    other, _ = step(state, Play(moves[1]))
    assert not match.confirm(listed(other, start=len(events) + 1))
    after = match.answer()
    assert after["guesses"] == 0
    assert [s["move"] for s in after["steps"]] == [moves[1]]


def test_a_refused_move_adds_nothing(dealt: tuple[MatchState, list[dict[str, Any]]]) -> None:
    _, events = dealt
    match = LocalMatch(["Ann", "Bob"])
    match.confirm(events)
    before = match.answer()
    with pytest.raises(DomainError):
        match.play([before["legal"]["moves"][0], "P1 points ZZ"])
    assert match.answer() == before


def test_events_already_confirmed_are_not_folded_twice(
    dealt: tuple[MatchState, list[dict[str, Any]]],
) -> None:
    _, events = dealt
    match = LocalMatch(["Ann", "Bob"])
    match.confirm(events[:1])
    match.confirm(events)
    assert match.confirmed_version == len(events) == match.version
    assert match.summary()["round"] is not None
