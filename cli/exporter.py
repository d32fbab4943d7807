"""``matchlog export``: write recorded matches as canonical JSON Lines or text notation."""

from __future__ import annotations

import asyncio
import gzip
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TextIO

import typer

from cli.database import resolve, use_database
from cli.errors import friendly_errors
from service.exporter import LogFormat, export_to


@contextmanager
def _output(path: Path | None) -> Iterator[TextIO]:
    if path is None:
        yield sys.stdout
    elif path.name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8", newline="\n") as handle:
            yield handle
    else:
        with path.open("w", encoding="utf-8", newline="\n") as handle:
            yield handle


def export(
    match: Annotated[
        str | None,
        typer.Argument(
            metavar="MATCH",
            help="A match id or its start; leave out with --competition or --all.",
        ),
    ] = None,
    competition: Annotated[
        str | None,
        typer.Option(metavar="ID", help="Export every match of this competition (id or start)."),
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Export every recorded match.")] = False,
    format: Annotated[
        LogFormat, typer.Option("--format", "-f", help="jsonl (lossless) or text.")
    ] = LogFormat.JSONL,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="File to write (.gz compresses); stdout if left out."),
    ] = None,
) -> None:
    """Export one match, a competition or everything, in either log format.

    Examples: matchlog export 5a1c -f text · matchlog export --all -o all.jsonl.gz
    """
    chosen = sum(x is not None for x in (match, competition, True if all_ else None))
    if chosen != 1:
        typer.secho("error: name one MATCH, or --competition ID, or --all", err=True, fg="red")
        raise typer.Exit(code=2)
    with friendly_errors():
        url = use_database(existing=True)
        if match is not None:
            match = str(resolve(url, "match", [match])[0])
        if competition is not None:
            competition = str(resolve(url, "competition", [competition])[0])
        with _output(out) as handle:
            count = asyncio.run(
                export_to(handle, url, match=match, competition=competition, fmt=format)
            )
    if out is not None:
        typer.echo(f"{count} matches written to {out}", err=True)
