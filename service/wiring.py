"""The wiring both faces share: the database URL, a connection pool, the recorder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, NamedTuple

from psycopg_pool import AsyncConnectionPool

from projections.live import LiveHub
from projections.rebuild import INLINE_PROJECTORS
from service.settings import Settings
from store import migrate
from store.availability import DatabaseWatch, WatchedPool, is_connection_error
from store.database import DatabaseUrls, resolve_database
from store.embedded import EmbeddedSupervisor
from store.events import Notifier
from store.feeds import FeedLedger
from store.recorder import Recorder


def configured_database(settings: Settings) -> DatabaseUrls:
    """Return the configured database's app and owner URLs, starting the embedded server."""
    return resolve_database(
        settings.database_url, settings.migration_database_url, settings.data_dir
    )


def configured_url(settings: Settings) -> str:
    """Return the URL the service connects with, starting the embedded server if it is the one."""
    return configured_database(settings).app


def migrated_url(settings: Settings) -> str:
    """Return the URL the service connects with, once the owner has migrated it to head."""
    database = configured_database(settings)
    migrate.ensure_head(database.owner)
    return database.app


@contextmanager
def embedded_supervised(settings: Settings) -> Iterator[None]:
    """While it lasts, start the embedded server again whenever it dies.

    Nothing to do with a database URL: an external server is someone else's to run.
    """
    if settings.database_url:
        yield
        return
    with EmbeddedSupervisor(settings.data_dir):
        yield


@asynccontextmanager
async def open_pool(
    url: str, *, min_size: int = 1, max_size: int = 2
) -> AsyncIterator[AsyncConnectionPool[Any]]:
    """Open a pool on ``url`` (by default a small one, for one command); close it afterwards."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        url, min_size=min_size, max_size=max_size, open=False
    )
    await pool.open(wait=True, timeout=30)
    try:
        yield pool
    finally:
        await pool.close()


def recorder_for(pool: AsyncConnectionPool[Any]) -> Recorder:
    """Return a command's recorder: the API's inline projections, through ``pool``."""
    return Recorder(pool, INLINE_PROJECTORS, cache_size=8)


class Serving(NamedTuple):
    """What a running server holds: its pool, its recorder, its live feeds' hub and ledger,
    and the watch that says whether its database is up."""

    pool: AsyncConnectionPool[Any]
    recorder: Recorder
    live: LiveHub
    feeds: FeedLedger
    watch: DatabaseWatch


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[Serving]:
    """Open the server's pool, its notifying recorder, its one live listener and its lease.

    The pool is watched (``store.availability``): while the database is down it refuses
    at once, and it is checked again when the database is back.
    """
    url = configured_url(settings)
    async with DatabaseWatch(url) as watch:
        pool = WatchedPool(
            url,
            watch=watch,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
            # Give up a lost connection's reconnection soon (the watch probes meanwhile),
            # so the pool grows afresh once the database is back, not at a late backoff.
            reconnect_timeout=RECONNECT_TIMEOUT,
            open=False,
        )
        await pool.open(wait=True, timeout=30)
        try:
            async with _served(settings, url, pool, watch) as served:
                yield served
        finally:
            await pool.close()


RECONNECT_TIMEOUT = 10.0
"""Seconds the pool retries one lost connection before it gives that attempt up."""


@asynccontextmanager
async def _served(
    settings: Settings, url: str, pool: AsyncConnectionPool[Any], watch: DatabaseWatch
) -> AsyncIterator[Serving]:
    async with Notifier(url) as notifier:
        # Half the pool at most for feeds' backlog pages: the API keeps the rest.
        readers = max(1, settings.pool_max_size // 2)
        live = LiveHub(pool, page_size=settings.live_page_size, readers=readers)
        async with (
            live.listening(url),
            FeedLedger(pool, lease=settings.live_feed_lease) as feeds,
        ):
            yield Serving(
                pool,
                Recorder(
                    pool,
                    projectors=INLINE_PROJECTORS,
                    notifier=notifier,
                    group_commit=settings.group_commit,
                ),
                live,
                feeds,
                watch,
            )


__all__ = [
    "DatabaseWatch",
    "FeedLedger",
    "Serving",
    "configured_database",
    "configured_url",
    "embedded_supervised",
    "is_connection_error",
    "migrated_url",
    "open_pool",
    "recorder_for",
    "serving",
]
