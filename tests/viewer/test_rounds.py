"""The competition page's rounds (issue #23) in headless Chromium, on what the API returns.

Competitions, entrants, fixtures and matches are all made over HTTP; the page is then
read as a visitor reads it. Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh
the pictures.
"""

from __future__ import annotations

from typing import Any

import httpx

from store.accounts import Role
from tests.recording.play import create_match
from tests.viewer.conftest import token_headers
from tests.viewer.test_viewer import make_players, screenshot

Page = Any


def league(http: httpx.Client, admin: dict[str, str], name: str, game: str, variant: str) -> str:
    """Create a competition with public reads; return its id."""
    body = {"name": name, "game": game, "variant": variant, "public_reads": True}
    if game == "cuttle":
        body["format"] = "quick"
    made = http.post("/competitions", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    competition_id: str = made.json()["id"]
    return competition_id


def enter(http: httpx.Client, admin: dict[str, str], competition: str, body: Any) -> str:
    """Enter a player or a pair; return the entrant's id."""
    made = http.post(f"/competitions/{competition}/entrants", json=body, headers=admin)
    assert 201 == made.status_code, made.text
    entrant_id: str = made.json()["id"]
    return entrant_id


def round_robin(http: httpx.Client, admin: dict[str, str], competition: str) -> list[Any]:
    made = http.post(
        f"/competitions/{competition}/fixtures", json={"system": "round-robin"}, headers=admin
    )
    assert 201 == made.status_code, made.text
    rounds: list[Any] = made.json()["rounds"]
    return rounds


def fixture_match(
    http: httpx.Client, headers: dict[str, str], game: str, table: dict[str, Any]
) -> dict[str, Any]:
    """Start the table's match (its players in the fixture's order)."""
    body = {"game": game, "players": table["players"], "fixture_id": table["id"]}
    return create_match(http, headers, body)


def resign(http: httpx.Client, headers: dict[str, str], match: dict[str, Any], seat: int) -> None:
    """End a Cuttle match: ``seat`` resigns it."""
    resigned = http.post(
        f"/matches/{match['id']}/resign",
        json={"seat": seat, "expected_version": match["version"]},
        headers=headers,
    )
    assert 200 == resigned.status_code, resigned.text
    assert "finished" == resigned.json()["match"]["status"]


def forfeit(
    http: httpx.Client, admin: dict[str, str], competition: str, table: str, by: list[str]
) -> None:
    """An admin marks the table forfeited by the entrants ``by``."""
    done = http.post(
        f"/competitions/{competition}/fixtures/{table}/forfeit",
        json={"forfeited_by": by},
        headers=admin,
    )
    assert 200 == done.status_code, done.text


def row_texts(page: Page, round_number: int) -> list[dict[str, Any]]:
    """Each table row of a round as the page shows it."""
    rows: list[dict[str, Any]] = page.evaluate(
        """n => [...document.querySelectorAll(`#rounds .round[data-round="${n}"] tbody tr`)]
          .map(tr => ({
            table: tr.dataset.table,
            entrants: [...tr.querySelectorAll('.entrant')].map(e => e.textContent),
            result: tr.querySelector('.result').textContent,
            link: tr.querySelector('a') && tr.querySelector('a').getAttribute('href'),
          }))""",
        round_number,
    )
    return rows


def byes_of(page: Page, round_number: int) -> list[str]:
    texts: list[str] = page.locator(
        f'#rounds .round[data-round="{round_number}"] .byes .entrant'
    ).all_inner_texts()
    return texts


def test_cuttle_rounds_show_results_live_tables_and_byes(
    page: Page,
    server: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
    viewport: dict[str, int],
) -> None:
    """Three entrants, round robin: a finished table, a live one, one not started, a bye
    each round; the live table's result appears once its match ends."""
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Thursday league", "cuttle", "standard")
    names = ["Kit", "Lou", "Max"]
    players = make_players(http, scorer_headers, names)
    entrants = [enter(http, admin, competition, {"player_id": p}) for p in players]
    name_of = dict(zip(entrants, names, strict=True))
    rounds = round_robin(http, admin, competition)
    assert [1, 1, 1] == [len(r["tables"]) for r in rounds]
    first, second, third = (r["tables"][0] for r in rounds)
    # Round 1: the second entrant's seat resigns, so the first entrant won: "1-0".
    finished = fixture_match(http, scorer_headers, "cuttle", first)
    resign(http, scorer_headers, finished, 1)
    live = fixture_match(http, scorer_headers, "cuttle", second)

    page.goto(f"{server}/competitions/{competition}/view")
    page.wait_for_selector("#rounds .round")
    numbers = page.locator("#rounds .round").evaluate_all("s => s.map(x => x.dataset.round)")
    assert ["1", "2", "3"] == numbers
    expected = [
        (first, "1-0", f"/matches/{finished['id']}/view"),
        (second, "live", f"/matches/{live['id']}/view"),
        (third, "not started", None),
    ]
    for number, (table, result, link) in enumerate(expected, start=1):
        assert [
            {
                "table": table["id"],
                "entrants": [name_of[e] for e in table["entrants"]],
                "result": result,
                "link": link,
            }
        ] == row_texts(page, number)
        assert [name_of[e] for e in rounds[number - 1]["byes"]] == byes_of(page, number)
    # Every entrant sits out once: the byes name all three.
    assert sorted(names) == sorted(b for n in (1, 2, 3) for b in byes_of(page, n))
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # A finger can hit each table's view link (#32): 44 px high at least.
    heights = page.locator("#rounds td a").evaluate_all(
        "links => links.map(a => a.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights
    screenshot(page, "competition-rounds", viewport)

    # The page follows the competition's live feed: round 2's result shows once it ends,
    # from the first entrant's side (its seat 0 resigned: "0-1").
    resign(http, scorer_headers, live, 0)
    page.wait_for_function(
        """() => document.querySelector('#rounds .round[data-round="2"] .result')
          .textContent === '0-1'"""
    )
    page.locator('#rounds .round[data-round="1"] a').click()
    page.wait_for_url(f"**/matches/{finished['id']}/view*")


def test_kozel_pairs_are_named_by_both_players_and_a_forfeit_shows(
    page: Page,
    server: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Kozel cup", "kozel", "default")
    ada, bob, cy, dee = make_players(http, scorer_headers, ["Ada", "Bob", "Cy", "Dee"])
    pair_a = enter(http, admin, competition, {"players": [ada, cy]})
    pair_b = enter(http, admin, competition, {"players": [bob, dee]})
    [only] = round_robin(http, admin, competition)
    [table] = only["tables"]
    pairs = {pair_a: "Ada & Cy", pair_b: "Bob & Dee"}
    page.goto(f"{server}/competitions/{competition}/view")
    page.wait_for_selector("#rounds .round")
    row = {
        "table": table["id"],
        "entrants": [pairs[e] for e in table["entrants"]],
        "result": "not started",
        "link": None,
    }
    assert [row] == row_texts(page, 1)
    assert [] == byes_of(page, 1)
    # The second entrant forfeits: the first wins, written as the CLI writes it.
    forfeit(http, admin, competition, table["id"], [table["entrants"][1]])
    page.reload()
    page.wait_for_selector("#rounds .round")
    assert [{**row, "result": "1-0 ff"}] == row_texts(page, 1)


def test_no_rounds_section_without_fixtures(
    page: Page,
    server: str,
    http: httpx.Client,
    viewer_database: str,
) -> None:
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "No pairings yet", "cuttle", "standard")
    page.goto(f"{server}/competitions/{competition}/view")
    page.wait_for_selector("#standings")
    assert 0 == page.locator("#rounds").count()
