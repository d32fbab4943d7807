"""Checking the log (``matchlog verify``): every stream's hash chain, and the matches
recorded against their competition's format (``service.formats``)."""

from __future__ import annotations

from collections.abc import Callable

import psycopg

from domain.errors import DomainError
from service.formats import OffFormat, off_format_matches
from store.chain import ChainReport, Checkpoint, CheckpointError
from store.chain import verify as verify_chain


async def verify_log(
    url: str,
    *,
    against: Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[ChainReport, list[OffFormat]]:
    """Walk every hash chain of ``url``'s log (against a checkpoint, if given) and list
    the matches off their competition's format.

    ``progress(events, streams)`` is called as the walk goes (``store.chain.verify``).

    Raises:
        DomainError (VERIFY_FAILED): the database refused a read (a role that may not
            read events, say).
    """
    async with await psycopg.AsyncConnection.connect(url) as conn:
        try:
            report = await verify_chain(conn, against=against, progress=progress)
            return report, await off_format_matches(conn)
        except psycopg.OperationalError:
            raise
        except psycopg.Error as e:
            # A refusal is one line, as a broken link is: never a traceback.
            reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise DomainError(f"cannot read the log: {reason}", code="VERIFY_FAILED") from e


__all__ = ["ChainReport", "Checkpoint", "CheckpointError", "OffFormat", "verify_log"]
