"""``matchlog entrants add|list|withdraw``: who plays in a competition."""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Sequence
from typing import Annotated, Any
from uuid import UUID

import typer
from psycopg import AsyncConnection
from rich.console import Console
from rich.markup import escape

from cli.competitions import CompetitionArg
from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.help import App
from cli.tables import Column, fitted_table
from domain.errors import ConflictError, DomainError, InvalidSetupError, NotFoundError
from domain.games import rules_for
from domain.text import clean_text
from service import competitions, fixtures, organising, players
from service.competitions import Entrant
from service.ids import resolve_id
from service.wiring import open_pool

app = App(help="Add, list and withdraw a competition's entrants.", no_args_is_help=True)


def terminal_author() -> str:
    """Return who makes a change from this terminal, as the records keep it."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name for this uid (a bare container)
        user = "unknown user"
    return f"matchlog ({user})"


async def find_player(conn: AsyncConnection[Any], text: str, create: bool) -> UUID:
    """Return the player ``text`` names: its display name, or its id (or 8 digits or more of it).

    With ``create``, a name nobody has yet becomes a new player.

    Raises:
        NotFoundError (PLAYER_NOT_FOUND): nobody has that name or id (and not ``create``).
        ConflictError (AMBIGUOUS_PLAYER): several players have that name.
    """
    named = await players.players_named(conn, clean_text(text))
    if len(named) == 1:
        return named[0].id
    if len(named) > 1:
        listed = "".join(f"\n  {p.id}  {p.display_name}" for p in named[:10])
        raise ConflictError(
            f"{len(named)} players are named {text!r}; give one's id:{listed}",
            code="AMBIGUOUS_PLAYER",
        )
    # An id's start of 8 digits or more, as lists show ids: "Bea" or "Ace" are names.
    digits = text.replace("-", "")
    try:
        if len(digits) < 8:
            raise NotFoundError(text, code="PLAYER_NOT_FOUND")
        return await resolve_id(conn, "player", text)
    except DomainError:
        if not create:
            raise NotFoundError(
                f"no player is named {text!r}: add --create to create one",
                code="PLAYER_NOT_FOUND",
            ) from None
    made, _ = await players.create_player(conn, clean_text(text))
    return made.id


async def _add(url: str, competition_id: UUID, texts: Sequence[str], create: bool) -> list[str]:
    async with open_pool(url) as pool:
        async with pool.connection() as conn, conn.transaction():
            competition = await competitions.get_competition(conn, competition_id)
            size = rules_for(competition.game).entrant_size
            if len(texts) % size:
                raise InvalidSetupError(
                    f"a {competition.game} entrant is {size} players: give them {size} by "
                    f"{size} ({len(texts)} given)",
                    code="WRONG_ENTRANT_SIZE",
                )
            ids = [await find_player(conn, t, create) for t in texts]
            added = [
                await competitions.add_entrant(conn, competition, ids[i : i + size])
                for i in range(0, len(ids), size)
            ]
        names = await fixtures.entrant_names(pool, competition_id)
    return [f"{e.id}  {names[str(e.id)]}" for e in added]


@app.command("add")
def add_command(
    competition: CompetitionArg,
    player: Annotated[
        list[str],
        typer.Argument(
            metavar="PLAYER...",
            help="Players by name (or id): one entrant each in Cuttle, two by two "
            "(a fixed pair) in Kozel.",
        ),
    ],
    create: Annotated[
        bool, typer.Option("--create", help="Create players whose name nobody has yet.")
    ] = False,
) -> None:
    """Enter players in a competition; all or none. A Swiss event takes late entrants.

    Examples: matchlog entrants add 5a1c Ada Bell Cy · matchlog entrants add 9f2e
    Ada Bell Cy Dora (Kozel: pairs Ada & Bell, Cy & Dora) · add --create for new players
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        lines = asyncio.run(_add(url, competition_id, player, create))
    for line in lines:
        typer.echo(line)


