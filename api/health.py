"""``GET /health``: the service is up and its database answers."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from psycopg_pool import AsyncConnectionPool

_log = logging.getLogger("matchlog.api")


class HealthController(Controller):
    """Liveness and database reachability."""

    path = "/health"
    tags = ("health",)

    @get(operation_id="GetHealth", summary="Check the service and its database")
    async def health(self, pool: NamedDependency[AsyncConnectionPool]) -> Response[dict[str, Any]]:
        """Report ``ok`` when a query against the database succeeds, else 503."""
        try:
            async with pool.connection(timeout=5) as conn:
                cur = await conn.execute("SELECT current_setting('server_version')")
                row = await cur.fetchone()
        except Exception:  # any failure to reach the database is "unhealthy"
            # Logged, never answered: the error text names hosts, users and databases.
            _log.warning("health check: the database does not answer", exc_info=True)
            return Response({"status": "unavailable"}, status_code=503)
        version = row[0] if row else "unknown"
        return Response({"status": "ok", "database": {"server_version": version}})
