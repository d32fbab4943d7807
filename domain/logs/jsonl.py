"""The canonical log: JSON Lines, one header line and one line per event.

    {"matchlog":1,"match":"<uuid>","game":"cuttle",...,"events":27}
    {"version":1,"id":"<uuid>","recorded_at":"2026-11-22T00:00:00+00:00","type":"MatchCreated","data":{...},"metadata":{}}

Keys of ``data`` and ``metadata`` are sorted and separators are compact, so one
match always prints to the same bytes. A file may hold many matches, each header
followed by its events. See docs/log-format.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from domain.errors import DomainError
from domain.logs.base import (
    FORMAT_VERSION,
    FORMAT_VERSIONS,
    BaseVisitor,
    Lines,
    LogError,
    LogEvent,
    LogHeader,
    LogPlayer,
    is_text_line,
)
from domain.records import builder
from domain.stream.config import RECORDINGS
from domain.text import clean_text

T = TypeVar("T")


def dumps(value: Any) -> str:
    """Return the canonical JSON text of ``value``: sorted keys, compact, UTF-8 kept.

    >>> dumps({'b': 1, 'a': [1, 'é']})
    '{"a":[1,"é"],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header_line(header: LogHeader) -> str:
    """Return the header line of a match (no newline)."""
    fields: list[tuple[str, Any]] = [
        ("matchlog", header_version(header)),
        ("match", header.match_id),
        ("game", header.game),
        ("variant", header.variant),
        ("rules_version", header.rules_version),
        ("format", header.format),
        ("options", dict(header.options)),
        ("dealing", header.dealing),
        ("first_dealer", header.first_dealer),
        ("first_dealer_drawn", header.first_dealer_drawn),
        (
            "players",
            [{"seat": p.seat, "id": p.id, "name": p.name} for p in header.players],
        ),
        (
            "competition",
            None
            if header.competition_id is None
            else {"id": header.competition_id, "name": header.competition_name},
        ),
        ("created_at", header.created_at),
        ("ended_at", header.ended_at),
        ("events", header.events),
    ]
    if header.recording != "moves":
        # Written only for a score-sheet match (version 2): other logs stay version 1.
        fields.insert(
            fields.index(("dealing", header.dealing)) + 1, ("recording", header.recording)
        )
    return "{" + ",".join(f"{dumps(k)}:{dumps(v)}" for k, v in fields) + "}"


def header_version(header: LogHeader) -> int:
    """Return the oldest format version that holds everything in ``header``.

    Version 2 added ``recording``: only a score-sheet match needs it.
    """
    return 1 if header.recording == "moves" else 2


def event_line(event: LogEvent) -> str:
    """Return the line of one event (no newline).

    >>> print(event_line(LogEvent(0, 3, 'Drew', {'card': '7H'}, 'e1', 't1')))
    {"version":3,"id":"e1","recorded_at":"t1","type":"Drew","data":{"card":"7H"},"metadata":{}}
    """
    fields: list[tuple[str, Any]] = [
        ("version", event.version),
        ("id", event.event_id),
        ("recorded_at", event.recorded_at),
        ("type", event.type),
        ("data", dict(event.data)),
        ("metadata", dict(event.metadata)),
    ]
    return "{" + ",".join(f"{dumps(k)}:{dumps(v)}" for k, v in fields) + "}"


def format_time(moment: datetime) -> str:
    """Return a recorded-at time as the log writes it: ISO 8601 with microseconds.

    >>> from datetime import timezone
    >>> format_time(datetime(2026, 11, 22, 1, 2, 3, tzinfo=timezone.utc))
    '2026-11-22T01:02:03.000000+00:00'
    """
    return moment.isoformat(timespec="microseconds")


def is_header(value: Any) -> bool:
    """Whether a parsed line is a match header (it carries the format version)."""
    return isinstance(value, dict) and "matchlog" in value


