"""The database a command uses: say so when it is new, refuse a new one for reading."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from uuid import UUID

import psycopg
import typer

from service import database as schema
from service.data_dir import new_data_dir, require_data
from service.ids import Kind, resolve_id
from service.settings import load_settings
from service.wiring import configured_database


def use_database(*, existing: bool, upgrade: bool = True, owner: bool = False) -> str:
    """Return the URL of the database a command uses (migrated unless ``upgrade`` is false).

    A command that reads recorded data (``existing``) refuses an embedded data dir
    with no database in it; any other says on stderr where it started a new one.
    The URL connects as the service's role, or as the schema's owner with ``owner``
    (for ``matchlog db``); migrations always run as the owner.

    Raises:
        NotFoundError (NO_DATA): ``existing`` and the data dir holds no database.
        MalformedError (BAD_SETTING): a ``MATCHLOG_*`` variable cannot be used.
    """
    settings = load_settings()
    if existing:
        require_data(settings)
    fresh = new_data_dir(settings)
    database = configured_database(settings)
    if fresh is not None:
        # Said once the server runs: a data dir that cannot hold one gets its error alone.
        typer.echo(f"matchlog: started a new database in {fresh}", err=True)
    if upgrade:
        schema.ensure_head(database.owner)
    return database.owner if owner else database.app


def resolve(url: str, kind: Kind, texts: Sequence[str]) -> list[UUID]:
    """Return the ids that ``texts`` (whole ids or unique prefixes) name, in order."""

    async def main() -> list[UUID]:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return [await resolve_id(conn, kind, text) for text in texts]

    return asyncio.run(main())


__all__ = ["resolve", "use_database"]
