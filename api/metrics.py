"""``GET /metrics``: the service's figures in Prometheus' text format.

Requests and their latency by route (its template, not the raw path) and status
come from ``RequestMetrics``, a plain ASGI middleware: about 12 µs a request where
Litestar's Prometheus middleware took 80 (a ``Request``, label dicts and four label
look-ups a request; bench/request_metrics.py); the rest is read when a scrape asks, from what
the process already keeps (``ServiceCollector``): moves and events recorded, the
group-commit batches by size, live feeds open, the pools' connections and waits
(``psycopg_pool``'s ``get_stats``, labelled ``database="primary"``, and
``database="standby"`` for the reads' own pool when MATCHLOG_READ_DATABASE_URL is
set), whether the database is up, the reads routed to
the primary and to the standby, and the standby's replay lag (sampled once a second
by ``ReplayWatch``, not per scrape nor per request). Nothing of it is
formatted here: prometheus_client writes the exposition.

The figures are one process's. ``matchlog serve --workers N`` runs N processes, and
a scrape is answered by whichever took it: scrape a single-worker server (or each
worker's own) to get whole figures.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from threading import Lock
from time import perf_counter
from typing import Any

from litestar import Controller, Response, get
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from psycopg_pool import AsyncConnectionPool

from api.auth import Role, requires
from api.openapi import TEXT, documented
from api.schemas import problem_responses
from service.matches import Recorder
from service.settings import split_address
from service.wiring import Databases, DatabaseWatch

PREFIX = "matchlog"
METRICS_PATH = "/metrics"
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64)
"""Upper bounds of the group-commit batch-size histogram (a batch holds at most 64)."""


REQUEST_LABELS = ("method", "path", "status_code")
REQUESTS = Counter(f"{PREFIX}_requests", "Requests answered", REQUEST_LABELS)
REQUEST_SECONDS = Histogram(
    f"{PREFIX}_request_duration_seconds", "Time to answer a request, in seconds", REQUEST_LABELS
)
REQUESTS_IN_PROGRESS = Gauge(f"{PREFIX}_requests_in_progress", "Requests being answered now")

_Children = tuple[Counter, Histogram]
_CHILDREN: dict[tuple[str, str, int], _Children] = {}
"""Each (method, route template, status)'s counter and histogram, looked up once."""


class RequestMetrics:
    """Count every HTTP request answered, and time it, by method, route template and status.

    Litestar runs it inside routing (``scope["path_template"]`` is the route's), so a
    path that matches no route is not counted.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer through the app, then count the answer's status and time."""
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        status = 500  # what the server answers if the app raises past its handlers

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        start = perf_counter()
        REQUESTS_IN_PROGRESS.inc()
        try:
            await self.app(scope, receive, sending)
        finally:
            took = perf_counter() - start
            REQUESTS_IN_PROGRESS.dec()
            key = (scope["method"], scope["path_template"], status)
            children = _CHILDREN.get(key) or _children(key)
            children[0].inc()
            children[1].observe(took)


def _children(key: tuple[str, str, int]) -> _Children:
    children = _CHILDREN[key] = (REQUESTS.labels(*key), REQUEST_SECONDS.labels(*key))
    return children


class MetricsController(Controller):
    """``GET /metrics``, for admins (its figures say how busy the service is)."""

    path = METRICS_PATH
    tags = ("metrics",)

    @get(
        operation_id="GetMetrics",
        summary="The service's figures, in Prometheus' text format",
        opt=requires(Role.ADMIN),
        operation_class=documented(media={CONTENT_TYPE_LATEST: TEXT}, replace=True),
        responses=problem_responses(401, 403, 503),
    )
    async def metrics(self) -> Response[bytes]:
        """Every figure of this process (module doc), as prometheus_client writes them."""
        return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


@dataclass(frozen=True, slots=True)
class Sources:
    """What one running app reads its figures from."""

    pool: AsyncConnectionPool[Any]
    recorder: Recorder
    watch: DatabaseWatch
    live_feeds_open: Any
    """An object with an ``open`` count (``api.live.LiveFeeds``)."""
    databases: Databases


class ServiceCollector(Collector):
    """Read the service's figures at scrape time from the apps running in this process."""

    def __init__(self) -> None:
        self._sources: list[Sources] = []
        self._lock = Lock()  # the metrics address's scrapes come from another thread

    @contextlib.contextmanager
    def reading(self, sources: Sources) -> Iterator[None]:
        """Count ``sources`` in while the app that owns them runs."""
        with self._lock:
            self._sources.append(sources)
        try:
            yield
        finally:
            with self._lock:
                self._sources.remove(sources)

    def collect(self) -> Iterable[Metric]:
        """Yield every figure, summed over this process's running apps."""
        with self._lock:
            sources = list(self._sources)
        yield CounterMetricFamily(
            f"{PREFIX}_moves_recorded",
            "Moves recorded (committed); deals, match creations and notes are not moves",
            value=sum(s.recorder.moves_recorded for s in sources),
        )
        yield CounterMetricFamily(
            f"{PREFIX}_events_recorded",
            "Events recorded (committed)",
            value=sum(s.recorder.events_recorded for s in sources),
        )
        yield _batch_histogram(sources)
        yield GaugeMetricFamily(
            f"{PREFIX}_live_feeds_open",
            "Live feeds (server-sent events) this process holds open",
            value=sum(s.live_feeds_open.open for s in sources),
        )
        yield GaugeMetricFamily(
            f"{PREFIX}_database_up",
            "1 while the database answers, 0 while this process finds it down",
            value=min((int(s.watch.up) for s in sources), default=0),
        )
        yield from _pool_metrics([stats for s in sources for stats in _pool_stats(s.databases)])
        yield from _replica_metrics([s.databases for s in sources])


