"""Speed and memory of ``matchlog import``: validated events per second, peak RSS at 1x and 4x.

    python bench/import.py                      # 2,000 matches, 3 timed runs, default and --jobs 1
    python bench/import.py --matches 500 --runs 1 --jobs 2
    python bench/import.py --matches 500 --season   # all in one competition per game
    python bench/import.py --compare /tmp/before   # this tree and a `git archive` copy, in turn
    python bench/import.py --game kozel --matches 500 --compare /tmp/before   # Kozel logs only

It simulates the matches (half Cuttle standard ``short``, half Kozel with loss
limit 4; with ``--game``, all of that one game) with ``matchlog simulate``, then
runs ``matchlog import -q FILE`` as its own process (with each ``--jobs`` value
asked for; ``default`` gives none, so the import picks its own) into a fresh,
migrated database for each run, and prints the median events/s (wall time of the whole command,
start-up included). The 4x file holds
the same matches four times under fresh ids (so every copy is really imported);
the peak RSS of the import process is sampled for both files. The database is
the embedded server in a temporary directory, or the server of
MATCHLOG_DATABASE_URL (a fresh database is created on it for each run).

It also prints the CPU time per event of the import (its process and workers) and,
on the embedded server, of PostgreSQL (every backend and helper process): their sum
bounds what the machine's cores can import, however the work is spread. Start-up
(the interpreter, imports, and with ``--jobs`` each worker's) is in the import's
CPU, so small files overstate it: the 4x run shows the steady cost.

``--season`` puts every Cuttle match into one competition and every Kozel match into
another, as a club's season log would be: each match that ends then recomputes its
competition's standings (in the 4x file, four competitions per game).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import re
import resource
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.support import fresh_database, scratch_dir  # noqa: E402
from service.imports import default_jobs  # noqa: E402
from store.database import canonical_url, with_database  # noqa: E402
from store.embedded import start_embedded  # noqa: E402

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SUMMARY = re.compile(r"(\d+) matches imported \((\d+) events\)")


def simulate(path: Path, matches: int, seed: int, only: str | None = None) -> None:
    """Write ``matches`` simulated matches to ``path``: half Cuttle and half Kozel,
    or all of the game ``only``."""
    cuttle, kozel = path.with_suffix(".cuttle"), path.with_suffix(".kozel")
    share = {None: matches // 2, "cuttle": matches, "kozel": 0}[only]
    for game, count, out in (
        ("cuttle", share, cuttle),
        ("kozel", matches - share, kozel),
    ):
        if not count:
            out.touch()
            continue
        subprocess.run(
            [sys.executable, "-m", "cli.main", "simulate", "--game", game, "--matches",
             str(count), "--seed", str(seed), "--out", str(out)],
            cwd=ROOT, check=True,
        )  # fmt: skip
    with path.open("w") as handle:
        for part in (cuttle, kozel):
            handle.write(part.read_text())
            part.unlink()


def multiply(source: Path, target: Path, times: int) -> None:
    """Write ``source`` ``times`` over, each copy after the first under fresh ids."""
    with source.open() as src, target.open("w") as out:
        for copy in range(times):
            src.seek(0)
            for line in src:
                out.write(_UUID.sub(_renamer(copy), line) if copy else line)


def _renamer(copy: int) -> Callable[[re.Match[str]], str]:
    def rename(m: re.Match[str]) -> str:
        return str(uuid.uuid5(uuid.UUID(m.group(0)), str(copy)))

    return rename


_GAME = re.compile(r'"game":"([a-z]+)"')


def into_seasons(path: Path) -> None:
    """Put every match of ``path`` into its game's competition, as a season's log is.

    Each finished match then recomputes its competition's standings, which read all
    the competition's finished matches so far.
    """
    lines = path.read_text().splitlines(keepends=True)
    game = ""
    with path.open("w") as out:
        for line in lines:
            if line.startswith('{"matchlog"'):
                found = _GAME.search(line)
                assert found is not None, line[:80]
                game = found.group(1)
                season = f'{{"id":"{_season(game)}","name":"Season ({game})"}}'
                line = line.replace('"competition":null', f'"competition":{season}', 1)
            elif '"type":"MatchCreated"' in line:
                line = line.replace('"competition_id":null', f'"competition_id":"{_season(game)}"')
            out.write(line)


def _season(game: str) -> uuid.UUID:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"matchlog-bench-season-{game}")


def fresh_url(admin_url: str, tree: Path = ROOT) -> str:
    """Return the URL of a new database for one run, migrated by ``tree``'s migrations."""
    if tree == ROOT:
        return with_database(admin_url, fresh_database(admin_url, "bench_import"))

    def upgrade(url: str) -> None:
        migrate = f"from store import migrate; migrate.upgrade({url!r})"
        subprocess.run([sys.executable, "-c", migrate], cwd=tree, check=True)

    return with_database(admin_url, fresh_database(admin_url, "bench_import", upgrade))


