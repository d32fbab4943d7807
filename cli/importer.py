"""``matchlog import``: the command, and how an import shows its progress and problems.

The import itself (reading, checking, recording, workers) is the package service/imports/.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from cli.database import use_database
from cli.errors import friendly_errors
from service import imports


class _Shown:
    """An import's view on the terminal: a progress bar per input, problems on stderr."""

    def __init__(self, console: Console, *, quiet: bool) -> None:
        self._console = console
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=quiet or not console.is_terminal,
        )
        self._task: TaskID | None = None

    def showing(self) -> Progress:
        return self._progress

    def reading(self, name: str, size: int | None) -> None:
        self._task = self._progress.add_task(name, total=size)

    def read(self, position: int) -> None:
        assert self._task is not None
        self._progress.update(self._task, completed=position)

    def unreadable(self, text: str) -> None:
        self._console.print(text, markup=False, highlight=False)

    def refused(self, text: str) -> None:
        self._console.print(text, markup=False, highlight=False, soft_wrap=True)


def import_(
    paths: Annotated[
        list[str],
        typer.Argument(help="Log files, folders (their *.jsonl, *.txt ... files) or - for stdin."),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Check every match; write nothing.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            show_default=False,
            help="Worker processes that check and record matches (1: none, all in this "
            "process); by default one per core when the files add up to 4 MB or more, "
            "else 1. Matches are recorded in input order either way.",
        ),
    ] = None,
) -> None:
    """Import game logs (canonical JSON Lines or text notation, gzip or not).

    Every match is replayed through the engine and recorded whole or not at all.
    Bad matches are reported as FILE:LINE: CODE reason and skipped; importing a
    match again records nothing new. Exit code 0 only when every match was
    imported or already recorded (130 when interrupted with Ctrl-C).

    Examples: matchlog import season.jsonl.gz · matchlog import --dry-run logs/ ·
    zcat old.jsonl.gz | matchlog import - · matchlog import -j 2 big.jsonl
    """
    console = Console(stderr=True)
    with friendly_errors():
        url = use_database(existing=False)
        if jobs is None:
            jobs = imports.default_jobs(paths)
        summary = imports.run_import(
            url, paths, dry_run=dry_run, view=_Shown(console, quiet=quiet), jobs=jobs
        )
    console.print(summary.text(dry_run), markup=False, highlight=False, soft_wrap=True)
    for competition_id in summary.competitions:
        # On stdout: what a script reads (matchlog competitions show ID).
        typer.echo(f"competition {competition_id}")
    if summary.interrupted:
        raise typer.Exit(code=130)  # as a shell reports a command ended by Ctrl-C
    if not summary.ok:
        raise typer.Exit(code=1)
