"""The organiser's desk through the API: withdrawals, swaps, taken-back rounds, records (#31)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from domain.errors import ConflictError
from store import fixtures
from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, named_players
from tests.api.test_fixtures import entered, pair, play
from tests.projections.test_read_models import run_rebuild

Client = TestClient[Any]


def withdraw(client: Client, headers: dict[str, str], comp: str, entrant: str, reason: str) -> Any:
    return client.post(
        f"/competitions/{comp}/entrants/{entrant}/withdraw",
        json={"reason": reason},
        headers=headers,
    )


def swap(client: Client, headers: dict[str, str], comp: str, n: int, a: str, b: str) -> Any:
    return client.post(
        f"/competitions/{comp}/rounds/{n}/swap",
        json={"a": a, "b": b, "reason": "they came together"},
        headers=headers,
    )


def take_back(client: Client, headers: dict[str, str], comp: str, n: int) -> Any:
    return client.post(
        f"/competitions/{comp}/rounds/{n}/takeback",
        json={"reason": "made by mistake"},
        headers=headers,
    )


def rounds(client: Client, comp: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get(f"/competitions/{comp}/fixtures").json()["rounds"]
    return listed


def test_a_withdrawn_entrant_is_paired_in_no_later_swiss_round(
    client: Client, admin: dict[str, str]
) -> None:
    comp = competition(client, admin, format="quick")
    ids = entered(client, admin, comp, 5)
    first = pair(client, admin, comp, system="swiss").json()["rounds"][0]
    for table in first["tables"]:
        play(client, admin, table, loser=1)
    gone = first["tables"][0]["entrants"][0]
    done = withdraw(client, admin, comp, gone, "  went home  ")
    assert 200 == done.status_code, done.text
    withdrawn = done.json()["withdrawn"]
    assert "went home" == withdrawn["reason"]
    assert withdrawn["by"]["token_id"] and withdrawn["by"]["name"]
    listed = {e["id"]: e for e in client.get(f"/competitions/{comp}/entrants").json()["items"]}
    assert withdrawn == listed[gone]["withdrawn"]
    assert [None] * 4 == [e["withdrawn"] for i, e in listed.items() if i != gone]
    # The result it played stands; the four left are paired, nobody sits out.
    assert [0] == rounds(client, comp)[0]["tables"][0]["result"]["winners"]
    second = pair(client, admin, comp, system="swiss").json()["rounds"][1]
    seated = {e for t in second["tables"] for e in t["entrants"]} | set(second["byes"])
    assert set(ids) - {gone} == seated
    assert ([], 2) == (second["byes"], len(second["tables"]))
    again = withdraw(client, admin, comp, gone, "twice")
    assert (409, "ALREADY_WITHDRAWN") == (again.status_code, again.json()["code"])
    unknown = withdraw(client, admin, comp, str(uuid.uuid4()), "who")
    assert (404, "ENTRANT_NOT_FOUND") == (unknown.status_code, unknown.json()["code"])
    blank = withdraw(client, admin, comp, ids[1], "   ")
    assert (422, "VALIDATION_FAILED") == (blank.status_code, blank.json()["code"])
    (record,) = client.get(f"/competitions/{comp}/records").json()["items"]
    assert ("withdrawal", gone, "went home") == (
        record["kind"],
        record["entrant_id"],
        record["reason"],
    )
    assert {"forfeited": []} == record["details"]


def test_a_round_robin_withdrawal_forfeits_the_tables_not_started(
    client: Client, admin: dict[str, str], database_url: str
) -> None:
    comp = competition(client, admin, format="quick")
    ids = entered(client, admin, comp, 4)
    made = pair(client, admin, comp, system="round-robin").json()["rounds"]
    gone = ids[0]
    played = next(t for t in made[0]["tables"] if gone in t["entrants"])
    play(client, admin, played, loser=played["entrants"].index(gone) ^ 1)
    done = withdraw(client, admin, comp, gone, "injured")
    assert 200 == done.status_code, done.text
    after = rounds(client, comp)
    theirs = [t for r in after for t in r["tables"] if gone in t["entrants"]]
    assert 3 == len(theirs)
    assert False is theirs[0]["result"]["forfeit"], "the result played stands"
    for table in theirs[1:]:
        assert ([gone], True) == (table["result"]["forfeited_by"], table["result"]["forfeit"])
    others = [t for r in after for t in r["tables"] if gone not in t["entrants"]]
    assert [None] * 3 == [t["result"] for t in others]
    (record,) = client.get(f"/competitions/{comp}/records").json()["items"]
    assert {t["id"] for t in theirs[1:]} == set(record["details"]["forfeited"])
    standings = client.get(f"/competitions/{comp}/standings").json()
    assert (1, 2) == (standings["matches"], standings["forfeits"])
    fixtures_before = rounds(client, comp)
    run_rebuild(database_url)
    assert standings == client.get(f"/competitions/{comp}/standings").json()
    assert fixtures_before == rounds(client, comp)


def test_a_kozel_pair_withdraws(client: Client, admin: dict[str, str]) -> None:
    made = client.post("/competitions", json={"name": "Cup", "game": "kozel"}, headers=admin)
    cup = made.json()["id"]
    players = named_players(client, admin, [f"K{i}" for i in range(6)])
    pairs = []
    for i in range(0, 6, 2):
        entry = client.post(
            f"/competitions/{cup}/entrants", json={"players": players[i : i + 2]}, headers=admin
        )
        pairs.append(entry.json()["id"])
    done = withdraw(client, admin, cup, pairs[1], "partner ill")
    assert (200, players[2:4]) == (done.status_code, done.json()["players"])
    (table,) = pair(client, admin, cup, system="round-robin").json()["rounds"][0]["tables"]
    assert {pairs[0], pairs[2]} == set(table["entrants"])


def test_swapping_two_entrants_of_a_round_not_started(
    client: Client, admin: dict[str, str]
) -> None:
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 5)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"]
    (t1, t2), (bye,) = first["tables"], first["byes"]
    a, b = t1["entrants"][0], t2["entrants"][1]
    done = swap(client, admin, comp, 1, a, b)
    assert 200 == done.status_code, done.text
    swapped = done.json()
    assert [b, t1["entrants"][1]] == swapped["tables"][0]["entrants"]
    assert [t2["entrants"][0], a] == swapped["tables"][1]["entrants"]
    assert [t1["first_dealer"], t2["first_dealer"]] == [
        t["first_dealer"] for t in swapped["tables"]
    ]
    assert swapped == rounds(client, comp)[0]
    # A bye swaps with a seat: the one seated sits out instead.
    with_bye = swap(client, admin, comp, 1, bye, b).json()
    assert [bye] == [e for e in with_bye["tables"][0]["entrants"] if e == bye]
    assert [b] == with_bye["byes"]
    same = swap(client, admin, comp, 1, *with_bye["tables"][1]["entrants"])
    assert (422, "SAME_TABLE") == (same.status_code, same.json()["code"])
    stranger = swap(client, admin, comp, 1, a, str(uuid.uuid4()))
    assert (422, "UNKNOWN_ENTRANT") == (stranger.status_code, stranger.json()["code"])
    nowhere = swap(client, admin, comp, 2, a, b)
    assert (404, "ROUND_NOT_FOUND") == (nowhere.status_code, nowhere.json()["code"])
    play(client, admin, with_bye["tables"][0], loser=1)
    started = swap(client, admin, comp, 1, bye, with_bye["tables"][1]["entrants"][0])
    assert (409, "ROUND_STARTED") == (started.status_code, started.json()["code"])
    listed = client.get(f"/competitions/{comp}/records").json()["items"]
    kinds = [(r["kind"], r["round"]) for r in listed]
    assert [("swap", 1), ("swap", 1)] == kinds


def test_taking_back_the_last_round_keeps_it_in_the_records(
    client: Client, admin: dict[str, str], make_token: MakeToken
) -> None:
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 4)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"]
    done = take_back(client, admin, comp, 1)
    assert (200, {"rounds": [], "swiss_scores": {}}) == (done.status_code, done.json())
    assert [] == rounds(client, comp)
    (record,) = client.get(f"/competitions/{comp}/records").json()["items"]
    assert ("takeback", 1, "made by mistake") == (
        record["kind"],
        record["round"],
        record["reason"],
    )
    assert [first] == record["details"]["rounds"]
    remade = pair(client, admin, comp, system="swiss")
    assert 201 == remade.status_code, remade.text
    (again,) = remade.json()["rounds"]
    for table in again["tables"]:
        play(client, admin, table, loser=1)
    second = pair(client, admin, comp, system="swiss").json()["rounds"][1]
    not_last = take_back(client, admin, comp, 1)
    assert (409, "NOT_LAST_ROUND") == (not_last.status_code, not_last.json()["code"])
    play(client, admin, second["tables"][0], loser=0)
    started = take_back(client, admin, comp, 2)
    assert (409, "ROUND_STARTED") == (started.status_code, started.json()["code"])
    missing = take_back(client, admin, comp, 9)
    assert (404, "ROUND_NOT_FOUND") == (missing.status_code, missing.json()["code"])
    other = uuid.UUID(competition(client, admin))
    elsewhere = {"Authorization": f"Bearer {make_token(Role.SCORER, [other])}"}
    refused = take_back(client, elsewhere, comp, 2)
    assert 403 == refused.status_code
    anonymous = take_back(client, {}, comp, 2)
    assert 401 == anonymous.status_code
    assert 2 == len(rounds(client, comp))


def test_a_round_robin_is_taken_back_whole(client: Client, admin: dict[str, str]) -> None:
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 4)
    made = pair(client, admin, comp, system="round-robin").json()["rounds"]
    done = take_back(client, admin, comp, 3)
    assert (200, []) == (done.status_code, done.json()["rounds"])
    (record,) = client.get(f"/competitions/{comp}/records").json()["items"]
    assert made == record["details"]["rounds"]
    # Its rounds taken back, an entrant may join before it is made again.
    (late,) = named_players(client, admin, ["Late"])
    joined = client.post(f"/competitions/{comp}/entrants", json={"player_id": late}, headers=admin)
    assert 201 == joined.status_code, joined.text
    again = pair(client, admin, comp, system="round-robin").json()["rounds"]
    assert 5 == len(again)


def test_a_late_entrant_joins_the_next_swiss_round(client: Client, admin: dict[str, str]) -> None:
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 4)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"]
    for table in first["tables"]:
        play(client, admin, table, loser=1)
    (late,) = named_players(client, admin, ["Late"])
    joined = client.post(f"/competitions/{comp}/entrants", json={"player_id": late}, headers=admin)
    assert 201 == joined.status_code, joined.text
    second = pair(client, admin, comp, system="swiss")
    assert 201 == second.status_code, second.text
    made = second.json()["rounds"][1]
    seated = [e for t in made["tables"] for e in t["entrants"]] + made["byes"]
    assert joined.json()["id"] in seated and 5 == len(seated)


def test_records_are_read_as_the_competition_is(
    client: Client, admin: dict[str, str], make_token: MakeToken
) -> None:
    private = competition(client, admin, public=False)
    assert 401 == client.get(f"/competitions/{private}/records").status_code
    assert 200 == client.get(f"/competitions/{private}/records", headers=admin).status_code
    missing = client.get(f"/competitions/{uuid.uuid4()}/records")
    assert (404, "COMPETITION_NOT_FOUND") == (missing.status_code, missing.json()["code"])
    scorer = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    entrant = entered(client, admin, private, 2)[0]
    by_scorer = withdraw(client, scorer, private, entrant, "asked to")
    assert 200 == by_scorer.status_code, by_scorer.text


def test_cutthroat_tables_leave_a_withdrawn_entrant_out(
    client: Client, admin: dict[str, str]
) -> None:
    made = client.post(
        "/competitions",
        json={"name": "Threes", "game": "cuttle", "variant": "cutthroat"},
        headers=admin,
    )
    comp = made.json()["id"]
    ids = entered(client, admin, comp, 7)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"]
    (bye,) = first["byes"]
    # A withdrawn entrant keeps the bye it has, but cannot be swapped onto a table.
    assert 200 == withdraw(client, admin, comp, bye, "phone call").status_code
    seated_one = first["tables"][0]["entrants"][0]
    refused = swap(client, admin, comp, 1, bye, seated_one)
    assert (409, "ENTRANT_WITHDRAWN") == (refused.status_code, refused.json()["code"])
    for table in first["tables"]:
        done = client.post(
            f"/competitions/{comp}/fixtures/{table['id']}/forfeit",
            json={"forfeited_by": table["entrants"][1:]},
            headers=admin,
        )
        assert 200 == done.status_code, done.text
    second = pair(client, admin, comp, system="swiss").json()["rounds"][1]
    assert ([3, 3], []) == ([len(t["entrants"]) for t in second["tables"]], second["byes"])
    assert set(ids) - {bye} == {e for t in second["tables"] for e in t["entrants"]}


def test_a_void_tables_result_is_corrected_by_a_new_match(
    client: Client, admin: dict[str, str], database_url: str
) -> None:
    """A voided table takes a new match, kept as a correction record (#31)."""
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 4)
    (first,) = pair(client, admin, comp, system="swiss").json()["rounds"]
    table, other = first["tables"]
    wrong = play(client, admin, table, loser=1)
    play(client, admin, other, loser=1)
    winner, loser = table["players"]

    def points() -> dict[str, Any]:
        rows = client.get(f"/competitions/{comp}/standings").json()["players"]
        return {r["entity"]: r["points"] for r in rows}

    assert (1, 0) == (points()[winner], points()[loser])
    taken = client.post(
        "/matches",
        json={"game": "cuttle", "players": table["players"], "fixture_id": table["id"]},
        headers=admin,
    )
    assert (409, "FIXTURE_TAKEN") == (taken.status_code, taken.json()["code"])
    version = client.get(f"/matches/{wrong}").json()["version"]
    voided = client.post(
        f"/matches/{wrong}/void",
        json={"reason": "the wrong winner was entered", "expected_version": version},
        headers=admin,
    )
    assert 200 == voided.status_code, voided.text
    # The void match counts nowhere: its players have no other match yet.
    assert {winner, loser}.isdisjoint(points())
    right = play(client, admin, table, loser=0)
    assert (0, 1) == (points()[winner], points()[loser])
    fixed = rounds(client, comp)[0]["tables"][0]
    assert (right, [1]) == (fixed["match_id"], fixed["result"]["winners"])
    # The void match keeps its record.
    old = client.get(f"/matches/{wrong}").json()
    assert ("void", voided.json()["version"]) == (old["status"], old["version"])
    assert table["id"] == old["fixture_id"] == client.get(f"/matches/{right}").json()["fixture_id"]
    (record,) = client.get(f"/competitions/{comp}/records").json()["items"]
    assert ("correction", 1, "the wrong winner was entered") == (
        record["kind"],
        record["round"],
        record["reason"],
    )
    details = record["details"]
    assert (table["id"], 1, wrong, right) == (
        details["fixture_id"],
        details["table"],
        details["void_match_id"],
        details["match_id"],
    )
    assert record["by"]["token_id"] and details["voided_by"] and details["voided_at"]
    # The new match is not void: the table is taken again.
    again = client.post(
        "/matches",
        json={"game": "cuttle", "players": table["players"], "fixture_id": table["id"]},
        headers=admin,
    )
    assert (409, "FIXTURE_TAKEN") == (again.status_code, again.json()["code"])
    standings = client.get(f"/competitions/{comp}/standings").json()
    assert 2 == standings["matches"]
    fixtures_before = rounds(client, comp)
    run_rebuild(database_url)
    assert standings == client.get(f"/competitions/{comp}/standings").json()
    assert fixtures_before == rounds(client, comp)


