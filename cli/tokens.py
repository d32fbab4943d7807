"""``matchlog tokens``: create, list and revoke the API's bearer tokens.

The CLI talks to the same database as the service (``MATCHLOG_DATABASE_URL``, or the
embedded server in ``MATCHLOG_DATA_DIR``); whoever can run it owns the service.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from cli.errors import friendly_errors
from service import tokens
from store.accounts import Role, Token

app = typer.Typer(help="Manage the API's bearer tokens.", no_args_is_help=True)


@app.command()
def create(
    role: Annotated[Role, typer.Option(help="admin: everything; scorer: record matches.")],
    competition: Annotated[
        list[str] | None,
        typer.Option(metavar="ID", help="Limit a scorer to this competition id (repeatable)."),
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
        token, secret = tokens.create_token(role, competition, name, expires_in)
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
        found = tokens.list_tokens(active=active)
    Console().print(_table(found))


def _table(records: list[Token]) -> Table:
    table = Table(
        title="API tokens",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
        show_edge=False,
    )
    # Dates may wrap between day and time, and the id folds, so the table fits 80 columns.
    table.add_column("id", overflow="fold")
    table.add_column("name")
    table.add_column("role")
    table.add_column("competitions", overflow="fold")
    for dated in ("created", "revoked", "expires"):
        table.add_column(dated, min_width=10)
    for token in records:
        scope = (
            "all" if token.competitions is None else "\n".join(sorted(map(str, token.competitions)))
        )
        table.add_row(
            str(token.id),
            token.name,
            token.role.value,
            scope,
            f"{token.created_at:%Y-%m-%d %H:%M}",
            "" if token.revoked_at is None else f"{token.revoked_at:%Y-%m-%d %H:%M}",
            "" if token.expires_at is None else f"{token.expires_at:%Y-%m-%d %H:%M}",
        )
    return table


@app.command()
def revoke(token_id: Annotated[str, typer.Argument(help="The token's id (see `list`).")]) -> None:
    """Revoke a token: it stops working at once. Revoking twice is harmless."""
    with friendly_errors():
        token = tokens.revoke_token(token_id)
        typer.echo(f"token {token.id} revoked")
