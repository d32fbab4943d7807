"""Latency of single moves under light load, for bench/api_load.py's --length and --dbsize.

One keep-alive connection (TCP_NODELAY), one request at a time, so the server is never
saturated and the figures are a move's own cost: against its place in a long match
(``length_case``), and against the size of the event table (``size_case``, which
bulk-loads copies of the recorded events under new streams).
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
from urllib.parse import urlsplit

import psycopg

from bench.load_plan import MatchScript, create_match, plan_match

EARLY = range(5, 25)
"""Move numbers (1-based) of a match taken as early."""
LATE_SPAN = 20
"""How many moves from --late on are taken as late."""
TX_ROWS = 65_000
"""Rows per bulk-load transaction: a transaction's positions hold 65,536 events."""


class Connection:
    """One keep-alive HTTP connection with TCP_NODELAY, sending the scorer's requests."""

    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port)
        self.conn.connect()
        assert self.conn.sock is not None
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.auth = f"Bearer {token}"

    def post(self, path: str, body: object, version: int) -> tuple[int, float]:
        """Post ``body`` with ``If-Match``; return the new version and the seconds taken."""
        headers = {
            "Authorization": self.auth,
            "Content-Type": "application/json",
            "If-Match": f'"{version}"',
        }
        start = time.perf_counter()
        self.conn.request("POST", path, json.dumps(body), headers)
        answer = self.conn.getresponse()
        text = answer.read()
        took = time.perf_counter() - start
        if answer.status not in (200, 201):
            raise SystemExit(f"{path} refused: {answer.status} {text[:300]!r}")
        return int(json.loads(text)["version"]), took

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def play(conn: Connection, path: str, version: int, script: MatchScript, upto: int) -> list[float]:
    """Record ``script``'s first ``upto`` moves; return each move's latency in seconds."""
    latencies: list[float] = []
    for deal, moves in script.rounds:
        version, _ = conn.post(f"{path}/rounds", deal, version)
        for move in moves:
            if len(latencies) == upto:
                return latencies
            version, took = conn.post(f"{path}/moves", {"moves": [move]}, version)
            latencies.append(took)
    return latencies


def long_scripts(players: list[str], moves: int, count: int, seed: int) -> list[MatchScript]:
    """Return ``count`` Kozel scripts of at least ``moves`` moves (raising the loss limit)."""
    rng = random.Random(seed)
    found: list[MatchScript] = []
    limit = 12
    while len(found) < count:
        script = plan_match("kozel", players, rng, loss_limit=limit)
        if script.moves >= moves:
            found.append(script)
        else:
            limit += 4
    return found


def ms(values: list[float], share: float = 0.5) -> float:
    """Return the ``share`` quantile of ``values`` (seconds) in ms."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def length_case(
    base: str, token: str, players: list[str], late: int, seed: int, matches: int = 3
) -> None:
    """Print the p50 of early moves against moves from ``late`` on, in long matches."""
    import httpx

    scripts = long_scripts(players, late + LATE_SPAN, matches, seed)
    early: list[float] = []
    later: list[float] = []
    conn = Connection(base, token)
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as client:
        for script in scripts:
            path, version = create_match(client, script)
            times = play(conn, path, version, script, late + LATE_SPAN)
            early += [times[n - 1] for n in EARLY]
            later += times[late - 1 : late - 1 + LATE_SPAN]
    conn.close()
    print(
        f"\nlatency against match length ({matches} Kozel matches, one request at a time): "
        f"moves {EARLY.start}-{EARLY.stop - 1} p50 {ms(early):.2f} ms, moves "
        f"{late}-{late + LATE_SPAN - 1} p50 {ms(later):.2f} ms: {ms(later) / ms(early):.2f}x"
    )


def event_count(owner_url: str) -> int:
    """Return how many events the table holds."""
    with psycopg.connect(owner_url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    return int(row[0]) if row else 0


def bulk_load(owner_url: str, events: int) -> float:
    """Add ``events`` copies of recorded events under new streams; return the seconds taken.

    Copies keep their hashes (the chains of the copies do not verify: nothing here
    reads them), and take positions of their own transactions, 65,000 a transaction.
    """
    started = time.perf_counter()
    added = 0
    batch = 0
    with psycopg.connect(owner_url) as conn:
        while added < events:
            rows = min(TX_ROWS, events - added)
            conn.execute(
                """
                INSERT INTO events (global_position, stream, version, event_id, type, data,
                                    metadata, recorded_at, tx_id, prev_hash, hash,
                                    chain_version)
                SELECT (pg_current_xact_id()::text::bigint << 16) + n - 1,
                       stream || '-bulk' || %(batch)s || '-' || copy, version,
                       gen_random_uuid(), type, data, metadata, recorded_at,
                       pg_current_xact_id(), prev_hash, hash, chain_version
                  FROM (SELECT e.*, c AS copy, row_number() OVER () AS n
                          FROM generate_series(1, 1000) c
                          CROSS JOIN (SELECT * FROM events
                                       WHERE stream NOT LIKE '%%-bulk%%' LIMIT 65000) e
                         LIMIT %(rows)s) s
                """,
                {"batch": batch, "rows": rows},
            )
            conn.commit()
            added += rows
            batch += 1
        conn.execute("ANALYZE events")
        conn.commit()
    return time.perf_counter() - started


def size_case(
    base: str,
    token: str,
    players: list[str],
    owner_url: str,
    events: int,
    seed: int,
    matches: int = 4,
    moves: int = 60,
) -> None:
    """Print the p50 and p99 of moves on the current event table, then on a bigger one."""
    import httpx

    rng = random.Random(seed + 1)
    figures = []
    for phase in ("before", "after"):
        if phase == "after":
            took = bulk_load(owner_url, events)
            print(f"\nbulk-loaded {events} events in {took:.0f} s", flush=True)
        size = event_count(owner_url)
        scripts = [plan_match("kozel", players, rng) for _ in range(matches)]
        conn = Connection(base, token)
        times: list[float] = []
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as client:
            for script in scripts:
                path, version = create_match(client, script)
                times += play(conn, path, version, script, moves)
        conn.close()
        figures.append((size, ms(times), ms(times, 0.99)))
    (small, p50a, p99a), (big, p50b, p99b) = figures
    print(
        f"latency against database size ({matches} Kozel matches, first {moves} moves, one "
        f"request at a time): {small} events p50 {p50a:.2f} ms p99 {p99a:.2f} ms; "
        f"{big} events p50 {p50b:.2f} ms p99 {p99b:.2f} ms: p50 "
        f"{p50b / p50a:.2f}x, p99 {p99b / p99a:.2f}x"
    )
