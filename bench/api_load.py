"""Load on the recording API: wrk replaying planned legal moves against matchlog and a baseline.

    python bench/api_load.py                          # 32 matches, 20 s, 3 rounds
    python bench/api_load.py --seconds 5 --rounds 1   # quick look, under a minute
    python bench/api_load.py --length                 # also latency against match length
    python bench/api_load.py --dbsize 1000000         # also against a 1M-event table

It starts the embedded PostgreSQL (or uses MATCHLOG_DATABASE_URL, with
MATCHLOG_MIGRATION_DATABASE_URL as its owner), then two servers side by side, both
with ``--workers`` processes: ``matchlog serve`` and ``bench/baseline_app.py`` (a
bare Litestar endpoint doing only a move's SQL: INSERT, NOTIFY, COMMIT) under
uvicorn. wrk sets TCP_NODELAY on its side. asyncio sets it on the server's side
only for sockets whose protocol number is TCP, which uvicorn's ``--workers`` socket
lacks: the baseline therefore runs under bench/nodelay_uvicorn.py, which binds a TCP
socket itself (``--baseline plain`` for uvicorn's own; ``--matchlog nodelay`` serves
matchlog's app that way too, until ``matchlog serve`` sets TCP_NODELAY itself).

The load is wrk (C, its own process; `apt-get install wrk`) with bench/wrk_moves.lua:
``--connections`` threads of one keep-alive connection each, each owning its live
matches and replaying their planned requests one after another (round starts, then
one move per ``POST /matches/{id}/moves`` with ``If-Match`` and the scorer's token),
advancing only on the expected answer; a refused request is counted and printed,
and the rest of its match skipped. The moves were chosen beforehand with the rules
engine (seeded random playouts of Cuttle standard and Kozel to 12), so the load
spends no CPU on rules. The baseline gets the same requests. Runs alternate between
the two servers, ``--rounds`` times each, after an untimed ``--warmup`` run on each.

Printed per run: moves/s (moves answered 200 over wrk's duration), p50 and p99 of
every request (round starts are about 3% of them), refused requests, and CPU per
move (ms of CPU time per move) of the server's processes, of PostgreSQL's processes
and of wrk itself (with wrk's share of a core, and a warning above 70%: then the
driver, not the server, may be the limit). Then per server the medians, the peak
RSS of its processes (sum of VmHWM over master and workers, PostgreSQL not counted),
statements and transactions per request from a short window with PostgreSQL's
``log_statement = 'all'`` (the embedded server has no pg_stat_statements; logging is
off for the timed runs) with the sizes of matchlog's group-commit batches in that
window (the streams of each ``events_append_batch`` call), the ratios of the
medians matchlog/baseline, the ratios paired round by round with their median, and
the targets, judged on the ratio of the medians, met or not.

``--compare DIR`` serves matchlog a second time from another tree (a ``git worktree``
or ``git archive`` of the code before a change, run with this tree's venv), as
``compare``, next to ``matchlog`` in every round, and prints the paired ratios
matchlog/compare per round (moves/s, CPU a move), with their median: the measure
of one change, side by side, on a machine whose load swings the raw rates.

``--idempotency-keys`` sends every write an ``Idempotency-Key`` of its own, as the
scorer's pad does (the baseline gets the header too, and ignores it).

``--reads-routed`` serves matchlog (not ``compare``) with
``MATCHLOG_READ_DATABASE_URL`` set to its own database: reads get a pool of their own
and every write's answer reads the primary's WAL position for ``Matchlog-Position``
(docs/api.md); what read routing adds to a write, without replication's own cost.

``--length`` plays a few long Kozel matches, one request at a time from one
connection (light load), and compares the p50 of early moves with that of moves
near ``--late``. ``--dbsize N`` bulk-loads N events into the event table (copies
of recorded matches' events under new stream ids; then VACUUM ANALYZE, a checkpoint,
and a wait until the server is idle, its live-feed listeners having read the new
events) and runs that light load again on the big table, against the same load
before the loading.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.baseline_app import SCHEMA  # noqa: E402
from bench.load_plan import MatchScript, plan_scripts, write_plans  # noqa: E402
from bench.proc_stats import cpu_seconds, peak_rss  # noqa: E402
from bench.servers import free_port, seed_scorer, start_server, stop_server  # noqa: E402
from bench.statement_log import (  # noqa: E402
    batch_line,
    count_statements,
    log_file,
    statement_log,
)
from bench.support import scratch_dir  # noqa: E402
from store import migrate  # noqa: E402
from store.database import resolve_database  # noqa: E402
from store.embedded import pgdata_path  # noqa: E402

LUA = Path(__file__).with_name("wrk_moves.lua")
WRK_CPU_WARNING = 0.7
"""wrk's share of one core above which it may be what limits the rate."""
TARGET_RATIO, TARGET_P99_MS, TARGET_RSS_MB, TARGET_BEYOND = 0.7, 100.0, 300.0, 1.0


