"""Speed and memory of ``matchlog import``: validated events per second, peak RSS at 1x and 4x.

    python bench/import.py                      # 2,000 matches, 3 timed runs, --jobs 1 and 2
    python bench/import.py --matches 500 --runs 1 --jobs 2

It simulates the matches (half Cuttle standard ``short``, half Kozel with loss
limit 4) with ``matchlog simulate``, then runs ``matchlog import -q FILE`` as its
own process (with each ``--jobs`` value asked for) into a fresh, migrated database
for each run, and prints the median events/s (wall time of the whole command,
start-up included). The 4x file holds
the same matches four times under fresh ids (so every copy is really imported);
the peak RSS of the import process is sampled for both files. The database is
the embedded server in a temporary directory, or the server of
MATCHLOG_DATABASE_URL (a fresh database is created on it for each run).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from store import migrate  # noqa: E402
from store.database import canonical_url, with_database  # noqa: E402
from store.embedded import start_embedded  # noqa: E402

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SUMMARY = re.compile(r"(\d+) matches imported \((\d+) events\)")


def simulate(path: Path, matches: int, seed: int) -> None:
    """Write ``matches`` simulated matches, half Cuttle and half Kozel, to ``path``."""
    cuttle, kozel = path.with_suffix(".cuttle"), path.with_suffix(".kozel")
    for game, count, out in (
        ("cuttle", matches // 2, cuttle),
        ("kozel", matches - matches // 2, kozel),
    ):
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


def fresh_database(admin_url: str) -> str:
    """Create and migrate a new database; return its URL."""
    name = f"bench_import_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(admin_url, name)
    migrate.upgrade(url)
    return url


def run_import(url: str, path: Path, jobs: int) -> tuple[float, int, int]:
    """Import ``path`` into ``url``; return wall seconds, events imported and peak RSS bytes.

    The RSS is the import's own process plus its worker processes, if any.
    """
    env = {**os.environ, "MATCHLOG_DATABASE_URL": url}
    started = time.perf_counter()
    proc = psutil.Popen(
        [sys.executable, "-m", "cli.main", "import", "-q", "--jobs", str(jobs), str(path)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    peak = 0
    while proc.poll() is None:
        try:
            family = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in family))
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    _, err = proc.communicate()
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"import failed ({proc.returncode}):\n{err}")
    found = _SUMMARY.search(err)
    assert found is not None, err
    return elapsed, int(found.group(2)), peak


def _figures(events: int, seconds: float, peak: int) -> str:
    rate, mib = events / seconds, peak / 2**20
    return f"{events} events in {seconds:.2f} s = {rate:,.0f} events/s, peak RSS {mib:.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3, help="timed runs of the 1x file")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--jobs", type=int, nargs="+", default=[1, 2], help="`matchlog import --jobs` values"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="matchlog-bench-import-") as tmp:
        root = Path(tmp)
        configured = os.environ.get("MATCHLOG_DATABASE_URL")
        admin_url = (
            with_database(canonical_url(configured), "postgres")
            if configured
            else start_embedded(root / "data").admin_url
        )
        one, four = root / "x1.jsonl", root / "x4.jsonl"
        started = time.perf_counter()
        simulate(one, args.matches, args.seed)
        multiply(one, four, 4)
        print(
            f"simulated {args.matches} matches in {time.perf_counter() - started:.1f} s; "
            f"1x file {one.stat().st_size / 1e6:.1f} MB, "
            f"4x file {four.stat().st_size / 1e6:.1f} MB"
        )
        for jobs in args.jobs:
            rates, peaks = [], []
            for run in range(args.runs):
                seconds, events, peak = run_import(fresh_database(admin_url), one, jobs)
                rates.append(events / seconds)
                peaks.append(peak)
                print(f"  --jobs {jobs}, 1x run {run + 1}: {_figures(events, seconds, peak)}")
            seconds4, events4, peak4 = run_import(fresh_database(admin_url), four, jobs)
            print(f"  --jobs {jobs}, 4x run: {_figures(events4, seconds4, peak4)}")
            median = statistics.median(rates)
            print(f"--jobs {jobs}: median 1x {median:,.0f} validated events/s (target >= 20,000)")
            base = statistics.median(peaks)
            print(
                f"--jobs {jobs}: peak RSS 1x {base / 2**20:.0f} MiB, 4x {peak4 / 2**20:.0f} MiB "
                f"(ratio {peak4 / base:.2f})"
            )


if __name__ == "__main__":
    main()
