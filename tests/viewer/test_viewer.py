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
    BACK,
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
    """A finished Cuttle match (standard, quick), recorded over HTTP.

    Dealt by hand so that it opens with Ann's jack stealing Bob's 10♥ (a stack whose
    base is a two-digit card), then played out at random.
    """
    players = make_players(http, scorer_headers, ["Ann", "Bob"])
    body = {
        "game": "cuttle",
        "variant": "standard",
        "format": "quick",
        "players": players,
        "dealing": "physical",
        "first_dealer": 0,
    }
    match = create_match(http, scorer_headers, body)
    deal = {"hands": ["JH 2C 3C 4D 5S 6S", "TH 9S 8C 7D 2H"], "expected_version": match["version"]}
    answer = http.post(f"/matches/{match['id']}/rounds", json=deal, headers=scorer_headers)
    assert 201 == answer.status_code, answer.text
    answer = http.post(
        f"/matches/{match['id']}/moves",
        json={
            "moves": ["P1 points TH", "P0 jack JH>TH"],
            "expected_version": answer.json()["version"],
        },
        headers=scorer_headers,
    )
    assert 200 == answer.status_code, answer.text
    return play_to_end(http, scorer_headers, answer.json()["match"], random.Random(9))


@pytest.fixture(name="kozel_match", scope="module")
def _kozel_match(http: httpx.Client, scorer_headers: dict[str, str]) -> dict[str, Any]:
    """A finished Kozel match (to 4 loss points), recorded over HTTP."""
    players = make_players(http, scorer_headers, ["Ann", "Bob", "Cid", "Dee"])
    body = {"game": "kozel", "players": players, "options": {"loss_limit": 4}}
    match = create_match(http, scorer_headers, body)
    return play_to_end(http, scorer_headers, match, random.Random(4))


@pytest.fixture(name="cutthroat_match", scope="module")
def _cutthroat_match(http: httpx.Client, scorer_headers: dict[str, str]) -> dict[str, Any]:
    """A finished 3-player Cuttle match (quick), recorded over HTTP."""
    players = make_players(http, scorer_headers, ["Ann", "Bob", "Cid"])
    body = {"game": "cuttle", "variant": "cutthroat", "format": "quick", "players": players}
    match = create_match(http, scorer_headers, body)
    return play_to_end(http, scorer_headers, match, random.Random(2))


# How the table is laid out: where the seat to act is, which cards' text leaves their
# card, which stacked cards' rank or suit is hidden by a card over it, how many
# stacks carry cards (so the stack checks can fail), and the caption under the centre.
READ_LAYOUT = """() => {
  const out = {acting: null, overflowing: [], covered: [], stacks: 0, phase: null};
  const seat = document.querySelector('#table .seat.acting');
  if (seat) {
    const box = seat.getBoundingClientRect();
    out.acting = {top: box.top, bottom: box.bottom, height: innerHeight, scrolled: scrollY};
  }
  const phase = document.querySelector('#table .phase');
  if (phase) out.phase = phase.textContent;
  for (const card of document.querySelectorAll('#table .card[data-card]')) {
    const box = card.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(card);
    const text = range.getBoundingClientRect();
    if (text.left < box.left - 0.5 || text.right > box.right + 0.5
        || text.top < box.top - 0.5 || text.bottom > box.bottom + 0.5) {
      out.overflowing.push(card.dataset.card);
    }
  }
  const top = scrollY;
  for (const stack of document.querySelectorAll('#table .stack')) {
    if (stack.querySelector('.attached')) out.stacks += 1;
    stack.scrollIntoView({block: 'center'});
    for (const card of stack.querySelectorAll('.card')) {
      for (const part of card.querySelectorAll('.rank, .suit')) {
        // Its left edge, middle and right edge: the whole "10", not half of it.
        const box = part.getBoundingClientRect();
        for (const x of [box.left + 1, box.left + box.width / 2, box.right - 1]) {
          const hit = document.elementFromPoint(x, box.top + box.height / 2);
          if (!hit || !part.contains(hit)) {
            const what = hit ? hit.className + ' ' + (hit.dataset.card || '') : 'nothing';
            const at = Math.round(x - box.left);
            out.covered.push(`${card.dataset.card} ${part.className} at ${at}px: ${what}`);
          }
        }
      }
    }
  }
  window.scrollTo(0, top);
  return out;
}"""

# Counts with the wrong noun: "1 tricks", "1 finished matches" and the like.
WRONG_PLURAL = re.compile(r"(?<![\d.])1 (?:tricks|points|card points|matches|finished matches)\b")


def check_layout(page: Page, viewport: dict[str, int]) -> int:
    """The seat to act is on a 1280x800 screen, every card's text inside its card,
    every stacked card's rank and suit visible; return the stacks drawn with cards on them.
    """
    layout = page.evaluate(READ_LAYOUT)
    if viewport == DESKTOP and layout["acting"] is not None:
        acting = layout["acting"]
        assert 0 == acting["scrolled"]
        assert 0 <= acting["top"] and acting["bottom"] <= acting["height"], acting
    assert [] == layout["overflowing"]
    assert [] == layout["covered"]
    phase = layout["phase"]
    if phase:
        # Words, not the engine's phase names ("main · Ann to act").
        assert "·" not in phase and "_" not in phase and phase[0].isupper(), phase
    assert not WRONG_PLURAL.search(page.inner_text("body"))
    stacks: int = layout["stacks"]
    return stacks


