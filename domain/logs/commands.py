"""Turn a read log back into the commands that recorded it, and check what they give.

A log is never trusted: its moves are replayed through the match decider, and the
events the engine gives must equal the logged ones (derived events included), or
the match is refused at the first difference. Server-dealt rounds reuse the logged
deck, so nothing is reshuffled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from domain.errors import DomainError
from domain.events import Event
from domain.logs.base import LogError, LogEvent, LogHeader, LogMove, MatchLog
from domain.logs.jsonl import dumps
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
    VoidMatch,
    decide,
    fold,
    fold_stream,
    move_text,
    rules_for,
)

LOG_NAMESPACE = UUID("5e1b2f4c-6d3a-5b7e-9c10-2a4f6e8d0b13")
"""The uuid5 namespace of ids derived from text logs (matches, players, events)."""

_DEAL_KEYS = ("deck", "hands", "indicator_position", "indicator")


@dataclass(frozen=True, slots=True)
class Step:
    """One command to replay, and the log line it comes from."""

    command: Command
    line: int


@dataclass(frozen=True, slots=True)
class Replayed:
    """What replaying a log through the decider gave: the events, or the first error."""

    events: tuple[Event, ...]
    state: MatchState
    error: LogError | None = None


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
                text = move_text(config, Event(event.type, event.data))
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
        else:
            items.append((move.line, "move", move.text))
    return _steps(config, header.line, items)


def _steps(config: MatchConfig, line: int, items: Sequence[tuple[int, str, Any]]) -> list[Step]:
    server = config.dealing == "server"
    steps = [Step(CreateMatch(config), line)]
    # A server-dealt round starts inside the move that ends the previous one: every
    # move of a round carries the next logged deal (the decider uses it only then).
    pending: list[int] = []
    for item_line, kind, payload in items:
        if kind == "deal":
            if server and len(steps) == 1:
                steps[0] = Step(CreateMatch(config, payload), line)
            elif server and pending:
                for index in pending:
                    step = steps[index]
                    assert isinstance(step.command, Play)
                    steps[index] = Step(Play(step.command.move, payload), step.line)
            else:
                steps.append(Step(StartRound(payload), item_line))
            pending = []
        elif kind == "resign-match":
            steps.append(Step(ResignMatch(payload), item_line))
        elif kind == "takeback":
            steps.append(Step(TakeBack(*payload), item_line))
        elif kind == "void":
            steps.append(Step(VoidMatch(payload), item_line))
        elif kind == "note":
            steps.append(Step(AddNote(*payload), item_line))
        else:
            if server:
                pending.append(len(steps))
            # No logged next round: an empty deal, refused if a round really ends here.
            steps.append(Step(Play(payload, next_deal={} if server else None), item_line))
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
    )
    for name, said, recorded in pairs:
        if said != recorded:
            return f"the header's {name} {said!r} is not MatchCreated's {recorded!r}"
    return None


def replay(steps: Sequence[Step]) -> Replayed:
    """Decide every step in turn from an empty match; stop at the first refusal."""
    state = MatchState()
    events: list[Event] = []
    for step in steps:
        try:
            new = decide(state, step.command)
        except DomainError as e:
            return Replayed(tuple(events), state, LogError(step.line, e.code, e.message))
        events.extend(new)
        if any(event.type in UNDOING_EVENTS for event in new):
            # A takeback restores an older state: fold the effective events again.
            state = fold_stream(list(enumerate(events, start=1)))
        else:
            state = fold(new, state)
    return Replayed(tuple(events), state)


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

    >>> same_data({'draws': [(1, '7S')]}, {'draws': [[1, '7S']]})
    True
    """
    return a == b or dumps(dict(a)) == dumps(dict(b))


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
        "moves": [[m.kind, " ".join(m.text.split()), m.deal, m.seat] for m in moves],
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


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
