"""Turn a read log back into the commands that recorded it, and check what they give.

A log is never trusted: its moves are replayed through the match decider, and the
events the engine gives must equal the logged ones (derived events included), or
the match is refused at the first difference. Server-dealt rounds reuse the logged
deck, so nothing is reshuffled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from domain.cuttle.moves import same_move_text
from domain.errors import DomainError, IllegalMoveError
from domain.events import Event
from domain.logs.base import LogError, LogEvent, LogHeader, LogMove, MatchLog
from domain.logs.jsonl import dumps
from domain.records import builder
from domain.stream import (
    UNDOING_EVENTS,
    AddNote,
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    ResignMatch,
    StartRound,
    TakeBack,
    VersionedEvent,
    VoidMatch,
    effective_events,
    fold_stream,
    is_move,
    move_text,
    rules_for,
)
from domain.stream import step as decide_step

LOG_NAMESPACE = UUID("5e1b2f4c-6d3a-5b7e-9c10-2a4f6e8d0b13")
"""The uuid5 namespace of ids derived from text logs (matches, players, events)."""

_DEAL_KEYS = ("deck", "hands", "indicator_position", "indicator")


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a text log's note or takeback points; ``replay`` turns it into a version.

    ``kind`` is ``match`` (the match itself), ``round`` (the last round start),
    ``line`` (the first event of the last command that is not a note), ``end`` (the
    last event that is not a note) or ``move`` (``to``: the ``(round, move)`` gone back to).
    """

    kind: str
    to: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One command to replay, and the log line it comes from.

    With an ``anchor``, ``command`` is an ``AddNote`` or ``TakeBack`` whose version
    ``replay`` fills in (a text log names lines and moves, not versions).
    """

    command: Command
    line: int
    anchor: Anchor | None = None


@dataclass(frozen=True, slots=True)
class Replayed:
    """What replaying a log through the decider gave: the events, or the first error.

    ``steps`` are the steps replayed, anchors resolved into real versions: what a
    recorder is given to record the same events.
    """

    events: tuple[Event, ...]
    state: MatchState
    error: LogError | None = None
    steps: tuple[Step, ...] = ()


def deal_of(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Return the deal a logged round set-up was made from (deck or hands, indicator).

    >>> deal_of({'variant': 'standard', 'dealer': 0, 'deck': '7H 8D'})
    {'deck': '7H 8D'}
    """
    return {k: setup[k] for k in _DEAL_KEYS if k in setup}


def config_of(header: LogHeader, player_ids: Sequence[str]) -> MatchConfig:
    """Return the match config a header describes, seated with ``player_ids``."""
    return MatchConfig(
        game=header.game,
        variant=header.variant,
        players=tuple(player_ids),
        first_dealer=header.first_dealer,
        dealing=header.dealing,  # type: ignore[arg-type]
        format=header.format,
        options=dict(header.options),
        first_dealer_drawn=header.first_dealer_drawn,
        competition_id=header.competition_id,
        rules_version=header.rules_version,
        recording=header.recording,  # type: ignore[arg-type]
    )


def steps_from_events(log: MatchLog) -> tuple[list[Step], list[LogError]]:
    """Return the commands that record a canonical log's events, or the errors found.

    The header must agree with ``MatchCreated``. Derived events give no command.
    """
    assert log.header is not None
    events = log.events
    if not events or events[0].type != "MatchCreated":
        line = events[0].line if events else log.header.line
        return [], [LogError(line, "EVENT_INVALID", "a match's first event is MatchCreated")]
    created = events[0]
    try:
        config = MatchConfig.from_data(created.data)
    except (KeyError, TypeError, ValueError) as e:
        return [], [LogError(created.line, "EVENT_INVALID", f"MatchCreated lacks {e}")]
    mismatch = _header_mismatch(log.header, config)
    if mismatch is not None:
        return [], [LogError(log.header.line, "HEADER_MISMATCH", mismatch)]
    items: list[tuple[int, str, Any]] = []
    try:
        rules = rules_for(config.game)
        for event in events[1:]:
            if event.type == rules.round_started:
                items.append((event.line, "deal", deal_of(event.data["setup"])))
            elif event.type == "MatchResigned":
                items.append((event.line, "resign-match", int(event.data["seat"])))
            elif event.type == "TakenBack":
                data = event.data
                items.append((event.line, "takeback", (int(data["to_version"]), data["reason"])))
            elif event.type == "MatchVoided":
                items.append((event.line, "void", event.data["reason"]))
            elif event.type == "NoteAdded":
                items.append((event.line, "note", (int(event.data["version"]), event.data["text"])))
            else:
                text = move_text(config, event)
                if text is not None:
                    items.append((event.line, "move", text))
    except DomainError as e:
        return [], [LogError(created.line, e.code, e.message)]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        return [], [LogError(event.line, "EVENT_INVALID", f"{event.type} lacks {e}")]
    return _steps(config, created.line, items), []


