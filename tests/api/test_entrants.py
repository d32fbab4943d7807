from __future__ import annotations

import uuid
from typing import Any

from litestar.testing import TestClient

from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, named_players

Client = TestClient[Any]


def kozel_competition(client: Client, admin: dict[str, str]) -> str:
    created = client.post("/competitions", json={"name": "Cup", "game": "kozel"}, headers=admin)
    assert 201 == created.status_code, created.text
    return str(created.json()["id"])


def test_cuttle_entrants_are_listed_in_order(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    ann, bob = named_players(client, admin, ["Ann", "Bob"])
    made = [
        client.post(f"/competitions/{league}/entrants", json={"player_id": p}, headers=admin)
        for p in (ann, bob)
    ]
    assert [201, 201] == [m.status_code for m in made]
    listed = client.get(f"/competitions/{league}/entrants").json()["items"]
    assert [m.json() for m in made] == listed
    assert [[ann], [bob]] == [e["players"] for e in listed]


def test_a_kozel_entrant_is_a_pair(client: Client, admin: dict[str, str]) -> None:
    cup = kozel_competition(client, admin)
    a, b, c = named_players(client, admin, ["A", "B", "C"])
    url = f"/competitions/{cup}/entrants"
    made = client.post(url, json={"players": [a, b]}, headers=admin)
    assert 201 == made.status_code, made.text
    assert [a, b] == made.json()["players"]
    lone = client.post(url, json={"player_id": c}, headers=admin)
    assert (422, "WRONG_ENTRANT_SIZE") == (lone.status_code, lone.json()["code"])
    same = client.post(url, json={"players": [c, c]}, headers=admin)
    assert (422, "WRONG_ENTRANT_SIZE") == (same.status_code, same.json()["code"])


def test_bad_entries_are_refused_with_their_reason(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    (ann,) = named_players(client, admin, ["Ann"])
    url = f"/competitions/{league}/entrants"
    assert 201 == client.post(url, json={"player_id": ann}, headers=admin).status_code
    again = client.post(url, json={"player_id": ann}, headers=admin)
    assert (409, "ALREADY_ENTERED") == (again.status_code, again.json()["code"])
    nobody = client.post(url, json={"player_id": str(uuid.uuid4())}, headers=admin)
    assert (422, "UNKNOWN_PLAYER") == (nobody.status_code, nobody.json()["code"])
    both = client.post(url, json={"player_id": ann, "players": [ann]}, headers=admin)
    assert (422, "VALIDATION_FAILED") == (both.status_code, both.json()["code"])
    neither = client.post(url, json={}, headers=admin)
    assert (422, "VALIDATION_FAILED") == (neither.status_code, neither.json()["code"])
    pair = client.post(url, json={"players": [ann, ann]}, headers=admin)
    assert (422, "WRONG_ENTRANT_SIZE") == (pair.status_code, pair.json()["code"])
    missing = client.post(
        f"/competitions/{uuid.uuid4()}/entrants", json={"player_id": ann}, headers=admin
    )
    assert (404, "COMPETITION_NOT_FOUND") == (missing.status_code, missing.json()["code"])


def test_entering_needs_a_token(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    (ann,) = named_players(client, admin, ["Ann"])
    anonymous = client.post(f"/competitions/{league}/entrants", json={"player_id": ann})
    assert 401 == anonymous.status_code
    assert [] == client.get(f"/competitions/{league}/entrants").json()["items"]


def test_a_scorer_limited_elsewhere_is_forbidden(
    client: Client, admin: dict[str, str], make_token: MakeToken
) -> None:
    league, other = competition(client, admin), competition(client, admin)
    (ann,) = named_players(client, admin, ["Ann"])
    scorer = {"Authorization": f"Bearer {make_token(Role.SCORER, [uuid.UUID(other)])}"}
    refused = client.post(
        f"/competitions/{league}/entrants", json={"player_id": ann}, headers=scorer
    )
    assert (403, "FORBIDDEN") == (refused.status_code, refused.json()["code"])
    allowed = client.post(
        f"/competitions/{other}/entrants", json={"player_id": ann}, headers=scorer
    )
    assert 201 == allowed.status_code, allowed.text
