"""The stack's limit for ``bench/api_load.py --baseline``: a bare Litestar endpoint
that does only the SQL of a move (one insert, NOTIFY, commit) and nothing else: no
engine, no auth, no hashing. Served by uvicorn exactly like matchlog.

    MATCHLOG_DATABASE_URL=postgresql://... uvicorn bench.baseline_app:create_app --factory
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, post
from psycopg_pool import AsyncConnectionPool

SCHEMA = """
CREATE TABLE IF NOT EXISTS bench_moves (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream text NOT NULL,
    data jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
)
"""


def create_app() -> Litestar:
    """Build the baseline app on ``MATCHLOG_DATABASE_URL``."""
    url = os.environ["MATCHLOG_DATABASE_URL"]

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = AsyncConnectionPool(url, min_size=1, max_size=10, open=False)
        await pool.open(wait=True)
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.close()

    @post("/matches/{match_id:str}/moves", status_code=200)
    async def record_move(request: Request[Any, Any, Any], match_id: str) -> dict[str, Any]:
        body = await request.json()
        pool: AsyncConnectionPool = request.app.state.pool
        async with pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "INSERT INTO bench_moves (stream, data) VALUES (%s, %s) RETURNING id",
                (match_id, json.dumps(body)),
            )
            row = await cur.fetchone()
            await conn.execute("SELECT pg_notify('bench_moves', %s)", (match_id,))
        return {"id": row[0] if row else None}

    return Litestar(route_handlers=[record_move], lifespan=[lifespan])