def steps_from_moves(
    header: LogHeader, moves: Sequence[LogMove], player_ids: Sequence[str]
) -> list[Step]:
    """Return the commands that a text log's header and moves give."""
    config = config_of(header, player_ids)
    items: list[tuple[int, str, Any]] = []
    for move in moves:
        if move.kind == "deal":
            items.append((move.line, "deal", dict(move.deal or {})))
        elif move.kind == "resign-match":
            items.append((move.line, "resign-match", move.seat))
        elif move.kind == "note":
            anchor = Anchor(move.anchor or "line")
            items.append((move.line, "anchored", (AddNote(0, move.text), anchor)))
        elif move.kind == "takeback":
            anchor = Anchor("move", move.to)
            items.append((move.line, "anchored", (TakeBack(0, move.text), anchor)))
        elif move.kind == "void":
            items.append((move.line, "void", move.text))
        else:
            items.append((move.line, "move", move.text))
    return _steps(config, header.line, items)


# A log import builds one of each per move: skip the frozen __init__ (domain/records.py).
_step = builder(Step)
_play = builder(Play)


def _steps(config: MatchConfig, line: int, items: Sequence[tuple[int, str, Any]]) -> list[Step]:
    server = config.dealing == "server"
    deals = [index for index, item in enumerate(items) if item[1] == "deal"]
    # A server-dealt round starts inside the move that ends the previous one: every
    # move of a round carries the next logged deal (the decider uses it only then);
    # with no logged next round an empty one, refused if a round really ends there.
    # The first deal starts the match (it rides on CreateMatch), so moves before it
    # carry none.
    next_deal: list[Any] = [{}] * len(items)
    if server and deals:
        following: Any = {}
        for index in range(len(items) - 1, deals[0] - 1, -1):
            next_deal[index] = following
            if items[index][1] == "deal":
                following = items[index][2]
    steps = [Step(CreateMatch(config), line)]
    moved = False  # a move since the last deal, which then rides on it
    for index, (item_line, kind, payload) in enumerate(items):
        if kind == "deal":
            if server and index == deals[0]:
                steps[0] = Step(CreateMatch(config, payload), line)
            elif not (server and moved):
                steps.append(Step(StartRound(payload), item_line))
            moved = False
        elif kind == "move":
            moved = True
            play = _play(payload, next_deal[index] if server else None)
            steps.append(_step(play, item_line, None))
        elif kind == "resign-match":
            steps.append(Step(ResignMatch(payload), item_line))
        elif kind == "takeback":
            steps.append(Step(TakeBack(*payload), item_line))
        elif kind == "void":
            steps.append(Step(VoidMatch(payload), item_line))
        elif kind == "note":
            steps.append(Step(AddNote(*payload), item_line))
        else:
            assert kind == "anchored", kind
            steps.append(Step(payload[0], item_line, payload[1]))
    return steps


def _header_mismatch(header: LogHeader, config: MatchConfig) -> str | None:
    pairs = (
        ("game", header.game, config.game),
        ("variant", header.variant, config.variant),
        ("dealing", header.dealing, config.dealing),
        ("first_dealer", header.first_dealer, config.first_dealer),
        ("first_dealer_drawn", header.first_dealer_drawn, config.first_dealer_drawn),
        ("players", [p.id for p in header.players], list(config.players)),
        ("competition", header.competition_id, config.competition_id),
        ("rules_version", header.rules_version, config.rules_version),
        ("recording", header.recording, config.recording),
    )
    for name, said, recorded in pairs:
        if said != recorded:
            return f"the header's {name} {said!r} is not MatchCreated's {recorded!r}"
    return None


