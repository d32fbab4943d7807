"""The match decider: check a command against the match state and return its events.

One decider serves every game: it asks the game's ``GameRules`` for what differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import (
    DomainError,
    IllegalMoveError,
    InvalidSetupError,
    MalformedError,
    NotFoundError,
)
from domain.events import Event
from domain.game_rules import AnyRules, Series
from domain.games import rules_for
from domain.series import MatchResult
from domain.stream.commands import (
    MAX_NOTE_LENGTH,
    MAX_REASON_LENGTH,
    AddNote,
    Command,
    CreateMatch,
    Play,
    ResignMatch,
    StartRound,
    TakeBack,
    VoidMatch,
)
from domain.stream.config import DEALINGS, RECORDINGS
from domain.stream.facts import facts
from domain.stream.fold import MatchState, after_engine_events, evolve, fold
from domain.text import clean_text


def decide(state: MatchState, command: Command) -> list[Event]:
    """Check a command against the match and return the events it records.

    Raises:
        InvalidSetupError (INVALID_FORMAT, INVALID_DECK): a bad match or round set-up.
        IllegalMoveError (MATCH_OVER): the match already has a result (checked first;
            notes and voids apply to finished matches).
        IllegalMoveError (MATCH_VOID): the match is void (only notes are taken).
        IllegalMoveError (VOID_NOT_FINISHED): only a finished match can be voided.
        IllegalMoveError (NOTHING_TO_TAKE_BACK): the target is where the match is.
        IllegalMoveError (TAKEBACK_OUT_OF_RANGE): the target is not on the effective
            line inside the current round (or the round just ended).
        IllegalMoveError (TAKEBACK_MID_MOVE): the target lies inside one move's events.
        MalformedError (REASON_REQUIRED, NOTE_INVALID): a blank or too long reason or note,
            or one the text rule refuses (domain.text: a bidi control, a BOM ...).
        NotFoundError (NOTE_TARGET_NOT_FOUND): a note names no event of the match.
        IllegalMoveError (ROUND_NOT_STARTED / DEAL_NOT_STARTED): no round in progress.
        IllegalMoveError (ROUND_IN_PROGRESS): a round is started while one is live.
        IllegalMoveError (WRONG_RECORDING): a result in a match recorded by moves, or a
            move or round start in a match recorded by results (Cuttle §27, Kozel R48).
        MalformedError, IllegalMoveError (INVALID_RESULT): an unreadable or impossible result.
        MalformedError, IllegalMoveError: the engine's codes for the move.
    """
    return step(state, command)[0]


def step(state: MatchState, command: Command) -> tuple[list[Event], MatchState]:
    """Decide a command and return its events with the state they lead to.

    The same as ``decide`` followed by ``fold``, but a move's events are folded once
    (deciding a move has to fold them anyway, to see whether the round ended).

    Raises:
        DomainError: as ``decide``.
    """
    if isinstance(command, Play) and state.config is not None and state.result is None:
        return _play(state, command)
    if isinstance(command, CreateMatch):
        return _create(state, command)
    events = _decide_other(state, command)
    return events, fold(events, state)


def _decide_other(state: MatchState, command: Command) -> list[Event]:
    if state.config is None:
        raise IllegalMoveError("the match has not been created", code="MATCH_NOT_CREATED")
    if isinstance(command, AddNote):
        return _add_note(state, command)
    if state.voided:
        raise IllegalMoveError("the match is void", code="MATCH_VOID")
    if isinstance(command, VoidMatch):
        return _void(state, command.reason)
    if state.result is not None:
        raise IllegalMoveError("the match is over", code="MATCH_OVER")
    if isinstance(command, StartRound):
        if state.config.recording == "results":
            raise _wrong_recording(state, "a round start")
        return _start_round(state, command.deal)
    if isinstance(command, ResignMatch):
        return _resign_match(state, command.seat)
    if isinstance(command, TakeBack):
        return _take_back(state, command)
    raise AssertionError(f"unknown command {command!r}")


def _reason(reason: str) -> str:
    try:
        text = clean_text(reason, lines=True)
    except MalformedError as e:
        raise MalformedError(f"a reason {e.message}", code="REASON_REQUIRED") from None
    if len(text) > MAX_REASON_LENGTH:
        raise MalformedError(
            f"a reason is 1-{MAX_REASON_LENGTH} characters, not {len(text)}",
            code="REASON_REQUIRED",
            details={"reason": reason},
        )
    return text


def _take_back(state: MatchState, command: TakeBack) -> list[Event]:
    reason = _reason(command.reason)
    target = command.to_version
    versions = [version for version, _ in state.window]
    details = {"to_version": target, "earliest": versions[0] if versions else None}
    if versions and target == versions[-1]:
        raise IllegalMoveError(
            f"the match is already at version {target!r}: nothing to take back",
            code="NOTHING_TO_TAKE_BACK",
            details=details,
        )
    if target not in versions:
        raise IllegalMoveError(
            f"version {target!r} is not a version a takeback can reach: the current round,"
            " or the round just ended while the next has no move",
            code="TAKEBACK_OUT_OF_RANGE",
            details=details,
        )
    index = versions.index(target)
    if not state.window[index + 1][1]:
        raise IllegalMoveError(
            f"version {target!r} lies inside one move's events: name the version before a move",
            code="TAKEBACK_MID_MOVE",
            details=details,
        )
    return [Event("TakenBack", {"to_version": target, "reason": reason})]


def _void(state: MatchState, reason: str) -> list[Event]:
    text = _reason(reason)
    if state.result is None:
        raise IllegalMoveError(
            "only a finished match can be voided: take moves back instead",
            code="VOID_NOT_FINISHED",
        )
    return [Event("MatchVoided", {"reason": text})]


def _add_note(state: MatchState, command: AddNote) -> list[Event]:
    try:
        # Braces delimit comments in the text log format, so a note may not hold them.
        text = clean_text(command.text, lines=True, braces=False)
    except MalformedError as e:
        raise MalformedError(f"a note {e.message}", code="NOTE_INVALID") from None
    if len(text) > MAX_NOTE_LENGTH:
        raise MalformedError(
            f"a note is 1-{MAX_NOTE_LENGTH} characters without braces, not {command.text!r}",
            code="NOTE_INVALID",
            details={"text": command.text},
        )
    if not 1 <= command.version <= state.version:
        raise NotFoundError(
            f"version {command.version!r} is not an event of this match",
            code="NOTE_TARGET_NOT_FOUND",
            details={"version": command.version},
        )
    return [Event("NoteAdded", {"version": command.version, "text": text})]


def _create(state: MatchState, command: CreateMatch) -> tuple[list[Event], MatchState]:
    if state.config is not None:
        raise IllegalMoveError("the match already exists", code="MATCH_EXISTS")
    rules = rules_for(command.config.game)
    config = rules.validate(command.config)
    seats = rules.seats(config)
    if config.recording not in RECORDINGS:
        raise InvalidSetupError(
            f"{config.recording!r} is not a way of recording: moves or results",
            code="INVALID_FORMAT",
            details={"recording": config.recording},
        )
    if config.dealing not in DEALINGS:
        raise InvalidSetupError(
            f"{config.dealing!r} is not a way of dealing: server, scorer or physical",
            code="INVALID_FORMAT",
            details={"dealing": config.dealing},
        )
    if len(config.players) != seats:
        raise InvalidSetupError(
            f"{config.game} {config.variant} has {seats} seats, not {len(config.players)}",
            code="INVALID_FORMAT",
            details={"players": list(config.players)},
        )
    if len(set(config.players)) != len(config.players):
        raise InvalidSetupError(
            "a player may take only one seat",
            code="INVALID_FORMAT",
            details={"players": list(config.players)},
        )
    if not 0 <= config.first_dealer < seats:
        raise InvalidSetupError(
            f"the first dealer must be a seat 0-{seats - 1}, not {config.first_dealer!r}",
            code="INVALID_FORMAT",
            details={"first_dealer": config.first_dealer},
        )
    events = [Event("MatchCreated", config.to_data())]
    created = evolve(state, events[0])
    if config.dealing != "server" or config.recording == "results":
        return events, created
    if command.deal is None:
        raise InvalidSetupError("a server-dealt match needs its first deck", code="INVALID_DECK")
    started = _start_round(created, command.deal)
    events.extend(started)
    return events, fold(started, created)


def _start_round(state: MatchState, deal: Mapping[str, Any]) -> list[Event]:
    if state.round_in_progress:
        raise IllegalMoveError(
            "a round is in progress; finish it before starting the next",
            code="ROUND_IN_PROGRESS",
        )
    assert state.config is not None and state.series is not None
    rules = state.rules
    setup = rules.setup_data(state.config, state.series, deal)
    number = state.rounds_started + 1
    return [Event(rules.round_started, {rules.round_word: number, "setup": setup})]


def _resign_match(state: MatchState, seat: int) -> list[Event]:
    assert state.config is not None and state.series is not None
    rules = state.rules
    series = rules.resign_match(state.series, seat)
    result = series.result()
    assert result is not None
    return [Event("MatchResigned", {"seat": seat}), _match_ended(rules, series, result)]


def _match_ended(rules: AnyRules, series: Series, result: MatchResult) -> Event:
    data: dict[str, Any] = {
        "winners": list(result.winners),
        "losers": list(result.losers),
        "reason": result.reason,
        **rules.ended_data(series),
    }
    return Event("MatchEnded", data)


def _play(state: MatchState, command: Play) -> tuple[list[Event], MatchState]:
    config = state.config
    assert config is not None
    found = facts(config)
    rules = found.rules
    if config.recording == "results":
        return _enter_result(state, rules, command.move)
    conceding = rules.concession(command.move)
    if conceding is not None:  # ends the match at any moment (Kozel R47)
        events = _resign_match(state, conceding)
        return events, fold(events, state)
    if state.position is None:
        if rules.is_result(command.move):
            raise _wrong_recording(state, "a result")
        what = rules.round_word
        raise IllegalMoveError(
            f"no {what} is in progress: the scorer must start the next {what}",
            code=rules.not_started_code,
            details={"move": command.move},
        )
    try:
        events, position = rules.step(state.position, command.move)
    except DomainError:
        # No engine reads a result (``result ...``, ``deal ...``) as a move, so a result
        # is only looked for once the engine has refused: a legal move pays nothing.
        # Looking first cost 95,051 instructions a command against 92,401 this way and
        # 91,823 before score sheets (callgrind on bench/step_instructions.py 40 less 0).
        if rules.is_result(command.move):
            raise _wrong_recording(state, "a result") from None
        raise
    after = after_engine_events(state, found, events, position)
    outcome = rules.outcome(position)
    if outcome is None:
        return events, after
    assert after.series is not None
    series, scored = rules.score(after.series, outcome, after.rounds_started)
    after = evolve(after, scored)
    events.append(scored)
    result = series.result()
    if result is not None:
        ended = _match_ended(rules, series, result)
        events.append(ended)
        return events, evolve(after, ended)
    if not found.round_start_opens and command.next_deal:
        started = _start_round(after, command.next_deal)
        events.extend(started)
        return events, fold(started, after)
    return events, after


def _enter_result(state: MatchState, rules: AnyRules, move: str) -> tuple[list[Event], MatchState]:
    """Record a score-sheet result: ``ResultEntered``, the round's score, the end if it ends.

    The round is scored by the game's own ``score`` (the series' ``record``), so its
    ``RoundScored``/``DealScored`` and ``MatchEnded`` are the very events a played round
    ends with: series, standings, ratings and exports, which read only those, count a
    score-sheet match unchanged. ``ResultEntered`` keeps what the scorer wrote, for the
    timeline, the logs and replays (it is the result's "move").
    """
    if not rules.is_result(move):
        raise _wrong_recording(state, "a move")
    assert state.series is not None
    series, events = rules.enter_result(state.series, move, state.rounds_started + 1)
    result = series.result()
    if result is not None:
        events.append(_match_ended(rules, series, result))
    return events, fold(events, state)


def _wrong_recording(state: MatchState, what: str) -> IllegalMoveError:
    assert state.config is not None
    recording = state.config.recording
    return IllegalMoveError(
        f"this match is recorded by {recording}: {what} cannot be recorded in it",
        code="WRONG_RECORDING",
        details={"recording": recording},
    )


__all__ = ["decide", "step"]
