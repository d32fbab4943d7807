"""``matchlog standings`` and ``fixtures`` as people read them, at 80 columns (#32)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from litestar.testing import TestClient
from rich.cells import cell_len

from tests.cli.support import WIDTH, assert_fits, invoke
from tests.recording.play import create_match

LONG = "Featherstonehaugh"
"""A name wider than the name column can be at 80 columns beside the others."""


@pytest.fixture(name="cup")
def _cup(client: TestClient[Any], admin: dict[str, str]) -> str:
    """A Kozel competition with one match, conceded by team B: one finished match."""
    made = client.post("/competitions", json={"name": "Night Cup", "game": "kozel"}, headers=admin)
    assert 201 == made.status_code, made.text
    cup = str(made.json()["id"])
    names = (f"Ann {LONG}-Smythe", "Bob", "Cy", "Di")
    players = [
        client.post("/players", json={"display_name": name}, headers=admin).json()["id"]
        for name in names
    ]
    match = create_match(
        client, admin, {"game": "kozel", "players": players, "competition_id": cup}
    )
    conceded = client.post(
        f"/matches/{match['id']}/resign",
        json={"seat": 1, "expected_version": match["version"]},
        headers=admin,
    )
    assert 200 == conceded.status_code, conceded.text
    return cup


def test_piped_standings_are_the_table_fitted_to_columns(cup: str, database_url: str) -> None:
    """Piped (the runner is no terminal), the table fits COLUMNS as the README says."""
    piped = invoke(database_url, "standings", cup)
    assert 0 == piped.exit_code, piped.output
    assert piped.stdout == invoke(database_url, "standings", cup, "-f", "table").stdout
    assert piped.stdout.startswith("Night Cup: 1 finished match\n")
    assert all(cell_len(line.rstrip()) <= WIDTH for line in piped.stdout.splitlines())
    players, pairs = piped.stdout.split("\nPairs")
    ratings = re.findall(r" (-?\d+\.\d+)$", players, re.MULTILINE)
    assert 4 == len(ratings) and all(re.fullmatch(r"-?\d+\.\d\d", r) for r in ratings)
    # A pair has no rating: its table leaves the empty columns out.
    head = pairs.splitlines()[1].split()
    assert ["#", "name", "pl", "w", "l"] == head[:5]
    assert not {"mu", "sigma", "rating"} & set(head)


def test_a_long_name_is_never_cut_across_lines(cup: str, database_url: str) -> None:
    """A word too wide for its column ends in an ellipsis; no line starts mid-word."""
    shown = invoke(database_url, "standings", cup).stdout
    words = {w for line in shown.splitlines() for w in line.split()}
    cut = {w for w in words if w != LONG and (LONG.startswith(w.rstrip("…")) or LONG.endswith(w))}
    assert all(w.endswith("…") for w in cut), cut
    assert not any(w.startswith(("haugh", "ugh", "gh")) for w in words), shown


def test_markdown_and_csv_ratings_have_few_places(cup: str, database_url: str) -> None:
    md = invoke(database_url, "standings", cup, "-f", "md").stdout
    assert "\n1 finished match.\n" in md
    rated = [line.split("|")[-4:-1] for line in md.splitlines() if LONG in line]
    assert rated and all(re.fullmatch(r" -?\d+\.\d\d ", cell) for cell in rated[0]), rated
    rows = list(
        csv.DictReader(io.StringIO(invoke(database_url, "standings", cup, "-f", "csv").stdout))
    )
    players = [row for row in rows if row["table"] == "players"]
    assert 4 == len(players)
    for row in players:
        for part in ("mu", "sigma", "ordinal"):
            assert re.fullmatch(r"-?\d+\.\d{4}", row[part]), row


def test_markdown_leaves_out_columns_no_row_fills_and_csv_keeps_its_header(
    cup: str, database_url: str
) -> None:
    """A pair has no rating: its Markdown table has no rating columns; the CSV header stays."""
    md = invoke(database_url, "standings", cup, "-f", "md").stdout
    players, pairs = md.split("\n## Pairs\n")
    player_head = next(line for line in players.splitlines() if line.startswith("| rank"))
    pair_head = next(line for line in pairs.splitlines() if line.startswith("| rank"))
    assert player_head.endswith("| mu | sigma | ordinal |"), player_head
    assert not {"mu", "sigma", "ordinal"} & {c.strip() for c in pair_head.split("|")}, pair_head
    assert all("|  |" not in line for line in pairs.splitlines()), pairs
    rows = list(
        csv.DictReader(io.StringIO(invoke(database_url, "standings", cup, "-f", "csv").stdout))
    )
    pair_rows = [row for row in rows if row["table"] == "pairs"]
    assert 2 == len(pair_rows)
    assert all(row["mu"] == row["sigma"] == row["ordinal"] == "" for row in pair_rows), pair_rows


def test_piped_fixtures_are_the_table(
    client: TestClient[Any], admin: dict[str, str], database_url: str
) -> None:
    body = {"name": "Thursday league", "game": "cuttle", "variant": "standard"}
    league = str(client.post("/competitions", json=body, headers=admin).json()["id"])
    for name in ("Ada", "Bob", "Cy"):
        player = client.post("/players", json={"display_name": name}, headers=admin).json()
        entry = client.post(
            f"/competitions/{league}/entrants", json={"player_id": player["id"]}, headers=admin
        )
        assert 201 == entry.status_code, entry.text
    assert 0 == invoke(database_url, "pair", league, "-s", "swiss").exit_code
    piped = invoke(database_url, "fixtures", league)
    assert 0 == piped.exit_code, piped.output
    assert_fits(piped.stdout)
    assert piped.stdout == invoke(database_url, "fixtures", league, "-f", "table").stdout
    assert piped.stdout.startswith("Thursday league: 1 round\n")
    assert ["round", "table", "first", "second", "result"] == piped.stdout.splitlines()[1].split()[
        :5
    ]
