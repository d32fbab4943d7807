"""The viewer in headless Chromium: replays step ply by ply, a live match shows no hidden card.

See issue #9. Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pictures.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from store.accounts import Role
from tests.recording.play import create_match, play_to_end
from tests.viewer.conftest import DESKTOP, token_headers
from tests.viewer.table import (
    READ_ZONES,
    card_text,
    cards_in,
    expected_zones,
    extend,
    track_of,
    views_at,
)

Page = Any


def screenshot(page: Page, name: str, viewport: dict[str, int]) -> None:
    """Keep a picture of the page when ``MATCHLOG_SCREENSHOTS`` names a folder."""
    folder = os.environ.get("MATCHLOG_SCREENSHOTS")
    if folder:
        width = "390px" if viewport["width"] <= 400 else "desktop"
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)


def make_players(client: httpx.Client, headers: dict[str, str], names: list[str]) -> list[str]:
    ids = []
    for name in names:
        response = client.post("/players", json={"display_name": name}, headers=headers)
        assert 201 == response.status_code, response.text
        ids.append(response.json()["id"])
    return ids


@pytest.fixture(name="cuttle_match", scope="module")
def _cuttle_match(http: httpx.Client, scorer_headers: dict[str, str]) -> dict[str, Any]:
    """A finished Cuttle match (standard, quick), recorded over HTTP."""
    players = make_players(http, scorer_headers, ["Ann", "Bob"])
    body = {"game": "cuttle", "variant": "standard", "format": "quick", "players": players}
    match = create_match(http, scorer_headers, body)
    return play_to_end(http, scorer_headers, match, random.Random(9))


@pytest.fixture(name="kozel_match", scope="module")
def _kozel_match(http: httpx.Client, scorer_headers: dict[str, str]) -> dict[str, Any]:
    """A finished Kozel match (to 4 loss points), recorded over HTTP."""
    players = make_players(http, scorer_headers, ["Ann", "Bob", "Cid", "Dee"])
    body = {"game": "kozel", "players": players, "options": {"loss_limit": 4}}
    match = create_match(http, scorer_headers, body)
    return play_to_end(http, scorer_headers, match, random.Random(4))


def wait_for_ply(page: Page, ply: int) -> None:
    page.wait_for_selector(f'#table[data-ply="{ply}"]', state="attached")


def drawn(page: Page) -> dict[str, Any]:
    zones: dict[str, Any] = page.evaluate(READ_ZONES)
    return zones


def check_replay_ply(
    page: Page, game: str, track: Any, steps: list[dict[str, Any]], ply: int
) -> None:
    """The page shows ply ``ply``: the URL, the sentence and every card of the full view."""
    wait_for_ply(page, ply)
    assert f"ply={ply}" in page.url
    view, seats = views_at(track, ply)
    if view is None:
        assert {} == drawn(page)
    else:
        assert expected_zones(game, view, seats) == drawn(page), f"ply {ply}"
    sentence = "Before the first move." if ply == 0 else steps[ply - 1]["sentence"]
    assert sentence == page.inner_text("#sentence")
    assert f"Ply {ply} / {len(steps)}" == page.inner_text("#ply-label")


class TestReplay:
    def test_cuttle_steps_with_arrow_keys(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
        cuttle_match: dict[str, Any],
        viewport: dict[str, int],
    ) -> None:
        """Every ply of a finished Cuttle match, stepped with the right arrow, is the engine's."""
        match_id = cuttle_match["id"]
        track = track_of(http, scorer_headers, match_id)
        steps = http.get(f"/matches/{match_id}/timeline").json()["steps"]
        page.goto(f"{server}/matches/{match_id}/view?ply=0")
        for ply in range(len(steps) + 1):
            check_replay_ply(page, "cuttle", track, steps, ply)
            if ply == len(steps) // 2:
                screenshot(page, "cuttle", viewport)
            page.keyboard.press("ArrowRight")
        check_replay_ply(page, "cuttle", track, steps, len(steps))
        page.keyboard.press("ArrowLeft")
        check_replay_ply(page, "cuttle", track, steps, len(steps) - 1)
        assert "finished" == page.inner_text("#status")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    def test_kozel_steps_with_buttons_slider_and_timeline(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
        kozel_match: dict[str, Any],
        viewport: dict[str, int],
    ) -> None:
        """Kozel plies reached by the buttons, the slider and the timeline are the engine's."""
        match_id = kozel_match["id"]
        track = track_of(http, scorer_headers, match_id)
        steps = http.get(f"/matches/{match_id}/timeline").json()["steps"]
        last = len(steps)
        page.goto(f"{server}/matches/{match_id}/view")
        check_replay_ply(page, "kozel", track, steps, last)  # no ?ply=: the last position
        page.click("#first")
        for ply in range(0, min(last, 60)):
            check_replay_ply(page, "kozel", track, steps, ply)
            if ply == 7:
                screenshot(page, "kozel", viewport)
            page.click("#next")
        rng = random.Random(5)
        for ply in rng.sample(range(last + 1), 8):
            page.fill("#slider", str(ply))
            check_replay_ply(page, "kozel", track, steps, ply)
        for ply in rng.sample(range(1, last + 1), 8):
            page.click(f'#timeline-list li[data-ply="{ply}"] button')
            check_replay_ply(page, "kozel", track, steps, ply)
            assert "step" == page.get_attribute(
                f'#timeline-list li[data-ply="{ply}"]', "aria-current"
            )
        page.click("#last")
        check_replay_ply(page, "kozel", track, steps, last)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    @pytest.mark.parametrize("viewport", [DESKTOP], indirect=True, ids=["desktop"])
    def test_shared_link_opens_at_its_ply(
        self, page: Page, server: str, http: httpx.Client, cuttle_match: dict[str, Any]
    ) -> None:
        """A URL with ``?ply=N`` opens at ply N."""
        match_id = cuttle_match["id"]
        steps = http.get(f"/matches/{match_id}/timeline").json()["steps"]
        page.goto(f"{server}/matches/{match_id}/view?ply=3")
        wait_for_ply(page, 3)
        assert steps[2]["sentence"] == page.inner_text("#sentence")

    @pytest.mark.parametrize("viewport", [DESKTOP], indirect=True, ids=["desktop"])
    def test_taken_back_steps_and_notes_are_shown(
        self, page: Page, server: str, cuttle_match: dict[str, Any]
    ) -> None:
        """A timeline's ``taken_back`` and ``notes`` keys are drawn (issue #8's timeline)."""
        match_id = cuttle_match["id"]

        def annotate(route: Any) -> None:
            body = route.fetch().json()
            body["steps"][1]["taken_back"] = True
            body["steps"][2]["notes"] = ["Bob hesitated"]
            body["notes"] = [{"ply": 3, "text": "table talk", "author": "TD"}]
            route.fulfill(json=body)

        page.route(f"**/matches/{match_id}/timeline", annotate)
        page.goto(f"{server}/matches/{match_id}/view?ply=2")
        wait_for_ply(page, 2)
        undone = page.locator('#timeline-list li[data-ply="2"]')
        assert "taken-back" in (undone.get_attribute("class") or "")
        assert "taken back" == undone.locator(".badge").inner_text()
        assert page.inner_text("#sentence").startswith("(taken back) ")
        assert [] == page.locator("#notes li").all_inner_texts()
        page.keyboard.press("ArrowRight")
        wait_for_ply(page, 3)
        assert ["Bob hesitated", "TD: table talk"] == page.locator("#notes li").all_inner_texts()
        notes = page.locator('#timeline-list li[data-ply="3"] .note').all_inner_texts()
        assert ["Bob hesitated", "TD: table talk"] == notes


