"""TEMPORARY until branch ``padapi`` brings the pad's pages: shells for ``/score`` pages.

Registered by the pad's tests on an app that has no ``/score`` route yet; removed
when ``padapi`` is merged.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Response, get

_SHELL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scorer's pad · matchlog</title>
<link rel="stylesheet" href="/static/pad.css"></head>
<body><main id="app" aria-live="polite"><p class="loading">Loading…</p></main>
<script src="/static/table.js"></script><script src="/static/pad.js"></script></body></html>
"""


@get("/score", include_in_schema=False, media_type="text/html")
async def score_home() -> Response[str]:
    return Response(_SHELL, media_type="text/html; charset=utf-8")


@get("/matches/{match_id:uuid}/score", include_in_schema=False, media_type="text/html")
async def score_pad(match_id: Any) -> Response[str]:
    return Response(_SHELL, media_type="text/html; charset=utf-8")


def with_shells(app: Litestar) -> Litestar:
    """Add the shells unless the app serves ``/score`` already."""
    if "/score" not in {route.path for route in app.routes}:
        app.register(score_home)
        app.register(score_pad)
    return app
