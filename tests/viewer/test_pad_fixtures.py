"""The scorer's pad opens a fixture's match (issue #23), in headless Chromium through
``http://club.test`` (not a secure context), against the real API.

Competitions, entrants and fixtures are made over HTTP; the pad lists the current
round of each competition its token may record in, starts a table's match with the
fixture's id and players, and opens a table's live match.
Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pictures.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import httpx

from store.accounts import Role
from tests.api.conftest import create_secret
from tests.viewer.conftest import DESKTOP, PHONE, token_headers
from tests.viewer.test_pad import (
    SMALL_TARGETS,
    _club,
    _club_browser,
    _secret,
    fresh_page,
    lose_first_answer,
    version_of,
)
from tests.viewer.test_rounds import (
    enter,
    fixture_match,
    forfeit,
    league,
    resign,
    round_robin,
)
from tests.viewer.test_viewer import make_players, screenshot

__all__ = ["_club", "_club_browser", "_secret"]  # the fixtures this module shares

Page = Any


def open_home(browser: Any, club: str, secret: str, viewport: dict[str, int]) -> Page:
    """``/score`` in a fresh context, signed in, its fixtures drawn."""
    page = fresh_page(browser, viewport)
    page.goto(club + "/score")
    page.fill("#token", secret)
    page.click("#sign-in-button")
    page.wait_for_selector("#fixtures:not([hidden]) .competition")
    return page


def limited_secret(url: str, competitions: list[str]) -> str:
    """A scorer's token limited to ``competitions``."""
    return create_secret(url, Role.SCORER, [UUID(c) for c in competitions])


