"""The pad's own engine (issue #34): the server's rules running in the page on Pyodide.

Loaded from this server alone, in the background; a tapped move shows the next ones at
once; offline, taps go on and are sent once each, in order, when the network is back.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

import api
from tests.recording.play import create_match
from tests.viewer.conftest import DESKTOP, PHONE
from tests.viewer.test_pad import (
    HANDS,
    KOZEL_PACK,
    RECOVERED,
    SETTLED,
    Writes,
    _club,
    _club_browser,
    _secret,
    cuttle_dealt,
    drop_the_first_keep_the_next,
    enter_deal,
    events,
    make_players,
    open_pad,
    physical_cuttle,
    played,
    record_elsewhere,
    replayed,
    same_log,
    settle,
    tap_move,
    version_of,
)
from tests.viewer.test_viewer import screenshot

__all__ = ["_club", "_club_browser", "_secret"]  # the pad's fixtures, used here too

Page = Any


def wait_for_engine(page: Page) -> None:
    """Wait until the engine has loaded and folded the match (the first load compiles
    the runtime: allow it time on a loaded machine)."""
    page.wait_for_selector("body[data-engine=ready], body[data-engine=failed]", timeout=90_000)
    assert page.evaluate("document.body.dataset.engine") == "ready"


def test_the_engine_loads_from_this_server_and_shows_the_next_moves_before_the_answer(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    _, match = physical_cuttle(http, scorer_headers, ["Ann", "Bob"])
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        enter_deal(page, HANDS)
        wait_for_engine(page)
        origins = {url.split("/")[2] for url in page.urls}
        assert origins == {club.split("/")[2]}, origins
        # The server's answer is held back: the next moves can only come from the page.
        held: list[Any] = []
        page.route("**/moves", lambda route: held.append(route))
        page.click('#moves button.move[data-move="P1 points 7D"]')
        page.wait_for_selector('#moves button.move[data-move^="P0 "]')
        assert page.evaluate("document.body.dataset.pending") == "1"
        assert page.inner_text("#timeline").count("7") >= 1
        before = version_of(page)
        held[0].continue_()
        settle(page, before)
        page.unroute("**/moves")
        assert played(http, scorer_headers, match["id"]) == ["P1 points 7D"]
        assert page.errors == []
    finally:
        page.context.close()


def pending(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.pending"))


def tap_offline(page: Page, rng: random.Random, stock: list[str], writes: Writes) -> None:
    """Tap one write on a pad that cannot reach the server: a move the page offers (picked
    at random) or, when cards are awaited, the next of ``stock`` that may be named."""
    queued = pending(page)
    # The pad is still drawing the guess of the last tap: its moves take no tap till then.
    page.wait_for_function("() => !document.querySelector('#moves').inert")
    if page.is_visible("#naming"):
        nameable = page.eval_on_selector_all(
            "#naming button.pick:not([disabled])", "nodes => nodes.map(n => n.dataset.card)"
        )
        count = int(page.get_attribute("#naming", "data-awaited") or "0")
        named = [c for c in stock if c in nameable][:count]
        for code in named:
            page.click(f'#naming button.pick[data-card="{code}"]')
        writes.append(("moves", {"moves": ["cards " + " ".join(named)]}))
    else:
        offered = page.eval_on_selector_all(
            "#moves button.move[data-move]", "nodes => nodes.map(n => n.dataset.move)"
        )
        assert offered, page.inner_text("main")
        move = rng.choice(offered)
        page.click(f'#moves button.move[data-move="{move}"]')
        writes.append(("moves", {"moves": [move]}))
    page.wait_for_function(f"() => document.body.dataset.pending === '{queued + 1}'")


def back_online(page: Page) -> None:
    """Let the network back and wait until every queued write is recorded."""
    page.context.set_offline(False)
    page.wait_for_function(RECOVERED, timeout=60_000)


def test_ten_cuttle_moves_tapped_offline_are_recorded_once_each_in_order(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    body, match = physical_cuttle(http, scorer_headers, ["Eve", "Fay"], format="normal")
    writes: Writes = [("rounds", {"hands": [" ".join(h) for h in HANDS]})]
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    rng = random.Random(34)
    # The cards left in the deck, in the order a scorer would draw them.
    stock = [
        c
        for c in (r + s for s in "CDHS" for r in "A23456789TJQK")
        if not any(c in h for h in HANDS)
    ]
    rng.shuffle(stock)
    try:
        enter_deal(page, HANDS)
        wait_for_engine(page)
        page.context.set_offline(True)
        for _ in range(10):
            tap_offline(page, rng, stock, writes)
        page.wait_for_selector("#connection.offline")
        # The table and the timeline follow the taps: ten plies past the server's.
        assert page.get_attribute("#table", "data-ply") == "10"
        assert page.locator("#timeline li.step").count() == 10
        assert pending(page) == 10
        screenshot(page, "pad-offline", PHONE)
        back_online(page)
        assert page.errors == []
    finally:
        page.context.close()
    same_log(
        events(http, scorer_headers, match["id"]), replayed(http, scorer_headers, body, writes)
    )


def test_a_kozel_deal_and_trick_tapped_offline_are_recorded_once_each_in_order(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    players = make_players(http, scorer_headers, ["Gil", "Hub", "Ike", "Jan"])
    body = {"game": "kozel", "players": players, "dealing": "physical", "first_dealer": 0}
    match = create_match(http, scorer_headers, body)
    pack = KOZEL_PACK[:]
    rng = random.Random(35)
    rng.shuffle(pack)
    hands = [pack[0:4], pack[4:8], pack[8:12], pack[12:16]]
    indicator = pack[16]
    stock = [*pack[17:], indicator]
    writes: Writes = [("rounds", {"hands": [" ".join(h) for h in hands], "indicator": indicator})]
    page = open_pad(club_browser, club, secret, match["id"], DESKTOP)
    try:
        page.wait_for_selector("#deal")
        wait_for_engine(page)
        # The deal itself is entered with the network cut, then the moves after it.
        page.context.set_offline(True)
        for slot, cards in enumerate([*hands, [indicator]]):
            page.click(f'#deal .slot[data-slot="{slot}"] .slot-name')
            for code in cards:
                page.click(f'#deal button.pick[data-card="{code}"]')
        page.click("#deal-button")
        page.wait_for_function("() => document.body.dataset.pending === '1'")
        for _ in range(10):
            tap_offline(page, rng, stock, writes)
        trick = page.locator("#timeline li.step").count()
        assert trick >= 10, trick
        back_online(page)
        assert page.errors == []
    finally:
        page.context.close()
    recorded = events(http, scorer_headers, match["id"])
    # Ten writes past the deal: four plays take a trick, the draws after it are named.
    assert [e["type"] for e in recorded].count("TrickTaken") >= 2
    same_log(recorded, replayed(http, scorer_headers, body, writes))


WASM = next(Path(api.__file__).parent.glob("vendor/pyodide/*/pyodide.asm.wasm"))


def cut_short(route: Any) -> None:
    """Answer with the wasm's first 64 KiB: a download that ended early."""
    route.fulfill(status=200, content_type="application/wasm", body=WASM.read_bytes()[:65536])