def server_cpu(pgdata: Path | None) -> float:
    """Return the CPU seconds the embedded server has used so far (0 for another server).

    The postmaster's own time, its ended children's (backends of closed connections)
    and its live children's.
    """
    if pgdata is None:
        return 0.0
    master = psutil.Process(int((pgdata / "postmaster.pid").read_text().split()[0]))
    times = master.cpu_times()
    total: float = times.user + times.system + times.children_user + times.children_system
    for child in master.children():
        with contextlib.suppress(psutil.NoSuchProcess):
            child_times = child.cpu_times()
            total += child_times.user + child_times.system
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Run:
    """One import: wall seconds, events, peak RSS bytes, import and server CPU seconds."""

    seconds: float
    events: int
    peak: int
    import_cpu: float
    server_cpu: float

    def figures(self) -> str:
        """Return the run's figures as one line."""
        rate, mib = self.events / self.seconds, self.peak / 2**20
        cpu = f"CPU/event: import {self.import_cpu / self.events * 1e6:.0f} µs"
        if self.server_cpu:
            cpu += f", server {self.server_cpu / self.events * 1e6:.0f} µs"
        return (
            f"{self.events} events in {self.seconds:.2f} s = {rate:,.0f} events/s, "
            f"peak RSS {mib:.0f} MiB; {cpu}"
        )


