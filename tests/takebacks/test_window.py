"""The takeback window the fold and ``step`` keep, against its event-by-event definition."""

from __future__ import annotations

import pytest
from hypothesis import given

from domain.events import Event
from domain.stream import (
    Command,
    MatchConfig,
    MatchState,
    VersionedEvent,
    effective_events,
    evolve,
    fold_versioned,
    is_move,
    rules_for,
    starts_command,
    step,
)
from tests.strategies import corrected_streams
from tests.takebacks.log import Log

Window = tuple[tuple[tuple[int, bool], ...], int | None, bool]


def advanced(config: MatchConfig, window: Window, at: int, event: Event) -> Window:
    """The window after one more event, as the ``MatchState.window`` docs define it."""
    entries, round_start, moved = window
    starts = starts_command(config, event)
    entries = (*entries, (at, starts))
    if event.type == rules_for(config.game).round_started:
        return entries, len(entries) - 1, False
    if starts and event.type not in ("NoteAdded", "MatchVoided", "MatchResigned") and not moved:
        # The first move of a round closes the round before it.
        if round_start is None:
            return entries, None, True
        cut = max(round_start - 1, 0)
        return entries[cut:], round_start - cut, True
    return entries, round_start, moved


class SteppedLog(Log):
    """A ``Log`` that checks each command's ``step`` state against the fold of its events."""

    def record(self, command: Command) -> list[Event]:
        before = self.state
        events, stepped = step(before, command)
        recorded = super().record(command)
        assert recorded == events
        if all(e.type != "TakenBack" for e in events):
            numbered = list(enumerate(events, start=before.version + 1))
            assert fold_versioned(numbered, before) == stepped
            assert self.state == stepped
        return recorded


# Every event type a match stream records, of either game.
EVENT_TYPES = [
    "MatchCreated",
    "RoundStarted",
    "DealStarted",
    "RoundScored",
    "DealScored",
    "MatchEnded",
    "MatchResigned",
    "MatchVoided",
    "NoteAdded",
    "TakenBack",
    "MovePlayed",
    "RoundEnded",
    "CardsRevealed",
    "OneOffResolved",
    "OneOffFizzled",
    "CardsLed",
    "CardsBeaten",
    "CardsThrown",
    "CardsDrawn",
    "TrickTaken",
    "MolodkaDeclared",
    "DealPlayed",
]


# A concession (R47) is recorded as the match's resignation, and is a move.
_KOZEL_MOVES = {"CardsLed", "CardsBeaten", "CardsThrown", "MolodkaDeclared", "MatchResigned"}
_WHOLE_COMMANDS = {"NoteAdded", "MatchVoided", "MatchResigned", "TakenBack"}


class TestFacts:
    @pytest.mark.parametrize("game", ["cuttle", "kozel"])
    @pytest.mark.parametrize("dealing", ["server", "scorer", "physical"])
    def test_moves_and_command_openers_are_the_rules_ones(self, game: str, dealing: str) -> None:
        variant = "standard" if game == "cuttle" else "default"
        config = MatchConfig(game, variant, ("a", "b"), 0, dealing)  # type: ignore[arg-type]
        if game == "cuttle":
            moves = {"MovePlayed"}
        else:
            # Physically dealt Kozel records the cards drawn: the scorer names them.
            moves = _KOZEL_MOVES | ({"CardsDrawn"} if dealing == "physical" else set())
        started = rules_for(game).round_started
        for kind in EVENT_TYPES:
            event = Event(kind, {})
            assert (kind in moves) == is_move(config, event)
            # A round start opens a command unless the server deals it inside a move.
            opens = dealing != "server" if kind == started else kind in moves | _WHOLE_COMMANDS
            assert opens == starts_command(config, event)


class TestWindow:
    @given(corrected_streams())
    def test_the_fold_keeps_the_window_event_by_event(
        self, stream: tuple[MatchConfig, list[VersionedEvent]]
    ) -> None:
        config, pairs = stream
        state = MatchState()
        window: Window = ((), None, False)
        for version, event in effective_events(pairs):
            state = evolve(state, event, version)
            if event.type == "MatchCreated":
                window = (((version, True),), None, False)
            else:
                window = advanced(config, window, version, event)
            assert window == (state.window, state.round_start, state.moved_since_start)

    @given(corrected_streams(make_log=SteppedLog))
    def test_step_reaches_the_state_its_events_fold_to(
        self, stream: tuple[MatchConfig, list[VersionedEvent]]
    ) -> None:
        """``SteppedLog`` checks every command as the strategy records it."""
        _, pairs = stream
        assert "MatchCreated" == pairs[0][1].type
