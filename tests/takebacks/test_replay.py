"""Replay tracks over streams with takebacks: every ply shows what the table saw then."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from domain.stream import MatchState, Play, StartRound, TakeBack, undone_by
from projections.replay import Track, step_of
from tests.takebacks.log import comparable, shuffled
from tests.takebacks.test_domain import cuttle, kozel, started


class TestTrackWithTakebacks:
    @given(
        st.sampled_from(["cuttle", "kozel"]),
        st.integers(0, 2**16),
        st.sampled_from([1, 3, 8]),
        st.integers(1, 25),
    )
    def test_each_ply_shows_the_match_as_it_was_after_it(
        self, game: str, seed: int, every: int, chunk: int
    ) -> None:
        log, rng = started(cuttle() if game == "cuttle" else kozel(), seed)
        seen: dict[int, MatchState] = {}
        for _ in range(60):
            state = log.state
            if state.is_over:
                break
            targets = [v for (v, _), (_, s) in itertools.pairwise(state.window) if s]
            if targets and rng.random() < 0.15:
                log.record(TakeBack(rng.choice(targets), "misplay"))
            elif state.position is None:
                assert state.config is not None
                log.record(StartRound(shuffled(state.config, rng)))
            else:
                legal = [m.text() for m in state.rules.legal_moves(state.position)]
                first = log.version + 1
                log.record(Play(rng.choice(legal)))
                seen[first] = log.state
        track = Track(every)
        for start in range(0, len(log.pairs), chunk):
            track.extend(log.pairs[start : start + chunk])
        assert sorted(seen) == [track.events[i][0] for i in track.plies]
        for ply, version in enumerate(sorted(seen), start=1):
            assert comparable(seen[version]) == comparable(track.frame_after(ply).state)
        assert undone_by(log.pairs).keys() == track.undone.keys()
        names = ["A", "B", "C", "D"]
        for ply in range(1, len(track.plies) + 1):
            step = step_of(track, ply, names, redact=False)
            assert step is not None
            assert (step["version"] in track.undone) == (step["taken_back"] is not None)

    def test_a_track_after_a_takeback_equals_the_recorders_state(self) -> None:
        log, rng = started(kozel(), 4)
        log.play_random(rng, 10)
        target = log.ply_versions()[4] - 1
        log.record(TakeBack(target, "wrong seat"))
        track = Track(4)
        track.extend(log.pairs)
        assert comparable(log.state) == comparable(track.tail.state)
