"""What counting a request costs: CPU per request of a Litestar app with and without metrics.

    python bench/request_metrics.py --requests 20000 --rounds 5

Three apps of one trivial ``POST /matches/{match_id}/moves`` route (no database: what
differs is only the middleware) are called in-process through ASGI, round after round
in turn: ``none`` without middleware (as ``MATCHLOG_METRICS=false`` serves),
``ours`` with ``api.metrics.RequestMetrics``, and the anchor ``litestar`` with
Litestar's Prometheus middleware as matchlog used it before (route templates,
``group_path=True``). Any middleware also makes Litestar wrap each route in an
exception handler of its own: that is counted too. Printed: each round's CPU µs per
request, then per app the median and its cost over ``none``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from litestar import Litestar, post
from litestar.plugins.prometheus import PrometheusConfig

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.metrics import RequestMetrics


@post("/matches/{match_id:str}/moves", status_code=200)
async def move(match_id: str) -> dict[str, str]:
    """Answer at once: the bench times what surrounds a handler."""
    return {"id": match_id}


def apps() -> dict[str, Litestar]:
    """The three apps, by name; the anchor's metrics are named apart from ours."""
    anchor = PrometheusConfig(app_name="anchor", prefix="anchor", group_path=True)
    return {
        "none": Litestar([move]),
        "ours": Litestar([move], middleware=[RequestMetrics]),
        "litestar": Litestar([move], middleware=[anchor.middleware]),
    }


async def per_request_us(app: Litestar, requests: int) -> float:
    """CPU µs per request of ``requests`` requests to ``app``, one after another."""
    body = {"type": "http.request", "body": b"", "more_body": False}
    statuses: set[int] = set()

    async def receive() -> Any:
        return body

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.add(message["status"])

    started = time.process_time()
    for number in range(requests):
        scope: Any = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/matches/m{number % 32}/moves",
            "raw_path": b"",
            "root_path": "",
            "query_string": b"",
            "headers": [(b"host", b"bench")],
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
        }
        await app(scope, receive, send)
    spent = time.process_time() - started
    if statuses != {200}:
        raise SystemExit(f"the route answered {sorted(statuses)}, not only 200")
    return spent / requests * 1e6


async def measure(requests: int, rounds: int) -> None:
    """Run the rounds and print the figures."""
    figures: dict[str, list[float]] = {name: [] for name in apps()}
    built = apps()
    for app in built.values():
        await per_request_us(app, 500)  # untimed: first calls fill caches
    for number in range(rounds):
        names = list(built) if number % 2 == 0 else list(built)[::-1]
        for name in names:
            figures[name].append(await per_request_us(built[name], requests))
        print(
            f"round {number + 1}: "
            + "  ".join(f"{name} {figures[name][-1]:6.1f} µs" for name in built),
            flush=True,
        )
    bare = statistics.median(figures["none"])
    for name, values in figures.items():
        median = statistics.median(values)
        print(f"{name:9s} median {median:6.1f} µs a request, +{median - bare:5.1f} µs over none")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000, help="requests a round and app")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, the apps in turn")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.requests, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
