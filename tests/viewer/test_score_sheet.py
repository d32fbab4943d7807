"""Score-sheet matches (``"recording": "results"``, issue #23) on the pad and in the viewer,
in headless Chromium against the real API.

Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pictures.
"""

from __future__ import annotations

from typing import Any

import httpx

from store.accounts import Role
from tests.recording.play import create_match
from tests.viewer.conftest import PHONE, token_headers
from tests.viewer.test_pad import (
    SMALL_TARGETS,
    _club,
    _club_browser,
    _secret,
    fresh_page,
    settle,
    tap_move,
    version_of,
)
from tests.viewer.test_pad_fixtures import limited_secret, open_home
from tests.viewer.test_rounds import enter, league, round_robin
from tests.viewer.test_viewer import make_players, screenshot, wait_for_ply

__all__ = ["_club", "_club_browser", "_secret"]  # the fixtures this module shares

Page = Any

SHEET_ROWS = """() => [...document.querySelectorAll('#table .score-sheet tbody tr')]
  .map(tr => [...tr.children].map(c => c.textContent))"""


def sheet_rows(series: dict[str, Any], names: list[str]) -> list[list[str]]:
    """The rows a score sheet shows for ``series`` (GET /matches/{id}/series)."""
    rows = []
    for r in series["rounds"]:
        if "deal" in r:
            points = [
                f"{p}{' (no trick)' if r['tricks'][t] == 0 else ''}"
                for t, p in enumerate(r["card_points"])
            ]
            loss = (
                "eggs"
                if r["eggs"]
                else "—"
                if r["losing_team"] is None
                else f"team {'AB'[r['losing_team']]} +{r['loss_points']}"
            )
            rows.append([str(r["deal"]), *points, loss, *map(str, r["totals"])])
        else:
            won = "drawn" if r["draw"] else f"{names[r['winner']]} won"
            rows.append([str(r["round"]), won, *map(str, r["wins"])])
    return rows


def series_of(http: httpx.Client, match_id: str) -> dict[str, Any]:
    body: dict[str, Any] = http.get(f"/matches/{match_id}/series").json()
    return body


def moves_of(http: httpx.Client, match_id: str) -> list[str]:
    steps = http.get(f"/matches/{match_id}/timeline").json()["steps"]
    return [s["move"] for s in steps if not s["taken_back"]]