def is_header_line(text: str, *, loads: Callable[[str], Any] = json.loads) -> bool:
    """Whether ``read_match`` would take ``text`` for a header line, the start of a match.

    >>> is_header_line('{"matchlog": 1}'), is_header_line('{"version": 1}'), is_header_line('{')
    (True, False, False)
    """
    value, error = _parse(0, text, loads)
    return error is None and is_header(value)


def read_match(
    lines: Lines, visitor: BaseVisitor[T], *, loads: Callable[[str], Any] = json.loads
) -> T | None:
    """Read the next match from ``lines`` into ``visitor``; ``None`` at the end of input.

    Problems go to ``visitor.handle_error`` with their line; reading goes on to the
    match's end (its event count, or the next header), so the next call reads the
    next match. ``loads`` decodes a line; it must read what ``json.loads`` reads, to
    the same values, and raise ``json.JSONDecodeError`` where it does (the importer
    hands in a faster one).
    """
    first = lines.next_content()
    if first is None:
        return None
    number, text = first
    visitor.begin_match(number)
    value, error = _parse(number, text, loads)
    header: LogHeader | None = None
    if error is not None:
        visitor.handle_error(error)
    elif not is_header(value):
        visitor.handle_error(
            LogError(number, "HEADER_MISSING", "a match starts with its header line")
        )
    else:
        header = _header(number, value, visitor)
        if header is not None:
            visitor.visit_header(header)
    expected = None if header is None else header.events
    count = 0
    last = number
    while expected is None or count < expected:
        item = lines.next_content()
        if item is None:
            if expected is not None:
                visitor.handle_error(
                    LogError(
                        last,
                        "TRUNCATED",
                        f"the header announces {expected} events, the file ends after {count}",
                    )
                )
            break
        number, text = item
        value, error = _parse(number, text, loads)
        if error is None and is_header(value):
            if expected is not None:
                visitor.handle_error(
                    LogError(
                        number,
                        "TRUNCATED",
                        f"the header announces {expected} events, the next match starts "
                        f"after {count}",
                    )
                )
            lines.push_back(item)
            break
        last = number
        count += 1
        if error is not None:
            visitor.handle_error(error)
            continue
        event = _event(number, value, count, visitor)
        if event is not None:
            visitor.visit_event(event)
    visitor.end_match(last)
    return visitor.result()


def _parse(number: int, text: str, loads: Callable[[str], Any]) -> tuple[Any, LogError | None]:
    if not is_text_line(text):
        return None, LogError(number, "NOT_TEXT", "binary data where a JSON line was expected")
    try:
        return loads(text), None
    except json.JSONDecodeError as e:
        return None, LogError(number, "MALFORMED_JSON", f"not JSON: {e.msg} at column {e.colno}")


