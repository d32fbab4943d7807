"""``matchlog tokens``: create, list and revoke the API's bearer tokens.

The CLI talks to the same database as the service (``MATCHLOG_DATABASE_URL``, or the
embedded server in ``MATCHLOG_DATA_DIR``); whoever can run it owns the service.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.help import App
from cli.tables import Column, fitted_table, least_width
from service import tokens
from service.tokens import Role, Token

app = App(help="Manage the API's bearer tokens.", no_args_is_help=True)


@app.command()
def create(
    role: Annotated[Role, typer.Option(help="admin: everything; scorer: record matches.")],
    competition: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ID",
            help="Limit a scorer to this competition (its id or start; repeatable).",
        ),
    ] = None,
    name: Annotated[
        str, typer.Option(metavar="LABEL", help="A label to recognise the token by.")
    ] = "",
    expires_in: Annotated[
        str | None,
        typer.Option(
            metavar="DURATION", help="Stop working after this long: e.g. 30d, 12h, 90m. [never]"
        ),
    ] = None,
) -> None:
    """Create a token and print it once: it is stored only as a hash."""
    with friendly_errors():
        url = use_database(existing=False)
        scope = competition
        if competition and role is Role.SCORER:
            # An admin's limit is refused as it is typed; a scorer's names competitions.
            scope = [str(c) for c in resolve(url, "competition", competition)]
        token, secret = tokens.create_typed(url, role, scope, name, expires_in)
        typer.echo(secret)
        typer.echo(f"token {token.id} ({token.role.value}); shown once, store it now", err=True)


@app.command("list")
def list_(
    active: Annotated[
        bool, typer.Option("--active", help="Leave out revoked and expired tokens.")
    ] = False,
) -> None:
    """Show every token's id, name, role, competitions and dates (never the token)."""
    with friendly_errors():
        url = use_database(existing=True)
        found = tokens.list_at(url, active=active)
        scoped = sorted({c for token in found for c in token.competitions or ()})
        names = tokens.competition_names(url, scoped)
    console = Console()
    console.print(_table(found, names, console, datetime.now(UTC)))


def status(token: Token, now: datetime) -> str:
    """Return whether a token works: ``live``, ``revoked`` or ``expired``."""
    if token.revoked_at is not None:
        return "revoked"
    if token.expires_at is not None and token.expires_at <= now:
        return "expired"
    return "live"


def compact_day(at: datetime, now: datetime) -> str:
    """Return a date in few cells: ``1 Dec`` this year, ``2027-01-30`` another.

    >>> now = datetime(2026, 12, 1)
    >>> compact_day(datetime(2026, 3, 9, 17, 5), now), compact_day(datetime(2027, 1, 30), now)
    ('9 Mar', '2027-01-30')
    """
    return f"{at.day} {at:%b}" if at.year == now.year else f"{at:%Y-%m-%d}"


def _table(records: list[Token], names: dict[UUID, str], console: Console, now: datetime) -> Table:
    """Return the tokens' table fitted to ``console``: ids whole, names wrapped.

    A scorer's competitions show by name (their ids are in ``matchlog matches``'s
    JSON and the API). Each token's status (live, revoked, expired) and its dates
    are always shown: in columns of their own when they fit (dates to the minute,
    else the day), else in one ``status`` cell, the dates compact ("revoked 2 Dec").
    """

    def scope(token: Token) -> str:
        if token.competitions is None:
            return "all"
        return "\n".join(sorted(names.get(c, str(c)) for c in token.competitions))

    def day(at: datetime | None, fmt: str) -> str:
        return "" if at is None else f"{at:{fmt}}"

    def summary(token: Token) -> str:
        state = status(token, now)
        lines = [state]
        if token.revoked_at is not None:
            lines = [f"revoked {compact_day(token.revoked_at, now)}"]
        elif token.expires_at is not None:
            word = "expired" if state == "expired" else "expires"
            lines = [state] if state == "live" else []
            lines.append(f"{word} {compact_day(token.expires_at, now)}")
        lines.append(f"created {compact_day(token.created_at, now)}")
        return "\n".join(lines)

    who = [
        Column("id", [str(t.id) for t in records]),
        Column("name", [t.name for t in records], wrap=True, min_width=8),
        Column("role", [t.role.value for t in records]),
    ]
    dates: dict[str, list[datetime | None]] = {
        "created": [t.created_at for t in records],
        "revoked": [t.revoked_at for t in records],
        "expires": [t.expires_at for t in records],
    }
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d"):
        wide = [
            *who,
            Column("competitions", [scope(t) for t in records], wrap=True, min_width=12),
            Column("status", [status(t, now) for t in records]),
            *(Column(header, [day(at, fmt) for at in ats]) for header, ats in dates.items()),
        ]
        if least_width(wide) <= console.width:
            return fitted_table(wide, console, title="API tokens")
    compact = [
        *who,
        Column("scope", [scope(t) for t in records], wrap=True, min_width=8),
        Column("status", [summary(t) for t in records], wrap=True, min_width=7),
    ]
    return fitted_table(compact, console, title="API tokens")


@app.command()
def revoke(
    token_id: Annotated[
        str, typer.Argument(metavar="TOKEN", help="The token's id, or its start (see list).")
    ],
) -> None:
    """Revoke a token: it stops working at once. Revoking twice is harmless."""
    with friendly_errors():
        url = use_database(existing=True)
        (whole,) = resolve(url, "token", [token_id])
        token = tokens.revoke_typed(url, str(whole))
        typer.echo(f"token {token.id} revoked")
