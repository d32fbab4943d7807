"""Tokens that expire: created with a lifetime, listed with their end, refused after it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app
from service.settings import Settings
from service.tokens import parse_duration

_ID = re.compile(r"token ([0-9a-f-]{36})")


def run(database_url: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, ["tokens", *args], env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "80"}
    )
    return result.exit_code, result.stdout, result.stderr


def create(database_url: str, *args: str) -> tuple[str, str]:
    """Create a token with the CLI; return its id and secret."""
    code, out, err = run(database_url, "create", "--role", "admin", *args)
    assert 0 == code, err
    return _ID.search(err).group(1), out.strip()  # type: ignore[union-attr]


def lifetime(database_url: str, token_id: str) -> timedelta | None:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT expires_at - created_at FROM api_tokens WHERE id = %s", (token_id,)
        ).fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def expire(database_url: str, token_id: str) -> None:
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = %s",
            (token_id,),
        )


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("30d", timedelta(days=30)), ("12h", timedelta(hours=12)), ("90m", timedelta(minutes=90))],
)
def test_lifetime_is_stored_as_its_end(database_url: str, typed: str, expected: timedelta) -> None:
    token_id, _ = create(database_url, "--expires-in", typed)
    assert expected == lifetime(database_url, token_id)


def test_token_without_a_lifetime_never_expires(database_url: str) -> None:
    token_id, _ = create(database_url)
    assert lifetime(database_url, token_id) is None


@pytest.mark.parametrize("typed", ["30", "30x", "d", "0d", "-1h", "1.5h", "36501d", "1d2h"])
def test_bad_lifetime_is_one_clear_line(database_url: str, typed: str) -> None:
    code, out, err = run(database_url, "create", "--role", "admin", "--expires-in", typed)
    assert (1, "") == (code, out)
    assert f"error: MALFORMED: {typed!r} is not a token lifetime: give a whole number" in err
    assert 1 == err.count("\n")


def test_list_shows_the_end_and_active_leaves_expired_out(database_url: str) -> None:
    lasting, _ = create(database_url, "--name", "lasting", "--expires-in", "30d")
    gone, _ = create(database_url, "--name", "gone", "--expires-in", "1h")
    expire(database_url, gone)
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT expires_at, now() FROM api_tokens WHERE id = %s", (lasting,)
        ).fetchone()
        assert row is not None
        end, now = row
    code, everything, _ = run(database_url, "list")
    assert 0 == code
    # At 80 columns a token's status holds its dates, compact (#32): the day and month
    # within this year, else the whole date.
    end_day = f"{end.day} {end:%b}" if end.year == now.year else f"{end:%Y-%m-%d}"
    lines = everything.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith(lasting))
    assert re.search(r"lasting +admin +all +live *$", lines[at]), everything
    assert lines[at + 1].rstrip().endswith(f"expires {end_day}"), everything
    at = next(n for n, line in enumerate(lines) if line.startswith(gone))
    assert re.search(r"gone +admin +all +expired \d+ \w+ *$", lines[at]), everything
    code, active, _ = run(database_url, "list", "--active")
    assert "lasting" in active
    assert "gone" not in active


def test_expired_token_is_refused_exactly_like_a_revoked_one(database_url: str) -> None:
    expired_id, expired = create(database_url, "--expires-in", "12h")
    revoked_id, revoked = create(database_url)
    with TestClient(create_app(Settings(database_url=database_url))) as client:

        def attempt(secret: str) -> Any:
            headers = {"Authorization": f"Bearer {secret}"}
            return client.post("/players", json={"display_name": "Ada"}, headers=headers)

        assert 201 == attempt(expired).status_code
        expire(database_url, expired_id)
        assert (0, f"token {revoked_id} revoked\n") == run(database_url, "revoke", revoked_id)[:2]
        answers = [attempt(expired), attempt(revoked)]
    assert [401, 401] == [a.status_code for a in answers]
    assert answers[0].json() == answers[1].json()
    assert "UNAUTHENTICATED" == answers[0].json()["code"]
    header = "www-authenticate"
    assert answers[0].headers[header] == answers[1].headers[header]
    assert 'error="invalid_token"' in answers[0].headers[header]


def test_api_creates_a_token_that_expires(database_url: str) -> None:
    _, admin = create(database_url)
    headers = {"Authorization": f"Bearer {admin}"}
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        made = client.post("/tokens", json={"role": "scorer", "expires_in": 3600}, headers=headers)
        assert 201 == made.status_code, made.text
        body = made.json()
        assert timedelta(hours=1) == lifetime(database_url, body["id"])
        listed = client.get(f"/tokens/{body['id']}", headers=headers).json()
        assert body["expires_at"] == listed["expires_at"] is not None
        never = client.post("/tokens", json={"role": "scorer"}, headers=headers).json()
        assert never["expires_at"] is None
        for bad in (0, -5, "soon", 36501 * 86400):
            refused = client.post(
                "/tokens", json={"role": "scorer", "expires_in": bad}, headers=headers
            )
            assert 422 == refused.status_code, bad
            assert "VALIDATION_FAILED" == refused.json()["code"]


def test_parse_duration_reads_days_hours_and_minutes() -> None:
    assert [timedelta(days=2), timedelta(hours=3), timedelta(minutes=45)] == [
        parse_duration(t) for t in ("2d", "3H", " 45m")
    ]
