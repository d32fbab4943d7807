"""``matchlog standings``: a competition's standings as a table, CSV, JSON or Markdown."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from enum import StrEnum
from typing import Annotated, Any

import psycopg
import typer
from rich.console import Console
from rich.table import Table

from cli.errors import friendly_errors
from domain.errors import MalformedError
from projections.reports import columns, flat_rows, standings_report, to_csv, to_markdown
from service.wiring import database_url
from store import accounts


class Format(StrEnum):
    """How ``matchlog standings`` writes the standings."""

    table = "table"
    csv = "csv"
    json = "json"
    md = "md"


async def _report(url: str, competition_id: uuid.UUID) -> tuple[str, dict[str, Any]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        competition = await accounts.get_competition(conn, competition_id)
        return competition.name, await standings_report(conn, competition)


def standings(
    competition: Annotated[str, typer.Argument(help="The competition's id.")],
    fmt: Annotated[
        Format | None,
        typer.Option("--format", "-f", help="table (default on a terminal), csv, json or md."),
    ] = None,
) -> None:
    """Print a competition's standings: ranks, results, tiebreaks and ratings.

    Examples: matchlog standings 5a1c...e2 · matchlog standings 5a1c...e2 -f csv > table.csv
    """
    with friendly_errors():
        try:
            competition_id = uuid.UUID(competition)
        except ValueError:
            raise MalformedError(
                f"{competition!r} is not a competition id (a UUID)", code="VALIDATION_FAILED"
            ) from None
        name, report = asyncio.run(_report(database_url(), competition_id))
    chosen = fmt or (Format.table if sys.stdout.isatty() else Format.md)
    if chosen is Format.json:
        typer.echo(json.dumps(report, indent=2))
    elif chosen is Format.csv:
        typer.echo(to_csv(report), nl=False)
    elif chosen is Format.md:
        typer.echo(to_markdown(report, name))
    else:
        _print_tables(name, report)


def _print_tables(name: str, report: dict[str, Any]) -> None:
    console = Console()
    cols = columns(report["game"], report["tiebreaks"])
    console.print(f"[bold]{name}[/bold]: {report['matches']} finished matches")
    for kind in ("players", "pairs"):
        if kind not in report:
            continue
        table = Table(title=kind.capitalize(), title_justify="left")
        for col in cols:
            table.add_column(col, justify="left" if col == "name" else "right")
        for cells in flat_rows(report, kind):
            table.add_row(*(cells.get(c, "") for c in cols))
        console.print(table)
