"""Fixtures for projection tests: the API fixtures, players, competitions, whole matches.

``league`` records its matches once per module on a database of its own (recording
them over HTTP is the slow part); its tests only read, or rebuild, which must leave
every read model as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import _admin, _client, _make_token, _scorer  # noqa: F401
from tests.database import as_login, fresh_database
from tests.recording.conftest import _make_players  # noqa: F401
from tests.recording.play import create_match, play_to_end


def competition(client: TestClient[Any], admin: dict[str, str], **body: Any) -> str:
    """Create a competition and return its id."""
    r = client.post("/competitions", json={"name": "Club", **body}, headers=admin)
    assert 201 == r.status_code, r.text
    competition_id: str = r.json()["id"]
    return competition_id


@pytest.fixture(name="make_competition")
def _make_competition(client: TestClient[Any], admin: dict[str, str]) -> Any:
    """Create a competition and return its id."""
    return lambda **body: competition(client, admin, **body)


@pytest.fixture(name="league", scope="module")
def _league(
    admin_url: str, template_database: str, app_login: tuple[str, str]
) -> Iterator[dict[str, Any]]:
    """Two competitions with finished matches, a match outside them, and a live match."""
    import asyncio

    import psycopg

    from store import accounts

    with fresh_database(admin_url, template_database) as owner_url:
        url = as_login(owner_url, app_login)

        async def token(role: Role) -> dict[str, str]:
            async with await psycopg.AsyncConnection.connect(url) as conn:
                _, secret = await accounts.create_token(conn, role=role)
            return {"Authorization": f"Bearer {secret}"}

        admin, scorer = asyncio.run(token(Role.ADMIN)), asyncio.run(token(Role.SCORER))
        with TestClient(create_app(Settings(database_url=url))) as client:

            def play(body: dict[str, Any], seed: int) -> dict[str, Any]:
                match = create_match(client, scorer, body)
                return play_to_end(client, scorer, match, random.Random(seed))

            cuttle = competition(
                client,
                admin,
                game="cuttle",
                variant="standard",
                format="short",
                tiebreaks=["head-to-head", "sonneborn-berger", "round-difference", "wins"],
            )
            kozel = competition(
                client, admin, game="kozel", format={"loss_limit": 2}, tiebreaks=["wins"]
            )
            people = []
            for i in range(4):
                r = client.post("/players", json={"display_name": f"P{i}"}, headers=scorer)
                people.append(r.json()["id"])
            finished = []
            for seed, (a, b) in enumerate([(0, 1), (1, 2), (2, 0)]):
                body = {
                    "game": "cuttle",
                    "players": [people[a], people[b]],
                    "competition_id": cuttle,
                }
                finished.append(play(body, seed))
            finished.append(play({"game": "kozel", "players": people, "competition_id": kozel}, 7))
            cutthroat = {
                "game": "cuttle",
                "variant": "cutthroat",
                "players": people[:3],
                "format": "quick",
            }
            finished.append(play(cutthroat, 8))
            live = create_match(
                client, scorer, {"game": "cuttle", "players": people[:2], "competition_id": cuttle}
            )
            yield {
                "client": client,
                "url": url,
                "cuttle": cuttle,
                "kozel": kozel,
                "finished": finished,
                "live": live,
            }
