"""What a hot standby costs the recording path, how far it trails, and how long a failover takes.

    python bench/replication.py                                  # 3 rounds of 10 s, 3 failovers
    python bench/replication.py --seconds 4 --rounds 1 --failovers 1   # quick look

It builds a PostgreSQL primary and one hot standby on loopback with the bundled
binaries (tests/replication/cluster.py: initdb, pg_basebackup -R, fsync on), migrates
matchlog's database on it and serves it with ``matchlog serve --workers N`` (group
commit on, as by default) through the multi-host URL
``postgresql://127.0.0.1:P1,127.0.0.1:P2/matchlog?target_session_attrs=read-write``.

Recording: wrk (its own process, bench/wrk_moves.lua, the planned legal moves of
bench/api_load.py) loads the same server under three setups, in every round, their
order rotating from round to round: ``none`` (the standby stopped, nothing streamed),
``async`` (streaming, ``synchronous_standby_names`` empty) and ``sync``
(``FIRST 1 (standby1)``: each commit waits for the standby's flush; the default
``synchronous_commit = on``). Printed per run as bench/api_load.py prints it (moves/s,
p50, p99, CPU a move of the server, the primary and wrk, wrk's share of a core), and
the standby's CPU a move; then the medians per setup, their ratios to ``none`` and the
ratios paired round by round.

Replay lag: while ``async`` and ``sync`` run, a thread reads the primary's
``pg_stat_replication`` every 50 ms: ``replay_lag`` (the time between the primary
flushing WAL and hearing that the standby has replayed it, as PostgreSQL measures it
from the standby's feedback) and the WAL bytes written but not yet replayed
(``pg_current_wal_lsn() - replay_lsn``). Printed: p50 and p99 of each.

Failover (``--failovers`` times, with the synchronous standby): one client records
moves one at a time through the server; the primary's postmaster gets ``kill -9`` and
the standby is promoted at once (``pg_ctl promote``; an operator or a tool would take
longer to decide); the failover time is from the kill to the first move accepted (200)
through the multi-host URL, i.e. promotion plus the server noticing the loss and its
pool finding the promoted server. Acknowledged moves missing on the promoted server
are counted (must be 0). The old primary is then rewound (``pg_rewind``) and rejoins as
the standby, for the next repetition. Printed: each time, the median, and the
promotion's own share.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import Run, Server, make_plans, print_run, run_wrk  # noqa: E402
from bench.load_plan import MatchScript, plan_scripts  # noqa: E402
from bench.proc_stats import cpu_seconds  # noqa: E402
from bench.servers import free_port, seed_scorer, start_server, stop_server  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from tests.replication.cluster import (  # noqa: E402
    Cluster,
    MatchlogDatabase,
    Node,
    matchlog_database,
    replica_cluster,
)

SETUPS = ("none", "async", "sync")
TARGET_SYNC_RATIO, TARGET_FAILOVER_S = 0.7, 5.0


@dataclass
class LagSampler:
    """Samples the primary's ``pg_stat_replication`` in a thread while a run goes."""

    url: str
    seconds: list[float] = field(default_factory=list)
    bytes: list[int] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> LagSampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self._stop.wait(0.05):
                row = conn.execute(
                    "SELECT extract(epoch FROM replay_lag)::float8,"
                    " pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint"
                    " FROM pg_stat_replication"
                ).fetchone()
                if row is None:
                    continue
                if row[0] is not None:
                    self.seconds.append(row[0])
                if row[1] is not None:
                    self.bytes.append(row[1])


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def set_up(cluster: Cluster, standby: Node, setup: str) -> None:
    """Put the cluster in ``setup``: standby stopped, streaming asynchronously, or synchronously."""
    running = standby.postmaster_pid() is not None
    if setup == "none":
        if running:
            cluster.set_synchronous(False)  # first: a commit must not wait for a stopped standby
            standby.stop()
        return
    if not running:
        standby.start()
        cluster.wait_streaming(standby)
    cluster.wait_replayed(standby, timeout=120)
    cluster.set_synchronous(setup == "sync")


@dataclass(frozen=True)
class Measured:
    """One recording run under one setup, with the standby's CPU and the lag samples."""

    setup: str
    run: Run
    standby_cpu: float
    lag_s: list[float]
    lag_bytes: list[int]


