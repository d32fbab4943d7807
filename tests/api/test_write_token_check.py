"""Writes check the token and the match in their own transaction, in every process.

A match write takes its principal from the process's ``KnownTokens`` and the match's
keys from ``MatchKeys``, with no connection of its own; these tests hold that a
revoked or expired token, or a match changed elsewhere, is never honoured once the
change has committed, by a process that knew the token and the match before. Two
apps on one database stand for two server workers: each has its own caches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.settings import Settings
from store import accounts
from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import live_match

Client = TestClient[Any]


@pytest.fixture(name="other")
def _other(database_url: str) -> Iterator[Client]:
    """A second app on the same database: another worker, with caches of its own."""
    with TestClient(create_app(Settings(database_url=database_url))) as other:
        yield other


def _players(client: Client, headers: dict[str, str]) -> list[str]:
    made = [client.post("/players", json={"display_name": n}, headers=headers) for n in "AB"]
    return [str(r.json()["id"]) for r in made]


def _legal_move(client: Client, headers: dict[str, str], match_id: str) -> tuple[str, int]:
    legal = client.get(f"/matches/{match_id}/legal-moves", headers=headers).json()
    return legal["moves"][0], legal["version"]


def _move(client: Client, headers: dict[str, str], match_id: str, move: str, version: int) -> Any:
    return client.post(
        f"/matches/{match_id}/moves",
        json={"moves": [move]},
        headers={**headers, "If-Match": f'"{version}"'},
    )


def _token_id(database_url: str, secret: str) -> Any:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT id FROM api_tokens WHERE token_hash = %s", (accounts.hash_token(secret),)
        ).fetchone()
    assert row is not None
    return row[0]


def _events(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE api_tokens SET revoked_at = now() WHERE id = %s",
        "UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = %s",
    ],
    ids=["revoked", "expired"],
)
def test_a_token_changed_elsewhere_is_refused_by_every_warm_process(
    client: Client, other: Client, make_token: MakeToken, database_url: str, change: str
) -> None:
    secret = make_token(Role.SCORER)
    headers = {"Authorization": f"Bearer {secret}"}
    match = live_match(client, headers, _players(client, headers))
    move, version = _legal_move(client, headers, match["id"])
    # Both processes have now recorded with the token (it and the match are cached).
    warm = _move(other, headers, match["id"], move, version)
    assert 200 == warm.status_code, warm.text
    move, version = _legal_move(client, headers, match["id"])
    before = _events(database_url)
    with psycopg.connect(database_url) as conn:  # a third connection: the CLI, another worker
        conn.execute(change, (_token_id(database_url, secret),))
    answers = [_move(app, headers, match["id"], move, version) for app in (client, other)]
    assert [401, 401] == [a.status_code for a in answers], [a.text for a in answers]
    assert "UNAUTHENTICATED" == answers[0].json()["code"]
    assert before == _events(database_url)
    # An illegal move is refused as the token first: nothing of the match is told.
    illegal = _move(client, headers, match["id"], "P0 scuttles nothing", version)
    assert 401 == illegal.status_code
    stale = _move(other, headers, match["id"], move, version - 1)
    assert 401 == stale.status_code


def test_a_revoked_token_gets_no_stored_idempotent_answer(
    client: Client, make_token: MakeToken, database_url: str
) -> None:
    secret = make_token(Role.SCORER)
    headers = {"Authorization": f"Bearer {secret}"}
    match = live_match(client, headers, _players(client, headers))
    move, version = _legal_move(client, headers, match["id"])
    keyed = {**headers, "Idempotency-Key": "tap-1"}
    first = _move(client, keyed, match["id"], move, version)
    assert 200 == first.status_code
    assert 200 == _move(client, keyed, match["id"], move, version).status_code
    with psycopg.connect(database_url) as conn:
        accounts_revoke = "UPDATE api_tokens SET revoked_at = now() WHERE id = %s"
        conn.execute(accounts_revoke, (_token_id(database_url, secret),))
    assert 401 == _move(client, keyed, match["id"], move, version).status_code


def test_a_match_changed_elsewhere_is_never_written_after_that_commit(
    client: Client, other: Client, scorer: dict[str, str], admin: dict[str, str], database_url: str
) -> None:
    match = live_match(client, scorer, _players(client, scorer))
    move, version = _legal_move(client, scorer, match["id"])
    # This process knows the match at ``version``; another one ends it.
    resigned = other.post(
        f"/matches/{match['id']}/resign",
        json={"seat": 0, "expected_version": version},
        headers=scorer,
    )
    assert 200 == resigned.status_code, resigned.text
    voided = other.post(
        f"/matches/{match['id']}/void",
        json={"reason": "test", "expected_version": resigned.json()["version"]},
        headers=admin,
    )
    assert 200 == voided.status_code, voided.text
    before = _events(database_url)
    stale = _move(client, scorer, match["id"], move, version)
    assert 412 == stale.status_code, stale.text
    assert voided.json()["version"] == stale.json()["details"]["current_version"]
    current = _move(client, scorer, match["id"], move, voided.json()["version"])
    assert 409 == current.status_code or 422 == current.status_code, current.text
    assert before == _events(database_url)


async def _revoke_waits_for_a_write(database_url: str, token_id: Any) -> list[str]:
    """A write holds its token; a revocation meanwhile waits until the write commits."""
    seen: list[str] = []
    async with (
        await psycopg.AsyncConnection.connect(database_url) as writer,
        await psycopg.AsyncConnection.connect(database_url) as admin,
    ):
        assert {token_id} == await accounts.lock_usable_tokens(writer, {token_id})

        async def revoke() -> None:
            await accounts.revoke_token(admin, token_id)
            await admin.commit()
            seen.append("revoked")

        revoking = asyncio.create_task(revoke())
        await asyncio.sleep(0.3)
        seen.append("write commits")
        await writer.commit()
        await asyncio.wait_for(revoking, 10)
        # Once the revocation committed, a write's check refuses the token.
        assert set() == await accounts.lock_usable_tokens(writer, {token_id})
        await writer.rollback()
    return seen


async def _write_waits_for_a_revocation(database_url: str, token_id: Any) -> set[Any]:
    """A revocation in progress makes a write's check wait, then refuse the token."""
    async with (
        await psycopg.AsyncConnection.connect(database_url) as writer,
        await psycopg.AsyncConnection.connect(database_url) as admin,
    ):
        await accounts.revoke_token(admin, token_id)
        checking = asyncio.create_task(accounts.lock_usable_tokens(writer, {token_id}))
        await asyncio.sleep(0.3)
        assert not checking.done()
        await admin.commit()
        usable = await asyncio.wait_for(checking, 10)
        await writer.rollback()
    return usable


def test_revocation_and_writes_are_ordered_by_the_token_lock(
    make_token: MakeToken, database_url: str
) -> None:
    first = _token_id(database_url, make_token(Role.SCORER))
    assert ["write commits", "revoked"] == asyncio.run(
        _revoke_waits_for_a_write(database_url, first)
    )
    second = _token_id(database_url, make_token(Role.SCORER))
    assert set() == asyncio.run(_write_waits_for_a_revocation(database_url, second))