def test_two_new_matches_racing_for_a_void_table_link_one(
    client: Client, admin: dict[str, str], database_url: str
) -> None:
    """The table's row lock decides: the second link finds the first's live match."""
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 2)
    (table,) = pair(client, admin, comp, system="swiss").json()["rounds"][0]["tables"]
    wrong = play(client, admin, table, loser=1)
    version = client.get(f"/matches/{wrong}").json()["version"]
    body = {"reason": "wrong winner", "expected_version": version}
    assert 200 == client.post(f"/matches/{wrong}/void", json=body, headers=admin).status_code
    setup = {"game": "cuttle", "players": table["players"], "competition_id": comp}
    a, b = (
        uuid.UUID(client.post("/matches", json=setup, headers=admin).json()["id"]) for _ in "ab"
    )
    fixture = uuid.UUID(table["id"])

    async def go() -> str:
        connect = psycopg.AsyncConnection.connect
        async with await connect(database_url) as first, await connect(database_url) as second:

            async def link_second() -> None:
                async with second.transaction():
                    await fixtures.link_match(second, fixture, b)

            async with first.transaction():
                assert uuid.UUID(wrong) == await fixtures.link_match(first, fixture, a)
                racing = asyncio.create_task(link_second())
                await asyncio.sleep(0.3)
                assert not racing.done()  # waits on the table's row
            with pytest.raises(ConflictError) as refused:
                await racing
            return refused.value.code

    assert "FIXTURE_TAKEN" == asyncio.run(go())
    assert str(a) == rounds(client, comp)[0]["tables"][0]["match_id"]
