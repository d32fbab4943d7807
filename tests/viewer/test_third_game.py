"""A third game, written only in the tests, goes through every face matchlog has (#30 item 4).

Draw high (``tests/third_game``) is registered in the games' registry before the
app is made; nothing outside its package and this file names it. Over the API a
competition of it is created and a match recorded to its end; the match's timeline,
replay and series read back; its logs (JSON Lines and text) import into fresh
databases through the command line, which re-exports them unchanged and tallies the
same standings; and the viewer draws its table and its competition from its
descriptor in Chromium, without a script error.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.cards import table_text
from store.accounts import Role
from tests.database import as_login, fresh_database
from tests.logs.support import cli
from tests.recording.play import create_match, play_to_end
from tests.third_game import PRESENTATION, RULES, registered
from tests.viewer.conftest import token_headers
from tests.viewer.table import BACK, READ_ZONES, track_of, views_at
from tests.viewer.test_viewer import make_players, wait_for_ply

Page = Any


@pytest.fixture(name="drawhigh", scope="module", autouse=True)
def _drawhigh() -> Iterator[None]:
    """Draw high in the registry before the module's server is made, and out after."""
    with registered():
        yield


@pytest.fixture(name="played", scope="module")
def _played(http: httpx.Client, viewer_database: str, scorer_headers: dict[str, str]) -> Any:
    """A draw-high competition and one match of it, first to 2 hands, played to its end."""
    admin = token_headers(viewer_database, Role.ADMIN)
    body = {"name": "Draw night", "game": "drawhigh", "format": "first-to-2"}
    response = http.post("/competitions", json=body, headers=admin)
    assert 201 == response.status_code, response.text
    competition = response.json()
    players = make_players(http, scorer_headers, ["Ann", "Bob"])
    body = {
        "game": "drawhigh",
        "players": players,
        "competition_id": competition["id"],
        "first_dealer": 0,
    }
    match = create_match(http, scorer_headers, body)
    return competition, play_to_end(http, scorer_headers, match, random.Random(30))


def run_cli(url: str, *args: str) -> str:
    """Run ``matchlog ARGS`` on ``url`` in a thread (Playwright may hold this one's loop)."""
    with ThreadPoolExecutor(1) as pool:
        code, out, err = pool.submit(cli, url, *args).result()
    assert 0 == code, out + err
    return out


class TestThroughTheApi:
    def test_a_competition_and_its_match_are_recorded_by_the_games_rules(
        self, played: Any, http: httpx.Client
    ) -> None:
        competition, match = played
        assert ("duel", "first-to-2") == (competition["variant"], competition["format"])
        assert ("finished", "drawhigh", "duel") == (
            match["status"],
            match["game"],
            match["variant"],
        )
        wins = match["score"]["wins"]
        assert 2 == max(wins) and 2 == match["score"]["target"]
        series = http.get(f"/matches/{match['id']}/series").json()
        hands = series["rounds"]
        assert list(range(1, len(hands) + 1)) == [hand["hand"] for hand in hands]
        assert wins == hands[-1]["wins"]

    def test_its_timeline_and_replay_read_back_every_draw(
        self, played: Any, http: httpx.Client
    ) -> None:
        _, match = played
        steps = http.get(f"/matches/{match['id']}/timeline").json()["steps"]
        hands = len(http.get(f"/matches/{match['id']}/series").json()["rounds"])
        assert 2 * hands == len(steps)
        first = steps[0]
        # Ann deals the first hand: Bob, on her left, draws first.
        assert "H1 draw" == first["move"]
        assert first["sentence"].startswith("Bob draws ")
        replay = http.get(f"/matches/{match['id']}/replay", params={"ply": 1, "seat": "full"})
        assert 200 == replay.status_code, replay.text
        view = replay.json()["view"]
        assert [] == view["shown"][0]
        (drawn,) = view["shown"][1]
        # The sentence writes the card as the table draws it (#32), the view its code.
        assert f"Bob draws {table_text(drawn)}" == first["sentence"]
        assert 51 == view["deck"]

    def test_its_logs_import_into_a_fresh_database_with_its_standings(
        self,
        played: Any,
        http: httpx.Client,
        admin_url: str,
        template_database: str,
        app_login: tuple[str, str],
        tmp_path: Path,
    ) -> None:
        competition, match = played
        standings = http.get(f"/competitions/{competition['id']}/standings").json()
        winner = match["players"][match["score"]["wins"].index(2)]
        top = standings["players"][0]
        # The players table draw high did not write (DefaultRules: won, drawn, lost).
        assert (winner, 1, 1, 1, 0) == (
            top["entity"],
            top["rank"],
            top["won"],
            top["points"],
            top["lost"],
        )
        logs = {}
        for fmt in ("jsonl", "text"):
            answer = http.get(f"/matches/{match['id']}/export", params={"format": fmt})
            assert 200 == answer.status_code, answer.text
            logs[fmt] = answer.text
        assert '[Game "drawhigh"]' in logs["text"] and "hand 1 deck " in logs["text"]
        assert "1. H1 draw" in logs["text"]
        for fmt, text in logs.items():
            path = tmp_path / f"match.{fmt}"
            path.write_text(text)
            with fresh_database(admin_url, template_database) as owner:
                url = as_login(owner, app_login)
                run_cli(url, "import", str(path))
                assert text == run_cli(url, "export", match["id"], "--format", fmt)
                report = json.loads(run_cli(url, "standings", competition["id"], "-f", "json"))
                assert standings["players"] == report["players"]


def _is_error(message: Any) -> bool:
    """A console error, but the browser's own ask for a favicon (no page of matchlog has one)."""
    return bool(message.type == "error" and "/favicon.ico" not in message.location["url"])


def test_the_viewer_draws_the_match_and_its_competition(
    page: Page, server: str, http: httpx.Client, scorer_headers: dict[str, str], played: Any
) -> None:
    competition, match = played
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if _is_error(m) else None)
    page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)
    steps = http.get(f"/matches/{match['id']}/timeline").json()["steps"]
    track = track_of(http, scorer_headers, match["id"])
    page.goto(f"{server}/matches/{match['id']}/view?ply=3")
    wait_for_ply(page, 3)
    view, _ = views_at(track, 3, record=True)
    assert view is not None
    expected = {f"drawn-{seat}": cards for seat, cards in enumerate(view["shown"])}
    expected |= {"deck": [BACK], "deck:count": view["deck"]}
    assert expected == page.evaluate(READ_ZONES)
    assert steps[2]["sentence"] == page.inner_text("#sentence")
    seats = page.locator("#table .seat h3").all_inner_texts()
    assert {"Ann", "Bob"} == {s.split("\n")[0].strip() for s in seats}
    assert 1 == page.locator(f"#table .felt.{RULES.game}").count()
    assert PRESENTATION.label in page.inner_text("h1")
    page.goto(f"{server}/competitions/{competition['id']}/view")
    page.wait_for_selector("#standings tbody th")
    assert ["Ann", "Bob"] == sorted(page.locator("#standings tbody th").all_inner_texts())
    assert f"/matches/{match['id']}/view" == page.locator(
        f'tr[data-match="{match["id"]}"] a'
    ).get_attribute("href")
    assert [] == errors
