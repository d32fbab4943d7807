"""``matchlog verify``: walk every stream's hash chain, report every broken link.

``--checkpoint FILE`` writes every stream's head and a digest over them (only when
every chain holds); ``--against FILE`` also reports what a checkpoint shows and the
chain cannot: streams that lost events, were rewritten, or are gone.

Apart from tampering, it lists the matches recorded against their competition's
format (before matchlog refused them): they are reported, never rewritten.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.database import use_database
from cli.errors import friendly_errors
from domain.errors import DomainError
from service.verify import ChainReport, Checkpoint, CheckpointError, OffFormat, verify_log

_PROGRESS_EVERY = 2.0
"""Seconds between progress lines on stderr; a shorter walk prints none."""

EXIT_BROKEN = 1
"""A broken link (or, against a checkpoint, lost or rewritten events), or an error."""
EXIT_OFF_FORMAT = 3
"""Every chain holds, but some matches were recorded against their competition's format."""


def verify(
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON document on stdout, for scripts.")
    ] = False,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            "--checkpoint",
            metavar="FILE",
            help="Write every stream's head and a digest over them to FILE "
            "(only if nothing is broken). Keep it outside the database.",
        ),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            metavar="FILE",
            help="Also report every stream that lost events, was rewritten or is gone "
            "since checkpoint FILE.",
        ),
    ] = None,
) -> None:
    """Check every stream's hash chain; list every broken link, and every match recorded
    against its competition's format (not tampering, left as recorded).

    Each broken link is one line, "STREAM VERSION: reason", each such match "STREAM:
    off its competition's format: reason"; progress goes to stderr. Exit status: 0
    nothing found, 1 a broken link (or an error), 3 only matches off their format.
    """
    with friendly_errors():
        before = _read_checkpoint(against) if against is not None else None
        report, off_format = asyncio.run(_walk(use_database(existing=True), before))
        written = None
        if checkpoint is not None and report.ok:
            written = report.checkpoint(datetime.now(UTC))
            _write(checkpoint, written.to_json())
    if json_output:
        document = _document(report, before, against, written, checkpoint)
        document["off_format"] = [_off_format_entry(o) for o in off_format]
        typer.echo(json.dumps(document, indent=1))
    else:
        _print(report, before, written, checkpoint)
        _print_off_format(off_format)
    if not report.ok:
        raise typer.Exit(code=EXIT_BROKEN)
    if off_format:
        raise typer.Exit(code=EXIT_OFF_FORMAT)


async def _walk(url: str, against: Checkpoint | None) -> tuple[ChainReport, list[OffFormat]]:
    last = time.monotonic()

    def progress(events: int, streams: int) -> None:
        nonlocal last
        if time.monotonic() - last >= _PROGRESS_EVERY:
            last = time.monotonic()
            typer.echo(f"verify: {events} events in {streams} streams checked", err=True)

    return await verify_log(url, against=against, progress=progress)


def _read_checkpoint(path: Path) -> Checkpoint:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointError(f"cannot read checkpoint {str(path)!r}: {e}") from e
    try:
        return Checkpoint.from_json(text)
    except CheckpointError as e:
        raise CheckpointError(f"{path}: {e.message}", details=e.details) from e


def _write(path: Path, text: str) -> None:
    # Write beside it and rename: an interrupted run never leaves half a checkpoint.
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as e:
        raise DomainError(
            f"cannot write checkpoint {str(path)!r}: {e}", code="CHECKPOINT_UNWRITABLE"
        ) from e


def _print(
    report: ChainReport, before: Checkpoint | None, written: Checkpoint | None, path: Path | None
) -> None:
    for problem in report.problems:
        typer.echo(f"{problem.stream} {problem.version}: {problem.reason}")
    scope = f"{report.events} events, {len(report.heads)} streams"
    if report.ok:
        typer.echo(
            f"{report.events} events verified ({len(report.heads)} streams): every hash chain holds"
        )
        if before is not None:
            typer.echo(
                f"nothing lost or rewritten since the checkpoint of {before.taken_at} "
                f"({len(before.heads)} streams, digest {before.digest})"
            )
    else:
        streams = len({p.stream for p in report.problems})
        typer.echo(f"{len(report.problems)} problems in {streams} streams ({scope} checked)")
    if written is not None:
        typer.echo(f"checkpoint written to {path} (digest {written.digest})")
    elif path is not None:
        typer.echo(f"no checkpoint written to {path}: the log has problems", err=True)


def _print_off_format(found: list[OffFormat]) -> None:
    for match in found:
        typer.echo(f"{match.stream}: off its competition's format: {match.reason}")
    if found:
        typer.echo(
            f"{len(found)} matches recorded against their competition's format"
            " (not tampering: kept as recorded)"
        )


def _off_format_entry(match: OffFormat) -> dict[str, str]:
    return {
        "stream": match.stream,
        "competition_id": match.competition_id,
        "code": match.code,
        "reason": match.reason,
    }


def _document(
    report: ChainReport,
    before: Checkpoint | None,
    before_path: Path | None,
    written: Checkpoint | None,
    path: Path | None,
) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "events": report.events,
        "streams": len(report.heads),
        "problems": [
            {"stream": p.stream, "version": p.version, "code": p.code, "reason": p.reason}
            for p in report.problems
        ],
        "against": None
        if before is None
        else {"file": str(before_path), "taken_at": before.taken_at, "digest": before.digest},
        "checkpoint": None
        if path is None
        else {"file": str(path), "digest": None if written is None else written.digest},
    }