@pytest.mark.parametrize(
    "lost", ["pyodide.asm.wasm", "pyodide.asm.wasm?short", "python_stdlib.zip", "pyodide-lock.json"]
)
def test_a_runtime_file_lost_mid_load_fails_cleanly_and_the_next_read_loads_the_engine(
    club_browser: Any,
    club: str,
    secret: str,
    http: httpx.Client,
    scorer_headers: dict[str, str],
    lost: str,
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    cut = f"**/vendor/pyodide/*/{lost.split('?')[0]}"
    page = open_pad(
        club_browser,
        club,
        secret,
        match["id"],
        PHONE,
        before=lambda page: page.context.route(
            cut, cut_short if lost.endswith("?short") else lambda route: route.abort()
        ),
    )
    try:
        # The load fails and says so (Pyodide's own loader, left to fetch, hung on the
        # wasm and left rejections nobody handled); the pad goes on with the server.
        page.wait_for_selector("body[data-engine=failed]", timeout=90_000)
        assert page.errors == []
        page.context.unroute(cut)
        tap_move(page, "P1 points 7D")
        # The read after that write tries again, and the engine loads.
        wait_for_engine(page)
        assert page.errors == []
    finally:
        page.context.close()


def test_the_network_lost_while_the_engine_starts_does_not_keep_it_from_the_pad(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    held: list[Any] = []
    read: list[str] = []

    def hold_the_modules(page: Page) -> None:
        page.context.route("**/pad/engine/modules-*", lambda route: held.append(route))
        page.on("requestfinished", lambda r: read.append(r.url) if "/events?" in r.url else None)

    page = open_pad(club_browser, club, secret, match["id"], PHONE, before=hold_the_modules)
    try:
        # The match's events are read while the runtime downloads; then the network goes
        # before the engine has its last file.
        page.wait_for_function("() => document.body.dataset.engine === 'loading'")
        while not (held and read):
            page.wait_for_timeout(50)
        # Playwright's own fetch does not go through the browser's host rules.
        modules = held[0].fetch(url=held[0].request.url.replace("club.test", "127.0.0.1"))
        page.context.set_offline(True)
        held[0].fulfill(response=modules)
        wait_for_engine(page)
        before = version_of(page)
        page.click('#moves button.move[data-move="P1 points 7D"]')
        # The next moves come from the engine, offline.
        page.wait_for_selector('#moves button.move[data-move^="P0 "]')
        assert pending(page) == 1
        page.context.set_offline(False)
        page.wait_for_function(SETTLED, arg=before)
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D"]


def test_moves_guessed_offline_meet_another_devices_move_and_are_asked_about(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        wait_for_engine(page)
        version = version_of(page)
        page.context.set_offline(True)
        page.click('#moves button.move[data-move="P1 points 7D"]')
        page.click('#moves button.move[data-move="P0 points 5H"]')
        page.wait_for_function("() => document.body.dataset.pending === '2'")
        # Meanwhile another device records P1's move.
        record_elsewhere(http, scorer_headers, match["id"], version, "P1 points 8D")
        page.context.set_offline(False)
        page.wait_for_selector("#conflict:has-text('no longer applies')")
        # The table is the server's again: P1's 8D, not the guessed 7D; nothing dropped.
        page.wait_for_selector('#table .card[data-card="8D"]')
        assert pending(page) == 2
        drop_the_first_keep_the_next(page, "plays 5♥ for points")  # a tap: its sentence
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 8D", "P0 points 5H"]


def test_without_webassembly_the_pad_asks_nothing_of_the_engine(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)
    try:
        tap_move(page, "P1 points 7D")
        assert page.evaluate("document.body.dataset.engine") is None
        assert not any("/pad/engine" in u or "/vendor/" in u for u in page.urls)
        assert page.errors == []
    finally:
        page.context.close()


def test_a_refusal_rolls_the_guessed_table_back_and_says_why(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    refusal = {
        "type": "about:blank",
        "title": "Illegal move",
        "status": 422,
        "detail": "refused for this test",
        "code": "ILLEGAL_MOVE",
    }
    held: list[Any] = []
    try:
        wait_for_engine(page)
        # The server refuses the tap (as if its rules differed): the answer decides.
        page.route("**/moves", lambda route: held.append(route))
        page.click('#moves button.move[data-move="P1 points 7D"]')
        page.wait_for_selector('#table[data-ply="1"]')
        held[0].fulfill(status=422, json=refusal)
        page.wait_for_selector("#problem:has-text('refused for this test')")
        page.wait_for_selector('#table[data-ply="0"]')
        page.wait_for_selector('#moves button.move[data-move="P1 points 7D"]')
        assert pending(page) == 0
        assert page.locator("#timeline li.step").count() == 0
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == []


def test_a_server_dealt_round_ended_offline_waits_for_the_servers_shuffle(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    players = make_players(http, scorer_headers, ["Kit", "Lou"])
    body = {"game": "cuttle", "players": players, "dealing": "server", "first_dealer": 0}
    match = create_match(http, scorer_headers, body)
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        wait_for_engine(page)
        page.context.set_offline(True)
        # Seat 0 resigns the round (two taps: the first arms the button).
        page.click('[data-action="service:P0 resign"]')
        page.click('[data-action="service:P0 resign"]')
        page.wait_for_function("() => document.body.dataset.pending === '1'")
        page.wait_for_selector("#to-act:has-text('The server shuffles the next deal')")
        assert page.locator("#moves button.move").count() == 0
        back_online(page)
        page.wait_for_selector("#moves button.move[data-move]")
        assert page.errors == []
    finally:
        page.context.close()
    assert http.get(f"/matches/{match['id']}").json()["rounds_started"] == 2