def record_rounds(
    cluster: Cluster,
    server: Server,
    scripts: list[MatchScript],
    token: str,
    args: argparse.Namespace,
    work: Path,
) -> list[Measured]:
    """Run the recording load under every setup, ``--rounds`` times, the order rotating."""
    standby = cluster.standbys[0]
    measured: list[Measured] = []
    moves_each = int(args.plan_rate * args.seconds / args.connections) + 1
    with httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60
    ) as client:
        warm = make_plans(server, work / "warmup", scripts, client, args.connections, 300)
        postmaster = cluster.primary.postmaster_pid()
        assert postmaster is not None
        run_wrk(server, warm, token, args.connections, args.warmup, postmaster)
        for number in range(args.rounds):
            print(f"round {number + 1} of {args.rounds}", flush=True)
            order = SETUPS[number % 3 :] + SETUPS[: number % 3]
            for setup in order:
                set_up(cluster, standby, setup)
                plans = make_plans(
                    server,
                    work / f"{setup}-{number}",
                    scripts,
                    client,
                    args.connections,
                    moves_each,
                )
                standby_pid = standby.postmaster_pid()
                standby_before = cpu_seconds(standby_pid) if standby_pid else 0.0
                sampler = LagSampler(cluster.primary.url())
                with sampler if setup != "none" else contextlib.nullcontext(sampler):
                    run = run_wrk(server, plans, token, args.connections, args.seconds, postmaster)
                standby_cpu = cpu_seconds(standby_pid) - standby_before if standby_pid else 0.0
                run = dataclasses.replace(run, server=setup)
                print_run(run)
                if setup != "none":
                    print(
                        f"  {'':9s} standby CPU/move {run.per_move_ms(standby_cpu):5.2f} ms; "
                        f"replay lag p50 {1000 * percentile(sampler.seconds or [0], 0.5):.1f} ms "
                        f"p99 {1000 * percentile(sampler.seconds or [0], 0.99):.1f} ms "
                        f"({len(sampler.seconds)} samples)",
                        flush=True,
                    )
                measured.append(Measured(setup, run, standby_cpu, sampler.seconds, sampler.bytes))
    set_up(cluster, standby, "sync")
    return measured


def summarize(measured: list[Measured]) -> None:
    """Print the medians per setup, their ratios to ``none`` (also paired by round), the lag."""
    print("\nmedians over the rounds:")
    medians: dict[str, dict[str, float]] = {}
    for setup in SETUPS:
        mine = [m for m in measured if m.setup == setup]
        medians[setup] = {
            "rate": statistics.median(m.run.rate for m in mine),
            "p50": statistics.median(m.run.p50_ms for m in mine),
            "p99": statistics.median(m.run.p99_ms for m in mine),
            "server": statistics.median(m.run.per_move_ms(m.run.server_cpu) for m in mine),
            "pg": statistics.median(m.run.per_move_ms(m.run.pg_cpu) for m in mine),
            "standby": statistics.median(m.run.per_move_ms(m.standby_cpu) for m in mine),
            "wrk": statistics.median(m.run.wrk_cpu / m.run.seconds for m in mine),
        }
        m = medians[setup]
        print(
            f"  {setup:6s} {m['rate']:7.0f} moves/s  p50 {m['p50']:6.1f} ms  "
            f"p99 {m['p99']:6.1f} ms  CPU/move server {m['server']:.2f} ms, primary "
            f"{m['pg']:.2f} ms, standby {m['standby']:.2f} ms; wrk {m['wrk']:.0%} of a core"
        )
    base = medians["none"]
    for setup in ("async", "sync"):
        m = medians[setup]
        paired = [
            a.run.rate / b.run.rate
            for a, b in zip(
                [x for x in measured if x.setup == setup],
                [x for x in measured if x.setup == "none"],
                strict=True,
            )
        ]
        print(
            f"{setup}/none: {m['rate'] / base['rate']:.2f}x moves/s, p50 "
            f"{m['p50'] / base['p50']:.2f}x, p99 {m['p99'] / base['p99']:.2f}x; per round "
            + " ".join(f"{x:.2f}" for x in paired)
            + f" (median {statistics.median(paired):.2f}x)"
        )
    print("replay lag under that load (primary's pg_stat_replication, every 50 ms):")
    for setup in ("async", "sync"):
        lag = [x for m in measured if m.setup == setup for x in m.lag_s]
        lag_bytes = [float(x) for m in measured if m.setup == setup for x in m.lag_bytes]
        if not lag:
            print(f"  {setup:6s} no replay_lag samples")
            continue
        print(
            f"  {setup:6s} replay_lag p50 {1000 * percentile(lag, 0.5):.1f} ms, p99 "
            f"{1000 * percentile(lag, 0.99):.1f} ms, max {1000 * max(lag):.1f} ms "
            f"({len(lag)} samples); WAL not yet replayed p50 "
            f"{percentile(lag_bytes, 0.5) / 1024:.0f} KiB, p99 "
            f"{percentile(lag_bytes, 0.99) / 1024:.0f} KiB"
        )
    ratio = medians["sync"]["rate"] / base["rate"]
    verdict = "met" if ratio >= TARGET_SYNC_RATIO else "NOT met"
    print(f"target: sync >= {TARGET_SYNC_RATIO}x of none's moves/s: {verdict} ({ratio:.2f}x)")


@dataclass
class Writer:
    """One client recording moves one at a time; keeps each acknowledged version."""

    base: str
    headers: dict[str, str]
    matches: list[str]
    acked: dict[str, int] = field(default_factory=dict)
    accepted: list[float] = field(default_factory=list)
    """``time.monotonic()`` of each move answered 200."""
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with httpx.Client(base_url=self.base, headers=self.headers, timeout=10) as client:
            while not self.stop.is_set():
                for match in self.matches:
                    if self.stop.is_set():
                        return
                    try:
                        self._one(client, match)
                    except httpx.TransportError:
                        time.sleep(0.01)

    def _one(self, client: httpx.Client, match: str) -> None:
        legal = client.get(f"/matches/{match}/legal-moves")
        if legal.status_code != 200:
            time.sleep(0.01)
            return
        body = legal.json()
        moves = [m for m in body["moves"] if "resign" not in m and "draw" not in m]
        if not moves:
            return
        answer = client.post(
            f"/matches/{match}/moves",
            json={"moves": [moves[0]]},
            headers={"If-Match": f'"{body["version"]}"'},
        )
        if answer.status_code == 200:
            self.accepted.append(time.monotonic())
            self.acked[match] = answer.json()["version"]