def listed(page: Page) -> dict[str, Any]:
    """What the pad lists: per competition, its round and its tables' rows."""
    shown: dict[str, Any] = page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('#fixtures .competition')].map(c => [c.dataset.competition, {
        round: c.dataset.round,
        tables: [...c.querySelectorAll('li.fixture')].map(li => ({
          table: li.dataset.table,
          who: li.querySelector('.who').textContent,
          result: li.querySelector('.fixture-result').textContent,
          action: (li.querySelector('button, a') || {}).textContent || null,
        })),
        byes: (c.querySelector('.byes') || {}).textContent || null,
      }]))""")
    return shown


def fixtures_of(http: httpx.Client, competition: str) -> list[Any]:
    rounds: list[Any] = http.get(f"/competitions/{competition}/fixtures").json()["rounds"]
    return rounds


def test_the_pad_starts_and_opens_the_current_rounds_matches(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    """A token limited to a Cuttle league and a Kozel cup: both listed (another league is
    not), a Cuttle table started with a tap is the fixture's match (its players in order),
    then opened from the list; a Kozel pairs table seats the pairs as the fixture says."""
    admin = token_headers(viewer_database, Role.ADMIN)
    cuttle = league(http, admin, "Pad league", "cuttle", "standard")
    kozel = league(http, admin, "Pad cup", "kozel", "default")
    other = league(http, admin, "Someone else's league", "cuttle", "standard")
    kit, lou, max_ = make_players(http, scorer_headers, ["Nia", "Oto", "Pia"])
    for player in (kit, lou, max_):
        enter(http, admin, cuttle, {"player_id": player})
        enter(http, admin, other, {"player_id": player})
    ada, bob, cy, dee = make_players(http, scorer_headers, ["Qin", "Rae", "Sol", "Tam"])
    enter(http, admin, kozel, {"players": [ada, cy]})
    enter(http, admin, kozel, {"players": [bob, dee]})
    rounds = round_robin(http, admin, cuttle)
    [kozel_round] = round_robin(http, admin, kozel)
    round_robin(http, admin, other)
    secret = limited_secret(viewer_database, [cuttle, kozel])

    page = open_home(club_browser, club, secret, DESKTOP)
    try:
        shown = listed(page)
        assert {cuttle, kozel} == set(shown)
        [table] = rounds[0]["tables"]
        names = {kit: "Nia", lou: "Oto", max_: "Pia"}
        assert {
            "round": "1",
            "tables": [
                {
                    "table": table["id"],
                    "who": " v ".join(names[p] for p in table["players"]),
                    "result": "not started",
                    "action": "Start",
                }
            ],
            "byes": "Bye: " + names[next(p for p in names if p not in table["players"])],
        } == shown[cuttle]
        assert "Qin & Sol v Rae & Tam" == shown[kozel]["tables"][0]["who"]
        page.select_option("#fixture-dealing", "scorer")
        page.click(f'li.fixture[data-table="{table["id"]}"] button.start-fixture')
        page.wait_for_url("**/matches/*/score")
        version_of(page)
        match_id = page.url.split("/")[-2]
        match = http.get(f"/matches/{match_id}").json()
        assert (match["players"], match["competition_id"], match["dealing"]) == (
            table["players"],
            cuttle,
            "scorer",
        )
        assert match_id == fixtures_of(http, cuttle)[0]["tables"][0]["match_id"]

        # Back on /score the table's live match opens from the list.
        page.goto(club + "/score")
        page.wait_for_selector("#fixtures .competition")
        # The live list groups it under its competition and says its round and table (#32).
        live = f'#live-matches [data-competition="{cuttle}"] [data-match="{match_id}"] .when'
        when = page.inner_text(live)
        assert when.startswith("round 1, table 1 · started ")
        # Started at a time of the reader's own zone, which it names (UTC, GMT+9, EST).
        assert re.search(r"\d:\d\d:\d\d\s[AP]M (UTC|GMT[+-][\d:]+|[A-Z]{2,4}T) · ", when), when
        assert "Pad league" == page.inner_text(f'#live-matches [data-competition="{cuttle}"] h3')
        row = f'li.fixture[data-table="{table["id"]}"]'
        assert ("live", "Open") == (
            page.inner_text(f"{row} .fixture-result"),
            page.inner_text(f"{row} a"),
        )
        page.click(f"{row} a.open-fixture")
        page.wait_for_url(f"**/matches/{match_id}/score")
        version_of(page)

        page.goto(club + "/score")
        page.wait_for_selector("#fixtures .competition")
        [kozel_table] = kozel_round["tables"]
        page.click(f'li.fixture[data-table="{kozel_table["id"]}"] button.start-fixture')
        page.wait_for_url("**/matches/*/score")
        kozel_match = http.get(f"/matches/{page.url.split('/')[-2]}").json()
        assert kozel_table["players"] == kozel_match["players"]
        assert [ada, bob, cy, dee] == kozel_match["players"]
        assert page.errors == []
        assert not any(secret in url for url in page.urls)
    finally:
        page.context.close()


def test_a_played_round_moves_the_pad_to_the_next(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    """Round 1's tables finished or forfeited: round 2 is the current one, where a
    forfeited table offers no Start; at 390 px every target is at least 44 px."""
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Two-round league", "cuttle", "standard")
    for player in make_players(http, scorer_headers, ["Uri", "Val", "Wim", "Xia"]):
        enter(http, admin, competition, {"player_id": player})
    rounds = round_robin(http, admin, competition)
    played, walked = rounds[0]["tables"]
    resign(http, scorer_headers, fixture_match(http, scorer_headers, "cuttle", played), 0)
    forfeit(http, admin, competition, walked["id"], [walked["entrants"][0]])
    gone, to_play = rounds[1]["tables"]
    forfeit(http, admin, competition, gone["id"], [gone["entrants"][1]])
    page = open_home(club_browser, club, limited_secret(viewer_database, [competition]), PHONE)
    try:
        shown = listed(page)[competition]
        assert "2" == shown["round"]
        assert [(gone["id"], "1-0 ff", None), (to_play["id"], "not started", "Start")] == [
            (t["table"], t["result"], t["action"]) for t in shown["tables"]
        ]
        assert "round 2 of 3" in page.inner_text(f'[data-competition="{competition}"] h3')
        assert [] == page.evaluate(SMALL_TARGETS)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "pad-fixtures", PHONE)
        assert page.errors == []
    finally:
        page.context.close()


def test_a_void_table_offers_start_and_takes_a_new_match(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    """A table whose match an admin voided is still to play: its round stays the current
    one, the pad says "void" and offers Start (as the desk and the API do), and the match
    it starts is the table's new one, not the void one again."""
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Corrected league", "cuttle", "standard")
    for player in make_players(http, scorer_headers, ["Zed", "Abe"]):
        enter(http, admin, competition, {"player_id": player})
    [[table]] = [r["tables"] for r in round_robin(http, admin, competition)]
    wrong = fixture_match(http, scorer_headers, "cuttle", table)
    resign(http, scorer_headers, wrong, 0)
    version = http.get(f"/matches/{wrong['id']}").json()["version"]
    voided = http.post(
        f"/matches/{wrong['id']}/void",
        json={"reason": "the wrong seat resigned", "expected_version": version},
        headers=admin,
    )
    assert 200 == voided.status_code, voided.text
    page = open_home(club_browser, club, limited_secret(viewer_database, [competition]), PHONE)
    try:
        shown = listed(page)[competition]
        assert [] == page.evaluate(SMALL_TARGETS)
        screenshot(page, "pad-void-table", PHONE)
        assert [(table["id"], "void", "Start")] == [
            (t["table"], t["result"], t["action"]) for t in shown["tables"]
        ]
        page.click(f'li.fixture[data-table="{table["id"]}"] button.start-fixture')
        page.wait_for_url("**/matches/*/score")
        version_of(page)
        again = page.url.split("/")[-2]
        assert page.errors == []
    finally:
        page.context.close()
    assert again != wrong["id"]
    assert again == fixtures_of(http, competition)[0]["tables"][0]["match_id"]
    assert "live" == http.get(f"/matches/{again}").json()["status"]


