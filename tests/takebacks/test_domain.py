"""Takebacks, voids and notes in the match stream decider (no database)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.events import Event
from domain.stream import (
    AddNote,
    CreateMatch,
    MatchConfig,
    Play,
    StartRound,
    TakeBack,
    VoidMatch,
    effective_events,
    move_text,
    starts_command,
    undone_by,
)
from tests.takebacks.log import Log, comparable, shuffled


def cuttle(dealing: str = "scorer", fmt: str = "normal") -> MatchConfig:
    return MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing, fmt)  # type: ignore[arg-type]


def kozel(dealing: str = "scorer", loss_limit: int = 12) -> MatchConfig:
    return MatchConfig(
        "kozel",
        "default",
        ("a", "b", "c", "d"),
        0,
        dealing,
        None,  # type: ignore[arg-type]
        {"loss_limit": loss_limit},
    )


def started(config: MatchConfig, seed: int = 1) -> tuple[Log, random.Random]:
    rng = random.Random(seed)
    log = Log()
    if config.dealing == "server":
        log.record(CreateMatch(config, shuffled(config, rng)))
    else:
        log.record(CreateMatch(config))
        log.record(StartRound(shuffled(config, rng)))
    return log, rng


def to_round_end(log: Log, rng: random.Random, *, server: bool = False) -> None:
    """Play until the first round is scored (and, server-dealt, the next one started)."""
    while log.state.series is not None and log.state.rounds_started == 1:
        assert log.state.position is not None
        log.play_random(rng, 1, server=server)
        if log.state.position is None:
            return


def refusal(log: Log, command: object) -> str:
    with pytest.raises(DomainError) as e:
        log.record(command)  # type: ignore[arg-type]
    return e.value.code


class TestTakebackInsideARound:
    def test_the_match_is_exactly_as_it_was_at_the_version(self) -> None:
        log, rng = started(kozel())
        log.play_random(rng, 9)
        target = log.ply_versions()[3] - 1
        before_head = log.version
        log.record(TakeBack(target, "wrong card"))
        assert comparable(log.at(target)) == comparable(log.state)
        rules = log.state.rules
        expected = [m.text() for m in rules.legal_moves(log.at(target).position)]
        assert expected == [m.text() for m in rules.legal_moves(log.state.position)]
        assert before_head + 1 == log.version

    def test_recording_the_undone_moves_again_gives_the_same_match(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 7)
        before = log.state
        config = before.config
        assert config is not None
        target = log.ply_versions()[2] - 1
        undone = [e for v, e in log.pairs if v > target]
        log.record(TakeBack(target, "players agreed"))
        for event in undone:
            move = move_text(config, event)
            if move is not None:
                log.record(Play(move))
        assert before.position == log.state.position
        assert before.series == log.state.series

    @given(st.sampled_from(["cuttle", "kozel"]), st.integers(0, 2**16), st.integers(2, 30))
    def test_any_reachable_version_restores_the_fold_up_to_it(
        self, game: str, seed: int, moves: int
    ) -> None:
        log, rng = started(cuttle() if game == "cuttle" else kozel(), seed)
        log.play_random(rng, moves)
        if log.state.is_over:
            return
        window = log.state.window
        targets = [v for (v, _), (_, starts) in itertools.pairwise(window) if starts]
        if not targets:
            return
        target = random.Random(seed).choice(targets)
        log.record(TakeBack(target, "misplay"))
        assert comparable(log.at(target)) == comparable(log.state)


class TestTakebackOfARoundEnd:
    def test_a_round_ending_move_is_undone_with_its_score(self) -> None:
        log, rng = started(kozel())
        to_round_end(log, rng)
        assert log.state.series is not None and log.state.position is None
        last = log.ply_versions()[-1]
        log.record(TakeBack(last - 1, "wrong seat"))
        assert 1 == log.state.rounds_started
        assert log.state.position is not None
        assert comparable(log.at(last - 1)) == comparable(log.state)

    def test_a_server_dealt_next_round_without_a_move_is_undone_with_it(self) -> None:
        log, rng = started(kozel("server"), seed=3)
        to_round_end(log, rng, server=True)
        assert 2 == log.state.rounds_started and log.state.position is not None
        last = log.ply_versions()[-1]
        log.record(TakeBack(last - 1, "wrong card"))
        assert 1 == log.state.rounds_started
        assert comparable(log.at(last - 1)) == comparable(log.state)

    def test_a_move_of_the_next_round_closes_the_round_before(self) -> None:
        log, rng = started(kozel("server"), seed=3)
        to_round_end(log, rng, server=True)
        last = log.ply_versions()[-1]
        log.play_random(rng, 1, server=True)
        assert "TAKEBACK_OUT_OF_RANGE" == refusal(log, TakeBack(last - 1, "too late"))


class TestRefusals:
    def test_nothing_to_take_back_at_the_head(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 3)
        assert "NOTHING_TO_TAKE_BACK" == refusal(log, TakeBack(log.version, "no"))

    @pytest.mark.parametrize("target", [0, -1, 999])
    def test_a_version_off_the_line_is_out_of_range(self, target: int) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 3)
        assert "TAKEBACK_OUT_OF_RANGE" == refusal(log, TakeBack(target, "no"))

    def test_a_version_already_undone_is_out_of_range(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 6)
        plies = log.ply_versions()
        log.record(TakeBack(plies[1] - 1, "first"))
        log.play_random(rng, 3)
        assert "TAKEBACK_OUT_OF_RANGE" == refusal(log, TakeBack(plies[3], "undone"))

    def test_a_version_inside_one_move_is_refused(self) -> None:
        log, rng = started(kozel())
        log.play_random(rng, 12)
        window = log.state.window
        inside = [v for (v, _), (_, starts) in itertools.pairwise(window) if not starts]
        assert inside
        assert "TAKEBACK_MID_MOVE" == refusal(log, TakeBack(inside[0], "mid"))

    def test_a_blank_reason_is_refused(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 3)
        assert "REASON_REQUIRED" == refusal(log, TakeBack(log.ply_versions()[0] - 1, "  "))

    def test_nothing_reaches_behind_a_match_end(self) -> None:
        log, rng = started(cuttle(fmt="quick"))
        log.play_random(rng, 2000)
        assert log.state.is_over
        last = log.ply_versions()[-1]
        assert "MATCH_OVER" == refusal(log, TakeBack(last - 1, "after the end"))


class TestVoid:
    def test_only_a_finished_match_can_be_voided(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 3)
        assert "VOID_NOT_FINISHED" == refusal(log, VoidMatch("mistake"))

    def test_a_void_match_takes_only_notes(self) -> None:
        log, rng = started(cuttle(fmt="quick"))
        log.play_random(rng, 2000)
        log.record(VoidMatch("recorded twice"))
        assert log.state.voided
        assert "MATCH_VOID" == refusal(log, VoidMatch("again"))
        assert "MATCH_VOID" == refusal(log, TakeBack(2, "again"))
        assert [Event("NoteAdded", {"version": 2, "text": "dup of match 7"})] == log.record(
            AddNote(2, "dup of match 7")
        )


class TestNotes:
    def test_a_note_changes_nothing_but_can_be_taken_back_to(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 3)
        before = comparable(log.state)
        log.record(AddNote(log.ply_versions()[0], "clock 12:03"))
        assert before.position == log.state.position
        note_version = log.version
        log.play_random(rng, 2)
        log.record(TakeBack(note_version, "wrong card"))
        assert comparable(log.at(note_version)) == comparable(log.state)

    @pytest.mark.parametrize("text", ["", "   ", "a {brace}", "x" * 501])
    def test_a_bad_note_is_refused(self, text: str) -> None:
        log, _ = started(cuttle())
        assert "NOTE_INVALID" == refusal(log, AddNote(1, text))

    @pytest.mark.parametrize("version", [0, 3])
    def test_a_note_on_no_event_is_refused(self, version: int) -> None:
        log, _ = started(cuttle())
        assert "NOTE_TARGET_NOT_FOUND" == refusal(log, AddNote(version, "ruling"))


class TestEffectiveEvents:
    def test_undone_versions_name_their_takeback(self) -> None:
        log, rng = started(cuttle())
        log.play_random(rng, 5)
        target = log.ply_versions()[1] - 1
        head = log.version
        log.record(TakeBack(target, "misplay"))
        undone = undone_by(log.pairs)
        assert list(range(target + 1, head + 1)) == sorted(undone)
        assert {head + 1} == set(undone.values())
        kept = [v for v, _ in effective_events(log.pairs)]
        assert list(range(1, target + 1)) == kept

    def test_server_dealt_round_starts_are_not_commands(self) -> None:
        started_event = Event("RoundStarted", {})
        assert not starts_command(cuttle("server"), started_event)
        assert starts_command(cuttle("scorer"), started_event)
