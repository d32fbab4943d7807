"""``matchlog tokens``: create, list and revoke the API's bearer tokens.

The CLI talks to the same database as the service (``MATCHLOG_DATABASE_URL``, or the
embedded server in ``MATCHLOG_DATA_DIR``); whoever can run it owns the service.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from cli.help import App
from cli.tables import Column, fitted_table
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
    console.print(_table(found, names, console))


def _table(records: list[Token], names: dict[UUID, str], console: Console) -> Table:
    """Return the tokens' table fitted to ``console``: ids whole, names wrapped.

    A scorer's competitions show by name (their ids are in ``matchlog matches``'s
    JSON and the API); the dates shorten to days, then the creation date goes.
    """

    def scope(token: Token) -> str:
        if token.competitions is None:
            return "all"
        return "\n".join(sorted(names.get(c, str(c)) for c in token.competitions))

    def day(at: datetime | None, fmt: str) -> str:
        return "" if at is None else f"{at:{fmt}}"

    long, short = "%Y-%m-%d %H:%M", "%Y-%m-%d"
    columns = [
        Column("id", [str(t.id) for t in records]),
        Column("name", [t.name for t in records], wrap=True, min_width=10),
        Column("role", [t.role.value for t in records]),
        Column("competitions", [scope(t) for t in records], wrap=True, min_width=12),
        Column(
            "created",
            [day(t.created_at, long) for t in records],
            short=[day(t.created_at, short) for t in records],
            drop=1,
        ),
        Column(
            "revoked",
            [day(t.revoked_at, long) for t in records],
            short=[day(t.revoked_at, short) for t in records],
            drop=2,
        ),
        Column(
            "expires",
            [day(t.expires_at, long) for t in records],
            short=[day(t.expires_at, short) for t in records],
            drop=3,
        ),
    ]
    return fitted_table(columns, console, title="API tokens")


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
