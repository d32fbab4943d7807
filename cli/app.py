"""The ``matchlog`` command line: every command, on one Typer app (run by cli/main.py)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from cli import competitions, db, entrants, projections, tokens
from cli.exporter import export
from cli.fixtures import fixtures_command, forfeit, pair
from cli.help import App
from cli.importer import import_
from cli.matches import matches
from cli.replay import replay
from cli.serve import serve
from cli.simulate import simulate
from cli.standings import standings
from cli.verify import verify

app = App(
    name="matchlog",
    help="Record, replay and score Cuttle and Kozel matches.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _show_version(asked: bool) -> None:
    if asked:
        try:
            typer.echo(f"matchlog {version('matchlog')}")
        except PackageNotFoundError:  # run from a checkout that was never installed
            typer.echo("matchlog (not installed)")
        raise typer.Exit()


@app.callback()
def main(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Record, replay and score Cuttle and Kozel matches."""


app.command()(serve)
app.command()(matches)
app.add_typer(db.app, name="db")
app.add_typer(tokens.app, name="tokens")
app.add_typer(projections.app, name="projections")
app.command("import")(import_)
app.command()(export)
app.command()(verify)
app.command()(replay)
app.command()(simulate)
app.command()(standings)
app.command("fixtures")(fixtures_command)
app.command()(pair)
app.command()(forfeit)
app.add_typer(competitions.app, name="competitions")
app.add_typer(entrants.app, name="entrants")
