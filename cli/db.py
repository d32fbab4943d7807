"""``matchlog db``: migrate the database up or down.

Migrations run as the schema's owner: MATCHLOG_MIGRATION_DATABASE_URL when set, else
MATCHLOG_DATABASE_URL, else the embedded server's superuser.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli.database import use_database
from cli.errors import friendly_errors
from cli.help import App
from service import database

app = App(help="Manage the database schema (alembic migrations).", no_args_is_help=True)


@app.command()
def upgrade(
    revision: Annotated[str, typer.Argument(metavar="REVISION", help="Target revision.")] = "head",
) -> None:
    """Migrate the database up to REVISION (default: the newest)."""
    with friendly_errors():
        url = use_database(existing=False, upgrade=False, owner=True)
        typer.echo(f"database at revision {database.upgrade(url, revision)}")


@app.command()
def downgrade(
    revision: Annotated[
        str, typer.Argument(metavar="REVISION", help="Target revision; 'base' removes every table.")
    ] = "-1",
) -> None:
    """Migrate the database down to REVISION (default: one step)."""
    with friendly_errors():
        url = use_database(existing=True, upgrade=False, owner=True)
        typer.echo(f"database at revision {database.downgrade(url, revision) or 'base'}")


@app.command()
def current() -> None:
    """Print the database's current revision."""
    with friendly_errors():
        url = use_database(existing=True, upgrade=False, owner=True)
        typer.echo(database.current(url) or "base")