async def _listed(url: str, competition_id: UUID) -> tuple[list[Entrant], dict[str, str]]:
    async with open_pool(url) as pool:
        async with pool.connection() as conn:
            await competitions.get_competition(conn, competition_id)
            listed = await competitions.list_entrants(conn, competition_id)
        names = await fixtures.entrant_names(pool, competition_id)
    return listed, names


@app.command("list")
def list_command(competition: CompetitionArg) -> None:
    """List a competition's entrants in entry order, and who has withdrawn and why.

    Example: matchlog entrants list 5a1c
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        listed, names = asyncio.run(_listed(url, competition_id))
    console = Console()
    if not listed:
        console.print("No entrants yet: matchlog entrants add COMPETITION PLAYER...")
        return
    ids = [str(e.id) for e in listed]
    columns = [
        Column("#", [str(i) for i in range(1, len(listed) + 1)], justify="right"),
        Column("entrant", [names[i] for i in ids], wrap=True, min_width=12),
        Column("withdrawn", [_withdrawn(e) for e in listed], wrap=True, min_width=16, drop=1),
        Column("id", ids, short=[i[:8] for i in ids], drop=0),
    ]
    console.print(fitted_table(columns, console))


def _withdrawn(entrant: Entrant) -> str:
    w = entrant.withdrawn
    return "" if w is None else f"{w.at:%m-%d %H:%M}: {w.reason}"


def entrant_named(listed: Sequence[Entrant], names: dict[str, str], text: str) -> Entrant:
    """Return the entrant ``text`` names: its name (a pair's, or a partner's), or its id
    (8 digits or more of it).

    Raises:
        NotFoundError (ENTRANT_NOT_FOUND): none; ConflictError (AMBIGUOUS_ENTRANT): several.
    """
    wanted = text.strip().casefold()
    found = [
        e
        for e in listed
        if wanted == names[str(e.id)].casefold()
        or wanted in (n.strip().casefold() for n in names[str(e.id)].split(" & "))
    ] or [e for e in listed if len(wanted) >= 8 and str(e.id).startswith(wanted)]
    if not found:
        raise NotFoundError(f"no entrant is named {text!r}", code="ENTRANT_NOT_FOUND")
    if len(found) > 1:
        shown = "".join(f"\n  {e.id}  {names[str(e.id)]}" for e in found[:10])
        raise ConflictError(
            f"{text!r} names {len(found)} entrants; give one's id:{shown}",
            code="AMBIGUOUS_ENTRANT",
        )
    return found[0]


async def _withdraw(url: str, competition_id: UUID, text: str, reason: str) -> tuple[str, int]:
    async with open_pool(url) as pool:
        listed, names = await _listed(url, competition_id)
        entrant = entrant_named(listed, names, text)
        done = await organising.withdraw_entrant(
            pool, competition_id, entrant.id, reason, terminal_author()
        )
        records = await organising.read_records(pool, competition_id)
    mine = next(r for r in records if r.kind == "withdrawal" and r.entrant_id == done.id)
    return names[str(done.id)], len(mine.details.get("forfeited", []))


@app.command("withdraw")
def withdraw_command(
    competition: CompetitionArg,
    entrant: Annotated[
        str, typer.Argument(help="The entrant: its name, a partner's name, or its id's start.")
    ],
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why: kept in the records.")],
) -> None:
    """Withdraw an entrant (a Kozel pair too): paired in no later round.

    Results played stand; its tables not yet started are forfeited to its opponents.
    Example: matchlog entrants withdraw 5a1c Ada -r "went home after round 2"
    """
    with friendly_errors():
        url = use_database(existing=True)
        (competition_id,) = resolve(url, "competition", [competition])
        name, forfeited = asyncio.run(_withdraw(url, competition_id, entrant, reason))
    tables = "no table" if not forfeited else f"{forfeited} table(s)"
    Console().print(f"{escape(name)} withdrawn; {tables} forfeited to the opponents.")
