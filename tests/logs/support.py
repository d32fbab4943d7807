"""Running the matchlog CLI in tests against one test database."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from cli.simulate import simulated_lines

VARIANTS = [
    ("cuttle", "classic"),
    ("cuttle", "standard"),
    ("cuttle", "cutthroat"),
    ("kozel", "default"),
]


def cli(database_url: str, *args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    """Run ``matchlog ARGS`` on ``database_url``; return exit code, stdout, stderr."""
    result = CliRunner().invoke(
        app,
        list(args),
        input=input,
        env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "200"},
    )
    return result.exit_code, result.stdout, result.stderr


def simulated(path: Path, game: str, variant: str, matches: int = 2, seed: int = 1) -> str:
    """Write ``matches`` small random matches to ``path``; return the text written."""
    lines = simulated_lines(
        game,
        variant,
        matches,
        seed,
        fmt="quick" if game == "cuttle" else None,
        options={} if game == "cuttle" else {"loss_limit": 2},
    )
    body = "".join(line + "\n" for line in lines)
    path.write_text(body, encoding="utf-8")
    return body
