"""GET /matches?writable=true and GET /competitions?writable=true: what the token may record."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar.testing import TestClient

from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, named_players
from tests.recording.play import create_match


def _match(client: TestClient[Any], admin: dict[str, str], players: list[str], comp: Any) -> str:
    body = {"game": "cuttle", "variant": "standard", "players": players, "dealing": "scorer"}
    return str(create_match(client, admin, {**body, "competition_id": comp})["id"])


def _listed(client: TestClient[Any], headers: dict[str, str], query: str) -> set[str]:
    response = client.get(f"/matches?{query}", headers=headers)
    assert 200 == response.status_code, response.text
    return {item["id"] for item in response.json()["items"]}


def test_writable_lists_only_the_tokens_competitions(
    client: TestClient[Any], admin: dict[str, str], scorer: dict[str, str], make_token: MakeToken
) -> None:
    players = named_players(client, admin, ["Ann", "Bob"])
    mine, other = competition(client, admin), competition(client, admin, public=False)
    in_mine = _match(client, admin, players, mine)
    in_other = _match(client, admin, players, other)
    outside = _match(client, admin, players, None)
    finished = _match(client, admin, players, mine)
    resigned = client.post(
        f"/matches/{finished}/resign", json={"seat": 0, "expected_version": 1}, headers=admin
    )
    assert 200 == resigned.status_code, resigned.text
    limited = {"Authorization": f"Bearer {make_token(Role.SCORER, [UUID(mine)])}"}

    assert {in_mine} == _listed(client, limited, "status=live&writable=true")
    assert {in_mine, finished} == _listed(client, limited, "writable=true")
    assert {in_mine, outside} == _listed(client, limited, "status=live")
    assert {in_mine, in_other, outside} == _listed(client, scorer, "status=live&writable=true")
    assert {in_mine, in_other, outside} == _listed(client, admin, "status=live&writable=true")


def test_writable_without_a_token_is_a_401_problem(client: TestClient[Any]) -> None:
    response = client.get("/matches?status=live&writable=true")
    assert 401 == response.status_code, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "UNAUTHENTICATED" == response.json()["code"]
    assert 200 == client.get("/matches?status=live&writable=false").status_code


def _competitions(client: TestClient[Any], headers: dict[str, str], query: str) -> set[str]:
    response = client.get(f"/competitions?{query}", headers=headers)
    assert 200 == response.status_code, response.text
    return {item["id"] for item in response.json()["items"]}


def test_writable_competitions_are_the_tokens_own(
    client: TestClient[Any], admin: dict[str, str], scorer: dict[str, str], make_token: MakeToken
) -> None:
    mine, public = competition(client, admin), competition(client, admin)
    private = competition(client, admin, public=False)
    limited = {"Authorization": f"Bearer {make_token(Role.SCORER, [UUID(mine)])}"}
    assert {mine} == _competitions(client, limited, "writable=true&limit=100")
    # Filtered in the query, not after it: the oldest is still on a one-item first page.
    assert {mine} == _competitions(client, limited, "writable=true&limit=1")
    assert {mine, public} <= _competitions(client, limited, "limit=100")
    assert {mine, public, private} <= _competitions(client, scorer, "writable=true&limit=100")
    refused = client.get("/competitions?writable=true")
    assert 401 == refused.status_code, refused.text
    assert "UNAUTHENTICATED" == refused.json()["code"]
