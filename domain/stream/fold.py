"""The match state and its fold: ``evolve`` one event, the takeback window, effective events.

>>> state = fold([])
>>> state.config is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.events import Event
from domain.game_rules import RESULT_ENTERED, AnyRules, Series
from domain.games import rules_for
from domain.records import builder
from domain.series import MatchResult
from domain.stream.config import MatchConfig
from domain.stream.facts import Facts, facts

Window = tuple[tuple[int, bool], ...]
"""Takeback window entries, oldest first: ``(version, starts_command)``."""


@dataclass(frozen=True, slots=True)
class MatchState:
    """What the next decision needs: the rules, the series, the round in progress."""

    config: MatchConfig | None = None
    series: Series | None = None
    rounds_started: int = 0
    position: Any = None
    result: MatchResult | None = None
    voided: bool = False
    version: int = 0
    """The stream version of the last folded event (see ``fold_versioned``)."""
    window: Window = ()
    """The effective events a takeback may still reach back to, oldest first, as
    ``(version, starts_command)``: from the event before the start of the last round
    with a recorded move (or of the first round) to the last event."""
    round_start: int | None = None
    """The index in ``window`` of the last round start."""
    moved_since_start: bool = False
    """Whether a move has been recorded since the last round start."""

    @property
    def rules(self) -> AnyRules:
        """The game's match-level rules."""
        assert self.config is not None
        return rules_for(self.config.game)

    @property
    def round_in_progress(self) -> bool:
        """Whether a round has started and not yet been scored."""
        return self.position is not None

    @property
    def is_over(self) -> bool:
        """Whether the match has a result."""
        return self.result is not None


# Folds build one per event (imports, rebuilds, replays): skip the frozen __init__.
_match_state = builder(MatchState)


def _window(
    state: MatchState, found: Facts, events: Sequence[Event], at: int
) -> tuple[Window, int | None, bool]:
    """Return the takeback window, its round start and ``moved`` after ``events`` from ``at``.

    The one rule of the window: every event joins it; a round start opens a new
    round in it; the first move after a round start closes the round before it. A
    result entered from a score sheet is a round's start and its move at once: it
    closes the round before it, so a takeback reaches back to just before it.
    """
    window, round_start, moved = state.window, state.round_start, state.moved_since_start
    if moved and len(events) == 1:
        # Most events come one at a time mid-round: nothing to cut, one entry to add.
        kind = events[0].type
        if kind != found.round_started and kind != RESULT_ENTERED:
            window += ((at, kind in found.opening),)
            return window, round_start, moved
    entries = list(window)
    for event in events:
        kind = event.type
        if kind == RESULT_ENTERED:
            entries.append((at, True))
            round_start, moved = len(entries) - 1, True
            cut = max(round_start - 1, 0)
            del entries[:cut]
            round_start -= cut
        elif kind == found.round_started:
            entries.append((at, found.round_start_opens))
            round_start, moved = len(entries) - 1, False
        else:
            entries.append((at, kind in found.opening))
            if not moved and kind in found.moves:
                moved = True
                if round_start is not None:
                    cut = max(round_start - 1, 0)
                    del entries[:cut]
                    round_start -= cut
        at += 1
    return tuple(entries), round_start, moved


def evolve(state: MatchState, event: Event, version: int | None = None) -> MatchState:
    """Fold one stored event into the match state; never raises for a stored event.

    ``version`` is the event's stream version (default: the next one). Folds go
    through ``effective_events``, which drops ``TakenBack`` itself: here it changes
    nothing. ``NoteAdded`` changes nothing either, except the takeback window.
    """
    at = state.version + 1 if version is None else version
    kind, data = event.type, event.data
    if kind == "MatchCreated":
        created = MatchConfig.from_data(data)
        new_series = rules_for(created.game).new_series(created)
        return MatchState(created, new_series, version=at, window=((at, True),))
    config = state.config
    if config is None or kind == "TakenBack":
        return replace(state, version=at)
    # One constructor call per event: ``dataclasses.replace`` is several times slower
    # and folds run once per recorded event (imports, rebuilds, replays).
    series, rounds_started, position = state.series, state.rounds_started, state.position
    result, voided = state.result, state.voided
    found = facts(config)
    rules = found.rules
    entries, round_start, moved = state.window, state.round_start, state.moved_since_start
    if moved and kind != found.round_started and kind != RESULT_ENTERED:
        # ``_window``'s first case, inlined: a fold meets it on nearly every event, and
        # the call would cost it several per cent.
        entries += ((at, kind in found.opening),)
    else:
        entries, round_start, moved = _window(state, found, (event,), at)
    if kind == found.round_started:
        position = rules.initial_position(data["setup"])
        if not rounds_started:  # only a match's first round may carry a match context
            assert series is not None
            series = rules.series_at_start(series, data["setup"])
        rounds_started += 1
    elif kind == RESULT_ENTERED:  # a round started and ended on a score sheet
        rounds_started += 1
    elif kind == "NoteAdded":
        pass
    elif kind == "MatchVoided":
        voided = True
    elif kind == found.round_scored:
        assert series is not None
        series, position = rules.series_from_scored(series, data), None
    elif kind == "MatchResigned":
        assert series is not None
        series, position = rules.resign_match(series, data["seat"]), None
    elif kind == "MatchEnded":
        result = MatchResult(tuple(data["winners"]), tuple(data["losers"]), data["reason"])
        position = None
    elif position is not None:
        position = rules.evolve(position, event)
    return _match_state(
        config, series, rounds_started, position, result, voided, at, entries, round_start, moved
    )


