"""A sweep of bad inputs against a served app: none may answer 5xx.

    python bench/bad_inputs.py            # embedded PostgreSQL, or MATCHLOG_DATABASE_URL

It serves the app with uvicorn on a free port (over a real socket, as ``matchlog
serve`` does), seeds a competition with private reads, players, a live and a
finished match, then sends every operation of the app's OpenAPI document the inputs
an attacker or a clumsy client would: control characters and odd text in every
query parameter and body text field, wrong types and huge numbers in every body
field, deep nesting, bodies that are not UTF-8 or not JSON, bad ``If-Match``,
``Idempotency-Key``, ``Last-Event-ID`` and ``Authorization`` headers, each
anonymously, as a scorer and as an admin, on real and unknown ids. It prints the
answers by status and every 5xx with its request; it exits 1 if any answer was 5xx.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import psycopg
import uvicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.app import create_app  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from service.settings import Settings  # noqa: E402
from store import accounts, migrate  # noqa: E402
from store.accounts import Role  # noqa: E402
from store.database import resolve_database_url  # noqa: E402

BAD_TEXT = [
    "\x00",
    "a\x00b",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\r\n",
    "",
    " ",
    "x" * 5000,
    "²",
    "\u202e",
    "null",
    "'; DROP TABLE events; --",
]
BAD_QUERY = [
    "%00",
    "a%00b",
    "%07",
    "%ED%A0%80",
    "%FF%FE",
    "",
    "-1",
    "0",
    "1e400",
    "99999999999999999999999",
    "%C2%B2",
    "x" * 3000,
    "true",
]
BAD_VALUES: list[Any] = [
    None,
    -1,
    2**70,
    -(2**70),
    1.5,
    1e308,
    True,
    [],
    {},
    "\x00",
    [None],
    {"\x00": 1},
    {"loss_limit": 2**70},
    [2**70],
    {"x": {"y": ["\x00"]}},
    "x" * 5000,
]
BAD_BODIES: list[bytes] = [
    b"",
    b"null",
    b"[]",
    b'"text"',
    b"{",
    b'{"a": 1, "a": 2}',
    b"\xff\xfe{}",
    b'{"x": "\xc3\x28"}',
    b'{"x": "\\ud800"}',
    b'{"x": "\\u0000"}',
    b"[" * 1000 + b"]" * 1000,
    b'{"a": ' + b"{" * 1000 + b"}" * 1000 + b"}",
    b'{"moves": [' + b"[" * 200 + b"]" * 200 + b"]}",
    b"1" * 5000,
]
BAD_HEADERS: dict[str, list[bytes]] = {
    "If-Match": [b'"\xb2"', b"12abc", b"", b'W/"-1"', b'"99999999999999999999999"', b"*"],
    "Idempotency-Key": [b"", b" ", b"k" * 300, b"\xff\xfe", b"key\x07"],
    "Last-Event-ID": [b"\xb2", b"-1", b"abc", b"99999999999999999999999"],
    "Authorization": [b"Bearer", b"Bearer \xff", b"Basic abc", b"Bearer " + b"x" * 5000],
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(url: str) -> tuple[str, uvicorn.Server, threading.Thread]:
    """Serve the app on ``url``'s database in a thread; return its base URL."""
    port = _free_port()
    config = uvicorn.Config(
        create_app(Settings(database_url=url)), host="127.0.0.1", port=port, log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def _secret(url: str, role: Role) -> str:
    async def create() -> str:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            _, secret = await accounts.create_token(conn, role=role)
        return secret

    return asyncio.run(create())


def seed(http: httpx.Client, admin: dict[str, str]) -> dict[str, list[str]]:
    """Create what real ids name: a private competition, players, a live and a done match."""
    competition = http.post(
        "/competitions",
        json={"name": "Sweep", "game": "cuttle", "variant": "standard", "public_reads": False},
        headers=admin,
    ).json()["id"]
    players = [
        http.post("/players", json={"display_name": f"P{i}"}, headers=admin).json()["id"]
        for i in range(2)
    ]
    body = {"game": "cuttle", "players": players, "competition_id": competition}
    live = http.post("/matches", json=body, headers=admin).json()
    done = http.post(
        "/matches", json={**body, "competition_id": None, "variant": "standard"}, headers=admin
    ).json()
    http.post(
        f"/matches/{done['id']}/resign",
        json={"seat": 0, "expected_version": done["version"]},
        headers=admin,
    )
    token = http.get("/tokens", headers=admin).json()[0]["id"]
    return {
        "match_id": [live["id"], done["id"], str(uuid4())],
        "competition_id": [competition, str(uuid4())],
        "player_id": [players[0], str(uuid4())],
        "token_id": [token, str(uuid4())],
    }


def _paths(path: str, ids: dict[str, list[str]]) -> list[str]:
    paths = [path]
    for name, values in ids.items():
        marker = "{" + name + "}"
        paths = [p.replace(marker, v) for p in paths for v in values] if marker in path else paths
    return paths


def _text_fields(
    document: dict[str, Any], operation: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    content = operation["requestBody"]["content"]["application/json"]
    example: dict[str, Any] = content.get("examples", {}).get("example", {}).get("value", {})
    ref = content["schema"].get("$ref", "")
    schema = document["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
    return example, list(schema.get("properties", {}))


def requests_for(
    document: dict[str, Any], ids: dict[str, list[str]]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Yield (method, url, httpx request options) for every bad input of every operation."""
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            verb = method.upper()
            for url in _paths(path, ids):
                for parameter in operation.get("parameters", []):
                    if parameter["in"] == "query":
                        for value in BAD_QUERY:
                            yield verb, f"{url}?{parameter['name']}={value}", {}
                yield verb, f"{url}?%00=1", {}
                for name, values in BAD_HEADERS.items():
                    for value in values:
                        yield verb, url, {"headers": {name: value}}
                if "requestBody" not in operation:
                    continue
                example, fields = _text_fields(document, operation)
                for body in BAD_BODIES:
                    yield (
                        verb,
                        url,
                        {"content": body, "headers": {"Content-Type": "application/json"}},
                    )
                for field in fields:
                    for text in BAD_TEXT:
                        yield verb, url, {"json": {**example, field: text}}
                        yield verb, url, {"json": {**example, field: [text]}}
                    for value in BAD_VALUES:
                        yield verb, url, {"json": {**example, field: value}}


def sweep(base: str, callers: dict[str, dict[str, str]], ids: dict[str, list[str]]) -> Counter[str]:
    """Send every bad input as every caller; return the answers' counts by status."""
    with httpx.Client(base_url=base, timeout=10) as http:
        document = http.get("/schema/openapi.json").json()
        counts: Counter[str] = Counter()
        for verb, url, options in requests_for(document, ids):
            for caller, auth in callers.items():
                headers = {**auth, **options.get("headers", {})}
                try:
                    with http.stream(verb, url, **{**options, "headers": headers}) as response:
                        status = response.status_code
                except httpx.HTTPError as e:
                    counts[f"client refused to send ({type(e).__name__})"] += 1
                    continue
                counts[f"{status // 100}xx"] += 1
                counts[str(status)] += 1
                if status >= 500:
                    shown = {k: (repr(v)[:80]) for k, v in options.items()}
                    print(f"{status} {caller} {verb} {url[:120]} {shown}", flush=True)
        return counts


def main() -> int:
    data_dir = scratch_dir()
    url = resolve_database_url(os.environ.get("MATCHLOG_DATABASE_URL"), data_dir)
    migrate.upgrade(url)
    base, server, thread = serve(url)
    try:
        admin = {"Authorization": f"Bearer {_secret(url, Role.ADMIN)}"}
        scorer = {"Authorization": f"Bearer {_secret(url, Role.SCORER)}"}
        with httpx.Client(base_url=base, timeout=10) as http:
            ids = seed(http, admin)
        counts = sweep(base, {"anonymous": {}, "scorer": scorer, "admin": admin}, ids)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    total = sum(v for k, v in counts.items() if k.endswith("xx"))
    print(json.dumps({"requests": total, **dict(sorted(counts.items()))}, indent=1))
    return 1 if counts["5xx"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
