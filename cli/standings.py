"""``matchlog standings``: a competition's standings as a table, CSV, JSON or Markdown."""

from __future__ import annotations

import asyncio
import json
import uuid
from enum import StrEnum
from typing import Annotated, Any

import psycopg
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.tables import Column, fitted_table, packed
from projections.reports import (
    RATING_PARTS,
    columns,
    filled_columns,
    finished_matches,
    flat_rows,
    standings_report,
    to_csv,
    to_markdown,
)
from service import competitions


class Format(StrEnum):
    """How ``matchlog standings`` writes the standings."""

    table = "table"
    csv = "csv"
    json = "json"
    md = "md"


async def _report(url: str, competition_id: uuid.UUID) -> tuple[str, dict[str, Any]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        competition = await competitions.get_competition(conn, competition_id)
        return competition.name, await standings_report(conn, competition)


def standings(
    competition: Annotated[
        str, typer.Argument(metavar="COMPETITION", help="The competition's id, or its start.")
    ],
    fmt: Annotated[
        Format,
        typer.Option(
            "--format", "-f", help="table (fitted to the terminal, or COLUMNS), csv, json or md."
        ),
    ] = Format.table,
) -> None:
    """Print a competition's standings: ranks, results, tiebreaks and ratings.

    Ratings are written to 2 places (CSV: 4; JSON: whole). The table fits the
    terminal, or COLUMNS when piped.

    Examples: matchlog standings 5a1c · matchlog standings 5a1c -f csv > table.csv
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, report = asyncio.run(_report(url, competition_id))
    if fmt is Format.json:
        typer.echo(json.dumps(report, indent=2))
    elif fmt is Format.csv:
        typer.echo(to_csv(report), nl=False)
    elif fmt is Format.md:
        typer.echo(to_markdown(report, name))
    else:
        _print_tables(name, report)


SHORT = {
    "rank": "#",
    "played": "pl",
    "won": "w",
    "drawn": "d",
    "lost": "l",
    "points": "pts",
    "rounds_won": "rw",
    "rounds_lost": "rl",
    "deals_won": "dw",
    "deals_lost": "dl",
    "loss_points_taken": "lpt",
    "loss_points_given": "lpg",
    "head-to-head": "h2h",
    "sonneborn-berger": "sb",
    "round-difference": "rdiff",
    "loss-point-difference": "lpdiff",
    "ordinal": "rating",
}
"""Table headers short enough for 80 columns; a legend under the table spells them out."""

KEPT = frozenset({"rank", "name", "played", "won", "drawn", "lost", "points", "ordinal"})
"""The columns kept whatever the width; the others go, ratings' parts first."""


def _print_tables(name: str, report: dict[str, Any]) -> None:
    console = Console()
    cols = columns(report["game"], report["tiebreaks"])
    console.print(f"[bold]{escape(name)}[/bold]: {finished_matches(report['matches'])}")
    shown: set[str] = set()
    for kind in ("players", "pairs"):
        if kind not in report:
            continue
        table = standings_table(cols, flat_rows(report, kind), console, kind.capitalize())
        console.print(table)
        shown |= {str(column.header) for column in table.columns}
    legend = [
        f"{short} {col}"
        for col, short in SHORT.items()
        if short in shown and col in cols and col != "rank"
    ]
    for line in packed(legend, " · ", console.width):
        console.print(line, style="dim", markup=False, highlight=False)


def standings_table(
    cols: list[str], rows: list[dict[str, str]], console: Console, title: str
) -> Table:
    """Return a standings table fitted to ``console``: names wrap, ratings to 2 decimals.

    A column no row fills is left out (a Kozel pairs table has no ratings). Sigma and
    mu go first when it must narrow, then the detail columns from the right; rank,
    name, results, points and the rating stay.
    """
    droppable = [c for c in cols if c not in KEPT and c not in RATING_PARTS]
    order = ["sigma", "mu", *reversed(droppable)]
    columns = [
        Column(
            SHORT.get(col, col),
            [cells.get(col, "") for cells in rows],
            wrap=col == "name",
            min_width=12,
            drop=None if col in KEPT else order.index(col),
            justify="left" if col == "name" else "right",
        )
        for col in filled_columns(cols, rows)
    ]
    return fitted_table(columns, console, title=title)
