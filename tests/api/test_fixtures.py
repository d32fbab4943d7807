from __future__ import annotations

import uuid
from collections import Counter
from itertools import combinations
from typing import Any

from litestar.testing import TestClient

from tests.api.support import competition, named_players

Client = TestClient[Any]


def entered(client: Client, admin: dict[str, str], league: str, count: int) -> list[str]:
    """Enter ``count`` new players in a Cuttle league; return the entrants' ids."""
    ids = []
    for player in named_players(client, admin, [f"P{i}" for i in range(count)]):
        made = client.post(
            f"/competitions/{league}/entrants", json={"player_id": player}, headers=admin
        )
        assert 201 == made.status_code, made.text
        ids.append(made.json()["id"])
    return ids


def pair(client: Client, headers: dict[str, str], league: str, **body: Any) -> Any:
    return client.post(f"/competitions/{league}/fixtures", json=body, headers=headers)


def play(client: Client, headers: dict[str, str], table: dict[str, Any], loser: int) -> str:
    """Record the table's match (Cuttle, quick) and resign it by seat ``loser``."""
    made = client.post(
        "/matches",
        json={
            "game": "cuttle",
            "variant": "standard",
            "players": table["players"],
            "format": "quick",
            "fixture_id": table["id"],
        },
        headers=headers,
    )
    assert 201 == made.status_code, made.text
    resign(client, headers, made.json(), loser)
    return str(made.json()["id"])


def resign(client: Client, headers: dict[str, str], match: dict[str, Any], loser: int) -> None:
    """End a match just created (``match``: its body) by seat ``loser`` resigning."""
    resigned = client.post(
        f"/matches/{match['id']}/resign",
        json={"seat": loser, "expected_version": match["version"]},
        headers=headers,
    )
    assert 200 == resigned.status_code, resigned.text