class StopPlaying(Exception):
    """Ends a random playout early (the live test only needs some plies)."""


class TestLive:
    @pytest.mark.parametrize("game", ["cuttle", "kozel"])
    def test_anonymous_viewer_sees_public_cards_only(
        self,
        game: str,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
        viewport: dict[str, int],
    ) -> None:
        """While live, the page follows every ply and draws exactly the public view."""
        seats = 2 if game == "cuttle" else 4
        players = make_players(http, scorer_headers, ["Ann", "Bob", "Cid", "Dee"][:seats])
        body: dict[str, Any] = {"game": game, "players": players}
        if game == "cuttle":
            body["variant"] = "standard"
        match = create_match(http, scorer_headers, body)
        track = track_of(http, scorer_headers, match["id"])
        page.goto(f"{server}/matches/{match['id']}/view")
        wait_for_ply(page, 0)
        assert "live" == page.inner_text("#status")
        writes = 0

        def check(after: dict[str, Any]) -> None:
            nonlocal writes
            writes += 1
            assert "live" == after["status"]
            extend(track, http, scorer_headers, match["id"])
            ply = len(track.plies)
            wait_for_ply(page, ply)
            view, own = views_at(track, ply)
            assert view is not None
            assert "public" == page.get_attribute("#table", "data-seat")
            assert expected_zones(game, view, None) == drawn(page), f"ply {ply}"
            hidden = cards_in(own) - cards_in(view)
            assert hidden, "some card is hidden at this ply"
            shown = {c for cards in drawn(page).values() if isinstance(cards, list) for c in cards}
            assert set() == shown & hidden
            text = page.inner_text("body")
            assert [] == [c for c in sorted(hidden) if card_text(c) in text]
            if writes == 6:
                screenshot(page, f"live-{game}", viewport)
            if writes == 10:
                raise StopPlaying

        with pytest.raises(StopPlaying):
            play_to_end(http, scorer_headers, match, random.Random(3), after_each=check)

    @pytest.mark.parametrize("viewport", [DESKTOP], indirect=True, ids=["desktop"])
    def test_match_end_shows_every_hand(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
    ) -> None:
        """When the followed match ends, the page moves to its last ply and shows the full view."""
        players = make_players(http, scorer_headers, ["Ann", "Bob"])
        body = {"game": "cuttle", "variant": "standard", "format": "quick", "players": players}
        match = create_match(http, scorer_headers, body)
        page.goto(f"{server}/matches/{match['id']}/view")
        wait_for_ply(page, 0)
        final = play_to_end(http, scorer_headers, match, random.Random(11))
        assert "finished" == final["status"]
        track = track_of(http, scorer_headers, match["id"])
        last = len(track.plies)
        page.wait_for_selector('#table[data-seat="full"]', state="attached")
        wait_for_ply(page, last)
        assert "finished" == page.inner_text("#status")
        view, seats = views_at(track, last)
        assert view is not None
        assert expected_zones("cuttle", view, seats) == drawn(page)


