"""``matchlog import --jobs N``: worker processes check and record the matches."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from service import imports
from service.imports import BATCH_MATCHES, default_jobs
from service.imports import run as imports_run
from service.imports.parallel import worker_context
from tests.environment import clean_env
from tests.logs.support import cli, simulated

ROOT = Path(__file__).resolve().parent.parent.parent


class TestWorkers:
    def test_every_match_is_recorded_whole(self, database_url: str, tmp_path: Path) -> None:
        source = tmp_path / "in.jsonl"
        body = simulated(source, "kozel", "default", matches=3 * BATCH_MATCHES + 5)
        code, _, err = cli(database_url, "import", "--jobs", "2", str(source))
        assert 0 == code, err
        assert f"{3 * BATCH_MATCHES + 5} matches imported" in err
        assert body == cli(database_url, "export", "--all")[1]

    def test_a_fresh_process_forks_its_workers(self, database_url: str, tmp_path: Path) -> None:
        """The command as run from a shell: one thread, so the workers fork from it."""
        source = tmp_path / "in.jsonl"
        body = simulated(source, "cuttle", "standard", matches=2 * BATCH_MATCHES + 3, seed=2)
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "import", "-q", "--jobs", "2", str(source)],
            cwd=ROOT,
            env=clean_env(MATCHLOG_DATABASE_URL=database_url),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert 0 == done.returncode, done.stderr
        assert f"{2 * BATCH_MATCHES + 3} matches imported" in done.stderr
        assert body == cli(database_url, "export", "--all")[1]


@pytest.mark.skipif(sys.platform != "linux", reason="workers fork on Linux only")
class TestWorkerStart:
    def test_forked_from_a_single_threaded_process(self) -> None:
        code = (
            "from service.imports.parallel import worker_context as w; "
            "print(w().get_start_method())"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert "fork" == done.stdout.strip()

    def test_a_fork_server_while_another_thread_runs(self) -> None:
        release = threading.Event()
        thread = threading.Thread(target=release.wait)
        thread.start()
        try:
            assert "forkserver" == worker_context().get_start_method()
        finally:
            release.set()
            thread.join()


class TestDefaultJobs:
    def test_small_inputs_and_stdin_use_no_workers(self, tmp_path: Path) -> None:
        small = tmp_path / "small.jsonl"
        small.write_text("{}\n")
        assert 1 == default_jobs([str(small), "-", str(tmp_path / "missing.jsonl")])

    def test_large_inputs_use_a_worker_per_core(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        folder = tmp_path / "logs"
        folder.mkdir()
        for name in ("a.jsonl", "b.txt"):
            (folder / name).write_text("x" * 600)
        monkeypatch.setattr(imports_run, "AUTO_JOBS_BYTES", 1000)  # the folder's files add up
        monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1, 2}, raising=False)
        assert 3 == default_jobs([str(folder)])
        monkeypatch.setattr(os, "sched_getaffinity", lambda _: set(range(64)), raising=False)
        assert imports_run.MAX_AUTO_JOBS == default_jobs([str(folder)])

    def test_the_command_uses_the_default(
        self, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        source = tmp_path / "in.jsonl"
        body = simulated(source, "cuttle", "standard", matches=BATCH_MATCHES + 1, seed=3)
        asked: list[int] = []
        run = imports.run_import

        def spy(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs["jobs"])
            return run(*args, **kwargs)

        monkeypatch.setattr(imports_run, "AUTO_JOBS_BYTES", len(body))
        monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1}, raising=False)
        monkeypatch.setattr(imports, "run_import", spy)
        code, _, err = cli(database_url, "import", str(source))
        assert 0 == code, err
        assert [2] == asked
        assert body == cli(database_url, "export", "--all")[1]
