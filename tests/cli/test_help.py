"""``matchlog`` explains itself at 80 columns: ``-h`` everywhere, plain value names, a version."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest
import typer

from cli.main import app
from tests.cli.support import assert_fits, invoke


def command_paths() -> list[list[str]]:
    """Return every command's path (``[]`` for ``matchlog`` itself, ``["tokens", "list"]`` ...)."""
    paths: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "matchlog")
def test_every_command_takes_h_and_its_help_reads_plainly(path: list[str]) -> None:
    result = invoke(None, *path, "-h")
    assert 0 == result.exit_code, result.output
    assert result.stdout == invoke(None, *path, "--help").stdout
    assert "Usage: matchlog" in result.stdout
    assert_fits(result.stdout)
    assert not re.search(r"<\w[^>]*>", result.stdout), result.stdout  # <bool>, <list[str]>
    assert "``" not in result.stdout


def test_options_show_their_defaults_and_value_names() -> None:
    out = invoke(None, "simulate", "-h").stdout
    assert "[default: 1]" in out and "INTEGER" in out and "NAME" in out
    assert "[default: (normal, as the API's)]" in out
    flat = " ".join(invoke(None, "serve", "-h").stdout.replace("│", " ").split())
    assert "[default: (MATCHLOG_HOST, else 127.0.0.1)]" in flat


def test_version_is_the_installed_one() -> None:
    result = invoke(None, "--version")
    assert (0, f"matchlog {version('matchlog')}\n") == (result.exit_code, result.stdout)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("PORT", "eighty", "MATCHLOG_PORT must be a whole number from 0 to 65535 (not 'eighty')"),
        ("PORT", "70000", "MATCHLOG_PORT must be a whole number from 0 to 65535 (not '70000')"),
        ("MAX_BODY_SIZE", "0", "MATCHLOG_MAX_BODY_SIZE must be a whole number of at least 1"),
        ("METRICS_ADDRESS", "9100", "MATCHLOG_METRICS_ADDRESS must be host:port (such as 127."),
        ("METRICS", "maybe", "MATCHLOG_METRICS must be true or false (not 'maybe')"),
    ],
)
def test_a_bad_setting_is_named_in_plain_words(name: str, value: str, says: str) -> None:
    result = invoke(None, "matches", env={f"MATCHLOG_{name}": value})
    assert 1 == result.exit_code
    assert result.stderr.startswith(f"error: BAD_SETTING: {says}"), result.stderr
    assert 1 == len(result.stderr.splitlines())
    assert "pydantic" not in result.stderr and "Input should" not in result.stderr


def test_a_metrics_address_needs_one_worker() -> None:
    result = invoke(
        None, "serve", "--workers", "2", env={"MATCHLOG_METRICS_ADDRESS": "127.0.0.1:9100"}
    )
    assert 1 == result.exit_code
    assert result.stderr.startswith(
        "error: BAD_SETTING: MATCHLOG_METRICS_ADDRESS needs --workers 1"
    )
    assert 1 == len(result.stderr.splitlines()), result.stderr
