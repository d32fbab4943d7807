"""Replay tracks and timeline sentences over random whole matches (no database)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.events import Event
from domain.stream import MatchConfig, effective_events, fold, public_event_data
from projections.replay import Track, step_of
from tests.recording.test_hidden_cards import card_tokens
from tests.strategies import match_streams

NAMES = ["Ann", "Bob", "Cy", "Di"]


def versioned(events: list[Event]) -> list[tuple[int, Event]]:
    return effective_events(enumerate(events, start=1))


class TestTrack:
    @given(match_streams(), st.sampled_from([1, 3, 8]), st.integers(1, 40))
    def test_any_ply_equals_a_fold_from_scratch(
        self, stream: tuple[str, list[Event]], every: int, chunk: int
    ) -> None:
        """Snapshots, and a track extended in chunks as a live match is read, change nothing."""
        _, events = stream
        pairs = versioned(events)
        track = Track(every)
        for start in range(0, len(pairs), chunk):
            track.extend(pairs[start : start + chunk])
        for ply in range(len(track.plies) + 1):
            expected = fold(e for _, e in pairs[: track.end_of(ply)])
            assert expected == track.frame_after(ply).state

    @given(match_streams())
    def test_a_ply_stops_before_the_next_round_starts(
        self, stream: tuple[str, list[Event]]
    ) -> None:
        _, events = stream
        track = Track(4)
        track.extend(versioned(events))
        for ply in range(1, len(track.plies) + 1):
            frame = track.frame_after(ply)
            assert frame.shown is not None
            assert track.round_of(track.plies[ply - 1]) == frame.state.rounds_started


class TestTimeline:
    @given(match_streams())
    def test_public_steps_name_only_public_cards(self, stream: tuple[str, list[Event]]) -> None:
        _, events = stream
        config = MatchConfig.from_data(events[0].data)
        track = Track(8)
        track.extend(versioned(events))
        for ply in range(1, len(track.plies) + 1):
            step: Any = step_of(track, ply, NAMES, redact=True)
            _, event = track.events[track.plies[ply - 1]]
            public = card_tokens(public_event_data(config, event))
            assert card_tokens([step["move"], step["sentence"]]) <= public
            assert step["sentence"]