@dataclass(frozen=True)
class Server:
    """A server under load: its name, base URL and root process."""

    name: str
    url: str
    pid: int
    checks: bool
    """Whether it checks moves (matchlog); the baseline replays any plan."""


@dataclass(frozen=True)
class Run:
    """One wrk run against one server, with the CPU the processes spent meanwhile."""

    server: str
    moves: int
    requests: int
    refused: int
    idle: int
    seconds: float
    p50_ms: float
    p99_ms: float
    server_cpu: float
    pg_cpu: float
    wrk_cpu: float
    errors: str
    refusals: list[str]

    @property
    def rate(self) -> float:
        """Moves answered 200 per second."""
        return self.moves / self.seconds

    def per_move_ms(self, cpu: float) -> float:
        """Return ``cpu`` seconds as ms per move."""
        return cpu / max(self.moves, 1) * 1000


def run_wrk(
    server: Server,
    plan_dir: Path,
    token: str,
    connections: int,
    seconds: float,
    postmaster: int,
    keys: str = "",
) -> Run:
    """Run wrk for ``seconds`` against ``server`` with the plans in ``plan_dir``.

    ``keys``, when not empty, prefixes an ``Idempotency-Key`` sent with every write.
    """
    command = [
        "wrk",
        f"-t{connections}",
        f"-c{connections}",
        f"-d{seconds:g}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        server.url,
        "--",
        str(plan_dir),
        token,
        "0" if server.checks else "1",
        keys,
    ]
    with tempfile.TemporaryFile() as out:
        server_before, pg_before = cpu_seconds(server.pid), cpu_seconds(postmaster)
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        # wait4 rather than wait: it hands back wrk's own rusage, its CPU time.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        server_cpu = cpu_seconds(server.pid) - server_before
        pg_cpu = cpu_seconds(postmaster) - pg_before
        out.seek(0)
        text = out.read().decode(errors="replace")
    found = re.search(r"^RESULT (.*)$", text, re.MULTILINE)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"wrk failed ({proc.returncode}):\n{text}")
    fields = {k: int(v) for k, v in (pair.split("=") for pair in found.group(1).split())}
    errors = " ".join(
        f"{k.removeprefix('errors_')} {v}"
        for k, v in fields.items()
        if k.startswith("errors_") and v
    )
    return Run(
        server=server.name,
        moves=fields["moves"],
        requests=fields["moves"] + fields["rounds"],
        refused=fields["refused"],
        idle=fields["idle"],
        seconds=fields["duration_us"] / 1e6,
        p50_ms=fields["p50_us"] / 1000,
        p99_ms=fields["p99_us"] / 1000,
        server_cpu=server_cpu,
        pg_cpu=pg_cpu,
        wrk_cpu=usage.ru_utime + usage.ru_stime,
        errors=errors,
        refusals=re.findall(r"^REFUSED (.*)$", text, re.MULTILINE),
    )


def print_run(run: Run) -> None:
    """Print one run's line, with warnings for refusals, an exhausted plan or a busy wrk."""
    wrk_core = run.wrk_cpu / run.seconds
    print(
        f"  {run.server:9s} {run.rate:7.0f} moves/s  p50 {run.p50_ms:6.1f} ms  "
        f"p99 {run.p99_ms:6.1f} ms  refused {run.refused}  CPU/move: server "
        f"{run.per_move_ms(run.server_cpu):5.2f} ms, PostgreSQL "
        f"{run.per_move_ms(run.pg_cpu):5.2f} ms, wrk {run.per_move_ms(run.wrk_cpu):5.2f} ms "
        f"({wrk_core:.0%} of a core)",
        flush=True,
    )
    if wrk_core > WRK_CPU_WARNING:
        print(f"  WARNING: wrk used {wrk_core:.0%} of a core: it may be the bottleneck")
    if run.idle:
        print(f"  WARNING: plans ran out ({run.idle} idle requests): raise --plan-rate")
    if run.errors:
        print(f"  socket errors: {run.errors}")
    for line in run.refusals[:5]:
        print(f"  refused: {line}")