def run_import(url: str, path: Path, jobs: str, pgdata: Path | None, tree: Path = ROOT) -> Run:
    """Import ``path`` into ``url`` with ``tree``'s code and measure it.

    The RSS is the import's own process plus every process under it (its workers,
    and with ``--jobs`` the fork server they fork from), sampled every 50 ms. So is
    the import CPU: workers forked from a fork server are not the import's own
    children, so what it waited for (``RUSAGE_CHILDREN``) misses them; the larger of
    that and the sum of every process's last sampled CPU time is taken (the samples
    miss at most each process's last 50 ms).
    """
    env = {**os.environ, "MATCHLOG_DATABASE_URL": url}
    cpu_before, server_before = _children_cpu(), server_cpu(pgdata)
    started = time.perf_counter()
    flags = [] if jobs == DEFAULT else ["--jobs", jobs]
    proc = psutil.Popen(
        [sys.executable, "-m", "cli.main", "import", "-q", *flags, str(path)],
        cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    peak = 0
    sampled: dict[int, float] = {}
    while proc.poll() is None:
        try:
            family = [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        rss = 0
        for member in family:
            with contextlib.suppress(psutil.NoSuchProcess):
                rss += member.memory_info().rss
                times = member.cpu_times()
                sampled[member.pid] = times.user + times.system
        peak = max(peak, rss)
        time.sleep(0.05)
    _, err = proc.communicate()
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"import failed ({proc.returncode}):\n{err}")
    found = _SUMMARY.search(err)
    assert found is not None, err
    return Run(
        elapsed,
        int(found.group(2)),
        peak,
        max(_children_cpu() - cpu_before, sum(sampled.values())),
        server_cpu(pgdata) - server_before,
    )


DEFAULT = "default"
"""A ``--jobs`` value of the bench's: run the import without ``--jobs``."""


def jobs_value(text: str) -> str:
    """Check one ``--jobs`` value of the bench: a count, or ``default``."""
    if text != DEFAULT and not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is neither a count of workers nor {DEFAULT!r}")
    return text


def jobs_label(jobs: str, path: Path) -> str:
    """Return how a ``--jobs`` value reads in the report (the default says what it chose)."""
    if jobs == DEFAULT:
        return f"default (--jobs {default_jobs([str(path)])})"
    return f"--jobs {jobs}"


PACKAGES = ("api", "cli", "domain", "migrations", "projections", "service", "store")


def compile_tree(tree: Path = ROOT) -> None:
    """Compile the project's modules to bytecode, as installing a package does.

    Otherwise, where PYTHONDONTWRITEBYTECODE is set (as on the machines these figures
    come from), every run compiles some sixty modules again: about 0.2 s of each
    run's start-up that no installed copy pays.
    """
    for package in PACKAGES:
        compileall.compile_dir(tree / package, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3, help="timed runs of the 1x file")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--game", choices=("cuttle", "kozel"), help="simulate only this game's matches"
    )
    parser.add_argument(
        "--season",
        action="store_true",
        help="put the matches into one competition per game (standings recomputed as they end)",
    )
    parser.add_argument(
        "--jobs",
        type=jobs_value,
        nargs="+",
        default=[DEFAULT, "1"],
        help="`matchlog import --jobs` values; `default` runs it without the option",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        nargs="+",
        metavar="TREE",
        help="instead: import the 1x file with each tree's code in turn (this one first), "
        "--runs rounds, and print each tree's medians",
    )
    args = parser.parse_args()
    root = scratch_dir("matchlog-bench-import-")
    configured = os.environ.get("MATCHLOG_DATABASE_URL")
    pgdata: Path | None = None
    if configured:
        admin_url = with_database(canonical_url(configured), "postgres")
    else:
        embedded = start_embedded(root / "data")
        admin_url, pgdata = embedded.admin_url, embedded.pgdata
    one, four = root / "x1.jsonl", root / "x4.jsonl"
    started = time.perf_counter()
    simulate(one, args.matches, args.seed, args.game)
    if args.season:
        into_seasons(one)
    print(
        f"simulated {args.matches} matches in {time.perf_counter() - started:.1f} s; "
        f"1x file {one.stat().st_size / 1e6:.1f} MB"
    )
    compile_tree()
    if args.compare:
        compare([ROOT, *args.compare], one, args, admin_url, pgdata)
        return
    multiply(one, four, 4)
    print(f"4x file {four.stat().st_size / 1e6:.1f} MB")
    cores = os.cpu_count() or 1
    for jobs in args.jobs:
        label = jobs_label(jobs, one)
        runs = []
        for number in range(args.runs):
            runs.append(run_import(fresh_url(admin_url), one, jobs, pgdata))
            print(f"  {label}, 1x run {number + 1}: {runs[-1].figures()}")
        four_run = run_import(fresh_url(admin_url), four, jobs, pgdata)
        print(f"  {jobs_label(jobs, four)}, 4x run: {four_run.figures()}")
        median = statistics.median(r.events / r.seconds for r in runs)
        print(f"{label}: median 1x {median:,.0f} validated events/s (target >= 20,000)")
        base = statistics.median(r.peak for r in runs)
        print(
            f"{label}: peak RSS 1x {base / 2**20:.0f} MiB, "
            f"4x {four_run.peak / 2**20:.0f} MiB (ratio {four_run.peak / base:.2f})"
        )
        if pgdata is not None:
            cpu = statistics.median((r.import_cpu + r.server_cpu) / r.events for r in runs)
            print(
                f"{label}: median CPU {cpu * 1e6:.0f} µs per event in all, so "
                f"{cores} cores fully busy could import at most {cores / cpu:,.0f} events/s"
            )


def compare(
    trees: list[Path], one: Path, args: argparse.Namespace, admin_url: str, pgdata: Path | None
) -> None:
    """Import ``one`` with each tree's code in turn, round by round; print the medians.

    Taking turns puts every tree through the machine's slow and fast spells alike,
    so the ratios mean more than any absolute figure.
    """
    for tree in trees[1:]:
        compile_tree(tree)
    for jobs in args.jobs:
        label = jobs_label(jobs, one)
        runs: dict[Path, list[Run]] = {tree: [] for tree in trees}
        for number in range(args.runs):
            for tree in trees:
                runs[tree].append(run_import(fresh_url(admin_url, tree), one, jobs, pgdata, tree))
                print(f"  {label}, round {number + 1}, {tree}: {runs[tree][-1].figures()}")
        first = statistics.median(r.events / r.seconds for r in runs[trees[0]])
        first_cpu = statistics.median(r.import_cpu / r.events for r in runs[trees[0]])
        for tree in trees:
            rate = statistics.median(r.events / r.seconds for r in runs[tree])
            cpu = statistics.median(r.import_cpu / r.events for r in runs[tree])
            print(
                f"{label}: {tree} median {rate:,.0f} events/s ({rate / first:.2f}x), "
                f"import CPU {cpu * 1e6:.0f} µs/event ({cpu / first_cpu:.2f}x)"
            )


if __name__ == "__main__":
    main()