def _header(number: int, value: dict[str, Any], visitor: BaseVisitor[Any]) -> LogHeader | None:
    def bad(message: str) -> None:
        visitor.handle_error(LogError(number, "HEADER_INVALID", message))

    version = value.get("matchlog")
    if isinstance(version, bool) or version not in FORMAT_VERSIONS:
        visitor.handle_error(LogError(number, "FORMAT_VERSION", _unreadable_version(version)))
        return None
    wanted: dict[str, type | tuple[type, ...]] = {
        "match": str,
        "game": str,
        "variant": str,
        "rules_version": int,
        "dealing": str,
        "first_dealer": int,
        "players": list,
        "options": dict,
    }
    for key, kind in wanted.items():
        if not isinstance(value.get(key), kind) or isinstance(value.get(key), bool):
            bad(f"{key!r} is missing or not a {getattr(kind, '__name__', kind)}")
            return None
    players = []
    for seat, entry in enumerate(value["players"]):
        if (
            not isinstance(entry, dict)
            or entry.get("seat") != seat
            or not isinstance(entry.get("id"), str)
            or not isinstance(entry.get("name"), str)
        ):
            bad(f"player {seat} needs a seat {seat}, an id and a name")
            return None
        try:
            players.append(LogPlayer(seat, entry["id"], clean_text(entry["name"])))
        except DomainError as e:
            bad(f"player {seat}: a name {e.message}")
            return None
    competition = value.get("competition")
    if competition is not None and (
        not isinstance(competition, dict)
        or not isinstance(competition.get("id"), str)
        or not isinstance(competition.get("name"), str | None)
    ):
        bad("'competition' is null or an object with an id and a name")
        return None
    competition_name = None if competition is None else competition.get("name")
    if competition_name is not None:
        try:
            competition_name = clean_text(competition_name)
        except DomainError as e:
            bad(f"'competition': a name {e.message}")
            return None
    events = value.get("events")
    if events is not None and (not isinstance(events, int) or events < 0):
        bad(f"'events' is a count of event lines, not {events!r}")
        return None
    recording = value.get("recording", "moves")
    if recording not in RECORDINGS:
        bad(f"'recording' is moves or results, not {recording!r}")
        return None
    if not _is_uuid(value["match"]):
        bad(f"'match' is a match id (a UUID), not {value['match']!r}")
        return None
    return LogHeader(
        match_id=value["match"],
        game=value["game"],
        variant=value["variant"],
        players=tuple(players),
        first_dealer=value["first_dealer"],
        first_dealer_drawn=value.get("first_dealer_drawn") is True,
        dealing=value["dealing"],
        format=value.get("format"),
        options=value["options"],
        rules_version=value["rules_version"],
        competition_id=None if competition is None else competition["id"],
        competition_name=competition_name,
        created_at=value.get("created_at"),
        ended_at=value.get("ended_at"),
        events=events,
        line=number,
        recording=recording,
    )


def _unreadable_version(version: Any) -> str:
    """Say why a header's format version cannot be read, and what to do.

    >>> _unreadable_version(3)
    'format version 3 is newer than this matchlog reads (1 to 2): import it with a newer matchlog'
    >>> _unreadable_version('x')
    "format version 'x' is not one matchlog writes (1 to 2)"
    """
    known = f"{FORMAT_VERSIONS.start} to {FORMAT_VERSIONS.stop - 1}"
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        return (
            f"format version {version} is newer than this matchlog reads ({known}): "
            "import it with a newer matchlog"
        )
    return f"format version {version!r} is not one matchlog writes ({known})"


def _event(number: int, value: Any, count: int, visitor: BaseVisitor[Any]) -> LogEvent | None:
    def bad(message: str) -> None:
        visitor.handle_error(LogError(number, "EVENT_INVALID", message))

    if not isinstance(value, dict):
        bad("an event line is a JSON object")
        return None
    if value.get("version") != count:
        bad(f"event {count} of the match has version {value.get('version')!r}")
        return None
    if not isinstance(value.get("type"), str) or not isinstance(value.get("data"), dict):
        bad("an event needs a 'type' (text) and 'data' (an object)")
        return None
    event_id, recorded_at = value.get("id"), value.get("recorded_at")
    if not isinstance(event_id, str) or not _is_uuid(event_id):
        bad(f"'id' is an event id (a UUID), not {event_id!r}")
        return None
    if not isinstance(recorded_at, str) or not _is_time(recorded_at):
        bad(f"'recorded_at' is an ISO 8601 time with its offset, not {recorded_at!r}")
        return None
    metadata = value.get("metadata", {})
    if not isinstance(metadata, dict):
        bad("'metadata' is an object")
        return None
    return _log_event(number, count, value["type"], value["data"], event_id, recorded_at, metadata)


# An import reads one per line: skip the frozen __init__ (domain/records.py).
_log_event = builder(LogEvent)


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _is_uuid(text: str) -> bool:
    # Exactly the texts with str(UUID(text)) == text, without building a UUID per line.
    return _CANONICAL_UUID.fullmatch(text) is not None


def _is_time(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False
