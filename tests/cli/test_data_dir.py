"""Which database a command uses: a new one is announced, and reading commands refuse it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.support import invoke
from tests.environment import clean_env

READERS = [
    ["matches"],
    ["standings", "5a1c"],
    ["export", "--all"],
    ["replay", "5a1c"],
    ["verify"],
    ["tokens", "list"],
    ["tokens", "revoke", "5a1c"],
    ["projections", "rebuild"],
    ["db", "current"],
]


@pytest.mark.parametrize("args", READERS, ids=" ".join)
def test_a_reading_command_refuses_a_new_data_dir_without_creating_it(
    tmp_path: Path, args: list[str]
) -> None:
    data_dir = tmp_path / "elsewhere" / "matchlog-data"
    result = invoke(None, *args, env={"MATCHLOG_DATA_DIR": str(data_dir)})
    assert 1 == result.exit_code, result.output
    assert (
        f"error: NO_DATA: no matchlog data in {data_dir}: run from the folder you serve from, "
        "set MATCHLOG_DATA_DIR, or run `matchlog db upgrade` to start a new one\n"
    ) == result.stderr
    assert not (tmp_path / "elsewhere").exists()


def matchlog(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``matchlog`` in its own process from ``cwd``, on the default embedded database."""
    env = clean_env(COLUMNS="80")
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_new_database_is_announced_once_and_found_from_its_folder_only(
    embedded_dir: Path,
) -> None:
    club, other = embedded_dir / "club", embedded_dir / "other"
    club.mkdir()
    other.mkdir()
    created = matchlog(club, "db", "upgrade")
    assert 0 == created.returncode, created.stderr
    assert f"matchlog: started a new database in {club / 'matchlog-data'}\n" == created.stderr
    again = matchlog(club, "matches")
    assert (0, "") == (again.returncode, again.stderr)
    astray = matchlog(other, "matches")
    assert 1 == astray.returncode
    assert astray.stderr.startswith(f"error: NO_DATA: no matchlog data in {other}/matchlog-data:")
    assert [] == list(other.iterdir())
