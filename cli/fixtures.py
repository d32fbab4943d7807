"""``matchlog fixtures`` and ``matchlog pair``: a competition's rounds, read and made."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.tables import Column, fitted_table
from service import competitions, fixtures
from service.fixture_reports import (
    fixture_rows,
    rounds_report,
    row_columns,
    rows_csv,
    rows_markdown,
)
from service.wiring import open_pool

CompetitionArg = Annotated[
    str, typer.Argument(metavar="COMPETITION", help="The competition's id, or its start.")
]


class Format(StrEnum):
    """How ``matchlog fixtures`` writes the rounds."""

    table = "table"
    csv = "csv"
    json = "json"
    md = "md"


class System(StrEnum):
    """How ``matchlog pair`` makes rounds."""

    swiss = "swiss"
    round_robin = "round-robin"


async def _read(
    url: str, competition_id: uuid.UUID, system: System | None, legs: int
) -> tuple[str, dict[str, Any], dict[str, str]]:
    async with open_pool(url) as pool:
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        if system is None:
            rounds = await fixtures.read_rounds(pool, competition_id)
        else:
            rounds = await fixtures.make_rounds(pool, competition_id, system.value, legs)
        names = await fixtures.entrant_names(pool, competition_id)
    return competition.name, rounds_report(rounds, competition.bye), names


def _print(name: str, report: dict[str, Any], names: dict[str, str], fmt: Format | None) -> None:
    chosen = fmt or (Format.table if sys.stdout.isatty() else Format.md)
    rows = fixture_rows(report, names)
    if chosen is Format.json:
        typer.echo(json.dumps(report, indent=2))
    elif chosen is Format.csv:
        typer.echo(rows_csv(rows), nl=False)
    elif chosen is Format.md:
        typer.echo(rows_markdown(rows, name), nl=False)
    else:
        console = Console()
        console.print(f"[bold]{escape(name)}[/bold]: {len(report['rounds'])} rounds")
        console.print(fixtures_table(rows, console))


def fixtures_table(rows: list[dict[str, str]], console: Console) -> Any:
    """Return the rounds as a table fitted to ``console``: names wrap, match ids go first.

    ``dealer`` is the seat that deals first (as ``first_dealer`` on POST /matches).
    """
    names = [
        Column(c, [r[c] for r in rows], wrap=True, min_width=8 if c == "third" else 10)
        for c in row_columns(rows)
        if c in ("first", "second", "third")
    ]
    columns = [
        Column("round", [r["round"] for r in rows], justify="right"),
        Column("table", [r["table"] for r in rows], justify="right"),
        *names,
        Column("result", [r["result"] for r in rows]),
        Column("dealer", [r["dealer"] for r in rows], justify="right", drop=1),
        Column("match", [r["match"] for r in rows], short=[r["match"][:8] for r in rows], drop=0),
    ]
    return fitted_table(columns, console)


FormatOption = Annotated[
    Format | None,
    typer.Option("--format", "-f", help="table (default on a terminal), csv, json or md."),
]


def fixtures_command(competition: CompetitionArg, fmt: FormatOption = None) -> None:
    """Print a competition's rounds: tables, byes, results and match ids.

    Examples: matchlog fixtures 5a1c · matchlog fixtures 5a1c -f csv > rounds.csv
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, report, names = asyncio.run(_read(url, competition_id, None, 1))
    _print(name, report, names, fmt)


def pair(
    competition: CompetitionArg,
    system: Annotated[
        System, typer.Option("--system", "-s", help="swiss (the next round) or round-robin.")
    ],
    legs: Annotated[int, typer.Option(min=1, max=4, help="Round robin: how many legs.")] = 1,
    fmt: FormatOption = None,
) -> None:
    """Make every round-robin round, or the next Swiss round; print all rounds.

    A cutthroat competition's Swiss rounds seat three at a table (it has no round robin).

    Examples: matchlog pair 5a1c --system round-robin --legs 2 · matchlog pair 5a1c -s swiss
    """
    with friendly_errors():
        if system is System.swiss and legs != 1:
            raise typer.BadParameter("a Swiss round has no legs", param_hint="--legs")
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, report, names = asyncio.run(_read(url, competition_id, system, legs))
    _print(name, report, names, fmt)
