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
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Migrate the database down to REVISION (default: one step), once you confirm.

    Refused in one line, before anything is undone, when it would lose or break
    recorded data (events hashed under chain v2 exist below 0011_chain_v2).
    """
    with friendly_errors():
        url = use_database(existing=True, upgrade=False, owner=True)
        plan = database.plan_downgrade(url, revision)
        if not plan.steps:
            typer.echo(f"database at revision {plan.current or 'base'}; nothing to undo")
            return
        target = plan.target or "base"
        count = len(plan.steps)
        typer.echo(f"Undo {count} revision{'s' if count != 1 else ''} (to {target}):", err=True)
        for step in plan.steps:
            typer.echo(f"  {step.revision}", err=True)
        typer.echo("What they added goes, with any data in it.", err=True)
        if not yes and not _confirmed("Downgrade?"):
            typer.echo("nothing undone", err=True)
            raise typer.Exit(code=1)
        typer.echo(f"database at revision {database.downgrade(url, revision) or 'base'}")


@app.command()
def current() -> None:
    """Print the database's current revision."""
    with friendly_errors():
        url = use_database(existing=True, upgrade=False, owner=True)
        at = database.current(url)
        typer.echo("base" if at is None else database.describe(url, at))


def _confirmed(question: str) -> bool:
    """Ask ``question``; no answer (stdin closed, Ctrl-D) is no."""
    try:
        return typer.confirm(question, default=False, err=True)
    except typer.Abort:
        typer.echo("", err=True)
        return False
