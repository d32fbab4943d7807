"""The scorer's pad's own engine: a match folded from its events, answering as the server.

The pad runs this module in the browser (Pyodide, the CPython interpreter compiled to
WebAssembly) with ``domain`` beside it, so a tap shows the next moves at once and taps
go on while the network is down (issue #34). It imports nothing but ``domain`` and
``projections.replay``: the rules are the server's own code, never written twice.
``api.engine`` serves the modules the browser needs; ``tests/viewer/test_engine_parity.py``
plays random matches through the browser and the server and compares every answer.

A ``LocalMatch`` holds the events the server has confirmed and, on top of them, the
events of moves the pad decided itself and has not yet seen confirmed. What the server
confirms replaces a differing local guess: the server's answer decides.
"""

from __future__ import annotations

import gettext
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.errors import DomainError
from domain.events import Event
from domain.match import series_score
from domain.stream import Command, MatchState, Play, StartRound, step
from domain.stream.choices import list_legal_moves
from domain.stream.outcome import result_of, round_data, status_of
from domain.words import ENGLISH, Words
from projections.replay import CORRECTIONS, Track, replay_at, step_of

SNAPSHOT_EVERY = 8
"""Plies between a track's snapshots, as the server's replay cache keeps them."""


class LocalMatch:
    """A match as the pad knows it: the server's events, then its own undecided guesses."""

    def __init__(self, names: Sequence[str], words: Words = ENGLISH) -> None:
        self.names = list(names)
        self.words = words
        self._confirmed: list[tuple[int, Event]] = []
        self._by: dict[int, Mapping[str, Any]] = {}
        self._guessed: list[tuple[int, Event]] = []
        self._track = Track(SNAPSHOT_EVERY)

    @property
    def confirmed_version(self) -> int:
        """The version of the last event the server has confirmed (0: none yet)."""
        return self._confirmed[-1][0] if self._confirmed else 0

    @property
    def version(self) -> int:
        """The version the match is at, guesses included."""
        return self._track.version

    @property
    def state(self) -> MatchState:
        """The match state after every event, guesses included."""
        return self._track.tail.state

    def confirm(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """Add events the server recorded (``GET /matches/{id}/events`` items), in order.

        Guesses the server's events agree with become confirmed; any disagreement drops
        every guess and refolds the server's events alone. Returns whether the guesses
        (if any) held.
        """
        fresh: list[tuple[int, Event]] = []
        for e in events:
            version = int(e["version"])
            if version <= self.confirmed_version or (fresh and version <= fresh[-1][0]):
                continue
            fresh.append((version, Event(e["type"], e["data"])))
            if e["type"] in CORRECTIONS:
                self._by[version] = dict(e.get("metadata") or {})
        self._confirmed.extend(fresh)
        held = min(len(fresh), len(self._guessed))
        if all(_same(ours, theirs) for ours, theirs in zip(self._guessed, fresh, strict=False)):
            self._guessed = self._guessed[held:]
            # The track holds the guesses already: it adds only what is past them.
            self._track.extend(fresh, self._by)
            return True
        self._refold()
        return False

    def forget_guesses(self) -> None:
        """Drop every guess: the match is the server's events alone again."""
        if self._guessed:
            self._refold()

    def play(self, moves: Sequence[str]) -> None:
        """Decide ``moves`` in order as the server would, and add their events as guesses.

        Raises:
            DomainError: a move the match does not accept (the engine's codes); nothing
                of the batch is added.
        """
        self._decide([Play(move) for move in moves])

    def start_round(self, deal: Mapping[str, Any]) -> None:
        """Decide a scorer-dealt round's start (``POST /matches/{id}/rounds``'s deal).

        Raises:
            DomainError: a deal the match does not accept.
        """
        self._decide([StartRound(dict(deal))])

    def answer(self, after_ply: int = 0) -> dict[str, Any]:
        """Return what the pad draws, shaped as the server's answers: the match summary
        (``GET /matches/{id}``), the legal moves, the table after the latest ply kept
        (``/replay?seat=full``) and the timeline's steps after ``after_ply``."""
        track = self._track
        # Only the steps asked for are written: a tap must not describe the whole match.
        steps = [
            step_of(track, ply, self.names, redact=False, show_tokens=True, words=self.words)
            for ply in range(after_ply + 1, len(track.plies) + 1)
        ]
        latest = next(
            (
                ply
                for ply in range(len(track.plies), 0, -1)
                if track.events[track.plies[ply - 1]][0] not in track.undone
            ),
            0,
        )
        listed = list_legal_moves(self.state, self.version, self.names, self.words)
        return {
            "version": self.version,
            "guesses": len(self._guessed),
            "match": self.summary(),
            "legal": listed.data(),
            "replay": replay_at(track, latest, None, full=True),
            "steps": steps,
        }

    def summary(self) -> dict[str, Any]:
        """Return the fields of ``GET /matches/{id}`` that folding the events decides."""
        state = self.state
        assert state.series is not None
        return {
            "version": self.version,
            "status": status_of(state),
            "score": series_score(state.series),
            "result": result_of(state),
            "rounds_started": state.rounds_started,
            "dealer": state.series.dealer,
            "round": round_data(state),
        }

    def _decide(self, commands: Sequence[Command]) -> None:
        state = self.state
        version = self.version
        decided: list[tuple[int, Event]] = []
        for command in commands:
            events, state = step(state, command)
            for event in events:
                version += 1
                # As the server stores it: JSON, so tuples read back as lists.
                decided.append((version, Event(event.type, json.loads(json.dumps(event.data)))))
        self._guessed.extend(decided)
        self._track.extend(decided)

    def _refold(self) -> None:
        self._guessed = []
        self._track = Track(SNAPSHOT_EVERY)
        self._track.extend(self._confirmed, self._by)


class BrowserMatch:
    """A ``LocalMatch`` as the page's script calls it: JSON text in, JSON text out.

    Text crosses between JavaScript and Python whole, so no proxy of a Python object is
    left for the page to free. ``catalog``: the path of the page language's compiled
    ``moves`` catalog, empty for English.
    """

    def __init__(self, names: str, catalog: str = "") -> None:
        words: Words = ENGLISH
        if catalog:
            with open(catalog, "rb") as compiled:
                words = gettext.GNUTranslations(compiled)
        self.match = LocalMatch(json.loads(names), words)

    def confirm(self, events: str) -> str:
        """``LocalMatch.confirm`` the server's events (a JSON list); answer ``{"held": ...}``:
        whether the guesses held."""
        return json.dumps({"held": self.match.confirm(json.loads(events))})

    def forget(self) -> str:
        """Drop every guess; answer ``{}``."""
        self.match.forget_guesses()
        return "{}"

    def answer(self, after_ply: int) -> str:
        """``LocalMatch.answer``, as JSON."""
        return json.dumps(self.match.answer(after_ply))

    def play(self, moves: str, after_ply: int) -> str:
        """Decide moves (a JSON list) and answer; a refusal answers ``{"refused": code}``."""
        return self._tried(lambda: self.match.play(json.loads(moves)), after_ply)

    def start_round(self, deal: str, after_ply: int) -> str:
        """Decide a round's start (a JSON deal) and answer, or ``{"refused": code}``."""
        return self._tried(lambda: self.match.start_round(json.loads(deal)), after_ply)

    def _tried(self, decide: Callable[[], None], after_ply: int) -> str:
        try:
            decide()
        except DomainError as error:
            return json.dumps({"refused": error.code})
        return json.dumps(self.match.answer(after_ply))


def _same(ours: tuple[int, Event], theirs: tuple[int, Event]) -> bool:
    return (
        ours[0] == theirs[0]
        and ours[1].type == theirs[1].type
        and _json(ours[1].data) == _json(theirs[1].data)
    )


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


__all__ = ["SNAPSHOT_EVERY", "BrowserMatch", "LocalMatch"]
