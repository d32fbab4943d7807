"""The ``matchlog`` command line."""

from __future__ import annotations

import typer

from cli import db, projections, tokens
from cli.matches import matches
from cli.serve import serve

app = typer.Typer(
    name="matchlog",
    help="Record, replay and score Cuttle and Kozel matches.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.command()(serve)
app.command()(matches)
app.add_typer(db.app, name="db")
app.add_typer(tokens.app, name="tokens")
app.add_typer(projections.app, name="projections")

if __name__ == "__main__":
    app()