def make_plans(
    server: Server,
    directory: Path,
    scripts: list[MatchScript],
    client: httpx.Client,
    connections: int,
    moves_each: int,
) -> Path:
    """Write a fresh set of plan files for ``server`` (new matches for matchlog)."""
    write_plans(directory, scripts, connections, moves_each, client if server.checks else None)
    return directory


def statement_counts(
    servers: list[Server],
    scripts: list[MatchScript],
    client: httpx.Client,
    args: argparse.Namespace,
    token: str,
    owner_url: str,
    pgdata: Path | None,
    work: Path,
    postmaster: int,
) -> dict[str, str]:
    """Per server: statements and transactions per request from a logged window."""
    path = log_file(owner_url, pgdata)
    if path is None:
        return {s.name: "no log file reachable" for s in servers}
    counted: dict[str, str] = {}
    for server in servers:
        plans = make_plans(
            server, work / f"log-{server.name}", scripts, client, args.connections, 400
        )
        with statement_log(owner_url, path) as window:
            run = run_wrk(
                server,
                plans,
                token,
                args.connections,
                args.log_seconds,
                postmaster,
                keys_for(args, f"log-{server.name}"),
            )
        counts = count_statements(window.lines)
        per = max(run.requests, 1)
        counted[server.name] = (
            f"{counts.statements / per:.2f} statements, {counts.transactions / per:.2f} "
            f"transactions ({counts.explicit / per:.2f} BEGIN..COMMIT) per request, "
            f"over {run.requests} requests"
        )
        if counts.batch_sizes:
            counted[server.name] += f"\n{'':12s}{batch_line(counts.batch_sizes)}"
        if args.statements:
            counted[server.name] += "".join(
                f"\n{'':13s}{n / per:5.2f}  {kind}"
                for kind, n in counts.kinds.most_common(args.statements)
            )
    return counted


