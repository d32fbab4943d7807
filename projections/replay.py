"""Replays: a match's timeline of plies, and the position after any ply, cheaply.

A ply is an event that records a move (``domain.stream.is_move``); ply 0 is the
match before its first move. The position "after ply N" folds every event up to
the next ply, but stops before the next round starts, so
the last ply of a round shows the round's final table (with the round scored).

Plies are counted over the raw stream: a move a takeback undid (issue #8) keeps
its ply, is marked ``taken_back`` in the timeline, and the replay after it shows
what the table saw then. Stepping over a ``TakenBack`` folds the effective events
up to it (the match exactly as it was at the version it names).

A ``Track`` keeps a stream's raw events and a snapshot of the match state before
every ``every``-th ply; stepping to any ply then folds at most ``every`` plies (and
refolds at a takeback, which is rare). ``projections.replay_cache`` keeps the server's
tracks; the scorer's pad builds one in the browser (``projections.pad_engine``), so this
module imports nothing but ``domain``.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.events import Event
from domain.game_rules import RESULT_ENTERED
from domain.match import series_score
from domain.stream import (
    MatchConfig,
    MatchState,
    effective_events,
    evolve,
    is_move,
    public_event_data,
    rules_for,
)
from domain.stream.outcome import result_with_resignation
from domain.words import ENGLISH, Words


@dataclass(frozen=True, slots=True)
class Frame:
    """A match state while stepping, and the round position a reader should be shown.

    ``shown`` is the round in progress, or the round that just ended (its final
    table) until the next one starts.
    """

    state: MatchState
    shown: Any = None

    def step(self, event: Event, version: int | None = None) -> Frame:
        """Fold one event."""
        after = evolve(self.state, event, version)
        if after.position is not None:
            return Frame(after, after.position)
        if self.state.position is not None:
            return Frame(after, self.state.position)
        return Frame(after, self.shown)


def refold(pairs: Sequence[tuple[int, Event]]) -> Frame:
    """Return the frame the table saw after ``pairs`` (raw events): their effective fold."""
    frame = Frame(MatchState())
    for version, event in effective_events(pairs):
        frame = frame.step(event, version)
    return frame


@dataclass(frozen=True, slots=True)
class Correction:
    """A takeback or a note as recorded: its version, its data, and who recorded it."""

    version: int
    data: dict[str, Any]
    by: dict[str, Any]


@dataclass(slots=True)
class Track:
    """One stream's raw events, its plies, and snapshots of the state before plies."""

    every: int
    version: int = 0
    events: list[tuple[int, Event]] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)
    """The index in ``events`` of each ply (ply N is ``plies[N - 1]``)."""
    round_starts: list[int] = field(default_factory=list)
    round_numbers: list[int] = field(default_factory=list)
    """The number of each round start in ``round_starts``: a round started again after a
    takeback undid its start has the same number."""
    open_rounds: list[int] = field(default_factory=list)
    """The versions of the round starts on the effective line now."""
    takebacks: list[int] = field(default_factory=list)
    """The index in ``events`` of each ``TakenBack``."""
    snapshots: dict[int, Frame] = field(default_factory=dict)
    """Frame before ply j + 1 (what the table saw before it) for j a multiple of ``every``."""
    tail: Frame = field(default_factory=lambda: Frame(MatchState()))
    config: MatchConfig | None = None
    effective: list[int] = field(default_factory=list)
    """The versions on the effective line now."""
    undone: dict[int, Correction] = field(default_factory=dict)
    """The takeback that undid each undone version."""
    notes: dict[int, list[Correction]] = field(default_factory=dict)
    """The notes on each version."""
    before: list[int] = field(default_factory=list)
    """For each ply, the effective version just before it: the takeback target that undoes it."""

    def extend(
        self,
        pairs: Sequence[tuple[int, Event]],
        by: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        """Add newly recorded raw events, in version order; ``by`` is metadata by version."""
        for version, event in pairs:
            if version <= self.version:
                continue  # a concurrent reader already added it
            index = len(self.events)
            who = dict((by or {}).get(version, {}))
            if event.type == "MatchCreated":
                self.config = MatchConfig.from_data(event.data)
            config = self.config
            if config is not None:
                rules = rules_for(config.game)
                if event.type == rules.round_started or event.type == RESULT_ENTERED:
                    # A score-sheet result is a round of its own (and its one ply, below).
                    self.round_starts.append(index)
                    self.open_rounds.append(version)
                    self.round_numbers.append(len(self.open_rounds))
                if event.type == "NoteAdded":
                    note = Correction(version, dict(event.data), who)
                    self.notes.setdefault(event.data["version"], []).append(note)
                elif is_move(config, event):
                    if len(self.plies) % self.every == 0:
                        self.snapshots[len(self.plies)] = self.tail
                    self.plies.append(index)
                    self.before.append(self.effective[-1] if self.effective else 0)
            self.events.append((version, event))
            self.version = version
            if event.type == "TakenBack":
                self.takebacks.append(index)
                correction = Correction(version, dict(event.data), who)
                while self.effective and self.effective[-1] > event.data["to_version"]:
                    self.undone[self.effective.pop()] = correction
                while self.open_rounds and self.open_rounds[-1] > event.data["to_version"]:
                    self.open_rounds.pop()
                self.tail = refold(self.events)
            else:
                self.effective.append(version)
                self.tail = self.tail.step(event, version)

    def step(self, frame: Frame, index: int) -> Frame:
        """Fold the event at ``index`` into ``frame`` (a takeback refolds up to it)."""
        version, event = self.events[index]
        if event.type == "TakenBack":
            return refold(self.events[: index + 1])
        return frame.step(event, version)

    def end_of(self, ply: int) -> int:
        """Return the index of the first event not folded into the position after ``ply``."""
        if ply == 0:
            return self.plies[0] if self.plies else len(self.events)
        start = self.plies[ply - 1] + 1
        end = self.plies[ply] if ply < len(self.plies) else len(self.events)
        # The table saw a ply's position until the next round started or a takeback.
        for stops in (self.round_starts, self.takebacks):
            after = bisect.bisect_left(stops, start)
            if after < len(stops) and stops[after] < end:
                end = stops[after]
        return end

    def frame_after(self, ply: int) -> Frame:
        """Return the frame after ``ply`` (0 to the number of plies), folding at most a few."""
        end = self.end_of(ply)
        if ply == 0:
            frame, start = Frame(MatchState()), 0
        else:
            base = (ply - 1) // self.every * self.every
            frame, start = self.snapshots[base], self.plies[base]
        for index in range(start, end):
            frame = self.step(frame, index)
        return frame

    def round_of(self, index: int) -> int:
        """Return the number of the round event ``index`` belongs to (0: before any)."""
        started = bisect.bisect_right(self.round_starts, index)
        return self.round_numbers[started - 1] if started else 0


def step_of(
    track: Track,
    ply: int,
    names: Sequence[str],
    *,
    redact: bool,
    show_tokens: bool = False,
    words: Words = ENGLISH,
) -> dict[str, Any] | None:
    """Return one timeline step (ply >= 1): version, round, seat, notation and sentence.

    ``redact`` hides what the table could not see; ``show_tokens`` names the token
    behind each correction (for readers with a scorer's rights on the match). The
    sentence is written now, in ``words``' language: a track holds events, no words.
    """
    if not 1 <= ply <= len(track.plies):
        return None
    index = track.plies[ply - 1]
    version, event = track.events[index]
    config = track.config
    assert config is not None
    data: Any = public_event_data(config, event) if redact else event.data
    notation, sentence, seat = rules_for(config.game).describe_step(event.type, data, names, words)
    undone = track.undone.get(version)
    return {
        "ply": ply,
        "version": version,
        "before_version": track.before[ply - 1],
        "round": track.round_of(index),
        "seat": seat,
        "move": notation,
        "sentence": sentence,
        "taken_back": None if undone is None else _taken_back(undone, show_tokens),
        "notes": [_note(n, show_tokens) for n in _notes_of(track, ply)],
    }


CORRECTIONS = ("TakenBack", "NoteAdded", "MatchVoided")
"""The event types whose metadata (who recorded them) a track keeps."""


def _who(by: Mapping[str, Any], show_tokens: bool) -> dict[str, Any]:
    # A token id is no card, but a reader without rights has no need of it.
    if not show_tokens:
        return {"role": by.get("role")}
    return {"token_id": by.get("token_id"), "role": by.get("role")}


def _taken_back(correction: Correction, show_tokens: bool) -> dict[str, Any]:
    return {
        "by_version": correction.version,
        "to_version": correction.data["to_version"],
        "reason": correction.data["reason"],
        "by": _who(correction.by, show_tokens),
    }


def _note(note: Correction, show_tokens: bool) -> dict[str, Any]:
    return {
        "version": note.version,
        "on_version": note.data["version"],
        "text": note.data["text"],
        "by": _who(note.by, show_tokens),
    }


def _notes_of(track: Track, ply: int) -> list[Correction]:
    """Return the notes on a ply's events (the move and those derived from it)."""
    start = track.plies[ply - 1]
    stop = track.plies[ply] if ply < len(track.plies) else len(track.events)
    notes: list[Correction] = []
    for version, _ in track.events[start:stop]:
        notes.extend(track.notes.get(version, ()))
    return notes


def timeline(
    track: Track,
    names: Sequence[str],
    *,
    redact: bool,
    show_tokens: bool = False,
    words: Words = ENGLISH,
) -> list[dict[str, Any]]:
    """Return every ply of the match as timeline steps (``step_of`` says what is shown)."""
    steps = (
        step_of(track, ply, names, redact=redact, show_tokens=show_tokens, words=words)
        for ply in range(1, len(track.plies) + 1)
    )
    return [step for step in steps if step is not None]


def corrections(track: Track, *, show_tokens: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Return every takeback and every note of the match, oldest first.

    ``show_tokens`` names the token behind each (for readers with a scorer's rights).

    Steps carry the ones on their plies; these lists also hold those on no ply (a
    note on ``MatchCreated``, a takeback that undid only a round start or a note).
    """
    takebacks = {c.version: c for c in track.undone.values()}
    for index in track.takebacks:
        version, event = track.events[index]
        takebacks.setdefault(version, Correction(version, dict(event.data), {}))
    notes = sorted((n for ns in track.notes.values() for n in ns), key=lambda n: n.version)
    return {
        "takebacks": [_taken_back(c, show_tokens) for _, c in sorted(takebacks.items())],
        "notes": [_note(n, show_tokens) for n in notes],
    }


def replay_at(track: Track, ply: int, seat: int | None, *, full: bool) -> dict[str, Any]:
    """Return the match after ``ply``: score, result and the view of ``seat`` (or all seats).

    The views come from the engine: ``seat`` ``None`` is the public view; ``full``
    (for a finished match or a scorer) turns the table's face-down cards up
    (``record_view``: Kozel's face-down throws, R44) and adds every seat's own view.
    """
    frame = track.frame_after(ply)
    state = frame.state
    assert state.config is not None and state.series is not None
    rules = rules_for(state.config.game)
    end = track.end_of(ply)
    view: dict[str, Any] | None = None
    seats: list[dict[str, Any]] | None = None
    if frame.shown is not None:
        view = rules.record_view(frame.shown) if full else rules.view(frame.shown, seat)
        if full:
            count = rules.seats(state.config)
            seats = [rules.view(frame.shown, s) for s in range(count)]
    version = track.events[track.plies[ply - 1]][0] if ply else 0
    undone = track.undone.get(version)
    return {
        "ply": ply,
        "plies": len(track.plies),
        "taken_back": None if undone is None else _taken_back(undone, show_tokens=False),
        "version": track.events[end - 1][0] if end else 0,
        "round": state.rounds_started,
        "round_in_progress": state.round_in_progress,
        "score": series_score(state.series),
        "result": result_with_resignation(state),
        "seat": seat,
        "view": view,
        "seats": seats,
    }


__all__ = [
    "CORRECTIONS",
    "Correction",
    "Frame",
    "Track",
    "corrections",
    "refold",
    "replay_at",
    "step_of",
    "timeline",
]
