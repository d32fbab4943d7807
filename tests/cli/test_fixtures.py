"""``matchlog pair`` and ``matchlog fixtures``: the API's rounds, at 80 columns."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from litestar.testing import TestClient

from tests.cli.support import assert_fits, invoke

NAMES = ("Ada Lovelace-Byron", "Bob", "Cy", "Dmitri Ivanovich Mendeleev", "Eve")


def league(client: TestClient[Any], admin: dict[str, str], variant: str = "standard") -> str:
    body = {"name": "Thursday league", "game": "cuttle", "variant": variant}
    competition = str(client.post("/competitions", json=body, headers=admin).json()["id"])
    for name in NAMES:
        player = client.post("/players", json={"display_name": name}, headers=admin).json()
        entry = client.post(
            f"/competitions/{competition}/entrants", json={"player_id": player["id"]}, headers=admin
        )
        assert 201 == entry.status_code, entry.text
    return competition


def test_pair_and_fixtures_agree_with_the_api(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    competition = league(client, admin)
    paired = invoke(database_url, "pair", competition[:8], "--system", "round-robin", "-f", "json")
    assert 0 == paired.exit_code, paired.output
    api = client.get(f"/competitions/{competition}/fixtures").json()
    assert api == json.loads(paired.stdout)
    listed = invoke(database_url, "fixtures", competition, "-f", "json")
    assert api == json.loads(listed.stdout)
    rows = list(
        csv.DictReader(
            io.StringIO(invoke(database_url, "fixtures", competition, "-f", "csv").stdout)
        )
    )
    assert 5 * 2 + 5 == len(rows), "ten tables and five byes"
    assert {n for n in NAMES} == {r["first"] for r in rows if r["table"] == "bye"}
    table = invoke(database_url, "fixtures", competition, "-f", "table")
    assert 0 == table.exit_code, table.output
    assert_fits(table.stdout)
    assert "Mendeleev" in table.stdout
    md = invoke(database_url, "fixtures", competition, "-f", "md").stdout
    assert md.startswith("# Thursday league: fixtures")
    assert 2 + 1 + 15 == len(md.strip().splitlines()) - 1


def test_pair_refusals_are_errors_not_tracebacks(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    competition = league(client, admin)
    assert 0 == invoke(database_url, "pair", competition, "-s", "swiss").exit_code
    early = invoke(database_url, "pair", competition, "-s", "swiss")
    assert 1 == early.exit_code
    assert "ROUND_UNFINISHED" in early.output
    legs = invoke(database_url, "pair", competition, "-s", "swiss", "--legs", "2")
    assert 0 != legs.exit_code


def test_a_forfeit_and_the_first_dealer_show_in_every_format(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    competition = league(client, admin)
    made = client.post(
        f"/competitions/{competition}/fixtures", json={"system": "round-robin"}, headers=admin
    )
    table = made.json()["rounds"][0]["tables"][0]
    done = client.post(
        f"/competitions/{competition}/fixtures/{table['id']}/forfeit",
        json={"forfeited_by": table["entrants"][:1]},
        headers=admin,
    )
    assert 200 == done.status_code, done.text
    rows = list(
        csv.DictReader(
            io.StringIO(invoke(database_url, "fixtures", competition, "-f", "csv").stdout)
        )
    )
    assert "third" not in rows[0]
    assert ("0-1 ff", str(table["first_dealer"])) == (rows[0]["result"], rows[0]["dealer"])
    api = client.get(f"/competitions/{competition}/fixtures").json()
    dealers = [str(t["first_dealer"]) for r in api["rounds"] for t in r["tables"]]
    assert dealers == [r["dealer"] for r in rows if r["table"] != "bye"]
    shown = invoke(database_url, "fixtures", competition, "-f", "table")
    assert 0 == shown.exit_code, shown.output
    assert_fits(shown.stdout)
    assert "0-1 ff" in shown.stdout and "dealer" in shown.stdout
    md = invoke(database_url, "fixtures", competition, "-f", "md").stdout
    assert "| 1 | 1 |" in md and "0-1 ff" in md
    # The standings count it; the forfeiting player has no rating, and no column breaks.
    for fmt in ("table", "csv", "md"):
        standings = invoke(database_url, "standings", competition, "-f", fmt)
        assert 0 == standings.exit_code, standings.output
    api_standings = client.get(f"/competitions/{competition}/standings").json()
    cli_standings = json.loads(invoke(database_url, "standings", competition, "-f", "json").stdout)
    assert api_standings == cli_standings
    assert 1 == cli_standings["forfeits"]


def test_cutthroat_tables_of_three_in_every_format(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    competition = league(client, admin, "cutthroat")
    refused = invoke(database_url, "pair", competition, "-s", "round-robin")
    assert 1 == refused.exit_code and "UNSUPPORTED_VARIANT" in refused.output
    paired = invoke(database_url, "pair", competition, "-s", "swiss", "-f", "json")
    assert 0 == paired.exit_code, paired.output
    api = client.get(f"/competitions/{competition}/fixtures").json()
    assert api == json.loads(paired.stdout)
    (table,) = api["rounds"][0]["tables"]
    assert 3 == len(table["entrants"]) and 2 == len(api["rounds"][0]["byes"])
    rows = list(
        csv.DictReader(
            io.StringIO(invoke(database_url, "fixtures", competition, "-f", "csv").stdout)
        )
    )
    assert ["round", "table", "first", "second", "third", "result", "dealer", "match"] == list(
        rows[0]
    )
    assert all(rows[0][c] for c in ("first", "second", "third", "dealer"))
    shown = invoke(database_url, "fixtures", competition, "-f", "table")
    assert 0 == shown.exit_code, shown.output
    assert_fits(shown.stdout)
    assert "third" in shown.stdout and "Mendeleev" in shown.stdout
