"""The Litestar application factory: all wiring in one place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, Response
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from psycopg_pool import AsyncConnectionPool

from api.auth import KnownTokens, authorize, provide_principal
from api.competitions import CompetitionController
from api.desk import DeskController
from api.docs_ui import docs_plugins
from api.entrants import EntrantController
from api.exports import ExportController
from api.fixtures import FixtureController
from api.games import GameController
from api.health import HealthController
from api.inputs import check_request
from api.language import provide_language, vary_by_language
from api.live import LiveController, LiveFeeds
from api.match_writes import MatchKeys
from api.matches import MatchController
from api.metrics import (
    SERVICE_COLLECTOR,
    MetricsController,
    RequestMetrics,
    Sources,
    metrics_address,
)
from api.openapi import ClosedModels
from api.options import answer_options
from api.pad import PadController, RuntimeController
from api.players import PlayerController
from api.positions import add_position, provide_reads
from api.problems import problem_details_plugin
from api.replays import ReplayController
from api.security import add_security_headers
from api.standings import StandingsController
from api.tokens import TokenController
from api.viewer import ViewerController, static_files
from projections.replay_cache import ReplayCache
from service.matches import Recorder
from service.settings import Settings
from service.wiring import serving


async def before_request(request: Request[Any, Any, Any]) -> Response[None] | None:
    """Every route's checks before its body is read: the token and role, then the input.

    ``OPTIONS`` is answered here, with every method of its path (``api.options``).
    """
    await authorize(request)
    if (options := answer_options(request)) is not None:
        return options
    await check_request(request)
    return None


def create_app(settings: Settings) -> Litestar:
    """Build the app for ``settings``; the database pool lives in the app's lifespan."""

    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        async with serving(settings) as (pool, recorder, live, feeds, watch, databases):
            app.state.pool = pool
            app.state.databases = databases
            app.state.watch = watch
            app.state.replays = ReplayCache()
            app.state.recorder = recorder
            app.state.tokens = KnownTokens()
            app.state.match_keys = MatchKeys()
            app.state.live = LiveFeeds(
                live,
                feeds,
                accounts=pool,
                max_feeds=settings.live_max_feeds,
                max_per_client=settings.live_max_feeds_per_client,
                token_check_interval=settings.live_token_check_interval,
                trusted_proxies=settings.trusted_proxies,
            )
            if not settings.metrics:
                yield
                return
            sources = Sources(pool, recorder, watch, app.state.live, databases)
            with SERVICE_COLLECTOR.reading(sources), metrics_address(settings.metrics_address):
                yield

    def provide_pool(state: State) -> AsyncConnectionPool:
        pool: AsyncConnectionPool = state.pool
        return pool

    def provide_recorder(state: State) -> Recorder:
        recorder: Recorder = state.recorder
        return recorder

    def provide_live(state: State) -> LiveFeeds:
        live: LiveFeeds = state.live
        return live

    return Litestar(
        route_handlers=[
            HealthController,
            GameController,
            PlayerController,
            CompetitionController,
            EntrantController,
            FixtureController,
            TokenController,
            MatchController,
            ReplayController,
            StandingsController,
            LiveController,
            ExportController,
            ViewerController,
            PadController,
            DeskController,
            static_files(),
            RuntimeController,
            *([MetricsController] if settings.metrics else []),
        ],
        middleware=[RequestMetrics] if settings.metrics else [],
        lifespan=[database],
        dependencies={
            "pool": Provide(provide_pool, sync_to_thread=False),
            "reads": Provide(provide_reads),
            "recorder": Provide(provide_recorder, sync_to_thread=False),
            "live": Provide(provide_live, sync_to_thread=False),
            "principal": Provide(provide_principal),
            "lang": Provide(provide_language, sync_to_thread=False),
        },
        before_request=before_request,
        before_send=[add_security_headers, add_position, vary_by_language],
        request_max_body_size=settings.max_body_size,
        plugins=[problem_details_plugin(), ClosedModels()],
        openapi_config=OpenAPIConfig(
            title="matchlog",
            version="0.1.0",
            description="Record, replay and score Cuttle and Kozel matches.",
            path="/schema",
            render_plugins=docs_plugins(),
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(
                        type="http", scheme="bearer", description="A token from `matchlog tokens`."
                    )
                }
            ),
        ),
        debug=False,
    )


def create_app_from_env() -> Litestar:
    """Build the app from ``MATCHLOG_*`` variables (the entry point for server workers)."""
    return create_app(Settings())
