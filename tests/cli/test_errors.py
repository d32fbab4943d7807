"""Every command that needs the database says so in one line when it cannot reach it."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app


def closed_port() -> int:
    """Return a local TCP port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


MATCH = str(uuid.uuid4())


@pytest.mark.parametrize(
    "args",
    [
        ["import", "LOG"],
        ["export", "--all"],
        ["verify"],
        ["replay", MATCH, "--ply", "0"],
        ["standings", MATCH],
        ["matches"],
        ["tokens", "list"],
        ["db", "current"],
        ["projections", "rebuild"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_an_unreachable_database_is_one_line(tmp_path: Path, args: list[str]) -> None:
    log = tmp_path / "in.jsonl"
    log.write_text("{}\n")
    url = f"postgresql://matchlog@127.0.0.1:{closed_port()}/matchlog?connect_timeout=5"
    result = CliRunner().invoke(
        app,
        [str(log) if a == "LOG" else a for a in args],
        env={"MATCHLOG_DATABASE_URL": url, "COLUMNS": "200"},
    )
    assert 1 == result.exit_code, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stderr.startswith("error: DATABASE_UNAVAILABLE: cannot reach the database:")
    assert "Traceback" not in result.output
    assert 1 == len(result.stderr.strip().splitlines())