def test_a_round_robin_of_five_over_two_legs(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    ids = entered(client, admin, league, 5)
    made = pair(client, admin, league, system="round-robin", legs=2)
    assert 201 == made.status_code, made.text
    rounds = made.json()["rounds"]
    assert made.json() == client.get(f"/competitions/{league}/fixtures").json()
    assert list(range(1, 11)) == [r["number"] for r in rounds]
    meetings = Counter(frozenset(t["entrants"]) for r in rounds for t in r["tables"])
    assert {frozenset(p): 2 for p in combinations(ids, 2)} == dict(meetings)
    assert {e: 2 for e in ids} == Counter(e for r in rounds for e in r["byes"])
    table = rounds[0]["tables"][0]
    assert (None, None) == (table["match_id"], table["result"])
    again = pair(client, admin, league, system="swiss")
    assert (409, "FIXTURES_EXIST") == (again.status_code, again.json()["code"])
    (late,) = named_players(client, admin, ["Late"])
    joined = client.post(
        f"/competitions/{league}/entrants", json={"player_id": late}, headers=admin
    )
    assert (409, "FIXTURES_EXIST") == (joined.status_code, joined.json()["code"])


def test_swiss_rounds_follow_the_results(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin, format="quick")
    ids = entered(client, admin, league, 4)
    first = pair(client, admin, league, system="swiss").json()["rounds"][0]
    assert 2 == len(first["tables"])
    early = pair(client, admin, league, system="swiss")
    assert (409, "ROUND_UNFINISHED") == (early.status_code, early.json()["code"])
    winners = []
    for table in first["tables"]:
        match_id = play(client, admin, table, loser=1)
        winners.append(table["entrants"][0])
        shown = client.get(f"/competitions/{league}/fixtures").json()["rounds"][0]["tables"]
        mine = next(t for t in shown if t["id"] == table["id"])
        assert match_id == mine["match_id"]
        assert [0] == mine["result"]["winners"]
    second = pair(client, admin, league, system="swiss").json()["rounds"][1]
    assert 0 == second["rematches"]
    tables = {frozenset(t["entrants"]) for t in second["tables"]}
    losers = set(ids) - set(winners)
    assert {frozenset(winners), frozenset(losers)} == tables


def test_a_fixtures_match_must_be_its_players(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    entered(client, admin, league, 2)
    table = pair(client, admin, league, system="round-robin").json()["rounds"][0]["tables"][0]
    body = {"game": "cuttle", "variant": "standard", "fixture_id": table["id"]}
    swapped = client.post(
        "/matches", json={**body, "players": table["players"][::-1]}, headers=admin
    )
    assert (422, "FIXTURE_MISMATCH") == (swapped.status_code, swapped.json()["code"])
    other = competition(client, admin)
    elsewhere = client.post(
        "/matches",
        json={**body, "players": table["players"], "competition_id": other},
        headers=admin,
    )
    assert (422, "FIXTURE_MISMATCH") == (elsewhere.status_code, elsewhere.json()["code"])
    unknown = client.post(
        "/matches",
        json={**body, "players": table["players"], "fixture_id": str(uuid.uuid4())},
        headers=admin,
    )
    assert (404, "FIXTURE_NOT_FOUND") == (unknown.status_code, unknown.json()["code"])
    made = client.post("/matches", json={**body, "players": table["players"]}, headers=admin)
    assert 201 == made.status_code, made.text
    assert league == made.json()["competition_id"]
    twice = client.post("/matches", json={**body, "players": table["players"]}, headers=admin)
    assert (409, "FIXTURE_TAKEN") == (twice.status_code, twice.json()["code"])


def test_a_kozel_pairs_table_seats_partners_opposite(client: Client, admin: dict[str, str]) -> None:
    made = client.post("/competitions", json={"name": "Cup", "game": "kozel"}, headers=admin)
    cup = made.json()["id"]
    a1, a2, b1, b2 = named_players(client, admin, ["A1", "A2", "B1", "B2"])
    for pair_ in ([a1, a2], [b1, b2]):
        entry = client.post(f"/competitions/{cup}/entrants", json={"players": pair_}, headers=admin)
        assert 201 == entry.status_code, entry.text
    table = pair(client, admin, cup, system="round-robin").json()["rounds"][0]["tables"][0]
    assert [a1, b1, a2, b2] == table["players"]


def test_pairing_refusals(client: Client, admin: dict[str, str]) -> None:
    league = competition(client, admin)
    alone = pair(client, admin, league, system="round-robin")
    assert (422, "NOT_ENOUGH_ENTRANTS") == (alone.status_code, alone.json()["code"])
    legs = pair(client, admin, league, system="swiss", legs=2)
    assert (422, "VALIDATION_FAILED") == (legs.status_code, legs.json()["code"])
    unknown = pair(client, admin, league, system="knockout")
    assert 400 <= unknown.status_code < 500
    assert (
        401 == client.post(f"/competitions/{league}/fixtures", json={"system": "swiss"}).status_code
    )


def test_a_retried_fixture_match_gets_its_first_answer(
    client: Client, admin: dict[str, str]
) -> None:
    league = competition(client, admin)
    entered(client, admin, league, 2)
    table = pair(client, admin, league, system="round-robin").json()["rounds"][0]["tables"][0]
    body = {"game": "cuttle", "players": table["players"], "fixture_id": table["id"]}
    headers = {**admin, "Idempotency-Key": "fixture-retry-1"}
    first = client.post("/matches", json=body, headers=headers)
    again = client.post("/matches", json=body, headers=headers)
    assert (201, 201) == (first.status_code, again.status_code), again.text
    assert first.json()["id"] == again.json()["id"]
    shown = client.get(f"/competitions/{league}/fixtures").json()["rounds"][0]["tables"][0]
    assert first.json()["id"] == shown["match_id"]


def test_swiss_ranks_equal_scores_by_the_competitions_tiebreaks(
    client: Client, admin: dict[str, str]
) -> None:
    body = {
        "name": "L",
        "game": "cuttle",
        "variant": "standard",
        "format": "quick",
        "tiebreaks": ["wins"],
    }
    league = str(client.post("/competitions", json=body, headers=admin).json()["id"])
    ids = entered(client, admin, league, 4)
    players = [
        e["players"][0] for e in client.get(f"/competitions/{league}/entrants").json()["items"]
    ]
    # A match of the competition outside its fixtures: the last entrant beats the third.
    made = client.post(
        "/matches",
        json={
            "game": "cuttle",
            "players": [players[3], players[2]],
            "format": "quick",
            "competition_id": league,
        },
        headers=admin,
    )
    assert 201 == made.status_code, made.text
    resign(client, admin, made.json(), loser=1)
    # All on no Swiss points; the tiebreak (wins) ranks the last entrant first.
    first = pair(client, admin, league, system="swiss").json()["rounds"][0]["tables"][0]
    assert ids[3] == first["entrants"][0]


def test_a_fixtures_match_takes_its_tables_first_dealer(
    client: Client, admin: dict[str, str]
) -> None:
    league = competition(client, admin)
    entered(client, admin, league, 4)
    rounds = pair(client, admin, league, system="round-robin", legs=2).json()["rounds"]
    first, second = rounds[0]["tables"]
    dealer = first["first_dealer"]
    assert dealer in (0, 1) and second["first_dealer"] in (0, 1)
    body = {"game": "cuttle", "players": first["players"], "fixture_id": first["id"]}
    other = client.post("/matches", json={**body, "first_dealer": 1 - dealer}, headers=admin)
    assert (422, "FIXTURE_MISMATCH") == (other.status_code, other.json()["code"])
    assert dealer == other.json()["details"]["first_dealer"]
    made = client.post("/matches", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    got = client.get(f"/matches/{made.json()['id']}").json()
    assert (dealer, False) == (got["first_dealer"], got["first_dealer_drawn"])
    same = {"game": "cuttle", "players": second["players"], "fixture_id": second["id"]}
    given = client.post(
        "/matches", json={**same, "first_dealer": second["first_dealer"]}, headers=admin
    )
    assert 201 == given.status_code, given.text


def test_a_fixtures_match_names_its_fixture(client: Client, admin: dict[str, str]) -> None:
    """The answer that made it, GET /matches/{id} and a later write's answer give the
    fixture and the competition; a match made outside the fixtures has none (#32)."""
    league = competition(client, admin)
    entered(client, admin, league, 2)
    table = pair(client, admin, league, system="round-robin").json()["rounds"][0]["tables"][0]
    body = {"game": "cuttle", "players": table["players"], "fixture_id": table["id"]}
    made = client.post("/matches", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    expected = (table["id"], league)
    assert expected == (made.json()["fixture_id"], made.json()["competition_id"])
    read = client.get(f"/matches/{made.json()['id']}").json()
    assert expected == (read["fixture_id"], read["competition_id"])
    legal = client.get(f"/matches/{made.json()['id']}/legal-moves", headers=admin).json()
    moved = client.post(
        f"/matches/{made.json()['id']}/moves",
        json={"moves": [legal["moves"][0]], "expected_version": legal["version"]},
        headers=admin,
    )
    assert 200 == moved.status_code, moved.text
    assert table["id"] == moved.json()["match"]["fixture_id"]
    loose = client.post("/matches", json={**body, "fixture_id": None}, headers=admin)
    assert 201 == loose.status_code, loose.text
    assert (None, None) == (loose.json()["fixture_id"], loose.json()["competition_id"])
    assert None is client.get(f"/matches/{loose.json()['id']}").json()["fixture_id"]
