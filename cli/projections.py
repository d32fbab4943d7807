"""``matchlog projections``: recompute every read model from the event log."""

from __future__ import annotations

import asyncio

import psycopg
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from cli.database import use_database
from cli.errors import friendly_errors
from cli.help import App
from projections.rebuild import RebuildStats, rebuild

app = App(help="Read models folded from the event log.", no_args_is_help=True)


async def _rebuild(url: str, progress: Progress) -> RebuildStats:
    task = progress.add_task("folding events", total=None)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    async with await psycopg.AsyncConnection.connect(url) as conn:
        return await rebuild(conn, progress=advance)


@app.command("rebuild")
def rebuild_command() -> None:
    """Truncate every read model and recompute it from the events, in one transaction."""
    with friendly_errors():
        url = use_database(existing=True)
        columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
        with Progress(*columns, TimeElapsedColumn()) as progress:
            stats = asyncio.run(_rebuild(url, progress))
        typer.echo(
            f"rebuilt from {stats.events} events: {stats.streams} matches, "
            f"{stats.competitions} competitions' standings"
        )
