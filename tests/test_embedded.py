"""The embedded PostgreSQL: shared by processes, kept across restarts, stopped by the last user."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from store.embedded import pgdata_path
from tests.environment import clean_env

USER_SCRIPT = textwrap.dedent(
    """
    import sys, psycopg
    from pathlib import Path
    from store.embedded import start_embedded
    pg = start_embedded(Path(sys.argv[1]))
    with psycopg.connect(pg.url, autocommit=True) as conn:
        exec(sys.argv[2])
    print("ready", flush=True)
    if sys.argv[3] == "wait":
        sys.stdin.readline()
    """
)


def run_user(data_dir: Path, sql: str = "pass", *, wait: bool = False) -> subprocess.Popen[str]:
    """Start a process using the embedded server; with ``wait`` it stays until stdin closes."""
    proc = subprocess.Popen(
        [sys.executable, "-c", USER_SCRIPT, str(data_dir), sql, "wait" if wait else "exit"],
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "ready\n" == line, proc.stderr.read() if proc.stderr else ""
    return proc


def finish(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(input="\n", timeout=60)
    assert 0 == proc.returncode, err
    return out


def server_running(data_dir: Path) -> bool:
    pid_file = pgdata_path(data_dir) / "postmaster.pid"
    if not pid_file.exists():
        return False
    pid = int(pid_file.read_text().splitlines()[0])
    return psutil.pid_exists(pid)


def wait_until(predicate: object, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


@pytest.fixture(name="data_dir")
def _data_dir(embedded_dir: Path) -> Path:
    return embedded_dir / "data"


def test_data_survives_restart(data_dir: Path) -> None:
    finish(
        run_user(
            data_dir,
            "conn.execute('CREATE TABLE kept (x int)'); "
            "conn.execute('INSERT INTO kept VALUES (42)')",
        )
    )
    assert wait_until(lambda: not server_running(data_dir))
    proc = run_user(data_dir, "assert conn.execute('SELECT x FROM kept').fetchone()[0] == 42")
    finish(proc)


def test_second_process_shares_and_last_one_stops_it(data_dir: Path) -> None:
    first = run_user(data_dir, wait=True)
    second = run_user(data_dir, wait=True)
    finish(first)
    assert server_running(data_dir), "the server stopped while a second process still used it"
    finish(second)
    assert wait_until(lambda: not server_running(data_dir))


def test_killed_process_does_not_keep_server_up(data_dir: Path) -> None:
    victim = run_user(data_dir, wait=True)
    os.kill(victim.pid, signal.SIGKILL)
    victim.communicate(timeout=10)
    handles = json.loads((pgdata_path(data_dir) / ".handle_pids.json").read_text())
    assert victim.pid in handles, "precondition: the killed process left its pid behind"
    assert server_running(data_dir)
    finish(run_user(data_dir))
    assert wait_until(lambda: not server_running(data_dir))


@pytest.mark.parametrize("where", ["data_dir", "pg"])
def test_unusable_data_dir_is_one_clear_line(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "data"
    if where == "pg":
        blocker.mkdir()
        blocker = blocker / "pg"
    blocker.write_text("a file where a directory should be")
    line = failing_cli_line(tmp_path / "data", "db", "upgrade")
    assert line.startswith("error: DATA_DIR_UNUSABLE:")
    assert "is not a directory" in line


def failing_cli_line(data_dir: Path, *args: str) -> str:
    """Run ``matchlog ARGS`` on the embedded server in ``data_dir``; return its one error line."""
    env = clean_env(MATCHLOG_DATA_DIR=str(data_dir))
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert 1 == result.returncode
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert 1 == len(lines), result.stderr
    return lines[0]


def test_server_comes_back_after_it_and_its_user_are_killed_together(data_dir: Path) -> None:
    # A crash took the server's postmaster with it one start in two: the dead
    # postmaster lingers as a zombie that still looks alive. Three rounds catch it.
    for _ in range(3):
        user = run_user(data_dir, "conn.execute('SELECT 1')", wait=True)
        postmaster = int((pgdata_path(data_dir) / "postmaster.pid").read_text().split()[0])
        os.kill(user.pid, signal.SIGKILL)
        os.kill(postmaster, signal.SIGKILL)
        user.communicate(timeout=10)
    finish(run_user(data_dir, "assert conn.execute('SELECT 1').fetchone() == (1,)"))
    assert wait_until(lambda: not server_running(data_dir))


def test_server_that_cannot_start_is_one_line_after_retries(data_dir: Path) -> None:
    finish(run_user(data_dir))
    assert wait_until(lambda: not server_running(data_dir))
    with (pgdata_path(data_dir) / "postgresql.conf").open("a") as conf:
        conf.write("\nthis is not a setting\n")
    line = failing_cli_line(data_dir, "db", "current")
    assert line.startswith("error: EMBEDDED_DATABASE_DOWN: the embedded PostgreSQL in")
    assert "contains errors" in line, "the reason is the server log's FATAL line"


APP_ROLE_SCRIPT = textwrap.dedent(
    """
    import sys, psycopg
    from pathlib import Path
    from service.settings import Settings
    from service.wiring import migrated_url
    url = migrated_url(Settings(database_url=None, data_dir=Path(sys.argv[1])))
    with psycopg.connect(url) as conn:
        print(conn.execute("SELECT current_user").fetchone()[0])
        try:
            conn.execute("TRUNCATE events")
        except psycopg.errors.InsufficientPrivilege:
            print("refused")
    """
)


def test_embedded_server_is_migrated_by_its_superuser_and_used_as_the_app_role(
    data_dir: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", APP_ROLE_SCRIPT, str(data_dir)],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert "matchlog_app\nrefused\n" == result.stdout, result.stderr
    assert wait_until(lambda: not server_running(data_dir))
