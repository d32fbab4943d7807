"""``matchlog backup`` and ``matchlog restore``: a physical copy of the embedded database."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

from cli.errors import friendly_errors
from service import backup as backups
from service.settings import load_settings


def _progress(console: Console, what: str) -> tuple[Progress, backups.Progress]:
    """A progress bar on a terminal; piped, a line at each tenth of the way."""
    bar = Progress(TextColumn(what), BarColumn(), DownloadColumn(), console=console, transient=True)
    task = bar.add_task(what, total=None)
    said = [-1]

    def show(done_kb: int, total_kb: int) -> None:
        if console.is_terminal:
            bar.update(task, completed=done_kb * 1024, total=total_kb * 1024)
            return
        tenth = 10 * done_kb // max(total_kb, 1)
        if tenth > said[0]:
            said[0] = tenth
            percent = 100 * done_kb // max(total_kb, 1)
            console.print(f"{what} {done_kb}/{total_kb} kB ({percent}%)", highlight=False)

    return bar, show


def backup(
    path: Annotated[Path, typer.Argument(help="A new (or empty) folder for the backup.")],
) -> None:
    """Copy the embedded database into PATH while the service goes on running.

    A consistent physical copy made with the bundled pg_basebackup (tar, gzip, with
    the WAL it needs). `matchlog restore PATH` brings it back into an empty data dir.
    For an external server, use PostgreSQL's own tools (docs/operations.md).
    """
    console = Console(stderr=True)
    with friendly_errors():
        settings = load_settings()
        bar, show = _progress(console, "backing up")
        with bar if console.is_terminal else nullcontext():
            made = backups.backup(settings, path, show)
    typer.echo(f"backup in {made.path} ({made.size / 1024 / 1024:.1f} MB)")


def restore(
    path: Annotated[Path, typer.Argument(help="A folder `matchlog backup` wrote.")],
) -> None:
    """Restore the backup in PATH into the data dir (MATCHLOG_DATA_DIR), which must be
    new or empty; then start it once to check that it comes up."""
    console = Console(stderr=True)
    with friendly_errors():
        settings = load_settings()
        bar, show = _progress(console, "restoring")
        with bar if console.is_terminal else nullcontext():
            restored = backups.restore(settings, path, show)
    typer.echo(
        f"restored into {restored.data_dir}: {restored.matches} matches, {restored.events} "
        f"events, schema {restored.revision or 'base'}"
    )