def postmaster_pid(url: str) -> int:
    """Return the pid of the PostgreSQL server behind ``url`` (it must run on this machine)."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        parent: int = psutil.Process(row[0]).ppid()
        return parent


def verdict(ok: bool) -> str:
    """Return how a target is printed."""
    return "met" if ok else "NOT met"


def summarize(
    runs: list[Run], servers: list[Server], counts: dict[str, str], rss: dict[str, int]
) -> None:
    """Print the medians per server, the ratios and the targets."""
    medians: dict[str, dict[str, float]] = {}
    print("\nmedians over the rounds:")
    for server in servers:
        mine = [r for r in runs if r.server == server.name]
        m = {
            "rate": statistics.median(r.rate for r in mine),
            "p50": statistics.median(r.p50_ms for r in mine),
            "p99": statistics.median(r.p99_ms for r in mine),
            "server": statistics.median(r.per_move_ms(r.server_cpu) for r in mine),
            "pg": statistics.median(r.per_move_ms(r.pg_cpu) for r in mine),
            "refused": sum(r.refused for r in mine),
        }
        medians[server.name] = m
        print(
            f"  {server.name:9s} {m['rate']:7.0f} moves/s  p50 {m['p50']:6.1f} ms  "
            f"p99 {m['p99']:6.1f} ms  peak RSS {rss[server.name] / 2**20:5.0f} MB  "
            f"CPU/move server {m['server']:.2f} ms + PostgreSQL {m['pg']:.2f} ms  "
            f"refused {m['refused']:.0f}"
        )
        print(f"  {'':9s} {counts[server.name]}")
    ours, base = medians["matchlog"], medians["baseline"]
    ratio = ours["rate"] / base["rate"]
    print(
        f"\nmatchlog/baseline: {ratio:.2f}x moves/s, p50 {ours['p50'] / base['p50']:.2f}x, "
        f"p99 {ours['p99'] / base['p99']:.2f}x, CPU/move server "
        f"{ours['server'] / base['server']:.2f}x, PostgreSQL {ours['pg'] / base['pg']:.2f}x"
    )
    # Paired per round as well: the two ran back to back under the same load of the
    # shared machine. The verdict below stays on the ratio of the medians.
    paired_rounds(runs, "baseline")
    if "compare" in medians:
        paired_rounds(runs, "compare")
    rss_mb = rss["matchlog"] / 2**20
    print(
        f"targets: >= {TARGET_RATIO}x moves/s: {verdict(ratio >= TARGET_RATIO)} ({ratio:.2f}x); "
        f"p99 <= {TARGET_P99_MS:.0f} ms: {verdict(ours['p99'] <= TARGET_P99_MS)} "
        f"({ours['p99']:.0f} ms); RSS <= {TARGET_RSS_MB:.0f} MB: "
        f"{verdict(rss_mb <= TARGET_RSS_MB)} ({rss_mb:.0f} MB); beyond it, >= "
        f"{TARGET_BEYOND}x: {verdict(ratio >= TARGET_BEYOND)}"
    )


def paired_rounds(runs: list[Run], other_name: str) -> None:
    """Print matchlog/``other_name`` per round (the two runs side by side) and the medians."""
    ours = [r for r in runs if r.server == "matchlog"]
    other = [r for r in runs if r.server == other_name]
    rates, cpus, pgs = [], [], []
    for a, b in zip(ours, other, strict=True):
        rates.append(a.rate / b.rate)
        cpus.append(a.per_move_ms(a.server_cpu) / b.per_move_ms(b.server_cpu))
        pgs.append(a.per_move_ms(a.pg_cpu) / b.per_move_ms(b.pg_cpu))
    print(
        f"matchlog/{other_name} per round: moves/s "
        + " ".join(f"{x:.2f}" for x in rates)
        + "; CPU/move server "
        + " ".join(f"{x:.2f}" for x in cpus)
        + "; PostgreSQL "
        + " ".join(f"{x:.2f}" for x in pgs)
    )
    print(
        f"matchlog/{other_name} medians of the rounds: {statistics.median(rates):.2f}x "
        f"moves/s, CPU/move server {statistics.median(cpus):.2f}x, PostgreSQL "
        f"{statistics.median(pgs):.2f}x"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the load (and the opt-in latency cases) and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per server, alternating")
    parser.add_argument(
        "--connections", type=int, default=32, help="live matches at once (wrk connections)"
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes per server")
    parser.add_argument(
        "--plan-rate",
        type=float,
        default=2500.0,
        help="moves/s the plans for matchlog can feed for --seconds "
        "(their matches are created beforehand, untimed)",
    )
    parser.add_argument(
        "--matchlog",
        choices=["serve", "nodelay", "plain"],
        default="serve",
        help="serve matchlog with `matchlog serve` (default), or its app under "
        "bench/nodelay_uvicorn.py with TCP_NODELAY (nodelay) or uvicorn.run (plain)",
    )
    parser.add_argument(
        "--baseline",
        choices=["nodelay", "plain"],
        default="nodelay",
        help="serve the baseline under bench/nodelay_uvicorn.py with TCP_NODELAY (default), "
        "or with uvicorn.run's --workers socket, which lacks it (plain)",
    )
    parser.add_argument("--scripts", type=int, default=48, help="distinct planned matches")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="untimed seconds of load on each server first"
    )
    parser.add_argument(
        "--log-seconds", type=float, default=2.0, help="seconds of the statement-log window"
    )
    parser.add_argument(
        "--statements",
        type=int,
        default=12,
        help="print the N commonest statements of the logged window, per request",
    )
    parser.add_argument(
        "--idempotency-keys",
        action="store_true",
        help="send every write an Idempotency-Key of its own, as the scorer's pad does",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="also serve matchlog from this tree (before a change), next to ours each round",
    )
    parser.add_argument(
        "--reads-routed",
        action="store_true",
        help="serve matchlog with MATCHLOG_READ_DATABASE_URL (its own database): the header's cost",
    )
    parser.add_argument("--length", action="store_true", help="latency against match length")
    parser.add_argument("--late", type=int, default=300, help="--length: the late move number")
    parser.add_argument(
        "--dbsize", type=int, default=0, help="latency on a table of this many more events"
    )
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    urls = resolve_database(
        os.environ.get("MATCHLOG_DATABASE_URL"),
        os.environ.get("MATCHLOG_MIGRATION_DATABASE_URL"),
        data_dir,
    )
    pgdata = None if os.environ.get("MATCHLOG_DATABASE_URL") else pgdata_path(data_dir)
    migrate.upgrade(urls.owner)
    prepare_baseline_table(urls.owner, urls.app)
    token, players = asyncio.run(seed_scorer(urls.owner))
    started = time.process_time()
    scripts = plan_scripts(args.scripts, players, args.seed)
    print(
        f"planned {len(scripts)} matches ({sum(s.moves for s in scripts)} moves) in "
        f"{time.process_time() - started:.1f} s CPU",
        flush=True,
    )
    env = {
        **os.environ,
        "MATCHLOG_DATABASE_URL": urls.app,
        "MATCHLOG_MIGRATION_DATABASE_URL": urls.owner,
        "MATCHLOG_DATA_DIR": str(data_dir),
    }
    postmaster = postmaster_pid(urls.owner)
    work = Path(tempfile.mkdtemp(prefix="api-load-", dir=data_dir))
    moves_each = int(args.plan_rate * args.seconds / args.connections) + 1
    ours_port, base_port = free_port(), free_port()
    routed = {"MATCHLOG_READ_DATABASE_URL": urls.app} if args.reads_routed else {}
    started = [start_server(matchlog_command(args, ours_port), {**env, **routed}, ours_port)]
    try:
        started.append(
            start_server(
                launcher(args.baseline, "bench.baseline_app:create_app", base_port, args.workers),
                env,
                base_port,
            )
        )
        ours, base = started
        servers = [
            Server("matchlog", f"http://127.0.0.1:{ours_port}", ours.pid, checks=True),
            Server("baseline", f"http://127.0.0.1:{base_port}", base.pid, checks=False),
        ]
        if args.compare is not None:
            other_port = free_port()
            other = start_server(matchlog_command(args, other_port), env, other_port, args.compare)
            started.append(other)
            # Next to matchlog in every round's order: the pair runs under one load.
            servers.insert(
                1, Server("compare", f"http://127.0.0.1:{other_port}", other.pid, checks=True)
            )
        with httpx.Client(
            base_url=servers[0].url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        ) as client:
            for server in servers:
                # Untimed: a fresh worker's first requests pay for imports, plans and pools.
                plans = make_plans(
                    server, work / f"warmup-{server.name}", scripts, client, args.connections, 300
                )
                run_wrk(
                    server,
                    plans,
                    token,
                    args.connections,
                    args.warmup,
                    postmaster,
                    keys_for(args, f"warmup-{server.name}"),
                )
            counts = statement_counts(
                servers, scripts, client, args, token, urls.owner, pgdata, work, postmaster
            )
            runs: list[Run] = []
            for number in range(args.rounds):
                print(f"round {number + 1} of {args.rounds}", flush=True)
                order = servers if number % 2 == 0 else servers[::-1]
                for server in order:
                    plans = make_plans(
                        server,
                        work / f"{server.name}-{number}",
                        scripts,
                        client,
                        args.connections,
                        moves_each,
                    )
                    keys = keys_for(args, f"{server.name}-{number}")
                    run = run_wrk(
                        server, plans, token, args.connections, args.seconds, postmaster, keys
                    )
                    print_run(run)
                    runs.append(run)
            rss = {s.name: peak_rss(s.pid) for s in servers}
            summarize(runs, servers, counts, rss)
            if args.length or args.dbsize:
                from bench.move_latency import length_case, size_case

                if args.length:
                    length_case(servers[0].url, token, players, args.late, args.seed)
                if args.dbsize:
                    size_case(
                        servers[0].url, token, players, urls.owner, args.dbsize, args.seed, ours.pid
                    )
    finally:
        for proc in started:
            stop_server(proc)
    return 0


def keys_for(args: argparse.Namespace, run: str) -> str:
    """Return a run's Idempotency-Key prefix (with ``--idempotency-keys``), else ``""``.

    The process id keeps keys apart from an earlier bench's on the same database.
    """
    return f"{run}-{os.getpid()}" if args.idempotency_keys else ""


def launcher(how: str, factory: str, port: int, workers: int) -> list[str]:
    """Return the command serving ``factory`` under uvicorn, with TCP_NODELAY or ``plain``."""
    command = [sys.executable, "-m", "bench.nodelay_uvicorn", factory, "--port", str(port)]
    return [*command, "--workers", str(workers), *(["--plain"] if how == "plain" else [])]


def matchlog_command(args: argparse.Namespace, port: int) -> list[str]:
    """Return the command serving matchlog: its own ``serve``, or through the launcher."""
    if args.matchlog == "serve":
        return [sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                "--workers", str(args.workers)]  # fmt: skip
    return launcher(args.matchlog, "api.app:create_app_from_env", port, args.workers)


def prepare_baseline_table(owner_url: str, app_url: str) -> None:
    """Create the baseline's table as the owner and let the app's role write it."""
    app_user = psycopg.conninfo.conninfo_to_dict(app_url).get("user")
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute(SCHEMA)
        if app_user:
            conn.execute(f'GRANT SELECT, INSERT ON bench_moves TO "{app_user}"')


if __name__ == "__main__":
    raise SystemExit(main())