def replay(steps: Sequence[Step]) -> Replayed:
    """Decide every step in turn from an empty match; stop at the first refusal.

    Anchored steps (a text log's notes and takebacks) get their versions here, from
    the events decided so far; the returned ``steps`` hold the resolved commands.
    """
    state = MatchState()
    events: list[Event] = []
    resolved: list[Step] | None = None
    opened = 1
    for index, step in enumerate(steps):
        command = step.command
        try:
            if step.anchor is not None:
                command = _resolve(step, state, events, opened)
                resolved = list(steps) if resolved is None else resolved
                resolved[index] = Step(command, step.line)
            if not isinstance(command, AddNote):
                opened = len(events) + 1
            # ``step`` folds a move's events as it decides them: each move is played once.
            new, after = decide_step(state, command)
        except DomainError as e:
            done = tuple(steps[:index] if resolved is None else resolved[:index])
            return Replayed(tuple(events), state, LogError(step.line, e.code, e.message), done)
        events.extend(new)
        if any(event.type in UNDOING_EVENTS for event in new):
            # A takeback restores an older state: fold the effective events again.
            state = fold_stream(list(enumerate(events, start=1)))
        else:
            state = after
    return Replayed(tuple(events), state, steps=tuple(steps if resolved is None else resolved))


def _resolve(step: Step, state: MatchState, events: Sequence[Event], opened: int) -> Command:
    """Return an anchored step's command with the version its anchor names."""
    assert step.anchor is not None and state.config is not None
    anchor, command = step.anchor, step.command
    if isinstance(command, TakeBack):
        assert anchor.to is not None
        return TakeBack(_version_at(state.config, events, anchor.to), command.reason)
    assert isinstance(command, AddNote)
    if anchor.kind == "line":
        return AddNote(opened, command.text)
    if anchor.kind in ("round", "end"):
        started = state.rules.round_started
        for at in range(len(events), 0, -1):
            kind = events[at - 1].type
            if (kind == started) if anchor.kind == "round" else (kind != "NoteAdded"):
                return AddNote(at, command.text)
    return AddNote(1, command.text)  # on the match itself


def _version_at(config: MatchConfig, events: Sequence[Event], to: tuple[int, int]) -> int:
    """Return the version a takeback to ``(round, move)`` names on the effective line.

    It is the last event before that round's next move, so notes on the move stay.

    Raises:
        IllegalMoveError (TAKEBACK_OUT_OF_RANGE): no such move on the effective line.
    """
    versions: dict[tuple[int, int], int] = {}
    previous: tuple[int, int] | None = None
    effective = effective_events(list(enumerate(events, start=1)))
    for version, round_no, move in move_positions(config, effective):
        if previous is not None and previous[0] != round_no and config.dealing == "server":
            # A server deals the next round inside the move that ends a round: the
            # moment after that move is also the moment after the next round's start.
            versions[previous] = version
        previous = (round_no, move)
        versions[previous] = version
    if to not in versions:
        word = rules_for(config.game).round_word
        raise IllegalMoveError(
            f"{word} {to[0]!r} has no move {to[1]!r} on the match's effective line",
            code="TAKEBACK_OUT_OF_RANGE",
            details={"round": to[0], "move": to[1]},
        )
    return versions[to]


def move_positions(
    config: MatchConfig, pairs: Iterable[VersionedEvent]
) -> list[tuple[int, int, int]]:
    """Return ``(version, round, move)`` for each effective event: where a text log puts it.

    ``move`` counts the round's moves up to and including the event, so a round's
    start is move 0; takebacks in the text notation name these positions.

    >>> cfg = MatchConfig('cuttle', 'standard', ('a', 'b'), 0, 'scorer')
    >>> move_positions(cfg, [(2, Event('RoundStarted', {'round': 1})),
    ...     (3, Event('MovePlayed', {'move': 'P1 draw'})), (4, Event('NoteAdded', {}))])
    [(2, 1, 0), (3, 1, 1), (4, 1, 1)]
    """
    rules = rules_for(config.game)
    key = rules.round_word
    round_no = move = 0
    out: list[tuple[int, int, int]] = []
    for version, event in pairs:
        if event.type == rules.round_started:
            round_no, move = int(event.data[key]), 0
        elif event.type == "MatchResigned" or is_move(config, event):
            move += 1
        out.append((version, round_no, move))
    return out


