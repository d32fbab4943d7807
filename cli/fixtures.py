"""``matchlog fixtures``, ``pair`` and ``forfeit``: a competition's rounds, read, made,
taken back and forfeited."""

from __future__ import annotations

import asyncio
import json
import uuid
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cli.database import resolve, use_database
from cli.entrants import entrant_named, terminal_author
from cli.errors import friendly_errors
from cli.tables import Column, fitted_table
from domain.errors import MalformedError, NotFoundError
from service import competitions, fixtures, organising
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


def _print(name: str, report: dict[str, Any], names: dict[str, str], fmt: Format) -> None:
    rows = fixture_rows(report, names)
    if fmt is Format.json:
        typer.echo(json.dumps(report, indent=2))
    elif fmt is Format.csv:
        typer.echo(rows_csv(rows), nl=False)
    elif fmt is Format.md:
        typer.echo(rows_markdown(rows, name), nl=False)
    else:
        console = Console()
        count = len(report["rounds"])
        console.print(f"[bold]{escape(name)}[/bold]: {count} round" + ("" if count == 1 else "s"))
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
    Format,
    typer.Option(
        "--format", "-f", help="table (fitted to the terminal, or COLUMNS), csv, json or md."
    ),
]


def fixtures_command(competition: CompetitionArg, fmt: FormatOption = Format.table) -> None:
    """Print a competition's rounds: tables, byes, results and match ids.

    Examples: matchlog fixtures 5a1c · matchlog fixtures 5a1c -f csv > rounds.csv
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, report, names = asyncio.run(_read(url, competition_id, None, 1))
    _print(name, report, names, fmt)


async def _undo(url: str, competition_id: uuid.UUID, reason: str) -> tuple[int, list[Any]]:
    async with open_pool(url) as pool:
        rounds = await fixtures.read_rounds(pool, competition_id)
        if not rounds:
            raise NotFoundError("the competition has no round to take back", code="NO_ROUNDS")
        last = rounds[-1].number
        await organising.take_back_round(pool, competition_id, last, reason, terminal_author())
    return last, rounds


def pair(
    competition: CompetitionArg,
    system: Annotated[
        System | None,
        typer.Option("--system", "-s", help="swiss (the next round) or round-robin."),
    ] = None,
    legs: Annotated[int, typer.Option(min=1, max=4, help="Round robin: how many legs.")] = 1,
    undo: Annotated[
        bool,
        typer.Option(
            "--undo",
            help="Take back the last round (a round robin: all its rounds) if no table of "
            "it has started; it is kept in the records.",
        ),
    ] = False,
    reason: Annotated[
        str | None, typer.Option("--reason", "-r", help="--undo: why (kept in the records).")
    ] = None,
    fmt: FormatOption = Format.table,
) -> None:
    """Make every round-robin round, or the next Swiss round; print all rounds.

    A cutthroat competition's Swiss rounds seat three at a table (it has no round robin).
    --undo takes the last round back, to make it again.

    Examples: matchlog pair 5a1c --system round-robin --legs 2 · matchlog pair 5a1c -s swiss
    · matchlog pair 5a1c --undo -r "made before the last result"
    """
    with friendly_errors():
        if undo == (system is not None):
            raise typer.BadParameter("give --system to pair, or --undo", param_hint="--system")
        if undo and not reason:
            raise typer.BadParameter("--undo needs a reason", param_hint="--reason")
        if system is System.swiss and legs != 1:
            raise typer.BadParameter("a Swiss round has no legs", param_hint="--legs")
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        if system is None:
            assert reason is not None
            last, _ = asyncio.run(_undo(url, competition_id, reason))
            typer.echo(f"round {last} taken back (kept in the records)", err=True)
        name, report, names = asyncio.run(_read(url, competition_id, system, legs))
    _print(name, report, names, fmt)


def table_named(rounds: list[Any], text: str) -> Any:
    """Return the table ``text`` names as ``matchlog fixtures`` numbers it: ROUND.TABLE.

    Raises:
        MalformedError (MALFORMED): not ROUND.TABLE; NotFoundError (FIXTURE_NOT_FOUND): none.
    """
    number, _, table = text.partition(".")
    if not (number.isdigit() and table.isdigit()):
        raise MalformedError(
            f"{text!r} is no table: give ROUND.TABLE as matchlog fixtures numbers them (2.3)"
        )
    for r in rounds:
        for t in r.tables:
            if (r.number, t.number) == (int(number), int(table)):
                return t
    raise NotFoundError(f"the competition has no table {text}", code="FIXTURE_NOT_FOUND")


async def _forfeit(
    url: str, competition_id: uuid.UUID, text: str, by: list[str]
) -> tuple[str, dict[str, Any], dict[str, str]]:
    async with open_pool(url) as pool:
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
            listed = await competitions.list_entrants(conn, competition_id)
        names = await fixtures.entrant_names(pool, competition_id)
        table = table_named(await fixtures.read_rounds(pool, competition_id), text)
        seated = [e for e in listed if e.id in table.entrants]
        who = [entrant_named(seated, names, b).id for b in by]
        await fixtures.forfeit_table(pool, competition_id, table.id, who)
        rounds = await fixtures.read_rounds(pool, competition_id)
    return competition.name, rounds_report(rounds, competition.bye), names


def forfeit(
    competition: CompetitionArg,
    table: Annotated[
        str, typer.Argument(metavar="TABLE", help="ROUND.TABLE, as matchlog fixtures shows.")
    ],
    by: Annotated[
        list[str],
        typer.Option(
            "--by", help="Who forfeits: an entrant at the table, by name; repeat for both."
        ),
    ],
    fmt: FormatOption = Format.table,
) -> None:
    """Forfeit a table: the entrants --by lose it, the others win; print all rounds.

    Example: matchlog forfeit 5a1c 2.3 --by Ada
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, report, names = asyncio.run(_forfeit(url, competition_id, table, by))
    _print(name, report, names, fmt)
