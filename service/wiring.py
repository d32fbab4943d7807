"""The wiring both faces share: the database URL, a connection pool, the recorder."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, NamedTuple

from psycopg_pool import AsyncConnectionPool

from projections.live import LiveHub
from projections.rebuild import INLINE_PROJECTORS
from service.settings import Settings
from store import migrate
from store.availability import DatabaseWatch, WatchedPool, is_connection_error
from store.database import DatabaseUrls, canonical_url, resolve_database, with_connect_timeout
from store.embedded import EmbeddedSupervisor
from store.events import Notifier
from store.feeds import FeedLedger
from store.recorder import Recorder
from store.replicas import (
    Databases,
    ReplayWatch,
    format_position,
    parse_position,
)


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
    the watch that says whether its database is up, and where its reads go."""

    pool: AsyncConnectionPool[Any]
    recorder: Recorder
    live: LiveHub
    feeds: FeedLedger
    watch: DatabaseWatch
    databases: Databases


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[Serving]:
    """Open the server's pools, its notifying recorder, its one live listener and its lease.

    The pools are watched (``store.availability``): while a database is down its pool
    refuses at once, and it is checked again when the database is back. With a read
    database (``MATCHLOG_READ_DATABASE_URL``) reads have a pool of their own and a
    ``ReplayWatch`` follows how far it has replayed.
    """
    url = with_connect_timeout(configured_url(settings))
    async with contextlib.AsyncExitStack() as stack:
        watch = await stack.enter_async_context(DatabaseWatch(url))
        pool = await stack.enter_async_context(_watched_pool(url, watch, settings))
        databases = Databases(pool)
        if settings.read_database_url:
            read_url = with_connect_timeout(canonical_url(settings.read_database_url))
            read_watch = await stack.enter_async_context(DatabaseWatch(read_url))
            reads = await stack.enter_async_context(_watched_pool(read_url, read_watch, settings))
            replay = await stack.enter_async_context(ReplayWatch(pool, reads))
            databases = Databases(pool, reads, replay, wait=settings.read_wait)
        async with _served(settings, url, databases, watch) as served:
            yield served


@asynccontextmanager
async def _watched_pool(
    url: str, watch: DatabaseWatch, settings: Settings
) -> AsyncIterator[WatchedPool]:
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
        yield pool
    finally:
        await pool.close()


RECONNECT_TIMEOUT = 10.0
"""Seconds the pool retries one lost connection before it gives that attempt up."""


@asynccontextmanager
async def _served(
    settings: Settings, url: str, databases: Databases, watch: DatabaseWatch
) -> AsyncIterator[Serving]:
    pool = databases.primary
    async with Notifier(url) as notifier:
        # Half the pool at most for feeds' backlog pages: the API keeps the rest.
        readers = max(1, settings.pool_max_size // 2)
        # Feeds read from where reads go; the listener LISTENs on the primary (a
        # standby carries no NOTIFY) and reads there only when reads go there too.
        live = LiveHub(databases.reads, page_size=settings.live_page_size, readers=readers)
        async with (
            live.listening(url, replay=databases.replay),
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
                databases,
            )


__all__ = [
    "DatabaseWatch",
    "Databases",
    "FeedLedger",
    "Serving",
    "configured_database",
    "configured_url",
    "embedded_supervised",
    "format_position",
    "is_connection_error",
    "migrated_url",
    "open_pool",
    "parse_position",
    "recorder_for",
    "serving",
]
