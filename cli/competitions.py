"""``matchlog competitions list|create|show``: the competitions an organiser runs."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.help import App
from cli.tables import Column, fitted_table
from domain.competitions import ByeScore
from domain.text import clean_text
from service import competitions, fixtures, organising
from service.competitions import Competition, NewCompetition
from service.wiring import open_pool

app = App(
    help="List, create and show competitions (a club night, a season, a Swiss event).",
    no_args_is_help=True,
)

CompetitionArg = Annotated[
    str, typer.Argument(metavar="COMPETITION", help="The competition's id, or its start.")
]


def format_text(match_format: Any) -> str:
    """Return a competition's match format as one short text: ``normal``, ``loss limit 12``."""
    if isinstance(match_format, dict):
        return ", ".join(f"{k.replace('_', ' ')} {json.dumps(v)}" for k, v in match_format.items())
    return "" if match_format is None else str(match_format)


async def _listed(url: str, limit: int) -> list[Competition]:
    async with open_pool(url) as pool, pool.connection() as conn:
        page = await competitions.list_competitions(conn, limit=limit)
    return list(page.items)


@app.command("list")
def list_command(
    limit: Annotated[int, typer.Option(min=1, max=1000, help="How many, newest first.")] = 50,
) -> None:
    """List competitions, newest first: id, name, game, variant and format.

    Example: matchlog competitions list
    """
    with friendly_errors():
        url = use_database(existing=True)
        items = asyncio.run(_listed(url, limit))
    console = Console()
    if not items:
        console.print("No competitions yet: matchlog competitions create NAME --game GAME")
        return
    # Names whole before ids: the commands take an id's start (its first 8 digits).
    columns = [
        Column("id", [str(c.id) for c in items], short=[str(c.id)[:8] for c in items], drop=0),
        Column("name", [c.name for c in items], wrap=True, min_width=20),
        Column("game", [c.game for c in items]),
        Column("variant", [c.variant for c in items], drop=2),
        Column("format", [format_text(c.match_format) for c in items], wrap=True, drop=1),
        Column("created", [c.created_at.strftime("%Y-%m-%d") for c in items], drop=1),
    ]
    console.print(fitted_table(columns, console))


async def _create(url: str, new: NewCompetition) -> Competition:
    async with open_pool(url) as pool, pool.connection() as conn:
        competition, _ = await competitions.create_competition(conn, new)
    return competition


@app.command("create")
def create_command(
    name: Annotated[str, typer.Argument(help="E.g. 'Club night 2026-12-01'.")],
    game: Annotated[str, typer.Option(help="The game: cuttle or kozel (see GET /games).")],
    variant: Annotated[
        str | None, typer.Option(help="The game's variant (its default if left out).")
    ] = None,
    match_format: Annotated[
        str | None,
        typer.Option("--format", help="Cuttle: quick, short, normal, extended or best-of-N."),
    ] = None,
    loss_limit: Annotated[
        int | None, typer.Option(min=2, help="Kozel: loss points that end a match.")
    ] = None,
    eggs_double_next: Annotated[
        bool, typer.Option("--eggs-double-next", help="Kozel: eggs double the next deal.")
    ] = False,
    tiebreak: Annotated[
        list[str] | None,
        typer.Option(help="A standings tiebreak, in order; repeat for more."),
    ] = None,
    bye: Annotated[str, typer.Option(help="What a Swiss bye scores: win, draw or loss.")] = "win",
    private: Annotated[
        bool, typer.Option("--private", help="Only tokens that may act on it read it.")
    ] = False,
) -> None:
    """Create a competition and print its id (what the other commands take).

    Examples: matchlog competitions create "Club night" --game cuttle --variant standard
    · matchlog competitions create Cup --game kozel --loss-limit 12 --tiebreak wins
    """
    with friendly_errors():
        options: Any = match_format
        if loss_limit is not None or eggs_double_next:
            if match_format is not None:
                raise typer.BadParameter(
                    "give --format (Cuttle) or --loss-limit/--eggs-double-next (Kozel)",
                    param_hint="--format",
                )
            options = {"loss_limit": 12 if loss_limit is None else loss_limit}
            options["eggs_double_next"] = eggs_double_next
        if bye not in ("win", "draw", "loss"):
            raise typer.BadParameter("win, draw or loss", param_hint="--bye")
        scored: ByeScore = bye  # type: ignore[assignment]
        new = NewCompetition(
            name=clean_text(name),
            game=game,
            variant=variant,
            match_format=options,
            tiebreaks=tuple(tiebreak or ()),
            public_reads=not private,
            bye=scored,
        )
        url = use_database(existing=False)
        made = asyncio.run(_create(url, new))
    typer.echo(f"{made.id}  {made.name}: {made.game} {made.variant}")


async def _shown(url: str, competition_id: Any) -> tuple[Competition, Any, Any, Any, Any]:
    async with open_pool(url) as pool:
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
            listed = await competitions.list_entrants(conn, competition_id)
        rounds = await fixtures.read_rounds(pool, competition_id)
        records = await organising.read_records(pool, competition_id)
        names = await fixtures.entrant_names(pool, competition_id)
    return competition, listed, rounds, records, names


@app.command("show")
def show_command(competition: CompetitionArg) -> None:
    """Show a competition: its settings, entrants, rounds and the organisers' records.

    Example: matchlog competitions show 5a1c
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        found, listed, rounds, records, names = asyncio.run(_shown(url, competition_id))
    console = Console()
    withdrawn = sum(e.withdrawn is not None for e in listed)
    tables = [t for r in rounds for t in r.tables]
    done = sum(t.result is not None for t in tables)
    lines = [
        ("id", str(found.id)),
        ("name", found.name),
        ("game", f"{found.game} {found.variant}"),
        ("format", format_text(found.match_format)),
        ("tiebreaks", ", ".join(found.tiebreaks) or "none"),
        ("bye scores", found.bye),
        ("reads", "public" if found.public_reads else "private"),
        ("created", found.created_at.strftime("%Y-%m-%d %H:%M")),
        ("entrants", f"{len(listed)}" + (f" ({withdrawn} withdrawn)" if withdrawn else "")),
        ("rounds", f"{len(rounds)}, {done} of {len(tables)} tables with a result"),
    ]
    for key, value in lines:
        console.print(f"[bold]{key:<11}[/bold]{escape(value)}", soft_wrap=False)
    if records:
        columns = [
            Column("when", [r.at.strftime("%m-%d %H:%M") for r in records]),
            Column("what", [_what(r, names) for r in records], wrap=True, min_width=12),
            Column("by", [r.by.name for r in records], wrap=True, min_width=8),
            Column("why", [r.reason for r in records], wrap=True, min_width=16),
        ]
        console.print(fitted_table(columns, console, title="Records"))


def _what(record: organising.Record, names: dict[str, str]) -> str:
    if record.kind == "withdrawal":
        entrant = str(record.entrant_id)
        return f"withdrawal: {names.get(entrant, entrant[:8])}"
    if record.kind == "swap":
        return f"swap, round {record.round}"
    if record.kind == "correction":
        return f"correction, round {record.round} table {record.details.get('table')}"
    return f"takeback, round {record.round}"
