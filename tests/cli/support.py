"""Running ``matchlog`` as a user at an 80-column terminal would, against a test database."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from typer.testing import CliRunner, Result

from cli.main import app

WIDTH = 80


def invoke(
    database_url: str | None,
    *args: str,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
) -> Result:
    """Run ``matchlog ARGS`` at ``WIDTH`` columns on ``database_url`` (``None``: leave unset),
    with ``input`` on stdin (``None``: a closed stdin)."""
    settings = {"COLUMNS": str(WIDTH), **(env or {})}
    if database_url is not None:
        settings["MATCHLOG_DATABASE_URL"] = database_url
    return CliRunner().invoke(app, list(args), env=settings, input=input)


def assert_fits(text: str) -> None:
    """Fail when a line of ``text`` is wider than ``WIDTH`` or shows a cut (``…``)."""
    wide = [line for line in text.splitlines() if cell_len(line.rstrip()) > WIDTH]
    assert not wide, "\n".join(wide)
    assert "…" not in text, text
