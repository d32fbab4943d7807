"""The home page and a player's page in headless Chromium, against the real API (issue #32).

Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh their pictures.
"""

from __future__ import annotations

import random
from datetime import datetime
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from store.accounts import Role
from tests.recording.play import create_match, play_to_end
from tests.viewer.conftest import token_headers
from tests.viewer.test_viewer import make_players, screenshot

Page = Any


@pytest.fixture(name="club", scope="module")
def _club(
    http: httpx.Client, viewer_database: str, scorer_headers: dict[str, str]
) -> dict[str, Any]:
    """A public competition (three finished Cuttle matches and a live one), a private one
    (a finished and a live match), and a live match outside any competition."""
    admin = token_headers(viewer_database, Role.ADMIN)

    def competition(name: str, public: bool) -> dict[str, Any]:
        body = {"name": name, "game": "cuttle", "variant": "standard", "format": "quick"}
        response = http.post("/competitions", json={**body, "public_reads": public}, headers=admin)
        assert 201 == response.status_code, response.text
        created: dict[str, Any] = response.json()
        return created

    open_ = competition("Tuesday league", True)
    closed = competition("Staff cup", False)
    eve, fay, gus = make_players(http, scorer_headers, ["Eve", "Fay", "Gus"])
    finished = []
    for seed, (pair, where) in enumerate(
        [
            ([eve, fay], open_),
            ([gus, eve], open_),
            ([eve, fay], open_),
            ([eve, gus], closed),
        ]
    ):
        body = {"game": "cuttle", "players": pair, "competition_id": where["id"]}
        match = create_match(http, scorer_headers, body)
        finished.append(play_to_end(http, scorer_headers, match, random.Random(seed)))
    live = [
        create_match(http, scorer_headers, {"game": "cuttle", "players": pair, **where})
        for pair, where in [
            ([fay, gus], {"competition_id": open_["id"]}),
            ([fay, eve], {"competition_id": closed["id"]}),
            ([gus, fay], {}),
        ]
    ]
    return {
        "open": open_,
        "closed": closed,
        "players": {"Eve": eve, "Fay": fay, "Gus": gus},
        "finished": finished,
        "live": live,
        "admin": admin,
    }


class TestHome:
    def test_shows_live_matches_by_competition_results_and_ways_in(
        self, page: Page, server: str, club: dict[str, Any], viewport: dict[str, int]
    ) -> None:
        """An anonymous visitor sees public competitions' matches only, grouped, with links."""
        page.goto(f"{server}/")
        page.wait_for_selector("#live")
        groups = page.locator("#live .live-group")
        keys = [groups.nth(i).get_attribute("data-competition") for i in range(groups.count())]
        # The public competition's live match, then those outside any competition.
        assert [club["open"]["id"], ""] == keys
        live_ids = page.eval_on_selector_all(
            "#live [data-match]", "e => e.map(x => x.dataset.match)"
        )
        assert [club["live"][0]["id"], club["live"][2]["id"]] == live_ids
        assert (
            "Tuesday league"
            == page.locator(f'#live [data-competition="{club["open"]["id"]}"] h3').inner_text()
        )
        results = page.eval_on_selector_all(
            "#results [data-match]", "e => e.map(x => x.dataset.match)"
        )
        public_finished = [m["id"] for m in club["finished"][:3]]
        assert sorted(public_finished) == sorted(results)
        listed = page.eval_on_selector_all(
            "#competitions [data-competition]", "e => e.map(x => x.dataset.competition)"
        )
        assert club["open"]["id"] in listed and club["closed"]["id"] not in listed
        assert "Staff cup" not in page.inner_text("body")
        assert "null" not in page.inner_text("main").split()
        hrefs = page.eval_on_selector_all("#ways a", "e => e.map(a => a.getAttribute('href'))")
        assert ["/score", "/organise", "/schema"] == hrefs
        # Every match links to its replay and its players to their pages.
        first = page.locator(f'#results [data-match="{public_finished[0]}"]')
        assert f"/matches/{public_finished[0]}/view" == first.locator("a.view-link").get_attribute(
            "href"
        )
        assert 2 == first.locator('a.player-link[href^="/players/"]').count()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        for link in page.locator("#ways a, a.view-link").all():
            assert link.bounding_box()["height"] >= 44
        screenshot(page, "home", viewport)

    @pytest.mark.parametrize(
        ("zone", "label", "lang"),
        [
            ("Asia/Tokyo", "GMT+9", "en"),
            ("America/New_York", "EST", "en"),
            ("UTC", "UTC", "ja"),
            ("Asia/Tokyo", "JST", "ja"),
        ],
    )
    def test_times_are_the_readers_own_and_name_their_zone(
        self,
        browser: Any,
        server: str,
        http: httpx.Client,
        club: dict[str, Any],
        zone: str,
        label: str,
        lang: str,
    ) -> None:
        """A live match's start is written in the reader's time zone (the device's), which
        the time names, in the page's language."""
        context = browser.new_context(timezone_id=zone)
        try:
            page = context.new_page()
            page.goto(f"{server}/?lang={lang}")
            live = http.get("/matches?status=live&limit=100").json()["items"]
            [match] = [m for m in live if m["id"] == club["live"][0]["id"]]
            meta = page.locator(f'#live [data-match="{match["id"]}"] .meta')
            text = " ".join(meta.inner_text().replace("\u202f", " ").split())
            at = datetime.fromisoformat(match["created_at"]).astimezone(ZoneInfo(zone))
            if lang == "en":
                hour = f"{at.hour % 12 or 12}:{at:%M} {'AM' if at.hour < 12 else 'PM'}"
                written = f"since {at:%b} {at.day}, {at.year}, {hour} {label}"
            else:
                written = f"{at.year}年{at.month}月{at.day}日 {at.hour}:{at:%M} {label}"
            assert written in text, text
        finally:
            context.close()

    def test_a_signed_in_scorer_sees_private_competitions(
        self, page: Page, server: str, club: dict[str, Any]
    ) -> None:
        """The pad's token (kept in the tab's session) goes with the home page's reads."""
        secret = club["admin"]["Authorization"].removeprefix("Bearer ")
        page.add_init_script(f"sessionStorage.setItem('matchlog.scorer-token', {secret!r})")
        page.goto(f"{server}/")
        page.wait_for_selector(f'#live [data-competition="{club["closed"]["id"]}"]')
        assert "Staff cup" in page.inner_text("#competitions")