def first_difference(logged: Sequence[LogEvent], regenerated: Sequence[Event]) -> LogError | None:
    """Return where the engine's events first differ from the logged ones, or ``None``."""
    for index, (want, got) in enumerate(zip(logged, regenerated, strict=False)):
        if want.type != got.type or not same_data(want.data, got.data):
            return LogError(
                want.line,
                "EVENT_MISMATCH",
                f"event {want.version}: the log has {want.type} {dumps(dict(want.data))}, "
                f"the engine gives {got.type} {dumps(dict(got.data))}",
            )
        del index
    if len(logged) > len(regenerated):
        extra = logged[len(regenerated)]
        return LogError(
            extra.line,
            "EVENT_MISMATCH",
            f"event {extra.version}: the log has {extra.type}, the engine gives nothing more",
        )
    if len(regenerated) > len(logged):
        line = logged[-1].line if logged else 1
        got = regenerated[len(logged)]
        return LogError(
            line,
            "EVENT_MISMATCH",
            f"the log ends after event {len(logged)}, the engine gives {got.type} next",
        )
    return None


def same_data(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two event data are the same JSON (engines may hold tuples where JSON has lists).

    A move recorded in an older spelling is the same as the engine's canonical one
    (a 2-player Cuttle four that names its victim, ``domain.cuttle.same_move_text``).

    >>> same_data({'draws': [(1, '7S')]}, {'draws': [[1, '7S']]})
    True
    >>> same_data({'move': 'P1 oneoff 4S@P0'}, {'move': 'P1 oneoff 4S'})
    True
    """
    if a == b or dumps(dict(a)) == dumps(dict(b)):
        return True
    first, second = a.get("move"), b.get("move")
    return (
        len(a) == len(b) == 1
        and isinstance(first, str)
        and isinstance(second, str)
        and same_move_text(first, second)
    )


def fingerprint(header: LogHeader, moves: Sequence[LogMove]) -> str:
    """Return the sha256 (hex) of a text match's header and moves, comments left out.

    Re-importing the same text gives the same fingerprint, hence the same match id.
    """
    body = {
        "game": header.game,
        "variant": header.variant,
        "format": header.format,
        "options": dict(header.options),
        "dealing": header.dealing,
        "first_dealer": header.first_dealer,
        "first_dealer_drawn": header.first_dealer_drawn,
        "rules_version": header.rules_version,
        "players": [[p.id, p.name] for p in header.players],
        "competition": header.competition_id,
        "moves": [_played(m) for m in moves if m.kind not in ("note", "void")],
    }
    if header.recording != "moves":
        # Only then: a match recorded by moves keeps the id older versions gave it.
        body["recording"] = header.recording
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _played(move: LogMove) -> list[Any]:
    if move.kind == "takeback":
        assert move.to is not None
        return [move.kind, *move.to]
    return [move.kind, " ".join(move.text.split()), move.deal, move.seat]


def text_match_id(header: LogHeader, moves: Sequence[LogMove]) -> str:
    """Return a text match's id: its ``Match`` tag, else uuid5 of its fingerprint."""
    if header.match_id is not None:
        return header.match_id
    return str(uuid5(LOG_NAMESPACE, fingerprint(header, moves)))


def text_player_id(name: str) -> str:
    """Return the id a text log's player gets when the log names no id: uuid5 of the name.

    >>> text_player_id('Ada') == text_player_id('Ada')
    True
    """
    return str(uuid5(LOG_NAMESPACE, "player:" + name))


def text_event_id(match_id: str, version: int) -> UUID:
    """Return the id of the ``version``-th event of a match imported from text."""
    return uuid5(UUID(match_id), str(version))
