"""Litestar's cost of a handler's dependencies: three independent ones against one.

    python bench/dependency_batches.py [--requests 3000] [--rounds 5]

Litestar resolves the independent dependencies of a handler in an anyio task group
(a task each) and a lone one with a plain await; api/matches.py's writes take one
``writer`` dependency instead of ``principal``, ``pool`` and ``recorder`` for that
reason. Both apps here answer a POST through the same guard-less handler shape;
the runs alternate, and the figure is process CPU time per request, with the
median of each and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any, NamedTuple

from litestar import Litestar, Request, post
from litestar.di import NamedDependency, Provide


class Three(NamedTuple):
    a: int
    b: str
    c: float


async def provide_a(request: Request[Any, Any, Any]) -> int:
    return len(request.url.path)


def provide_b() -> str:
    return "b"


def provide_c() -> float:
    return 1.0


async def provide_three(request: Request[Any, Any, Any]) -> Three:
    return Three(await provide_a(request), provide_b(), provide_c())


@post("/three", status_code=200)
async def three(
    a: NamedDependency[int], b: NamedDependency[str], c: NamedDependency[float]
) -> dict[str, Any]:
    return {"a": a, "b": b, "c": c}


@post("/one", status_code=200)
async def one(abc: NamedDependency[Three]) -> dict[str, Any]:
    a, b, c = abc
    return {"a": a, "b": b, "c": c}


APP = Litestar(
    [three, one],
    dependencies={
        "a": Provide(provide_a),
        "b": Provide(provide_b, sync_to_thread=False),
        "c": Provide(provide_c, sync_to_thread=False),
        "abc": Provide(provide_three),
    },
)


async def _call(path: str) -> None:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"bench"), (b"content-length", b"0")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200, message

    await APP(scope, receive, send)  # type: ignore[arg-type]


async def _cpu_per_request(path: str, requests: int) -> float:
    start = time.process_time()
    for _ in range(requests):
        await _call(path)
    return (time.process_time() - start) / requests


async def _main(requests: int, rounds: int) -> None:
    await _cpu_per_request("/one", 200)  # warm-up: routes, signature models
    await _cpu_per_request("/three", 200)
    figures: dict[str, list[float]] = {"/three": [], "/one": []}
    for _ in range(rounds):
        for path in figures:
            figures[path].append(await _cpu_per_request(path, requests))
    for path, runs in figures.items():
        shown = " ".join(f"{1e6 * r:.1f}" for r in runs)
        print(f"{path:7} CPU per request: median {1e6 * statistics.median(runs):.1f} us ({shown})")
    ratio = statistics.median(figures["/three"]) / statistics.median(figures["/one"])
    print(f"three dependencies / one: {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(_main(args.requests, args.rounds))


if __name__ == "__main__":
    main()
