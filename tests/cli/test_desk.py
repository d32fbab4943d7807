"""The organiser at a terminal: competitions, entrants, withdrawals, forfeits, ``pair --undo``."""

from __future__ import annotations

import json
import re
from typing import Any

from litestar.testing import TestClient

from tests.api.support import competition
from tests.api.test_fixtures import entered, pair, play
from tests.cli.support import assert_fits, invoke

NAMES = ("Ada Lovelace-Byron", "Bob", "Cy", "Dmitri Ivanovich Mendeleev", "Eve")


def created(database_url: str, *args: str) -> str:
    made = invoke(database_url, "competitions", "create", *args)
    assert 0 == made.exit_code, made.output
    found = re.match(r"([0-9a-f-]{36})  ", made.stdout)
    assert found, made.stdout
    return found.group(1)


def test_an_organisers_night_from_the_terminal(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    night = created(
        database_url, "Thursday night", "--game", "cuttle", "--variant", "standard",
        "--format", "quick", "--tiebreak", "wins",
    )  # fmt: skip
    api = client.get(f"/competitions/{night}").json()
    assert ("Thursday night", "cuttle", "standard", "quick", ["wins"]) == (
        api["name"], api["game"], api["variant"], api["format"], api["tiebreaks"],
    )  # fmt: skip
    listed = invoke(database_url, "competitions", "list")
    assert 0 == listed.exit_code, listed.output
    assert_fits(listed.stdout)
    assert night[:8] in listed.stdout and "Thursday night" in listed.stdout

    unknown = invoke(database_url, "entrants", "add", night[:8], "Nobody")
    assert 1 == unknown.exit_code
    assert "error: PLAYER_NOT_FOUND: no player is named 'Nobody': add --create" in unknown.stderr
    added = invoke(database_url, "entrants", "add", night[:8], *NAMES, "--create")
    assert 0 == added.exit_code, added.output
    assert 5 == len(added.stdout.splitlines())
    entrants = client.get(f"/competitions/{night}/entrants").json()["items"]
    assert [line.split()[0] for line in added.stdout.splitlines()] == [e["id"] for e in entrants]
    again = invoke(database_url, "entrants", "add", night[:8], "bob")
    assert (1, "error: ALREADY_ENTERED") == (again.exit_code, again.stderr[:22])

    paired = invoke(database_url, "pair", night[:8], "-s", "swiss", "-f", "json")
    assert 0 == paired.exit_code, paired.output
    assert 1 == len(json.loads(paired.stdout)["rounds"])
    no_reason = invoke(database_url, "pair", night[:8], "--undo")
    assert 2 == no_reason.exit_code and "--undo needs a reason" in no_reason.output
    undone = invoke(database_url, "pair", night[:8], "--undo", "-r", "wrong night", "-f", "json")
    assert 0 == undone.exit_code, undone.output
    assert ({"rounds": [], "swiss_scores": {}}, "round 1 taken back") == (
        json.loads(undone.stdout),
        undone.stderr.strip().split(" (")[0],
    )
    remade = invoke(database_url, "pair", night[:8], "-s", "swiss", "-f", "json")
    (round_one,) = json.loads(remade.stdout)["rounds"]
    names = {e["id"]: n for e, n in zip(entrants, NAMES, strict=True)}
    table = round_one["tables"][0]
    loser = names[table["entrants"][1]]
    forfeited = invoke(database_url, "forfeit", night[:8], "1.1", "--by", loser, "-f", "json")
    assert 0 == forfeited.exit_code, forfeited.output
    result = json.loads(forfeited.stdout)["rounds"][0]["tables"][0]["result"]
    assert ([0], True) == (result["winners"], result["forfeit"])
    wrong = invoke(database_url, "forfeit", night[:8], "1.9", "--by", loser)
    assert "error: FIXTURE_NOT_FOUND: the competition has no table 1.9" in wrong.stderr

    # Withdraw the entrant seated at table 2: its unstarted table is forfeited.
    gone = names[round_one["tables"][1]["entrants"][0]]
    withdrawn = invoke(
        database_url, "entrants", "withdraw", night[:8], gone.split()[0].lower(), "-r", "ill"
    )
    assert 0 == withdrawn.exit_code, withdrawn.output
    assert f"{gone} withdrawn; 1 table(s) forfeited to the opponents." == " ".join(
        withdrawn.stdout.split()
    )
    shown = client.get(f"/competitions/{night}/entrants").json()["items"]
    assert [n == gone for n in NAMES] == [e["withdrawn"] is not None for e in shown]
    by = next(e["withdrawn"]["by"] for e in shown if e["withdrawn"])
    assert by["token_id"] is None and by["name"].startswith("matchlog (")
    twice = invoke(database_url, "entrants", "withdraw", night[:8], gone, "-r", "again")
    assert "error: ALREADY_WITHDRAWN" in twice.stderr

    table_list = invoke(database_url, "entrants", "list", night[:8])
    assert 0 == table_list.exit_code, table_list.output
    assert_fits(table_list.stdout)
    assert "Mendeleev" in table_list.stdout and ": ill" in table_list.stdout
    show = invoke(database_url, "competitions", "show", night[:8])
    assert 0 == show.exit_code, show.output
    assert_fits(show.stdout)
    for text in ("entrants   5 (1 withdrawn)", "rounds     1, 2 of 2 tables", "wrong night"):
        assert text in show.stdout, show.stdout
    assert f"withdrawal: {gone}" in " ".join(show.stdout.split())


def test_a_kozel_cup_takes_pairs(database_url: str) -> None:
    cup = created(database_url, "Cup", "--game", "kozel", "--loss-limit", "8")
    odd = invoke(database_url, "entrants", "add", cup, "A", "B", "C", "--create")
    assert "error: WRONG_ENTRANT_SIZE: a kozel entrant is 2 players" in odd.stderr
    added = invoke(database_url, "entrants", "add", cup, "A", "B", "C", "D", "--create")
    assert ["A & B", "C & D"] == [line.split("  ", 1)[1] for line in added.stdout.splitlines()]
    show = invoke(database_url, "competitions", "show", cup)
    assert "loss limit 8, eggs double next false" in show.stdout
    withdrawn = invoke(database_url, "entrants", "withdraw", cup, "D", "-r", "left")
    assert 0 == withdrawn.exit_code, withdrawn.output
    assert withdrawn.stdout.startswith("C & D withdrawn")


def test_help_fits_and_names_the_commands() -> None:
    for args in (("competitions",), ("entrants",), ("forfeit", "--help"), ("pair", "--help")):
        shown = invoke(None, *args, "--help") if len(args) == 1 else invoke(None, *args)
        assert 0 == shown.exit_code, shown.output
        assert_fits(shown.stdout)
    assert "withdraw" in invoke(None, "entrants", "--help").stdout
    assert "--undo" in invoke(None, "pair", "--help").stdout


def test_competitions_show_lists_a_corrected_result(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    """A void table's new match is shown among the records, with the void's reason."""
    comp = competition(client, admin, format="quick")
    entered(client, admin, comp, 2)
    (table,) = pair(client, admin, comp, system="swiss").json()["rounds"][0]["tables"]
    wrong = play(client, admin, table, loser=1)
    version = client.get(f"/matches/{wrong}").json()["version"]
    voided = client.post(
        f"/matches/{wrong}/void",
        json={"reason": "seats read the wrong way round", "expected_version": version},
        headers=admin,
    )
    assert 200 == voided.status_code, voided.text
    play(client, admin, table, loser=0)
    show = invoke(database_url, "competitions", "show", comp[:8])
    assert 0 == show.exit_code, show.output
    assert_fits(show.stdout)
    # The columns wrap: the record's lines hold its what and why between them.
    [row] = [line for line in show.stdout.splitlines() if "correction, round 1" in line]
    lines = show.stdout.splitlines()
    at = lines.index(row)
    shown = " ".join(" ".join(lines[at : at + 2]).split())
    assert all(w in shown for w in ("table 1", "seats read the wrong way")), shown
