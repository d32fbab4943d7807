"""Forfeited tables and what a bye scores: the fixtures' results, Swiss scores, standings."""

from __future__ import annotations

import uuid
from typing import Any

from litestar.testing import TestClient

from tests.api.test_fixtures import entered, pair, play, resign
from tests.projections.test_read_models import run_rebuild

Client = TestClient[Any]


def league(client: Client, admin: dict[str, str], **settings: Any) -> str:
    """A Cuttle league whose matches play ``quick``, as ``play`` records them."""
    body = {"name": "League", "game": "cuttle", "variant": "standard", "format": "quick"}
    body.update(settings)
    made = client.post("/competitions", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    return str(made.json()["id"])


def forfeit(client: Client, headers: dict[str, str], comp: str, table: str, by: list[str]) -> Any:
    return client.post(
        f"/competitions/{comp}/fixtures/{table}/forfeit",
        json={"forfeited_by": by},
        headers=headers,
    )


def tables(client: Client, comp: str) -> list[dict[str, Any]]:
    return [
        t
        for r in client.get(f"/competitions/{comp}/fixtures").json()["rounds"]
        for t in r["tables"]
    ]


def test_a_forfeit_is_the_tables_result_and_counts_in_standings(
    client: Client, admin: dict[str, str]
) -> None:
    comp = league(client, admin)
    a, b = entered(client, admin, comp, 2)
    table = pair(client, admin, comp, system="round-robin").json()["rounds"][0]["tables"][0]
    done = forfeit(client, admin, comp, table["id"], [b])
    assert 200 == done.status_code, done.text
    seat_a = table["entrants"].index(a)
    want = {"winners": [seat_a], "draw": False, "forfeit": True, "forfeited_by": [b]}
    assert want == done.json()["result"]
    assert [want] == [t["result"] for t in tables(client, comp)]
    again = forfeit(client, admin, comp, table["id"], [b])
    assert (200, want) == (again.status_code, again.json()["result"])
    other = forfeit(client, admin, comp, table["id"], [a])
    assert (409, "FIXTURE_FORFEITED") == (other.status_code, other.json()["code"])
    standings = client.get(f"/competitions/{comp}/standings").json()
    assert (0, 1) == (standings["matches"], standings["forfeits"])
    rows = {r["entity"]: r for r in standings["players"]}
    (pa,) = client.get(f"/competitions/{comp}/entrants").json()["items"][0]["players"]
    top, bottom = standings["players"]
    assert (1, 1, 1, 1, 0) == (top["rank"], top["played"], top["won"], top["points"], top["lost"])
    assert (1, 0) == (top["forfeits_won"], top["forfeits_lost"])
    assert (2, 1, 1, 0) == (bottom["rank"], bottom["played"], bottom["lost"], bottom["points"])
    assert (0, 1) == (bottom["forfeits_won"], bottom["forfeits_lost"])
    assert pa == top["entity"] and pa in rows
    assert top["rating"] is None, "a forfeit is no played match: nobody is rated on it"


def test_a_double_forfeit_has_no_winner(client: Client, admin: dict[str, str]) -> None:
    comp = league(client, admin)
    ids = entered(client, admin, comp, 2)
    table = pair(client, admin, comp, system="swiss").json()["rounds"][0]["tables"][0]
    done = forfeit(client, admin, comp, table["id"], ids)
    assert 200 == done.status_code, done.text
    assert [] == done.json()["result"]["winners"]
    assert table["entrants"] == done.json()["result"]["forfeited_by"]
    standings = client.get(f"/competitions/{comp}/standings").json()
    assert [(1, 0, 1), (1, 0, 1)] == [
        (r["played"], r["won"], r["lost"]) for r in standings["players"]
    ]
    # Swiss scores nobody for it: both stay at 0 and the next round is made.
    assert 201 == pair(client, admin, comp, system="swiss").status_code


def test_forfeit_refusals(client: Client, admin: dict[str, str], scorer: dict[str, str]) -> None:
    comp = league(client, admin)
    ids = entered(client, admin, comp, 4)
    first, second = pair(client, admin, comp, system="swiss").json()["rounds"][0]["tables"]
    by_scorer = forfeit(client, scorer, comp, first["id"], first["entrants"][:1])
    assert 403 == by_scorer.status_code
    stranger = next(e for e in ids if e not in first["entrants"])
    unknown = forfeit(client, admin, comp, first["id"], [stranger])
    assert (422, "UNKNOWN_ENTRANT") == (unknown.status_code, unknown.json()["code"])
    empty = forfeit(client, admin, comp, first["id"], [])
    assert 422 == empty.status_code
    missing = forfeit(client, admin, comp, str(uuid.uuid4()), first["entrants"][:1])
    assert (404, "FIXTURE_NOT_FOUND") == (missing.status_code, missing.json()["code"])
    elsewhere = league(client, admin)
    wrong = forfeit(client, admin, elsewhere, first["id"], first["entrants"][:1])
    assert (404, "FIXTURE_NOT_FOUND") == (wrong.status_code, wrong.json()["code"])
    play(client, admin, second, loser=1)
    played = forfeit(client, admin, comp, second["id"], second["entrants"][:1])
    assert (409, "FIXTURE_PLAYED") == (played.status_code, played.json()["code"])
    assert [None, False] == [
        tables(client, comp)[0]["result"],
        tables(client, comp)[1]["result"]["forfeit"],
    ]


def test_a_forfeited_tables_live_match_counts_only_as_the_forfeit(
    client: Client, admin: dict[str, str]
) -> None:
    comp = league(client, admin)
    ids = entered(client, admin, comp, 2)
    table = pair(client, admin, comp, system="round-robin").json()["rounds"][0]["tables"][0]
    made = client.post(
        "/matches",
        json={
            "game": "cuttle",
            "players": table["players"],
            "fixture_id": table["id"],
            "format": "quick",
        },
        headers=admin,
    )
    assert 201 == made.status_code, made.text
    loser = table["entrants"].index(ids[0])
    assert 200 == forfeit(client, admin, comp, table["id"], [ids[1]]).status_code
    # The match then ends the other way; the forfeit stands as the table's result.
    resign(client, admin, made.json(), loser)
    (shown,) = tables(client, comp)
    assert (True, [ids[1]]) == (shown["result"]["forfeit"], shown["result"]["forfeited_by"])
    standings = client.get(f"/competitions/{comp}/standings").json()
    assert (0, 1) == (standings["matches"], standings["forfeits"])
    assert [(1, 1, 0), (1, 0, 1)] == [
        (r["played"], r["won"], r["lost"]) for r in standings["players"]
    ]


def test_the_competition_keeps_what_a_bye_scores(client: Client, admin: dict[str, str]) -> None:
    # What each setting scores is tests/test_swiss_scores.py's; here, that it is kept.
    for bye in ("win", "draw", "loss"):
        comp = league(client, admin, bye=bye)
        assert bye == client.get(f"/competitions/{comp}").json()["bye"]
    assert "win" == client.get(f"/competitions/{league(client, admin)}").json()["bye"]
    body = {"name": "X", "game": "cuttle", "variant": "standard", "bye": "half"}
    assert 422 == client.post("/competitions", json=body, headers=admin).status_code


def test_a_forfeited_table_takes_no_match(client: Client, admin: dict[str, str]) -> None:
    comp = league(client, admin)
    ids = entered(client, admin, comp, 2)
    table = pair(client, admin, comp, system="round-robin").json()["rounds"][0]["tables"][0]
    assert 200 == forfeit(client, admin, comp, table["id"], ids[:1]).status_code
    body = {"game": "cuttle", "players": table["players"], "fixture_id": table["id"]}
    refused = client.post("/matches", json=body, headers=admin)
    assert (409, "FIXTURE_FORFEITED") == (refused.status_code, refused.json()["code"])


def test_a_rebuild_keeps_standings_made_of_forfeits_only(
    client: Client, admin: dict[str, str], database_url: str
) -> None:
    comp = league(client, admin)
    ids = entered(client, admin, comp, 2)
    table = pair(client, admin, comp, system="round-robin").json()["rounds"][0]["tables"][0]
    assert 200 == forfeit(client, admin, comp, table["id"], ids[:1]).status_code
    before = client.get(f"/competitions/{comp}/standings").json()
    assert 1 == before["forfeits"]
    run_rebuild(database_url)
    assert before == client.get(f"/competitions/{comp}/standings").json()


def test_a_forfeited_table_counts_for_nobodys_first_deals(
    client: Client, admin: dict[str, str]
) -> None:
    comp = league(client, admin)
    entered(client, admin, comp, 2)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"][0]["tables"]
    dealer = first["entrants"][first["first_dealer"]]
    assert 200 == forfeit(client, admin, comp, first["id"], [dealer]).status_code
    (second,) = pair(client, admin, comp, system="swiss").json()["rounds"][1]["tables"]
    # Nobody has dealt yet, so the one seated last deals, though that is round one's.
    assert dealer == second["entrants"][second["first_dealer"]] == second["entrants"][-1]