class TestPlayerPage:
    def test_draws_rating_history_matches_head_to_head_and_competitions(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        club: dict[str, Any],
        viewport: dict[str, int],
    ) -> None:
        """The chart's points are the ratings JSON's, in order, higher drawn higher."""
        eve = club["players"]["Eve"]
        ratings = http.get(f"/players/{eve}/ratings").json()
        record = http.get(f"/players/{eve}").json()
        # Anonymous: the public competition only, whose last point is the standings' rating.
        assert [club["open"]["id"]] == [c["competition_id"] for c in ratings["competitions"]]
        standings = http.get(f"/competitions/{club['open']['id']}/standings").json()
        rated = next(r["rating"] for r in standings["players"] if r["entity"] == eve)
        assert rated == {k: ratings["competitions"][0]["points"][-1][k] for k in rated}
        assert 3 == len(ratings["competitions"][0]["points"])

        page.goto(f"{server}/players/{eve}/view")
        page.wait_for_selector("#ratings svg.rating-chart")
        for history in ratings["competitions"]:
            chart = page.locator(f'#ratings [data-competition="{history["competition_id"]}"]')
            points = chart.locator("circle.rating-point")
            drawn = [
                (
                    points.nth(i).get_attribute("data-match"),
                    float(points.nth(i).get_attribute("data-ordinal") or "nan"),
                    float(points.nth(i).get_attribute("cy") or "nan"),
                )
                for i in range(points.count())
            ]
            assert [(p["match_id"], p["ordinal"]) for p in history["points"]] == [
                (m, o) for m, o, _ in drawn
            ]
            # y grows downwards: a higher rating is drawn higher, equal ones level.
            for (_, a, ya), (_, b, yb) in pairwise(drawn):
                assert (a < b) == (yb < ya) and (a == b) == (abs(ya - yb) < 0.2)
            assert 1 == chart.locator("polyline.rating-line").count()
            assert chart.locator("svg").bounding_box()["width"] <= viewport["width"]
        # Matches newest first, each with its result and a link to its replay.
        rows = page.locator("#matches tbody tr")
        assert [m["id"] for m in record["matches"]] == [
            rows.nth(i).get_attribute("data-match") for i in range(rows.count())
        ]
        assert [m["outcome"] for m in record["matches"]] == [
            rows.nth(i).get_attribute("data-outcome") for i in range(rows.count())
        ]
        assert f"/matches/{record['matches'][0]['id']}/view" == rows.first.locator(
            "a.view-link"
        ).get_attribute("href")
        # Head to head against each opponent, as the JSON counts it.
        h2h = page.eval_on_selector_all(
            "#head-to-head tbody tr",
            "rows => rows.map(r => [r.dataset.player,"
            " ...[...r.querySelectorAll('td')].map(c => Number(c.textContent))])",
        )
        assert [
            [o["player_id"], o["played"], o["won"], o["lost"], o["drawn"]]
            for o in record["opponents"]
        ] == h2h
        played = {o["player_id"]: o["played"] for o in record["opponents"]}
        assert {club["players"]["Fay"]: 2, club["players"]["Gus"]: 1} == played
        entered = page.eval_on_selector_all(
            "#entered [data-competition]", "e => e.map(x => x.dataset.competition)"
        )
        assert [club["open"]["id"]] == entered
        assert "Staff cup" not in page.inner_text("body")
        assert "null" not in page.inner_text("main").split()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(page, "player", viewport)

    def test_private_competitions_need_a_token_that_may_read_them(
        self, http: httpx.Client, club: dict[str, Any], scorer_headers: dict[str, str]
    ) -> None:
        eve = club["players"]["Eve"]
        closed = club["closed"]["id"]
        anonymous = http.get(f"/players/{eve}/ratings").json()["competitions"]
        admin = http.get(f"/players/{eve}/ratings", headers=club["admin"]).json()["competitions"]
        assert closed not in [c["competition_id"] for c in anonymous]
        assert closed in [c["competition_id"] for c in admin]
        record = http.get(f"/players/{eve}", headers=club["admin"]).json()
        assert closed in [c["id"] for c in record["competitions"]]
        assert 404 == http.get(f"/players/{closed}/ratings").status_code

    def test_pages_through_matches_newest_first(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
        viewport: dict[str, int],
    ) -> None:
        """Ten matches a page, each read from the server when the reader goes on to it
        (#32: ``?limit=10``, then the first page's ``next_cursor``); Older and Newer step
        through them all, newest first, none twice and none left out."""
        hal, ivy = make_players(http, scorer_headers, ["Hal", "Ivy"])
        made = [
            create_match(http, scorer_headers, {"game": "cuttle", "players": [hal, ivy]})["id"]
            for _ in range(12)
        ]
        reads: list[str] = []
        page.on(
            "request",
            lambda r: reads.append(r.url) if f"/players/{hal}?" in r.url else None,
        )
        rows = "#matches tbody tr"
        page.goto(f"{server}/players/{hal}/view")
        page.wait_for_selector(rows)
        seen = page.eval_on_selector_all(rows, "e => e.map(x => x.dataset.match)")
        assert page.locator("#newer").is_disabled()
        assert [f"{server}/players/{hal}?limit=10"] == reads
        first = http.get(f"/players/{hal}?limit=10").json()
        page.locator("#older").click()
        page.wait_for_selector(f'{rows}[data-match="{made[1]}"]')
        seen += page.eval_on_selector_all(rows, "e => e.map(x => x.dataset.match)")
        assert page.locator("#older").is_disabled()
        assert list(reversed(made)) == seen
        assert f"{server}/players/{hal}?limit=10&cursor={first['next_cursor']}" == reads[-1]
        assert "Page 2 / 2" == page.locator("#page-label").inner_text()
        assert page.locator("#newer").bounding_box()["height"] >= 44
        # Back to the newest: the page kept, not read again.
        page.locator("#newer").click()
        assert "Page 1 / 2" == page.locator("#page-label").inner_text()
        assert seen[:10] == page.eval_on_selector_all(rows, "e => e.map(x => x.dataset.match)")
        assert 2 == len(reads)

    def test_linked_from_the_standings(self, page: Page, server: str, club: dict[str, Any]) -> None:
        page.goto(f"{server}/competitions/{club['open']['id']}/view")
        link = page.locator("#standings tbody th a").first
        name = link.inner_text()
        link.click()
        page.wait_for_selector("#ratings")
        assert name == page.locator("h1").inner_text()

    def test_linked_from_the_viewer_and_the_pad(
        self,
        page: Page,
        server: str,
        club: dict[str, Any],
        scorer_headers: dict[str, str],
    ) -> None:
        match = club["live"][0]
        page.goto(f"{server}/matches/{match['id']}/view")
        links = page.locator("#players a.player-link")
        links.first.wait_for()
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert [f"/players/{p}/view" for p in match["players"]] == hrefs
        secret = scorer_headers["Authorization"].removeprefix("Bearer ")
        page.add_init_script(f"sessionStorage.setItem('matchlog.scorer-token', {secret!r})")
        page.goto(f"{server}/matches/{match['id']}/score")
        pad_links = page.locator("#seats a.player-link")
        pad_links.first.wait_for()
        pad_links.first.click()
        page.wait_for_selector("#ratings")
        assert page.url.endswith(f"/players/{match['players'][0]}/view")
