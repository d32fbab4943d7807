"""``matchlog backup`` and ``matchlog restore``: a physical copy of the embedded server,
made while it is in use, restored into a new data dir with every match and standing (#35).

Each command runs as its own process, as from a shell, so each embedded server stops
when its last user exits (before the test's folder goes).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.cli.support import invoke
from tests.environment import clean_env

ROOT = Path(__file__).resolve().parent.parent

# A process using the embedded server as the service does: its connection stays open,
# inside a transaction, until stdin closes.
HOLDER = textwrap.dedent(
    """
    import sys, psycopg
    from pathlib import Path
    from store.embedded import start_embedded
    pg = start_embedded(Path(sys.argv[1]))
    with psycopg.connect(pg.app_url) as conn:
        conn.execute("SELECT count(*) FROM events").fetchone()
        print("ready", flush=True)
        sys.stdin.readline()
    """
)


def matchlog(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``matchlog ARGS`` as its own process on the embedded server in ``data_dir``."""
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=clean_env(MATCHLOG_DATA_DIR=str(data_dir), COLUMNS="80"),
        capture_output=True,
        text=True,
        timeout=180,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert 0 == result.returncode, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


@pytest.fixture(name="season")
def _season(embedded_dir: Path) -> Path:
    """A data dir holding a Cuttle season of 8 matches in one competition, and 3 more."""
    data = embedded_dir / "data"
    league = embedded_dir / "league.jsonl"
    ok(
        matchlog(
            data,
            "simulate",
            "--game",
            "cuttle",
            "--matches",
            "8",
            "--players",
            "4",
            "--competition",
            "Tuesday league",
            "--seed",
            "3",
            "--out",
            str(league),
        )
    )
    loose = embedded_dir / "loose.jsonl"
    ok(matchlog(data, "simulate", "--game", "kozel", "--matches", "3", "--out", str(loose)))
    ok(matchlog(data, "import", "-q", str(league), str(loose)))
    return data


@contextmanager
def in_use(data_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """Keep a connection open to the embedded server in ``data_dir`` (and the server up)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        cwd=ROOT,
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert "ready\n" == holder.stdout.readline()
        yield holder
    finally:
        holder.stdin.close()
        holder.stdout.close()
        holder.wait(timeout=60)


def what_it_holds(data_dir: Path, competition: str) -> tuple[str, object, str]:
    """Every match's log, the competition's standings and the list of matches."""
    return (
        ok(matchlog(data_dir, "export", "--all")),
        json.loads(ok(matchlog(data_dir, "standings", competition, "-f", "json"))),
        ok(matchlog(data_dir, "matches", "--limit", "50")),
    )


def test_a_backup_made_in_use_restores_every_match_and_standing(
    season: Path, embedded_dir: Path
) -> None:
    header = json.loads((embedded_dir / "league.jsonl").read_text().splitlines()[0])
    competition = header["competition"]["id"]
    backup = embedded_dir / "backups" / "tuesday"
    with in_use(season) as holder:
        before = what_it_holds(season, competition)
        made = matchlog(season, "backup", str(backup))
        assert ok(made).startswith(f"backup in {backup} (")
        assert "backing up " in made.stderr and "(100%)" in made.stderr
        assert None is holder.poll(), "the server's user went on using it"
    assert {"base.tar.gz", "pg_wal.tar.gz", "backup_manifest"} == {p.name for p in backup.iterdir()}
    exported, standings, listed = before
    assert 11 == sum(line.startswith('{"matchlog"') for line in exported.splitlines())
    assert 4 == len(standings["players"])  # type: ignore[index]
    assert 11 == len(re.findall(r"^[0-9a-f]{8}-[0-9a-f]{4}-", listed, re.MULTILINE)), listed

    restored = embedded_dir / "restored"
    said = ok(matchlog(restored, "restore", str(backup)))
    assert said.startswith(f"restored into {restored}: 11 matches, ")
    with in_use(restored):
        verify = matchlog(restored, "verify")
        assert 0 == verify.returncode, verify.stdout + verify.stderr
        assert before == what_it_holds(restored, competition)


def test_restore_refuses_a_data_dir_in_use(season: Path, embedded_dir: Path) -> None:
    backup = embedded_dir / "b"
    ok(matchlog(season, "backup", str(backup)))
    refused = matchlog(season, "restore", str(backup))
    assert 1 == refused.returncode
    assert [
        f"error: DATA_DIR_NOT_EMPTY: {str(season.resolve())!r} is not empty: a restore goes "
        "into a new or empty folder"
    ] == refused.stderr.splitlines()
    again = matchlog(season, "backup", str(backup))
    assert 1 == again.returncode
    assert again.stderr.startswith("error: BACKUP_EXISTS: ")
    assert 1 == len(again.stderr.splitlines())


def test_a_folder_without_a_backup_is_refused(embedded_dir: Path) -> None:
    (embedded_dir / "empty").mkdir()
    result = invoke(
        None,
        "restore",
        str(embedded_dir / "empty"),
        env={"MATCHLOG_DATA_DIR": str(embedded_dir / "new")},
    )
    assert 1 == result.exit_code
    assert [
        f"error: NOT_A_BACKUP: {str(embedded_dir / 'empty')!r} holds no matchlog backup (no "
        "base.tar.gz, pg_wal.tar.gz, backup_manifest): give the folder `matchlog backup` wrote"
    ] == result.stderr.splitlines()
    assert not (embedded_dir / "new").exists()


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_an_external_server_is_backed_up_with_postgresqls_tools(
    command: str, tmp_path: Path
) -> None:
    result = invoke("postgresql://app@db.example/matchlog", command, str(tmp_path / "b"))
    assert 1 == result.exit_code
    assert [
        f"error: EXTERNAL_DATABASE: `matchlog {command}` copies the embedded server; "
        "MATCHLOG_DATABASE_URL names an external one: use PostgreSQL's own tools "
        "(pg_basebackup or pg_dump, see docs/operations.md)"
    ] == result.stderr.splitlines()
