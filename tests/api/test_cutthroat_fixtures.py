"""Cutthroat Swiss rounds through the API: tables of three, byes, and no round robin."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from litestar.testing import TestClient

from tests.api.test_fixtures import entered, pair

Client = TestClient[Any]


def cutthroat(client: Client, admin: dict[str, str]) -> str:
    body = {"name": "Threes", "game": "cuttle", "variant": "cutthroat"}
    made = client.post("/competitions", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    return str(made.json()["id"])


def test_cutthroat_swiss_rounds_seat_three_and_spread_byes(
    client: Client, admin: dict[str, str]
) -> None:
    league = cutthroat(client, admin)
    ids = entered(client, admin, league, 7)
    refused = pair(client, admin, league, system="round-robin")
    assert (422, "UNSUPPORTED_VARIANT") == (refused.status_code, refused.json()["code"])
    assert "swiss" in refused.json()["detail"]
    shared: Counter[frozenset[str]] = Counter()
    for number in range(1, 4):
        made = pair(client, admin, league, system="swiss")
        assert 201 == made.status_code, made.text
        last = made.json()["rounds"][-1]
        assert number == last["number"]
        assert [3, 3] == [len(t["entrants"]) for t in last["tables"]]
        assert all(t["first_dealer"] in (0, 1, 2) for t in last["tables"])
        seated = [e for t in last["tables"] for e in t["entrants"]] + last["byes"]
        assert sorted(ids) == sorted(seated)
        pairs = [frozenset(p) for t in last["tables"] for p in combinations(t["entrants"], 2)]
        assert sum(1 for p in pairs if shared[p]) == last["rematches"]
        shared.update(pairs)
        for table in last["tables"]:
            # Two entrants forfeit: the third wins the table.
            done = client.post(
                f"/competitions/{league}/fixtures/{table['id']}/forfeit",
                json={"forfeited_by": table["entrants"][1:]},
                headers=admin,
            )
            assert 200 == done.status_code, done.text
            assert [0] == done.json()["result"]["winners"]
    rounds = client.get(f"/competitions/{league}/fixtures").json()["rounds"]
    byes = Counter(e for r in rounds for e in r["byes"])
    assert 3 == len(byes) and set(byes.values()) == {1}, "three byes, three entrants"


def test_a_cutthroat_round_needs_three_entrants(client: Client, admin: dict[str, str]) -> None:
    league = cutthroat(client, admin)
    entered(client, admin, league, 2)
    few = pair(client, admin, league, system="swiss")
    assert (422, "NOT_ENOUGH_ENTRANTS") == (few.status_code, few.json()["code"])
