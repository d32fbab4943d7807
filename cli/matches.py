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

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.tables import Column, fitted_table
from domain.games import PRESENTATIONS
from projections.matches import list_matches, match_summary
from projections.reports import player_names
from service.ids import Kind, names_of


class Format(StrEnum):
    """How ``matchlog matches`` prints."""

    table = "table"
    json = "json"


class Status(StrEnum):
    """A match's status, as the listing filters it."""

    live = "live"
    finished = "finished"
    void = "void"


async def _rows(
    url: str, limit: int, filters: dict[str, Any]
) -> tuple[list[Any], dict[str, str], dict[UUID, str]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        rows = (await list_matches(conn, limit=limit, **filters))[:limit]
        ids = sorted({str(p) for row in rows for p in row["players"]})
        names = dict(zip(ids, await player_names(conn, ids), strict=True))
        competitions = sorted({row["competition_id"] for row in rows if row["competition_id"]})
        named = await names_of(conn, "competition", competitions)
    return rows, names, named


def matches_table(
    rows: list[Any], names: dict[str, str], competitions: dict[UUID, str], console: Console
) -> Table:
    """Return the table of match rows fitted to ``console``: whole ids, names wrapped.

    Players are written by side as the game's presentation seats them (a Kozel row:
    "A: Ann & Cy", "B: Bob & Di"); a match's result is its status, then its score as
    the pages label it ("Loss points", "A 14 · B 6"). The creation time shortens to
    its date, then goes, and the variant and the game go, before a column that tells
    matches apart would.
    """

    def sides(row: Any) -> list[str]:
        seated = [names.get(str(p), str(p)) for p in row["players"]]
        return PRESENTATIONS[row["game"]].sides(seated)

    def result(row: Any) -> str:
        seated = [names.get(str(p), str(p)) for p in row["players"]]
        label, values = PRESENTATIONS[row["game"]].score_parts(row["score"], seated)
        return "\n".join([row["status"], label, values])

    created = [row["created_at"] for row in rows]
    columns = [
        Column("id", [str(row["id"]) for row in rows]),
        Column("players", ["\n".join(sides(row)) for row in rows], wrap=True, min_width=12),
        Column("game", [row["game"] for row in rows], drop=3),
        Column("variant", [row["variant"] for row in rows], drop=1),
        Column(
            "competition",
            [competitions.get(row["competition_id"], "") for row in rows],
            wrap=True,
            min_width=11,
            drop=4,
        ),
        Column("result", [result(row) for row in rows], wrap=True, min_width=14),
        Column(
            "created",
            [f"{at:%Y-%m-%d %H:%M}" for at in created],
            short=[f"{at:%Y-%m-%d}" for at in created],
            drop=2,
        ),
    ]
    return fitted_table(columns, console)


def matches(
    competition: Annotated[
        str | None, typer.Option(metavar="ID", help="Only this competition (id or prefix).")
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(metavar="ID", help="Only matches this player sat in (id or prefix)."),
    ] = None,
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
    """List matches, newest first, with the same filters as GET /matches."""
    with friendly_errors():
        url = use_database(existing=True)
        filters = {
            "competition_id": None
            if competition is None
            else _one(url, "competition", competition),
            "player_id": None if player is None else _one(url, "player", player),
            "game": game,
            "variant": variant,
            "status": None if status is None else status.value,
            "created_from": created_from,
            "created_to": created_to,
        }
        rows, names, competitions = asyncio.run(_rows(url, limit, filters))
    if output is Format.json:
        items = [to_jsonable_python(match_summary(row)) for row in rows]
        typer.echo(json.dumps(items, indent=2))
        return
    console = Console()
    console.print(matches_table(rows, names, competitions, console))


def _one(url: str, kind: Kind, text: str | None) -> UUID | None:
    return None if text is None else resolve(url, kind, [text])[0]
