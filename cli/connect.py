"""How the log commands reach the service's database: same settings, same schema."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import AsyncConnectionPool

from api.settings import Settings
from projections.rebuild import INLINE_PROJECTORS
from store import migrate
from store.database import resolve_database_url
from store.recorder import Recorder


def database_url() -> str:
    """Return the configured database's URL (starting the embedded one), migrated to head."""
    settings = Settings()
    url = resolve_database_url(settings.database_url, settings.data_dir)
    migrate.ensure_head(url)
    return url


@asynccontextmanager
async def open_pool(url: str) -> AsyncIterator[AsyncConnectionPool[Any]]:
    """Open a small pool on ``url`` for one command; close it afterwards."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(url, min_size=1, max_size=2, open=False)
    await pool.open(wait=True, timeout=30)
    try:
        yield pool
    finally:
        await pool.close()


def recorder_for(pool: AsyncConnectionPool[Any]) -> Recorder:
    """Return a recorder wired like the API's (the same inline projections), through ``pool``."""
    return Recorder(pool, INLINE_PROJECTORS, cache_size=8)
