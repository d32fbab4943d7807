"""``matchlog export``: write recorded matches as canonical JSON Lines or text notation."""

from __future__ import annotations

import asyncio
import gzip
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TextIO
from uuid import UUID

import psycopg
import typer

from cli.connect import database_url
from cli.errors import friendly_errors
from domain.errors import MalformedError, NotFoundError
from domain.events import RecordedEvent
from domain.logs import jsonl, text
from domain.logs.base import LogEvent, LogHeader, LogPlayer
from domain.stream import MatchConfig
from store.events import read_stream


class LogFormat(StrEnum):
    """The two log formats."""

    JSONL = "jsonl"
    TEXT = "text"


async def find_stream(conn: psycopg.AsyncConnection[Any], match: str) -> str:
    """Return the stream of a match named by its id or its stream name.

    Raises:
        MalformedError (MALFORMED): not a match id or stream name.
        NotFoundError (MATCH_NOT_FOUND): no such match is recorded.
    """
    match_id = match.split("-", 1)[1] if match.startswith(("cuttle-", "kozel-")) else match
    try:
        UUID(match_id)
    except ValueError:
        raise MalformedError(f"{match!r} is not a match id (a UUID)") from None
    cur = await conn.execute(
        "SELECT stream FROM events WHERE version = 1 AND stream IN (%s, %s)",
        (f"cuttle-{match_id}", f"kozel-{match_id}"),
    )
    row = await cur.fetchone()
    if row is None:
        raise NotFoundError(f"no match {match!r} is recorded", code="MATCH_NOT_FOUND")
    return str(row[0])


async def match_streams(
    conn: psycopg.AsyncConnection[Any], *, competition: str | None
) -> AsyncIterator[str]:
    """Yield every match stream (of one competition), oldest first."""
    if competition is not None:
        try:
            UUID(competition)
        except ValueError:
            raise MalformedError(f"{competition!r} is not a competition id (a UUID)") from None
    cur = conn.cursor()
    async for row in cur.stream(
        "SELECT stream FROM events WHERE version = 1 AND type = 'MatchCreated' "
        "AND (%(c)s::text IS NULL OR data->>'competition_id' = %(c)s) ORDER BY global_position",
        {"c": competition},
    ):
        yield str(row[0])


async def logged_match(
    conn: psycopg.AsyncConnection[Any], stream: str
) -> tuple[LogHeader, list[LogEvent]]:
    """Return a recorded match as a log header and logged events."""
    recorded = await read_stream(conn, stream)
    config = MatchConfig.from_data(recorded[0].data)
    names = await _names(conn, "players", "display_name", list(config.players))
    competition_name = None
    if config.competition_id is not None:
        found = await _names(conn, "competitions", "name", [config.competition_id])
        competition_name = found.get(config.competition_id)
    events = [_logged(e) for e in recorded]
    ended = events[-1].recorded_at if recorded[-1].type == "MatchEnded" else None
    header = LogHeader(
        match_id=stream.split("-", 1)[1],
        game=config.game,
        variant=config.variant,
        players=tuple(
            LogPlayer(seat, pid, names.get(pid, pid)) for seat, pid in enumerate(config.players)
        ),
        first_dealer=config.first_dealer,
        dealing=config.dealing,
        format=config.format,
        options=dict(config.options),
        rules_version=config.rules_version,
        first_dealer_drawn=config.first_dealer_drawn,
        competition_id=config.competition_id,
        competition_name=competition_name,
        created_at=events[0].recorded_at,
        ended_at=ended,
        events=len(events),
    )
    return header, events


def _logged(event: RecordedEvent) -> LogEvent:
    return LogEvent(
        0,
        event.version,
        event.type,
        event.data,
        str(event.event_id),
        jsonl.format_time(event.recorded_at),
        event.metadata,
    )


async def _names(
    conn: psycopg.AsyncConnection[Any], table: str, column: str, ids: list[str]
) -> dict[str, str]:
    valid = [i for i in ids if is_uuid(i)]
    cur = await conn.execute(
        f"SELECT id::text, {column} FROM {table} WHERE id = ANY(%s::uuid[])", (valid,)
    )
    return {row[0]: row[1] for row in await cur.fetchall()}


def is_uuid(value: str) -> bool:
    """Whether ``value`` reads as a UUID."""
    try:
        UUID(value)
    except ValueError:
        return False
    return True


def match_text(header: LogHeader, events: list[LogEvent], fmt: LogFormat) -> str:
    """Return one match in ``fmt``, newline-terminated."""
    if fmt is LogFormat.TEXT:
        return text.write_match(header, events)
    return "\n".join([jsonl.header_line(header), *map(jsonl.event_line, events)]) + "\n"


async def export_to(
    out: TextIO, url: str, *, match: str | None, competition: str | None, fmt: LogFormat
) -> int:
    """Write the chosen matches to ``out``; return how many were written."""
    count = 0
    async with await psycopg.AsyncConnection.connect(url) as conn:
        if match is not None:
            streams: list[str] = [await find_stream(conn, match)]
        else:
            streams = [s async for s in match_streams(conn, competition=competition)]
        for stream in streams:
            header, events = await logged_match(conn, stream)
            if fmt is LogFormat.TEXT and count:
                out.write("\n")
            out.write(match_text(header, events, fmt))
            count += 1
    return count


@contextmanager
def _output(path: Path | None) -> Iterator[TextIO]:
    if path is None:
        yield sys.stdout
    elif path.name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8", newline="\n") as handle:
            yield handle
    else:
        with path.open("w", encoding="utf-8", newline="\n") as handle:
            yield handle


def export(
    match: Annotated[
        str | None, typer.Argument(help="A match id (or stream name); leave out with --all.")
    ] = None,
    competition: Annotated[
        str | None, typer.Option(help="Export every match of this competition id.")
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Export every recorded match.")] = False,
    format: Annotated[
        LogFormat, typer.Option("--format", "-f", help="jsonl (lossless) or text.")
    ] = LogFormat.JSONL,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="File to write (.gz compresses); stdout if left out."),
    ] = None,
) -> None:
    """Export one match, a competition or everything, in either log format.

    Examples: matchlog export 5a1c...e2 -f text · matchlog export --all -o all.jsonl.gz
    """
    chosen = sum(x is not None for x in (match, competition, True if all_ else None))
    if chosen != 1:
        typer.secho("error: name one MATCH, or --competition ID, or --all", err=True, fg="red")
        raise typer.Exit(code=2)
    with friendly_errors():
        url = database_url()
        with _output(out) as handle:
            count = asyncio.run(
                export_to(handle, url, match=match, competition=competition, fmt=format)
            )
    if out is not None:
        typer.echo(f"{count} matches written to {out}", err=True)