def lost_acknowledged(url: str, acked: dict[str, int]) -> int:
    """Count the acknowledged moves missing on the server at ``url``."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT stream, max(version) FROM events GROUP BY stream").fetchall()
    there = {stream.partition("-")[2]: version for stream, version in rows}
    return sum(max(0, version - there.get(match, 0)) for match, version in acked.items())


def failovers(
    cluster: Cluster, database: MatchlogDatabase, base: str, token: str, players: list[str], n: int
) -> list[tuple[float, float]]:
    """Kill and promote ``n`` times under one writer; return (failover, promotion) seconds."""
    headers = {"Authorization": f"Bearer {token}"}
    times: list[tuple[float, float]] = []
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        matches = [
            client.post(
                "/matches",
                json={"game": "cuttle", "variant": "standard", "players": players[:2]},
            ).json()["id"]
            for _ in range(n * 2 + 2)
        ]
    for number in range(n):
        writer = Writer(base, headers, matches[number * 2 : number * 2 + 2])
        thread = threading.Thread(target=writer.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while len(writer.accepted) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        standby = cluster.standbys[0]
        killed = time.monotonic()
        cluster.kill_primary()
        cluster.promote(standby)
        promoted = time.monotonic()
        deadline = killed + 60
        while not any(t > killed for t in writer.accepted) and time.monotonic() < deadline:
            time.sleep(0.01)
        writer.stop.set()
        thread.join(timeout=30)
        first = next((t for t in writer.accepted if t > killed), None)
        if first is None:
            raise SystemExit("no write accepted within 60 s of the kill")
        lost = lost_acknowledged(cluster.primary.url(database.name), writer.acked)
        times.append((first - killed, promoted - killed))
        print(
            f"  failover {number + 1}: first write accepted {first - killed:.2f} s after the kill "
            f"(promotion {promoted - killed:.2f} s of it); acknowledged moves lost: {lost}",
            flush=True,
        )
        if lost:
            raise SystemExit("acknowledged moves were lost")
        started = time.monotonic()
        cluster.rejoin(cluster.retired[0])
        cluster.set_synchronous(True)
        print(f"  old primary rewound and rejoined in {time.monotonic() - started:.1f} s")
    return times


def main(argv: list[str] | None = None) -> int:
    """Build the cluster, serve matchlog on it, run the load and the failovers, print figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of each wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per setup, order rotating")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--workers", type=int, default=2, help="matchlog serve's processes")
    parser.add_argument("--plan-rate", type=float, default=1500.0, help="moves/s plans can feed")
    parser.add_argument("--scripts", type=int, default=32, help="distinct planned matches")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--warmup", type=float, default=2.0, help="untimed seconds of load")
    parser.add_argument("--failovers", type=int, default=3, help="kill-and-promote repetitions")
    args = parser.parse_args(argv)

    root = Path(tempfile.mkdtemp(prefix="matchlog-bench-cluster-"))
    work = scratch_dir()
    with replica_cluster(root) as cluster:
        database = matchlog_database(cluster)
        token, players = asyncio.run(seed_scorer(cluster.primary.url(database.name)))
        scripts = plan_scripts(args.scripts, players, args.seed)
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("MATCHLOG_")},
            "MATCHLOG_DATABASE_URL": database.app_url(cluster),
            "MATCHLOG_MIGRATION_DATABASE_URL": database.owner_url(cluster),
            "MATCHLOG_DATA_DIR": str(work),
        }
        port = free_port()
        proc = start_server(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port),
             "--workers", str(args.workers)],
            env,
            port,
        )  # fmt: skip
        try:
            server = Server("matchlog", f"http://127.0.0.1:{port}", proc.pid, checks=True)
            print(
                f"primary :{cluster.primary.port}, standby :{cluster.standbys[0].port}; "
                f"{args.connections} wrk connections, {args.workers} server processes, "
                f"{args.seconds:g} s runs",
                flush=True,
            )
            measured = record_rounds(cluster, server, scripts, token, args, work)
            summarize(measured)
            if args.failovers:
                print("\nfailover (synchronous standby, kill -9 of the primary's postmaster):")
                times = failovers(cluster, database, server.url, token, players, args.failovers)
                median = statistics.median(t for t, _ in times)
                print(
                    f"failover median {median:.2f} s (promotion "
                    f"{statistics.median(p for _, p in times):.2f} s) over {len(times)}; "
                    f"target <= {TARGET_FAILOVER_S:.0f} s: "
                    f"{'met' if median <= TARGET_FAILOVER_S else 'NOT met'}"
                )
        finally:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