def _replica_metrics(databases: list[Databases]) -> Iterator[Metric]:
    routed = CounterMetricFamily(
        f"{PREFIX}_reads_routed",
        "Read requests by the database that served them (standby: MATCHLOG_READ_DATABASE_URL)",
        labels=["database"],
    )
    for name in ("primary", "standby"):
        routed.add_metric([name], sum(d.routed[name] for d in databases))
    yield routed
    watches = [d.replay for d in databases if d.replay is not None]
    seconds = [lag for w in watches if (lag := w.lag_seconds) is not None]
    if seconds:
        yield GaugeMetricFamily(
            f"{PREFIX}_standby_replay_lag_seconds",
            "How old the standby's view is: 0 when it has replayed all the primary wrote, "
            "else the age of the last transaction it replayed (sampled once a second)",
            value=max(seconds),
        )
    lags = [lag for w in watches if (lag := w.lag_bytes) is not None]
    if lags:
        yield GaugeMetricFamily(
            f"{PREFIX}_standby_replay_lag_bytes",
            "Bytes of WAL the primary had written that the standby had not replayed "
            "(sampled once a second)",
            value=max(lags),
        )


def _batch_histogram(sources: list[Sources]) -> HistogramMetricFamily:
    sizes: dict[int, int] = {}
    for source in sources:
        for size, count in source.recorder.batch_sizes.items():
            sizes[size] = sizes.get(size, 0) + count
    buckets = [
        (str(float(bound)), float(sum(n for size, n in sizes.items() if size <= bound)))
        for bound in BATCH_BUCKETS
    ]
    buckets.append(("+Inf", float(sum(sizes.values()))))
    return HistogramMetricFamily(
        f"{PREFIX}_group_commit_batch_size",
        "Writes per group-commit transaction",
        buckets=buckets,
        sum_value=float(sum(size * n for size, n in sizes.items())),
    )


_POOL_GAUGES = (
    ("pool_size", "pool_connections", "Connections the pool holds, in use or idle"),
    ("pool_available", "pool_connections_idle", "Connections idle in the pool"),
    ("pool_max", "pool_connections_max", "Most connections the pool may hold"),
    ("requests_waiting", "pool_requests_waiting", "Requests waiting for a connection now"),
)
_POOL_COUNTERS = (
    ("requests_num", "pool_requests", "Connections asked of the pool", 1),
    ("requests_queued", "pool_requests_queued", "Connections asked for that had to wait", 1),
    ("requests_wait_ms", "pool_wait_seconds", "Time spent waiting for a connection", 1000),
    ("requests_errors", "pool_request_errors", "Connections asked for and not given", 1),
    ("returns_bad", "pool_connections_broken", "Connections given back broken (lost in use)", 1),
    ("connections_lost", "pool_connections_lost", "Idle connections found broken", 1),
    ("connections_errors", "pool_connect_errors", "Failed attempts to connect", 1),
)


def _pool_stats(databases: Databases) -> list[tuple[str, dict[str, int]]]:
    """Each pool's stats by the database it serves: the standby's only when reads have one."""
    stats = [("primary", databases.primary.get_stats())]
    if databases.standby:
        stats.append(("standby", databases.reads.get_stats()))
    return stats


def _pool_metrics(stats: list[tuple[str, dict[str, int]]]) -> Iterator[Metric]:
    """Every pool figure labelled by database, as ``reads_routed`` is; summed over apps."""
    names = sorted({database for database, _ in stats})
    for key, name, help_text in _POOL_GAUGES:
        gauge = GaugeMetricFamily(f"{PREFIX}_{name}", help_text, labels=["database"])
        for database in names:
            gauge.add_metric([database], sum(s.get(key, 0) for d, s in stats if d == database))
        yield gauge
    for key, name, help_text, per_unit in _POOL_COUNTERS:
        counter = CounterMetricFamily(f"{PREFIX}_{name}", help_text, labels=["database"])
        for database in names:
            total = sum(s.get(key, 0) for d, s in stats if d == database)
            counter.add_metric([database], total / per_unit)
        yield counter


SERVICE_COLLECTOR = ServiceCollector()
REGISTRY.register(SERVICE_COLLECTOR)


@contextlib.contextmanager
def metrics_address(address: str | None) -> Iterator[None]:
    """Serve the metrics, without a token, on ``address`` (``host:port``) while it lasts."""
    if address is None:
        yield
        return
    host, port = split_address(address)
    server, thread = start_http_server(port, addr=host)
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


__all__ = [
    "SERVICE_COLLECTOR",
    "MetricsController",
    "RequestMetrics",
    "Sources",
    "metrics_address",
]
