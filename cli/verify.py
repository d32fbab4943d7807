"""``matchlog verify``: walk every stream's hash chain and report the first broken link."""

from __future__ import annotations

import asyncio

import psycopg
import typer

from cli.database import use_database
from cli.errors import friendly_errors
from store.events import BrokenLink
from store.events import verify as verify_chain
from store.reads import count_events


async def _verify(url: str) -> tuple[BrokenLink | None, int]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        return await verify_chain(conn), await count_events(conn)


def verify() -> None:
    """Check every stream's hash chain; print the first broken link and exit 1 if any."""
    with friendly_errors():
        broken, count = asyncio.run(_verify(use_database(existing=True)))
    if broken is not None:
        typer.echo(f"{broken.stream} {broken.version}: {broken.reason}", err=True)
        raise typer.Exit(code=1)
    typer.echo(f"{count} events verified: every hash chain holds")
