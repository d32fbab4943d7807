"""The stack's limit for ``bench/api_load.py``: bare Litestar endpoints that do only
the SQL of a move (one insert, NOTIFY, commit) and nothing else: no engine, no auth,
no hashing. Served by uvicorn exactly like matchlog, and sent the same requests: a
move (``/moves``, 200) or a round start (``/rounds``, 201), each answered with an
ETag (the row's id) the load generator sends back as ``If-Match``, unread here.

    MATCHLOG_DATABASE_URL=postgresql://... uvicorn bench.baseline_app:create_app --factory
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, Response, post
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

    async def record(request: Request[Any, Any, Any], match_id: str, status: int) -> Response[Any]:
        body = await request.json()
        pool: AsyncConnectionPool = request.app.state.pool
        async with pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "INSERT INTO bench_moves (stream, data) VALUES (%s, %s) RETURNING id",
                (match_id, json.dumps(body)),
            )
            row = await cur.fetchone()
            await conn.execute("SELECT pg_notify('bench_moves', %s)", (match_id,))
        number = row[0] if row else 0
        return Response({"id": number}, status_code=status, headers={"ETag": f'"{number}"'})

    @post("/matches/{match_id:str}/moves", status_code=200)
    async def record_move(request: Request[Any, Any, Any], match_id: str) -> Response[Any]:
        return await record(request, match_id, 200)

    @post("/matches/{match_id:str}/rounds", status_code=201)
    async def start_round(request: Request[Any, Any, Any], match_id: str) -> Response[Any]:
        return await record(request, match_id, 201)

    return Litestar(route_handlers=[record_move, start_round], lifespan=[lifespan])