def wait_for_ply(page: Page, ply: int) -> None:
    page.wait_for_selector(f'#table[data-ply="{ply}"]', state="attached")


def drawn(page: Page) -> dict[str, Any]:
    zones: dict[str, Any] = page.evaluate(READ_ZONES)
    return zones


def check_replay_ply(
    page: Page, game: str, track: Any, steps: list[dict[str, Any]], ply: int
) -> None:
    """The page shows ply ``ply`` of a finished match: the URL, the sentence and every
    card of the full view, no card face down but the stock or deck (R44)."""
    wait_for_ply(page, ply)
    assert f"ply={ply}" in page.url
    view, seats = views_at(track, ply, record=True)
    if view is None:
        assert {} == drawn(page)
    else:
        zones = drawn(page)
        assert expected_zones(game, view, seats) == zones, f"ply {ply}"
        backs = [name for name, cards in zones.items() if isinstance(cards, list) and BACK in cards]
        assert set(backs) <= {"deck", "stock"}, f"ply {ply}"
    sentence = "Before the first move." if ply == 0 else steps[ply - 1]["sentence"]
    assert sentence == page.inner_text("#sentence")
    assert f"Ply {ply} / {len(steps)}" == page.inner_text("#ply-label")


def arrow_through(
    page: Page,
    server: str,
    http: httpx.Client,
    headers: dict[str, str],
    match: dict[str, Any],
    viewport: dict[str, int],
    picture: str | None = None,
) -> int:
    """Step a finished Cuttle match from ply 0 to its end with the right arrow, checking
    every ply's cards and layout; return the stacks drawn with cards on them."""
    match_id = match["id"]
    track = track_of(http, headers, match_id)
    steps = http.get(f"/matches/{match_id}/timeline").json()["steps"]
    page.goto(f"{server}/matches/{match_id}/view?ply=0")
    stacks = 0
    for ply in range(len(steps) + 1):
        check_replay_ply(page, "cuttle", track, steps, ply)
        stacks += check_layout(page, viewport)
        if picture and ply == len(steps) // 2:
            screenshot(page, picture, viewport)
        page.keyboard.press("ArrowRight")
    check_replay_ply(page, "cuttle", track, steps, len(steps))
    page.keyboard.press("ArrowLeft")
    check_replay_ply(page, "cuttle", track, steps, len(steps) - 1)
    assert "finished" == page.inner_text("#status")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    return stacks


class TestReplay:
    @pytest.mark.parametrize(
        ("recorded", "picture"),
        [("cuttle_match", "cuttle"), ("cutthroat_match", None)],
        ids=["standard", "cutthroat"],
    )
    def test_cuttle_steps_with_arrow_keys(
        self,
        request: pytest.FixtureRequest,
        page: Page,
        server: str,
        http: httpx.Client,
        scorer_headers: dict[str, str],
        viewport: dict[str, int],
        recorded: str,
        picture: str | None,
    ) -> None:
        """Every ply of a finished Cuttle match, 2 or 3 seats, stepped with the right arrow,
        is the engine's; at 1280x800 the seat to act shows at every ply."""
        match = request.getfixturevalue(recorded)
        stacks = arrow_through(page, server, http, scorer_headers, match, viewport, picture)
        if recorded == "cuttle_match":  # it opens with Ann's jack on Bob's 10♥
            assert stacks, "some ply shows a jack on a point card"

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
        # Teams, not four names in a row; deals, not rounds.
        assert "Kozel · Ann & Cid v Bob & Dee" == page.inner_text("h1")
        page.click("#first")
        for ply in range(0, min(last, 60)):
            check_replay_ply(page, "kozel", track, steps, ply)
            check_layout(page, viewport)
            if ply:
                deal = f"Deal {steps[ply - 1]['round']}"
                assert deal == page.inner_text("#now #round")
            assert "round" not in (page.inner_text("#table") + page.inner_text("#timeline")).lower()
            if ply == 9:
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
    def test_takebacks_and_notes_as_recorded(
        self, page: Page, server: str, http: httpx.Client, scorer_headers: dict[str, str]
    ) -> None:
        """A takeback and notes recorded over the API are drawn as the API sends them.

        The API names who recorded each as an object (``by: {role}``), which a page
        once printed as ``[object Object]``.
        """
        players = make_players(http, scorer_headers, ["Ann", "Bob"])
        body = {"game": "cuttle", "variant": "standard", "players": players}
        match = create_match(http, scorer_headers, body)
        match_id = match["id"]
        stop_after(http, scorer_headers, match, random.Random(2), 4)
        steps = http.get(f"/matches/{match_id}/timeline", headers=scorer_headers).json()["steps"]
        version = http.get(f"/matches/{match_id}").json()["version"]
        undo = {"to_version": steps[2]["before_version"], "reason": "Bob misread the card"}
        answer = http.post(
            f"/matches/{match_id}/takeback",
            json={**undo, "expected_version": version},
            headers=scorer_headers,
        )
        assert 200 == answer.status_code, answer.text
        for on_version, text in ((steps[1]["version"], "Bob hesitated"), (1, "table talk")):
            version = http.get(f"/matches/{match_id}").json()["version"]
            answer = http.post(
                f"/matches/{match_id}/notes",
                json={"version": on_version, "text": text, "expected_version": version},
                headers=scorer_headers,
            )
            assert 201 == answer.status_code, answer.text

        page.goto(f"{server}/matches/{match_id}/view")
        wait_for_ply(page, 2)  # the match as it is now: ply 3 and 4 were taken back
        assert "Ply 2 / 4" == page.inner_text("#ply-label")
        assert ["Bob hesitated (scorer)"] == page.locator("#notes li").all_inner_texts()
        notes = page.locator('#timeline-list li[data-ply="2"] .note').all_inner_texts()
        assert ["Bob hesitated (scorer)"] == notes
        for ply in (3, 4):
            undone = page.locator(f'#timeline-list li[data-ply="{ply}"]')
            assert "taken-back" in (undone.get_attribute("class") or "")
            assert "taken back" == undone.locator(".badge").inner_text()
        page.keyboard.press("ArrowRight")
        wait_for_ply(page, 3)
        assert page.inner_text("#sentence").startswith("(taken back) ")
        told = ["Taken back by the scorer: Bob misread the card"]
        assert told == page.locator("#notes li").all_inner_texts()
        page.keyboard.press("Home")
        wait_for_ply(page, 0)
        assert ["table talk (scorer)"] == page.locator("#notes li").all_inner_texts()
        start = page.locator('#timeline-list li[data-ply="0"] .note').all_inner_texts()
        assert ["table talk (scorer)"] == start
        page.keyboard.press("End")
        wait_for_ply(page, 2)
        assert "[object" not in page.inner_text("body")