def test_a_cuttle_score_sheet_from_the_form_with_an_undo(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    """The new-match form's "score sheet" makes a results match (no dealing asked); its
    pad offers the server's results, shows the sheet, and takes the last one back."""
    ann, bob = make_players(http, scorer_headers, ["Ari", "Bea"])
    page = open_home_unlisted(club_browser, club, secret)
    try:
        page.select_option('select.player[data-seat="0"]', ann)
        page.select_option('select.player[data-seat="1"]', bob)
        page.fill("#format", "extended")
        page.select_option("#recording", "results")
        assert page.is_hidden("#dealing")
        page.click("#create-match")
        page.wait_for_url("**/matches/*/score")
        match_id = page.url.split("/")[-2]
        match = http.get(f"/matches/{match_id}").json()
        assert ("results", "extended") == (match["recording"], match["format"])
        legal = http.get(f"/matches/{match_id}/legal-moves", headers=scorer_headers).json()
        page.wait_for_selector("#moves button.move")
        shown = page.locator("#moves button.move").evaluate_all(
            "bs => bs.map(b => [b.dataset.move, b.querySelector('span').textContent])"
        )
        assert [[c["move"], c["sentence"]] for c in legal["choices"]] == shown
        assert 0 == page.locator("#deal, .felt").count()
        assert "round 1" in page.inner_text("#to-act")
        tap_move(page, "result P1")
        tap_move(page, "result draw")
        names = ["Ari", "Bea"]
        assert sheet_rows(series_of(http, match_id), names) == page.evaluate(SHEET_ROWS)
        assert 2 == len(page.evaluate(SHEET_ROWS))
        before = version_of(page)
        page.click("#undo")
        page.click("#undo-confirm")
        settle(page, before)
        assert [["1", "Bea won", "0", "1"]] == page.evaluate(SHEET_ROWS)
        tap_move(page, "result P0")
        assert [["1", "Bea won", "0", "1"], ["2", "Ari won", "1", "1"]] == page.evaluate(SHEET_ROWS)
        assert page.errors == []
    finally:
        page.context.close()
    assert ["result P1", "result P0"] == moves_of(http, match_id)


def open_home_unlisted(browser: Any, club: str, secret: str) -> Page:
    """``/score`` signed in, when the token may have no competition with fixtures."""
    page = fresh_page(browser, PHONE)
    page.goto(club + "/score")
    page.fill("#token", secret)
    page.click("#sign-in-button")
    page.wait_for_selector("#new-match")
    return page


def enter_kozel_deal(page: Page, points: int, blank: str | None = None) -> None:
    before = version_of(page)
    page.fill("#points-a", str(points))
    assert str(120 - points) == page.inner_text("#points-b")
    if blank:
        page.click(f"#blank-{blank.lower()}")
        assert "true" == page.get_attribute(f"#blank-{blank.lower()}", "aria-pressed")
    page.click("#enter-deal")
    settle(page, before)


def test_a_kozel_fixture_started_as_a_score_sheet(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    """A Kozel pairs table started from /score as a score sheet; deals entered with the
    form (points, the rest of 120 shown, a blank team); a deal the rules refuse is said
    so; the sheet is the series; every target is 44 px at 390 px."""
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Sheet cup", "kozel", "default")
    ada, bob, cy, dee = make_players(http, scorer_headers, ["Cai", "Dov", "Eda", "Fen"])
    enter(http, admin, competition, {"players": [ada, cy]})
    enter(http, admin, competition, {"players": [bob, dee]})
    [[table]] = [r["tables"] for r in round_robin(http, admin, competition)]
    page = open_home(club_browser, club, limited_secret(viewer_database, [competition]), PHONE)
    try:
        page.select_option("#fixture-recording", "results")
        assert page.is_hidden("#fixture-dealing")
        page.click(f'li.fixture[data-table="{table["id"]}"] button.start-fixture')
        page.wait_for_url("**/matches/*/score")
        match_id = page.url.split("/")[-2]
        assert "results" == http.get(f"/matches/{match_id}").json()["recording"]
        page.wait_for_selector("#sheet-deal")
        enter_kozel_deal(page, 75)
        enter_kozel_deal(page, 60)
        # Team A with every point cannot be the team that took no trick: refused.
        page.fill("#points-a", "120")
        page.click("#blank-a")
        page.click("#enter-deal")
        page.wait_for_selector("#problem")
        assert "Not recorded" in page.inner_text("#problem")
        page.click("#problem button")
        enter_kozel_deal(page, 120, blank="B")
        assert ["deal 75 45", "deal 60 60", "deal 120 0 blank B"] == moves_of(http, match_id)
        names = ["Cai", "Dov", "Eda", "Fen"]
        rows = page.evaluate(SHEET_ROWS)
        assert sheet_rows(series_of(http, match_id), names) == rows
        assert ["3", "120", "0 (no trick)", "team B +6", "0", "8"] == rows[-1]
        assert [] == page.evaluate(SMALL_TARGETS)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "pad-score-sheet", PHONE)
        assert page.errors == []
    finally:
        page.context.close()


def test_the_viewer_draws_a_results_match_as_a_score_sheet(
    page: Page,
    server: str,
    http: httpx.Client,
    scorer_headers: dict[str, str],
    viewport: dict[str, int],
) -> None:
    """A Cuttle results match with a takeback, stepped ply by ply: no card table, and at
    each ply the sheet holds the rounds entered up to it with the running score."""
    names = ["Gil", "Hana"]
    players = make_players(http, scorer_headers, names)
    body = {"game": "cuttle", "players": players, "format": "normal", "recording": "results"}
    match = create_match(http, scorer_headers, body)
    version = match["version"]

    def post(path: str, payload: dict[str, Any]) -> None:
        nonlocal version
        answer = http.post(
            f"/matches/{match['id']}/{path}",
            json={**payload, "expected_version": version},
            headers=scorer_headers,
        )
        assert 200 == answer.status_code, answer.text
        version = answer.json()["version"]

    post("moves", {"moves": ["result P1"]})
    post("takeback", {"to_version": 1, "reason": "the wrong player was entered"})
    post("moves", {"moves": ["result P0", "result draw", "result P0"]})
    series = series_of(http, match["id"])
    assert "finished" == series["status"]
    expected = sheet_rows(series, names)
    page.goto(f"{server}/matches/{match['id']}/view?ply=0")
    wait_for_ply(page, 0)
    # Ply 1 was taken back: the sheet there has nothing; then a row per kept result.
    for ply, count in enumerate([0, 0, 1, 2, 3]):
        if ply:
            page.keyboard.press("ArrowRight")
            wait_for_ply(page, ply)
        assert expected[:count] == page.evaluate(SHEET_ROWS), ply
        assert 0 == page.locator("#table .felt").count()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, "score-sheet", viewport)


def test_the_viewer_draws_a_kozel_score_sheet(
    page: Page, server: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    names = ["Ivo", "Jas", "Kai", "Lev"]
    players = make_players(http, scorer_headers, names)
    match = create_match(
        http, scorer_headers, {"game": "kozel", "players": players, "recording": "results"}
    )
    moves = ["deal 75 45", "deal 60 60", "deal 0 120 blank A"]
    answer = http.post(
        f"/matches/{match['id']}/moves",
        json={"moves": moves, "expected_version": match["version"]},
        headers=scorer_headers,
    )
    assert 200 == answer.status_code, answer.text
    page.goto(f"{server}/matches/{match['id']}/view")
    wait_for_ply(page, 3)
    rows = page.evaluate(SHEET_ROWS)
    assert sheet_rows(series_of(http, match["id"]), names) == rows
    assert ["Deal", "Team A", "Team B", "Loss points", "Ivo & Kai", "Jas & Lev"] == (
        page.locator("#table .score-sheet thead th").all_inner_texts()
    )
    assert ["2", "60", "60", "eggs"] == rows[1][:4]