class TestCompetition:
    def test_lists_matches_and_standings(
        self,
        page: Page,
        server: str,
        http: httpx.Client,
        viewer_database: str,
        scorer_headers: dict[str, str],
        viewport: dict[str, int],
    ) -> None:
        """The competition page links every match with its series score and shows standings."""
        admin = token_headers(viewer_database, Role.ADMIN)
        response = http.post(
            "/competitions",
            json={"name": "Club night", "game": "cuttle", "variant": "standard", "format": "quick"},
            headers=admin,
        )
        assert 201 == response.status_code, response.text
        competition = response.json()
        players = make_players(http, scorer_headers, ["Eve", "Fay", "Gus"])
        ids = []
        for seed, pair in enumerate([players[:2], players[1:], [players[0], players[2]]]):
            body = {"game": "cuttle", "players": pair, "competition_id": competition["id"]}
            match = create_match(http, scorer_headers, body)
            if seed < 2:
                match = play_to_end(http, scorer_headers, match, random.Random(seed))
            ids.append(match["id"])
        page.goto(f"{server}/competitions/{competition['id']}/view")
        page.wait_for_selector("#matches table")
        for match_id in ids:
            row = page.locator(f'tr[data-match="{match_id}"]')
            assert f"/matches/{match_id}/view" == row.locator("a").get_attribute("href")
            score = http.get(f"/matches/{match_id}").json()["score"]
            wins = re.findall(r"\b(?:Eve|Fay|Gus) (\d+)", row.locator(".series").inner_text())
            assert [str(w) for w in score["wins"]] == wins
        standings = http.get(f"/competitions/{competition['id']}/standings").json()
        names = page.locator("#standings tbody th").all_inner_texts()
        assert [row["name"] for row in standings["players"]] == names
        screenshot(page, "competition", viewport)
        page.locator(f'tr[data-match="{ids[0]}"] a').click()
        wait_for_ply(page, len(http.get(f"/matches/{ids[0]}/timeline").json()["steps"]))
