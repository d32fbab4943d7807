"""The organiser's desk (issue #31): a Swiss night of nine run from ``/organise`` in
headless Chromium against the real API, and its rounds printed on A4.

The competition, its entrants, rounds, score-sheet results, a withdrawal, a swap, a
round taken back and a corrected result are all made through the page; one table is
recorded on the scorer's pad. The standings at the end are checked against values
worked out by hand from the pairings the night had (asserted too).
Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pictures.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from store.accounts import Role
from tests.api.support import competition
from tests.viewer.conftest import DESKTOP, PHONE, token_headers
from tests.viewer.test_pad import _club, _club_browser, fresh_page, settle, version_of
from tests.viewer.test_viewer import make_players, screenshot

__all__ = ["_club", "_club_browser"]  # the fixtures this module shares

Page = Any

NAMES = ["Ada", "Bea", "Cal", "Dov", "Eli", "Fay", "Gus", "Hal", "Ivy"]
"""The night's nine, strongest first: at every table the earlier name wins 2-0."""


def drawn(page: Page) -> str:
    page.wait_for_selector("body[data-drawn]")
    value: str = page.evaluate("document.body.dataset.drawn")
    return value


def redrawn(page: Page, before: str) -> None:
    """Wait for the desk to draw the competition again after an action."""
    try:
        page.wait_for_function("b => document.body.dataset.drawn !== b", arg=before)
    except Exception:
        print("the desk showed:", page.inner_text("main"))  # says why, on a timeout
        raise


def act(page: Page, selector: str) -> None:
    """Click ``selector`` and wait for the desk's redraw."""
    before = drawn(page)
    page.click(selector)
    redrawn(page, before)


def sign_in(browser: Any, club: str, secret: str, viewport: dict[str, int]) -> Page:
    page = fresh_page(browser, viewport)
    page.goto(club + "/organise")
    page.fill("#token", secret)
    page.click("#sign-in-button")
    return page


