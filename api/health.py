"""``GET /health``: the service is up and its database answers."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from psycopg_pool import AsyncConnectionPool

from api.problems import DATABASE_RETRY_AFTER
from service.wiring import DatabaseWatch, is_connection_error

_log = logging.getLogger("matchlog.api")


class HealthController(Controller):
    """Liveness and database reachability."""

    path = "/health"
    tags = ("health",)

    @get(operation_id="GetHealth", summary="Check the service and its database")
    async def health(
        self, request: Request[Any, Any, Any], pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[dict[str, Any]]:
        """Report ``ok`` when a query against the database succeeds, else 503 with ``Retry-After``.

        While the database is known to be down the answer comes at once, unlogged (the
        loss was logged once, when it was noticed).
        """
        watch: DatabaseWatch = request.app.state.watch
        unavailable = Response(
            {"status": "unavailable"},
            status_code=503,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
        )
        if not watch.up:
            return unavailable
        try:
            async with pool.connection(timeout=5) as conn:
                cur = await conn.execute("SELECT current_setting('server_version')")
                row = await cur.fetchone()
        except psycopg.Error as e:
            if not is_connection_error(e):
                # Logged, never answered: the error text names hosts, users and databases.
                _log.warning("health check failed: %s", (str(e).strip().splitlines() or ["?"])[0])
            return unavailable
        version = row[0] if row else "unknown"
        return Response({"status": "ok", "database": {"server_version": version}})