class StopPlaying(Exception):
    """Ends a random playout early (the live test only needs some plies)."""


def stop_after(
    http: httpx.Client,
    headers: dict[str, str],
    match: dict[str, Any],
    rng: random.Random,
    writes: int,
) -> None:
    """Record ``writes`` random legal moves (the match must last longer)."""
    done = 0

    def count(_: dict[str, Any]) -> None:
        nonlocal done
        done += 1
        if done == writes:
            raise StopPlaying

    with pytest.raises(StopPlaying):
        play_to_end(http, headers, match, rng, after_each=count)


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
        view, seats = views_at(track, last, record=True)
        assert view is not None
        assert expected_zones("cuttle", view, seats) == drawn(page)

    @pytest.mark.parametrize("viewport", [DESKTOP], indirect=True, ids=["desktop"])
    def test_link_to_a_ply_stays_there(
        self, page: Page, server: str, http: httpx.Client, scorer_headers: dict[str, str]
    ) -> None:
        """A link to a live match's ply, the last one included, stays there as moves come."""
        players = make_players(http, scorer_headers, ["Ann", "Bob"])
        body = {"game": "cuttle", "variant": "standard", "players": players}
        match = create_match(http, scorer_headers, body)
        rng = random.Random(6)
        stop_after(http, scorer_headers, match, rng, 3)
        page.goto(f"{server}/matches/{match['id']}/view?ply=3")
        wait_for_ply(page, 3)
        assert "Ply 3 / 3" == page.inner_text("#ply-label")
        now = http.get(f"/matches/{match['id']}").json()
        stop_after(http, scorer_headers, now, rng, 2)
        page.wait_for_selector('#timeline-list li[data-ply="5"]', state="attached")
        page.wait_for_function(
            "() => document.getElementById('ply-label').textContent === 'Ply 3 / 5'"
        )
        assert "3" == page.get_attribute("#table", "data-ply")
        assert page.url.endswith("ply=3")
        page.keyboard.press("End")  # the reader asks for the newest ply: now they follow
        wait_for_ply(page, 5)
        stop_after(http, scorer_headers, http.get(f"/matches/{match['id']}").json(), rng, 1)
        wait_for_ply(page, 6)


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
        assert "2 finished matches" in page.inner_text("header")
        # Each table is whole or scrolls sideways in its box: its last column can be
        # reached, and the page itself is no wider than the screen.
        reach = page.evaluate("""() => [...document.querySelectorAll('#app table')].map(t => {
          const box = t.closest('.scroll');
          if (!box) return false;
          box.scrollLeft = box.scrollWidth;
          const cells = t.querySelectorAll('thead th');
          const last = cells[cells.length - 1].getBoundingClientRect();
          const edge = box.getBoundingClientRect();
          box.scrollLeft = 0;
          return last.right <= edge.right + 1 && last.left >= edge.left - 1;
        })""")
        assert [True, True] == reach
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(page, "competition", viewport)
        page.locator(f'tr[data-match="{ids[0]}"] a').click()
        wait_for_ply(page, len(http.get(f"/matches/{ids[0]}/timeline").json()["steps"]))
