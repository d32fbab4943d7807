"""Servers the benches start as processes of their own, and a scorer to drive them."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """Return a TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RssMonitor:
    """Samples the summed RSS of a process tree (PostgreSQL excluded); keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssMonitor:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            try:
                for proc in [self.root, *self.root.children(recursive=True)]:
                    if "postgres" not in proc.name():
                        total += proc.memory_info().rss
            except psutil.Error:
                pass
            self.peak = max(self.peak, total)
            time.sleep(0.1)


def start_server(
    command: list[str], env: dict[str, str], port: int, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    """Start ``command`` from ``cwd`` (the project root) and wait until ``port`` accepts
    connections. ``python -m`` imports from ``cwd`` first: another tree serves its code."""
    proc = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server did not start: {' '.join(command)}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started by ``start_server``, killing it if it will not stop."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


@dataclass(frozen=True)
class PadServer:
    """``matchlog serve`` for the pad's benches: its process, port, a scorer's token and
    four players."""

    process: subprocess.Popen[bytes]
    port: int
    token: str
    players: list[str]


def serve_for_the_pad() -> PadServer:
    """Start ``matchlog serve`` as a process of its own on a scratch embedded PostgreSQL
    (or ``MATCHLOG_DATABASE_URL``), migrated, with a scorer and four players."""
    from bench.support import scratch_dir
    from store import migrate
    from store.database import resolve_database

    data_dir = scratch_dir()
    urls = resolve_database(
        os.environ.get("MATCHLOG_DATABASE_URL"),
        os.environ.get("MATCHLOG_MIGRATION_DATABASE_URL"),
        data_dir,
    )
    migrate.upgrade(urls.owner)
    token, players = asyncio.run(seed_scorer(urls.owner))
    env = {
        **os.environ,
        "MATCHLOG_DATABASE_URL": urls.app,
        "MATCHLOG_MIGRATION_DATABASE_URL": urls.owner,
        "MATCHLOG_DATA_DIR": str(data_dir),
    }
    port = free_port()
    command = [sys.executable, "-m", "cli.main", "serve", "--port", str(port)]
    return PadServer(start_server(command, env, port), port, token, players)


async def seed_scorer(url: str) -> tuple[str, list[str]]:
    """Create a scorer token and four players; return the token and the players' ids."""
    from store import accounts
    from store.accounts import Role

    async with await psycopg.AsyncConnection.connect(url) as conn:
        _, token = await accounts.create_token(conn, role=Role.SCORER, name="bench")
        players = []
        for i in range(4):
            player, _ = await accounts.create_player(conn, f"Bench {i}", player_id=uuid.uuid4())
            players.append(str(player.id))
        await conn.commit()
    return token, players
