"""A kill -9 or a Ctrl-C in the middle of an import leaves only whole matches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from service.imports import BATCH_MATCHES
from tests.environment import clean_env
from tests.logs.support import cli, simulated

ROOT = Path(__file__).resolve().parent.parent.parent


def stored_streams(database_url: str) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT stream, max(version) FROM events GROUP BY stream").fetchall()
    return {stream: int(version) for stream, version in rows}


def many_matches(path: Path, seed: int) -> dict[str, int]:
    """Write several batches' worth of matches (one transaction each), so a stop lands
    between two; return each match's stream and event count, as their headers say."""
    body = simulated(path, "kozel", "default", matches=8 * BATCH_MATCHES, seed=seed)
    return {
        f"kozel-{h['match']}": h["events"]
        for h in map(json.loads, body.splitlines())
        if "matchlog" in h
    }


def start_import(database_url: str, path: Path, *args: str) -> psutil.Popen:
    """Start ``matchlog import -q ARGS PATH`` in its own process group, as a terminal's
    job is, with Ctrl-C's signal handled as a terminal leaves it (a test run in the
    background inherits it ignored); return once it has recorded a few matches."""
    proc = psutil.Popen(
        [sys.executable, "-m", "cli.main", "import", "-q", *args, str(path)],
        cwd=ROOT,
        env=clean_env(MATCHLOG_DATABASE_URL=database_url),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(stored_streams(database_url)) < 3:
        time.sleep(0.02)
    return proc


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_whole(database_url: str, announced: dict[str, int]) -> dict[str, int]:
    """Check that some matches, not all, are stored, each whole; return them."""
    stored = stored_streams(database_url)
    assert 3 <= len(stored) < len(announced), "stopped before the end of the file"
    assert {s: announced[s] for s in stored} == stored
    return stored


class TestKilledImport:
    def test_kill_9_leaves_only_whole_matches(self, database_url: str, tmp_path: Path) -> None:
        path = tmp_path / "many.jsonl"
        announced = many_matches(path, seed=4)
        proc = start_import(database_url, path)
        proc.kill()
        proc.communicate()
        stored = assert_whole(database_url, announced)
        code, _, err = cli(database_url, "import", str(path))
        assert 0 == code, err
        assert f"{len(stored)} already recorded" in err
        assert announced == stored_streams(database_url)

    def test_workers_end_with_a_killed_import(self, database_url: str, tmp_path: Path) -> None:
        """They would otherwise wait for work for ever; what they recorded is whole."""
        path = tmp_path / "many.jsonl"
        announced = many_matches(path, seed=5)
        proc = start_import(database_url, path, "--jobs", "2")
        workers = proc.children(recursive=True)
        assert workers, "the import runs its workers"
        proc.kill()
        proc.communicate()
        _, alive = psutil.wait_procs(workers, timeout=30)
        assert [] == alive
        assert_whole(database_url, announced)


class TestInterruptedImport:
    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_ctrl_c_stops_soon_and_says_what_was_done(
        self, database_url: str, tmp_path: Path, jobs: str
    ) -> None:
        path = tmp_path / "many.jsonl"
        announced = many_matches(path, seed=6)
        proc = start_import(database_url, path, "--jobs", jobs)
        family = [proc, *proc.children(recursive=True)]
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends: to the whole group
        _, err = proc.communicate(timeout=30)
        assert 130 == proc.returncode, err
        assert err.startswith("interrupted: "), err
        assert "Traceback" not in err
        _, alive = psutil.wait_procs(family, timeout=30)
        assert [] == alive
        assert_whole(database_url, announced)
