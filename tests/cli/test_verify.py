"""``matchlog verify`` end to end: every broken link, checkpoints, JSON, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.simulate import simulated_lines
from tests.logs.support import simulated


def cli(database_url: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, list(args), env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "80"}
    )
    return result.exit_code, result.stdout, result.stderr


def streams(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT DISTINCT stream FROM events ORDER BY stream").fetchall()
    return [row[0] for row in rows]


def tamper(url: str, sql: str, *params: object) -> None:
    with psycopg.connect(url) as conn:
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute(sql, params)


def imported(url: str, tmp_path: Path, matches: int = 2) -> list[str]:
    simulated(tmp_path / "in.jsonl", "cuttle", "standard", matches=matches)
    code, _, err = cli(url, "import", str(tmp_path / "in.jsonl"))
    assert 0 == code, err
    return streams(url)


def test_an_intact_log_verifies(database_url: str, tmp_path: Path) -> None:
    imported(database_url, tmp_path)
    code, out, err = cli(database_url, "verify")
    assert (0, "") == (code, err)
    assert out.endswith(" streams): every hash chain holds\n")


def test_every_broken_link_is_one_line_and_no_traceback(
    database_url: str, owner_url: str, tmp_path: Path
) -> None:
    first, second = imported(database_url, tmp_path)
    tamper(owner_url, "UPDATE events SET data = '{}' WHERE stream = %s AND version = 3", first)
    tamper(owner_url, "DELETE FROM events WHERE stream = %s AND version = 2", second)
    code, out, err = cli(database_url, "verify")
    assert 1 == code
    assert "Traceback" not in out + err
    lines = out.splitlines()
    assert [
        f"{first} 3: hash does not match the event",
        f"{second} 2: version 2 missing",
    ] == lines[:2]
    assert lines[2].startswith("2 problems in 2 streams (")


def test_json_lists_every_problem(database_url: str, owner_url: str, tmp_path: Path) -> None:
    first, _ = imported(database_url, tmp_path)
    tamper(
        owner_url,
        'UPDATE events SET metadata = \'{"by": "x"}\' WHERE stream = %s AND version = 1',
        first,
    )
    code, out, _ = cli(database_url, "verify", "--json")
    assert 1 == code
    document = json.loads(out)
    assert document["ok"] is False
    assert [{"stream": first, "version": 1, "code": "hash"}] == [
        {k: p[k] for k in ("stream", "version", "code")} for p in document["problems"]
    ]


def test_a_checkpoint_then_finds_a_removed_tail_and_stream(
    database_url: str, owner_url: str, tmp_path: Path
) -> None:
    first, second = imported(database_url, tmp_path)
    path = tmp_path / "heads.json"
    code, out, _ = cli(database_url, "verify", "--checkpoint", str(path))
    assert 0 == code
    digest = json.loads(path.read_text())["digest"]
    assert f"checkpoint written to {path} (digest {digest})" in out
    assert 0 == cli(database_url, "verify", "--against", str(path))[0]

    tamper(owner_url, "DELETE FROM events WHERE stream = %s AND version > 4", first)
    tamper(owner_url, "DELETE FROM events WHERE stream = %s", second)
    code, out, _ = cli(database_url, "verify", "--against", str(path), "--json")
    assert 1 == code
    problems = json.loads(out)["problems"]
    assert [(first, 5, "events-lost"), (second, 1, "stream-gone")] == [
        (p["stream"], p["version"], p["code"]) for p in problems
    ]


def test_no_checkpoint_is_written_of_a_broken_log(
    database_url: str, owner_url: str, tmp_path: Path
) -> None:
    first, _ = imported(database_url, tmp_path)
    tamper(owner_url, "UPDATE events SET type = 'X' WHERE stream = %s AND version = 1", first)
    path = tmp_path / "heads.json"
    code, _, err = cli(database_url, "verify", "--checkpoint", str(path))
    assert 1 == code
    assert not path.exists()
    assert f"no checkpoint written to {path}: the log has problems\n" == err


def test_an_altered_checkpoint_is_refused(database_url: str, tmp_path: Path) -> None:
    first, _ = imported(database_url, tmp_path)
    path = tmp_path / "heads.json"
    assert 0 == cli(database_url, "verify", "--checkpoint", str(path))[0]
    document = json.loads(path.read_text())
    document["streams"][first]["version"] -= 1
    path.write_text(json.dumps(document))
    code, out, err = cli(database_url, "verify", "--against", str(path))
    assert (1, "") == (code, out)
    assert err.startswith(f"error: CHECKPOINT_INVALID: {path}: the checkpoint's digest")


def test_a_missing_checkpoint_is_one_line(database_url: str, tmp_path: Path) -> None:
    code, _, err = cli(database_url, "verify", "--against", str(tmp_path / "nope.json"))
    assert 1 == code
    assert err.startswith("error: CHECKPOINT_INVALID: cannot read checkpoint")
    assert 1 == len(err.splitlines())


class TestMatchesOffTheirCompetitionsFormat:
    """Matches recorded against their competition's format: listed, not tampering (#29)."""

    @pytest.fixture(name="season")
    def _season(self, database_url: str, owner_url: str, tmp_path: Path) -> list[str]:
        """Two quick matches of a competition then made ``normal``, as if recorded before
        matchlog held a match to its competition's format (the stored events untouched)."""
        path = tmp_path / "season.jsonl"
        lines = simulated_lines(
            "cuttle", "standard", 2, 1, fmt="quick", options={}, players=3, competition="Club"
        )
        path.write_text("".join(line + "\n" for line in lines))
        code, _, err = cli(database_url, "import", str(path))
        assert 0 == code, err
        tamper(owner_url, "UPDATE competitions SET match_format = '\"normal\"'")
        return streams(database_url)

    def test_each_is_one_line_and_the_exit_status_is_3(
        self, database_url: str, season: list[str]
    ) -> None:
        code, out, err = cli(database_url, "verify")
        assert (3, "") == (code, err)
        lines = out.splitlines()
        assert lines[0].endswith("every hash chain holds")
        reason = (
            "the competition's format is 'normal':"
            " a match of it may repeat it or leave it out, not 'quick'"
        )
        assert [f"{s}: off its competition's format: {reason}" for s in season] == lines[1:3]
        assert (
            "2 matches recorded against their competition's format (not tampering: kept as"
            " recorded)" == lines[3]
        )

    def test_json_lists_them_apart_from_the_chains_problems(
        self, database_url: str, season: list[str]
    ) -> None:
        code, out, _ = cli(database_url, "verify", "--json")
        assert 3 == code
        document = json.loads(out)
        assert (True, []) == (document["ok"], document["problems"])
        assert [(s, "FORMAT_MISMATCH") for s in season] == [
            (o["stream"], o["code"]) for o in document["off_format"]
        ]

    def test_tampering_still_exits_1(
        self, database_url: str, owner_url: str, season: list[str]
    ) -> None:
        tamper(
            owner_url, "UPDATE events SET data = '{}' WHERE stream = %s AND version = 3", season[0]
        )
        code, out, _ = cli(database_url, "verify")
        assert 1 == code
        assert f"{season[1]}: off its competition's format: " in out

    def test_a_checkpoint_is_still_written(
        self, database_url: str, season: list[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "heads.json"
        assert 3 == cli(database_url, "verify", "--checkpoint", str(path))[0]
        assert path.exists()