def after_engine_events(
    state: MatchState, found: Facts, events: Sequence[Event], position: Any
) -> MatchState:
    """Return ``state`` after an engine's own events, whose fold ``position`` already is.

    The window moves on as ``evolve`` moves it event by event, but in one step.
    """
    window, round_start, moved = _window(state, found, events, state.version + 1)
    return _match_state(
        state.config,
        state.series,
        state.rounds_started,
        position,
        state.result,
        state.voided,
        state.version + len(events),
        window,
        round_start,
        moved,
    )


VersionedEvent = tuple[int, Event]
"""A stored event with its stream version (1-based), as ``effective_events`` takes them."""


UNDOING_EVENTS = ("TakenBack",)
"""Events after which a fold must start again from ``effective_events``."""


def effective_events(events: Iterable[VersionedEvent]) -> list[VersionedEvent]:
    """Return the events a fold should see: the raw stream less what takebacks undo.

    Every read-side fold (replays, summaries, series, standings, rebuilds) goes
    through this one function. The match "as it was at version t" is the fold of
    the effective events up to and including version t. A ``TakenBack`` naming
    ``to_version`` t truncates the effective list after t and is itself dropped;
    ``decide`` only lets a takeback name a version on the effective line, so the
    events after it are undone and nothing is revived. Versions travel with the
    events so callers can still say which stored event a step came from. The same
    truncation holds for any subset of a stream taken in version order (a rebuild
    reads only the series events).

    >>> e = Event('MatchCreated', {})
    >>> m = Event('MovePlayed', {'move': 'P1 draw'})
    >>> t = Event('TakenBack', {'to_version': 2, 'reason': 'wrong card'})
    >>> [v for v, _ in effective_events([(1, e), (2, m), (3, m), (4, t), (5, m)])]
    [1, 2, 5]
    """
    kept: list[VersionedEvent] = []
    for version, event in events:
        if event.type == "TakenBack":
            to_version = event.data["to_version"]
            while kept and kept[-1][0] > to_version:
                kept.pop()
            continue
        kept.append((version, event))
    return kept


def undone_by(events: Iterable[VersionedEvent]) -> dict[int, int]:
    """Return, for each version a takeback undid, the version of the ``TakenBack`` that did.

    >>> m = Event('MovePlayed', {'move': 'P1 draw'})
    >>> t = Event('TakenBack', {'to_version': 1, 'reason': 'misdeal'})
    >>> undone_by([(1, m), (2, m), (3, t)])
    {2: 3}
    """
    kept: list[int] = []
    undone: dict[int, int] = {}
    for version, event in events:
        if event.type == "TakenBack":
            to_version = event.data["to_version"]
            while kept and kept[-1] > to_version:
                undone[kept.pop()] = version
            continue
        kept.append(version)
    return undone


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """Fold events (effective ones: takebacks already applied) from ``state`` or the start.

    Versions count on from ``state.version``; after a takeback they do not, so a
    fold that must decide takebacks uses ``fold_versioned``.
    """
    current = MatchState() if state is None else state
    for event in events:
        current = evolve(current, event)
    return current


def fold_versioned(pairs: Iterable[VersionedEvent], state: MatchState | None = None) -> MatchState:
    """Fold effective ``(version, event)`` pairs from ``state`` or the start."""
    current = MatchState() if state is None else state
    for version, event in pairs:
        current = evolve(current, event, version)
    return current


def fold_stream(pairs: Sequence[VersionedEvent]) -> MatchState:
    """Fold a raw stream's ``(version, event)`` pairs through ``effective_events``.

    The state's ``version`` is the raw head, so the next events number on from it.
    """
    state = fold_versioned(effective_events(pairs))
    return replace(state, version=pairs[-1][0]) if pairs else state


__all__ = [
    "UNDOING_EVENTS",
    "MatchState",
    "VersionedEvent",
    "Window",
    "after_engine_events",
    "effective_events",
    "evolve",
    "fold",
    "fold_stream",
    "fold_versioned",
    "undone_by",
]