def tables_of(
    http: httpx.Client, competition: str, number: int, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    rounds = http.get(f"/competitions/{competition}/fixtures", headers=headers).json()["rounds"]
    [found] = [r for r in rounds if r["number"] == number]
    tables: list[dict[str, Any]] = found["tables"]
    return tables


def seated(http: httpx.Client, competition: str, number: int, names: dict[str, str]) -> Any:
    """A round as names: each table's players by seat, then the byes."""
    rounds = http.get(f"/competitions/{competition}/fixtures").json()["rounds"]
    [found] = [r for r in rounds if r["number"] == number]
    entrants = {
        e["id"]: e["players"][0]
        for e in http.get(f"/competitions/{competition}/entrants").json()["items"]
    }
    return (
        [[names[p] for p in t["players"]] for t in found["tables"]],
        [names[entrants[e]] for e in found["byes"]],
    )


def winner_seat(table: dict[str, Any], names: dict[str, str]) -> int:
    """The seat of the table's stronger player (the earlier name)."""
    return min(range(len(table["players"])), key=lambda s: NAMES.index(names[table["players"][s]]))


def enter_sheet(page: Page, table: dict[str, Any], lines: list[str]) -> None:
    """Open a table's score sheet on the desk, write its results and record them.

    A table not started yet takes the lines typed; once its match is live, the desk
    offers the server's results as buttons, which the test picks.
    """
    row = f'li.desk-table[data-table="{table["id"]}"]'
    page.click(f"{row} button.enter-sheet")
    page.wait_for_selector(f"{row} .sheet-form")
    if table["match_id"] is None:
        page.fill(f"{row} textarea.sheet-lines", "\n".join(lines))
    else:
        for line in lines:
            page.click(f'{row} button.quick-result[data-move="{line}"]')
    act(page, f"{row} button.record-sheet")


def test_a_swiss_night_of_nine_from_the_desk(
    club_browser: Any, club: str, http: httpx.Client, viewer_database: str
) -> None:
    admin = token_headers(viewer_database, Role.ADMIN)
    secret = admin["Authorization"].removeprefix("Bearer ")
    # One regular is known already: the desk finds her by name.
    [ada] = make_players(http, admin, ["Ada"])
    page = sign_in(club_browser, club, secret, DESKTOP)
    try:
        # -- create the competition from the games' descriptors
        page.wait_for_selector("#new-competition")
        page.fill("#competition-name", "Thursday Swiss")
        page.select_option("#competition-game", "cuttle")
        page.select_option("#competition-variant", "standard")
        # The format offered first is the game's default: best of three rounds.
        assert "normal" == page.input_value("#competition-setting-format")
        page.select_option("#tiebreak-1", "sonneborn-berger")
        page.select_option("#tiebreak-2", "wins")
        page.select_option("#competition-bye", "win")
        page.click("#create-competition")
        page.wait_for_selector("#entrants")
        competition = page.evaluate(
            "new URLSearchParams(location.hash.slice(1)).get('competition')"
        )
        made = http.get(f"/competitions/{competition}").json()
        assert ("cuttle", "standard", "normal", ["sonneborn-berger", "wins"], "win") == (
            made["game"],
            made["variant"],
            made["format"],
            made["tiebreaks"],
            made["bye"],
        )

        # -- entrants: Ada is found by name, the other eight are created on the spot
        for name in NAMES:
            page.fill("#entrant-player-0", name)
            act(page, "#add-entrant-button")
        players = {
            p["display_name"]: p["id"] for p in http.get("/players?limit=100").json()["items"]
        }
        assert ada == players["Ada"]
        names = {players[n]: n for n in NAMES}
        entrants = http.get(f"/competitions/{competition}/entrants").json()["items"]
        assert NAMES == [names[e["players"][0]] for e in entrants]
        entrant_of = {names[e["players"][0]]: e["id"] for e in entrants}

        # -- round 1: made, two entrants swapped before any table starts
        act(page, "#make-swiss")
        before_swap = seated(http, competition, 1, names)
        first, second = before_swap[0][0][0], before_swap[0][1][0]
        round1 = 'section.round[data-round="1"]'
        page.click(f"{round1} button.swap")
        page.select_option(f"{round1} select.swap-a", entrant_of[first])
        page.select_option(f"{round1} select.swap-b", entrant_of[second])
        page.fill(
            f"{round1} input.swap-reason", "they came together and asked not to play each other"
        )
        act(page, f"{round1} .swap-form button[type=submit]")
        after_swap = seated(http, competition, 1, names)
        assert after_swap != before_swap
        assert sorted(p for t in after_swap[0] for p in t) == sorted(
            p for t in before_swap[0] for p in t
        )

        screenshot(page, "desk-round", DESKTOP)
        # -- printing round 1: one A4 page of pairings, then the slips
        pdf = print_round(club_browser, club, secret, competition, 1)
        assert (1, 1) == pdf

        # -- round 1's results: table 1 on the scorer's pad, the rest from the desk
        tables = tables_of(http, competition, 1)
        record_on_the_pad(club_browser, club, secret, tables[0], names)
        act(page, "#refresh")
        for table in tables[1:]:
            seat = winner_seat(table, names)
            enter_sheet(page, table, [f"result P{seat}", f"result P{seat}"])

        # -- round 2, with a wrong result corrected before its match ends
        act(page, "#make-swiss")
        tables = tables_of(http, competition, 2)
        wrong = 1 - winner_seat(tables[0], names)
        enter_sheet(page, tables[0], [f"result P{wrong}"])
        row = f'li.desk-table[data-table="{tables[0]["id"]}"]'
        # Live now: the table links to its viewer; the others have not started.
        match_id = page.get_attribute(row, "data-match")
        assert f"/matches/{match_id}/view" == page.get_attribute(f"{row} a.watch", "href")
        other = f'li.desk-table[data-table="{tables[1]["id"]}"] .badge'
        assert "not started" == page.inner_text(other)
        page.click(f"{row} button.enter-sheet")
        page.wait_for_selector(f"{row} .takeback-result:not([hidden])")
        page.fill(f"{row} input.takeback-reason", "the winner was misread from the sheet")
        act(page, f"{row} button.take-back-result")
        tables = tables_of(http, competition, 2)
        for table in tables:
            seat = winner_seat(table, names)
            enter_sheet(page, table, [f"result P{seat}", f"result P{seat}"])

        # -- Ivy withdraws after round 2
        li = f'#entrant-list li[data-entrant="{entrant_of["Ivy"]}"]'
        page.click(f"{li} button.withdraw")
        page.fill(f"{li} input.withdraw-reason", "had to leave early")
        act(page, f"{li} .withdraw-form button[type=submit]")
        page.wait_for_selector(f"{li} .badge")

        # -- round 3 made, taken back (made by mistake), made again
        act(page, "#make-swiss")
        round3 = 'section.round[data-round="3"]'
        page.click(f"{round3} button.takeback-round")
        page.fill(f"{round3} input.takeback-round-reason", "made before a late result was in")
        act(page, f"{round3} .takeback-round-form button[type=submit]")
        assert 0 == page.locator(round3).count()
        act(page, "#make-swiss")
        for number in (3, 4):
            if number == 4:
                act(page, "#make-swiss")
            tables = tables_of(http, competition, number)
            assert all("Ivy" not in row for row in seated(http, competition, number, names)[0])
            for table in tables:
                seat = winner_seat(table, names)
                enter_sheet(page, table, [f"result P{seat}", f"result P{seat}"])

        # -- the pairings the night had, by name (the standings below follow from them)
        assert [
            ([["Bea", "Hal"], ["Ada", "Gus"], ["Cal", "Fay"], ["Dov", "Eli"]], ["Ivy"]),
            ([["Ada", "Ivy"], ["Bea", "Gus"], ["Cal", "Dov"], ["Eli", "Fay"]], ["Hal"]),
            ([["Bea", "Eli"], ["Cal", "Ada"], ["Dov", "Hal"], ["Fay", "Gus"]], []),
            ([["Ada", "Dov"], ["Bea", "Cal"], ["Eli", "Gus"], ["Fay", "Hal"]], []),
        ] == [seated(http, competition, n, names) for n in (1, 2, 3, 4)]
        # Worked by hand: points are wins (Ada and Bea won all four; Gus none; Ivy lost
        # one and left). Sonneborn-Berger: Ada beat Gus 0, Ivy 0, Cal 2, Dov 2 = 4; Bea
        # beat Hal 0, Gus 0, Eli 2, Cal 2 = 4; then wins tie too: both first. Cal beat
        # Fay and Dov (4); Eli beat Fay and Gus (2), Dov beat Eli and Hal (2); Fay beat
        # Gus and Hal (0). Byes count only in the Swiss score: Ivy's round 1, Hal's round 2.
        expected = {
            "Ada": ("1", "4", "4"),
            "Bea": ("1", "4", "4"),
            "Cal": ("3", "2", "2"),
            "Dov": ("4", "2", "2"),
            "Eli": ("4", "2", "2"),
            "Fay": ("6", "2", "2"),
            "Gus": ("7", "0", "0"),
            "Hal": ("7", "0", "1"),
            "Ivy": ("7", "0", "1"),
        }
        head, rows = page.evaluate(STANDINGS)
        at = {h: i for i, h in enumerate(head)}
        assert expected == {
            row[1]: (row[0], row[at["points"]], row[at["Swiss score"]]) for row in rows
        }
        # The desk's records: the swap, the withdrawal, the round taken back.
        kinds = page.locator("#records li.record").evaluate_all("ls => ls.map(l => l.dataset.kind)")
        assert ["takeback", "withdrawal", "swap"] == kinds
        assert "had to leave early" in page.inner_text("#records")

        # -- an export: the standings' CSV, as the API gives it
        with page.expect_download() as download:
            page.click('button.export[data-export="standings-csv"]')
        csv = Path(download.value.path()).read_text(encoding="utf-8")
        assert http.get(f"/competitions/{competition}/standings?format=csv").text == csv

        screenshot(page, "desk-night", DESKTOP)
        # -- the same desk at 390 px: nothing wider than the screen
        page.set_viewport_size(PHONE)
        act(page, "#refresh")
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
        screenshot(page, "desk-night", PHONE)
        assert page.errors == []
    finally:
        page.context.close()


STANDINGS = """() => {
  const table = document.querySelector('#standings table.standings');
  return [[...table.querySelectorAll('thead th')].map(th => th.textContent),
          [...table.querySelectorAll('tbody tr')].map(
            tr => [...tr.children].map(td => td.textContent))];
}"""


def record_on_the_pad(
    browser: Any, club: str, secret: str, table: dict[str, Any], names: dict[str, str]
) -> None:
    """Start a table as a score sheet on the scorer's pad and tap its two results."""
    pad = fresh_page(browser, DESKTOP)
    try:
        pad.goto(club + "/score")
        pad.fill("#token", secret)
        pad.click("#sign-in-button")
        pad.wait_for_selector(f'li.fixture[data-table="{table["id"]}"] button.start-fixture')
        pad.select_option("#fixture-recording", "results")
        pad.click(f'li.fixture[data-table="{table["id"]}"] button.start-fixture')
        pad.wait_for_url("**/matches/*/score")
        seat = winner_seat(table, names)
        for _ in range(2):
            before = version_of(pad)
            pad.click(f'#moves button.move[data-move="result P{seat}"]')
            settle(pad, before)
        assert pad.errors == []
    finally:
        pad.context.close()


def print_round(browser: Any, club: str, secret: str, competition: str, number: int) -> Any:
    """Print a round to PDF with Chromium; return (pairings pages, slip pages)."""
    page = fresh_page(browser, {"width": 1024, "height": 800})
    try:
        page.goto(club + "/organise")
        page.fill("#token", secret)
        page.click("#sign-in-button")
        page.wait_for_selector("#competition-list")
        page.goto(f"{club}/competitions/{competition}/rounds/{number}/print")
        page.wait_for_selector("body[data-ready]")
        whole = pages_of(page.pdf(format="A4", prefer_css_page_size=True))
        page.evaluate("document.querySelector('.slips').remove()")
        pairings = pages_of(page.pdf(format="A4", prefer_css_page_size=True))
        assert page.errors == []
        return pairings, whole - pairings
    finally:
        page.context.close()


def pages_of(pdf: bytes) -> int:
    """How many pages a PDF has (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a_round_of_sixteen_prints_on_one_page_then_two_pages_of_slips(
    club_browser: Any, club: str, http: httpx.Client, viewer_database: str
) -> None:
    """Eight tables: the pairings fill one A4 page, the eight slips two (four a page)."""
    admin = token_headers(viewer_database, Role.ADMIN)
    secret = admin["Authorization"].removeprefix("Bearer ")
    body = {"name": "Spring open", "game": "cuttle", "variant": "standard", "public_reads": False}
    competition = http.post("/competitions", json=body, headers=admin).json()["id"]
    for player in make_players(http, admin, [f"Player {n:02d}" for n in range(1, 17)]):
        made = http.post(
            f"/competitions/{competition}/entrants", json={"player_id": player}, headers=admin
        )
        assert 201 == made.status_code, made.text
    made = http.post(
        f"/competitions/{competition}/fixtures", json={"system": "swiss"}, headers=admin
    )
    assert 201 == made.status_code, made.text
    assert (1, 2) == print_round(club_browser, club, secret, competition, 1)

    # An admin forfeits a table from the desk: its first entrant's.
    page = sign_in(club_browser, club, secret, DESKTOP)
    try:
        page.wait_for_selector("#competition-list")
        page.goto(f"{club}/organise#competition={competition}")
        page.wait_for_selector("section.round")
        table = tables_of(http, competition, 1, admin)[0]
        row = f'li.desk-table[data-table="{table["id"]}"]'
        page.click(f"{row} button.forfeit")
        page.select_option(f"{row} select.forfeited-by", table["entrants"][0])
        act(page, f"{row} .forfeit-form button[type=submit]")
        assert "0-1 ff" == page.inner_text(f"{row} .badge")
        assert page.errors == []
    finally:
        page.context.close()


def test_the_print_page_of_a_round_not_made_says_so(
    page: Page, server: str, http: httpx.Client, viewer_database: str
) -> None:
    admin = token_headers(viewer_database, Role.ADMIN)
    body = {"name": "Empty cup", "game": "kozel", "public_reads": True}
    competition = http.post("/competitions", json=body, headers=admin).json()["id"]
    page.goto(f"{server}/competitions/{competition}/rounds/3/print")
    page.wait_for_selector("p.empty")
    assert "There is no round 3 yet." == page.inner_text("p.empty")
    missing = http.get("/competitions/00000000-0000-4000-8000-000000000000/rounds/1/print")
    assert (404, "COMPETITION_NOT_FOUND") == (missing.status_code, missing.json()["code"])


def test_a_kozel_competition_and_its_pairs_from_the_desk(
    club_browser: Any, club: str, http: httpx.Client, viewer_database: str
) -> None:
    """Kozel's form offers its loss limit and eggs rule (the format's fields) from the
    descriptor; an entrant is a fixed pair of two names."""
    admin = token_headers(viewer_database, Role.ADMIN)
    page = sign_in(club_browser, club, admin["Authorization"].removeprefix("Bearer "), PHONE)
    try:
        page.wait_for_selector("#new-competition")
        page.fill("#competition-name", "Kozel cup")
        page.select_option("#competition-game", "kozel")
        assert page.is_hidden("#competition-variant")
        page.fill("#competition-setting-loss_limit", "6")
        page.check("#competition-setting-eggs_double_next")
        page.select_option("#tiebreak-1", "loss-point-difference")
        page.uncheck("#competition-public")
        page.click("#create-competition")
        page.wait_for_selector("#entrant-player-1")
        competition = page.evaluate(
            "new URLSearchParams(location.hash.slice(1)).get('competition')"
        )
        made = http.get(f"/competitions/{competition}", headers=admin).json()
        assert (
            "default",
            {"loss_limit": 6, "eggs_double_next": True},
            ["loss-point-difference"],
            False,
        ) == (made["variant"], made["format"], made["tiebreaks"], made["public_reads"])
        page.fill("#entrant-player-0", "Olga")
        page.fill("#entrant-player-1", "Pyotr")
        act(page, "#add-entrant-button")
        [pair] = http.get(f"/competitions/{competition}/entrants", headers=admin).json()["items"]
        shown = page.inner_text(f'#entrant-list li[data-entrant="{pair["id"]}"] .who')
        assert "Olga & Pyotr" == shown
        assert page.errors == []
    finally:
        page.context.close()


def test_a_finished_result_is_corrected_from_the_desk(
    club_browser: Any, club: str, http: httpx.Client, viewer_database: str
) -> None:
    """A finished table's wrong result is voided and entered again; the standings follow
    and the records keep the correction (#31)."""
    admin = token_headers(viewer_database, Role.ADMIN)
    comp = competition(http, admin, format="quick")
    players = make_players(http, admin, ["Ada", "Bea"])
    names = dict(zip(players, ["Ada", "Bea"], strict=True))
    for player in players:
        made = http.post(
            f"/competitions/{comp}/entrants", json={"player_id": player}, headers=admin
        )
        assert 201 == made.status_code, made.text
    assert (
        201
        == http.post(
            f"/competitions/{comp}/fixtures", json={"system": "swiss"}, headers=admin
        ).status_code
    )
    page = sign_in(club_browser, club, admin["Authorization"].removeprefix("Bearer "), DESKTOP)
    try:
        page.wait_for_selector("#new-competition")
        page.goto(f"{club}/organise#competition={comp}")
        page.wait_for_selector("#rounds .desk-table")
        [table] = tables_of(http, comp, 1)
        right = winner_seat(table, names)
        enter_sheet(page, table, [f"result P{1 - right}"])
        row = f'li.desk-table[data-table="{table["id"]}"]'

        def points() -> dict[str, str]:
            head, rows = page.evaluate(STANDINGS)
            return {row[1]: row[head.index("points")] for row in rows}

        wrong = {names[table["players"][1 - right]]: "1", names[table["players"][right]]: "0"}
        assert wrong == points()
        voided = page.get_attribute(row, "data-match")
        page.click(f"{row} button.correct-result")
        page.fill(f"{row} input.correct-reason", "the winner was misread from the sheet")
        act(page, f"{row} button.confirm-correct")
        # The table's score sheet is open again, for a new match.
        page.wait_for_selector(f"{row} .sheet-form")
        assert "void" == page.inner_text(f"{row} .table-head .badge")
        page.fill(f"{row} textarea.sheet-lines", f"result P{right}")
        act(page, f"{row} button.record-sheet")
        assert {k: "1" if v == "0" else "0" for k, v in wrong.items()} == points()
        [fixed] = tables_of(http, comp, 1)
        assert [right] == fixed["result"]["winners"]
        assert fixed["match_id"] not in (None, voided)
        assert "void" == http.get(f"/matches/{voided}").json()["status"]
        kinds = page.locator("#records li.record").evaluate_all("ls => ls.map(l => l.dataset.kind)")
        assert ["correction"] == kinds
        assert "the winner was misread from the sheet" in page.inner_text("#records")
        [record] = http.get(f"/competitions/{comp}/records").json()["items"]
        assert (voided, fixed["match_id"]) == (
            record["details"]["void_match_id"],
            record["details"]["match_id"],
        )
        assert page.errors == []
    finally:
        page.context.close()


def test_the_desk_tells_a_scorer_from_an_admin_without_a_refusal(
    club_browser: Any, club: str, viewer_database: str
) -> None:
    """The desk asks the token's own record (``GET /tokens/me``) which forms to offer: a
    scorer gets no new-competition form and no request of the desk is refused (the server
    logs no 403); an admin gets the form."""
    scorer = token_headers(viewer_database, Role.SCORER)["Authorization"].removeprefix("Bearer ")
    admin = token_headers(viewer_database, Role.ADMIN)["Authorization"].removeprefix("Bearer ")
    for secret, form in ((scorer, False), (admin, True)):
        page = fresh_page(club_browser, DESKTOP)
        answers: list[tuple[int, str]] = []
        page.on("response", lambda r, seen=answers: seen.append((r.status, r.url)))
        try:
            page.goto(club + "/organise")
            page.fill("#token", secret)
            page.click("#sign-in-button")
            page.wait_for_selector("#competition-list")
            assert form == page.is_visible("#new-competition")
            assert any(url.endswith("/tokens/me") for _, url in answers)
            assert [] == [(status, url) for status, url in answers if status >= 400]
            assert page.errors == []
        finally:
            page.context.close()