def test_a_fixture_started_again_after_a_lost_answer_is_one_match(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    admin = token_headers(viewer_database, Role.ADMIN)
    competition = league(http, admin, "Lossy Wi-Fi league", "cuttle", "standard")
    for player in make_players(http, scorer_headers, ["Xan", "Yul"]):
        enter(http, admin, competition, {"player_id": player})
    [[table]] = [r["tables"] for r in round_robin(http, admin, competition)]
    page = open_home(club_browser, club, limited_secret(viewer_database, [competition]), DESKTOP)
    sent: list[tuple[str, str, str]] = []
    land_then_drop = lose_first_answer(
        sent,
        lambda request: (
            request.post_data_json["id"],
            request.headers["idempotency-key"],
            request.post_data_json["fixture_id"],
        ),
    )
    try:
        page.route("**/matches", land_then_drop)
        start = f'li.fixture[data-table="{table["id"]}"] button.start-fixture'
        page.click(start)
        page.wait_for_selector(
            f'li.fixture[data-table="{table["id"]}"] .message.error:not([hidden])'
        )
        page.click(start)
        page.wait_for_url("**/matches/*/score")
        assert page.errors == []
    finally:
        page.context.close()
    assert len(sent) == 2 and sent[0] == sent[1]
    assert sent[0][2] == table["id"]
    assert sent[0][0] == fixtures_of(http, competition)[0]["tables"][0]["match_id"]
    assert page.url.split("/")[-2] == sent[0][0]


def test_an_unlimited_token_sees_each_competitions_fixtures_as_a_group(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    """An admin's token over five competitions (#32): a group per competition, its name
    the heading and its round's tables under it; those with a live or unplayed table
    first, the played ones after (each part newest first); more than a few groups are
    drawn collapsed at 390 px, and a table is started from its opened group."""
    admin_secret = create_secret(viewer_database, Role.ADMIN)
    admin = {"Authorization": f"Bearer {admin_secret}"}
    una, ivo = make_players(http, scorer_headers, ["Una", "Ivo"])
    made: dict[str, Any] = {}
    for name in ["Played A", "Live B", "Played C", "Unplayed D", "Unplayed E"]:
        competition = league(http, admin, name, "cuttle", "standard")
        for player in (una, ivo):
            enter(http, admin, competition, {"player_id": player})
        [[table]] = [r["tables"] for r in round_robin(http, admin, competition)]
        if name.startswith("Played"):
            forfeit(http, admin, competition, table["id"], [table["entrants"][0]])
        elif name.startswith("Live"):
            fixture_match(http, scorer_headers, "cuttle", table)
        made[name] = (competition, table)
    ids = {competition: name for name, (competition, _) in made.items()}

    page = open_home(club_browser, club, admin_secret, PHONE)
    try:
        groups = page.evaluate("""() => [...document.querySelectorAll('#fixtures .competition')]
          .map(g => ({id: g.dataset.competition, tag: g.tagName, open: g.open,
                      to_play: !!g.querySelector('button.start-fixture, a.open-fixture'),
                      heading: g.querySelector(':scope > summary h3').textContent,
                      rows: [...g.querySelectorAll('li.fixture')].map(li => li.dataset.table)}))""")
        ours = [g for g in groups if g["id"] in ids]
        assert ["Unplayed E", "Unplayed D", "Live B", "Played C", "Played A"] == [
            ids[g["id"]] for g in ours
        ]
        # Every group with a table to start or open comes before every played one,
        # whichever test made them.
        to_play = [g["to_play"] for g in groups]
        assert to_play == sorted(to_play, reverse=True)
        for group in ours:
            name = ids[group["id"]]
            assert (f"{name} · round 1 of 1", [made[name][1]["id"]]) == (
                group["heading"],
                group["rows"],
            )
        # More than three groups: each collapsed to its heading.
        assert len(groups) > 3
        assert {("DETAILS", False)} == {(g["tag"], g["open"]) for g in groups}
        assert not page.is_visible("li.fixture")
        competition, table = made["Unplayed D"]
        group = f'#fixtures details.competition[data-competition="{competition}"]'
        page.click(f"{group} > summary")
        summaries = page.evaluate(
            "() => [...document.querySelectorAll('#fixtures summary')]"
            ".map(s => s.getBoundingClientRect().height)"
        )
        assert all(h >= 43.5 for h in summaries)
        assert [] == page.evaluate(SMALL_TARGETS)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "pad-fixture-groups", PHONE)
        page.click(f'{group} li.fixture[data-table="{table["id"]}"] button.start-fixture')
        page.wait_for_url("**/matches/*/score")
        version_of(page)
        match_id = page.url.split("/")[-2]
        assert match_id == fixtures_of(http, competition)[0]["tables"][0]["match_id"]
        assert (table["players"], competition) == (
            http.get(f"/matches/{match_id}").json()["players"],
            http.get(f"/matches/{match_id}").json()["competition_id"],
        )
        assert page.errors == []
    finally:
        page.context.close()
