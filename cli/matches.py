"""``matchlog matches``: find matches, as ``GET /matches`` does, and print them as a table."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any
from uuid import UUID

import psycopg
import typer
from pydantic_core import to_jsonable_python
from rich.console import Console
from rich.table import Table

from cli.errors import friendly_errors
from domain.games import rules_for
from projections.matches import list_matches, match_summary
from projections.reports import player_names
from service.settings import Settings
from service.wiring import configured_url


class Format(StrEnum):
    """How ``matchlog matches`` prints."""

    table = "table"
    json = "json"


class Status(StrEnum):
    """A match's status, as the listing filters it."""

    live = "live"
    finished = "finished"
    void = "void"


async def _rows(url: str, limit: int, filters: dict[str, Any]) -> tuple[list[Any], dict[str, str]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        rows = await list_matches(conn, limit=limit, **filters)
        ids = sorted({str(p) for row in rows[:limit] for p in row["players"]})
        names = dict(zip(ids, await player_names(conn, ids), strict=True))
    return rows[:limit], names


def matches_table(rows: list[Any], names: dict[str, str]) -> Table:
    """Return the rich table of match rows: players' names, game, variant, status, score."""
    table = Table("id", "players", "game", "variant", "status", "score", "created")
    for row in rows:
        players = ", ".join(names.get(str(p), str(p)) for p in row["players"])
        table.add_row(
            str(row["id"]),
            players,
            row["game"],
            row["variant"],
            row["status"],
            rules_for(row["game"]).score_text(row["score"]),
            row["created_at"].strftime("%Y-%m-%d %H:%M"),
        )
    return table


def matches(
    competition: Annotated[UUID | None, typer.Option(help="Only this competition.")] = None,
    player: Annotated[UUID | None, typer.Option(help="Only matches this player sat in.")] = None,
    game: Annotated[str | None, typer.Option(help="cuttle or kozel.")] = None,
    variant: Annotated[str | None, typer.Option(help="e.g. standard.")] = None,
    status: Annotated[Status | None, typer.Option(help="live, finished or void.")] = None,
    created_from: Annotated[
        datetime | None, typer.Option(help="Created at or after (ISO 8601).")
    ] = None,
    created_to: Annotated[datetime | None, typer.Option(help="Created before.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="Most matches to list.")] = 50,
    output: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
) -> None:
    """List matches, newest first, with the same filters as ``GET /matches``."""
    with friendly_errors():
        url = configured_url(Settings())
        filters = {
            "competition_id": competition,
            "player_id": player,
            "game": game,
            "variant": variant,
            "status": None if status is None else status.value,
            "created_from": created_from,
            "created_to": created_to,
        }
        rows, names = asyncio.run(_rows(url, limit, filters))
    if output is Format.json:
        items = [to_jsonable_python(match_summary(row)) for row in rows]
        typer.echo(json.dumps(items, indent=2))
        return
    Console().print(matches_table(rows, names))
