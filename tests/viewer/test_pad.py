"""The scorer's pad in headless Chromium, through a non-secure origin (issue #22).

The browser maps the made-up host ``club.test`` to the loopback server, so the pad
runs as it does on a club's LAN address: not a secure context. Matches are recorded
by taps alone; the log each produces is compared, event by event, with the log of
the same writes sent straight to the API.
Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pictures.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest

from store.accounts import Role
from tests.api.conftest import create_secret
from tests.recording.play import create_match
from tests.viewer.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE
from tests.viewer.test_viewer import make_players, screenshot

Page = Any
Writes = list[tuple[str, dict[str, Any]]]

KOZEL_PACK = [r + s for s in "CDHS" for r in "6789TJQKA"]
# The pad's page waits for: nothing queued, and a version other than the one before.
SETTLED = "v => document.body.dataset.pending === '0' && document.body.dataset.version !== v"
# Nothing queued and no conflict shown (a function: the page's CSP forbids eval).
RECOVERED = "() => document.body.dataset.pending === '0' && !document.querySelector('#conflict')"

# Every tap target on the page (buttons, links, the cards a tap picks) smaller than 44 px.
SMALL_TARGETS = """() => [...document.querySelectorAll('button, a, select, input, [role=button]')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
  .filter(([, box]) => box.width < 43.5 || box.height < 43.5)
  .map(([html, box]) => `${html} ${box.width}x${box.height}`)"""


@pytest.fixture(name="club_browser", scope="module")
def _club_browser(browser: Any) -> Iterator[Any]:
    """Chromium resolving ``club.test`` to 127.0.0.1 (launched by the session's Playwright)."""
    club = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP club.test 127.0.0.1"],
    )
    try:
        yield club
    finally:
        club.close()


@pytest.fixture(name="club", scope="module")
def _club(server: str) -> str:
    return "http://club.test:" + server.rsplit(":", 1)[1]


@pytest.fixture(name="secret", scope="module")
def _secret(scorer_headers: dict[str, str]) -> str:
    return scorer_headers["Authorization"].removeprefix("Bearer ")


def fresh_page(browser: Any, viewport: dict[str, int]) -> Page:
    """A page in a fresh context that keeps its script errors (``errors``) and the URLs
    it requested (``urls``)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.urls = urls
    return page


NO_WEBASSEMBLY = "delete globalThis.WebAssembly"
"""A page script run first: the browser as one without WebAssembly, so the pad never loads
its engine and waits for the server's moves (its behaviour before #34, and its fallback)."""


def open_pad(
    browser: Any,
    club: str,
    secret: str | None,
    match_id: str,
    viewport: dict[str, int],
    *,
    engine: bool = True,
    before: Callable[[Page], None] | None = None,
) -> Page:
    """A pad in a fresh context, signed in on ``/score`` (in the same tab) if ``secret``;
    ``engine=False``: in a browser without WebAssembly; ``before`` is called with the page
    just before it opens the pad."""
    page = fresh_page(browser, viewport)
    if not engine:
        page.add_init_script(NO_WEBASSEMBLY)
    if secret is not None:
        page.goto(club + "/score")
        page.fill("#token", secret)
        page.click("#sign-in-button")
        page.wait_for_selector("#new-match")
    if before is not None:
        before(page)
    page.goto(f"{club}/matches/{match_id}/score")
    return page


def settle(page: Page, before: str) -> str:
    """Wait until the pad has recorded what was tapped and drawn the match after it."""
    try:
        page.wait_for_function(SETTLED, arg=before)
    except Exception:
        print("the pad showed:", page.inner_text("main"))  # says why, on a timeout
        raise
    version: str = page.evaluate("document.body.dataset.version")
    return version


def version_of(page: Page) -> str:
    page.wait_for_selector("body[data-version]")
    version: str = page.evaluate("document.body.dataset.version")
    return version


def tap_move(page: Page, move: str) -> None:
    before = version_of(page)
    page.click(f'#moves button.move[data-move="{move}"]')
    settle(page, before)


def name_cards(page: Page, cards: list[str]) -> None:
    before = version_of(page)
    for code in cards:
        page.click(f'#naming button.pick[data-card="{code}"]')
    settle(page, before)


def enter_deal(
    page: Page, hands: list[list[str]], indicator: str | None = None, shot: str | None = None
) -> None:
    before = version_of(page)
    slots = [*hands, [indicator]] if indicator else hands
    for slot, cards in enumerate(slots):
        page.click(f'#deal .slot[data-slot="{slot}"] .slot-name')
        for code in cards:
            page.click(f'#deal button.pick[data-card="{code}"]')
    # A placed card is greyed out and cannot be placed twice.
    assert page.is_disabled(f'#deal button.pick[data-card="{hands[0][0]}"]')
    if shot:
        screenshot(page, shot, page.viewport_size)
    page.click("#deal-button")
    settle(page, before)


def legal(http: httpx.Client, headers: dict[str, str], match_id: str) -> dict[str, Any]:
    response = http.get(f"/matches/{match_id}/legal-moves", headers=headers)
    assert 200 == response.status_code, response.text
    body: dict[str, Any] = response.json()
    return body


def events(http: httpx.Client, headers: dict[str, str], match_id: str) -> list[dict[str, Any]]:
    response = http.get(f"/matches/{match_id}/events", params={"limit": 1000}, headers=headers)
    assert 200 == response.status_code, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def replayed(
    http: httpx.Client, headers: dict[str, str], body: dict[str, Any], writes: Writes
) -> list[dict[str, Any]]:
    """The log of a new match given ``writes`` straight by the API: what the pad should record."""
    match = create_match(http, headers, body)
    version = match["version"]
    for path, data in writes:
        answer = http.post(
            f"/matches/{match['id']}/{path}",
            json={**data, "expected_version": version},
            headers=headers,
        )
        assert answer.status_code in (200, 201), answer.text
        version = answer.json()["version"]
    return events(http, headers, match["id"])


def same_log(recorded: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    """Event by event: the same types with the same data (the match's own id aside)."""
    assert [e["type"] for e in recorded] == [e["type"] for e in expected]
    for mine, theirs in zip(recorded, expected, strict=True):
        strip = {"match_id", "id"}
        assert {k: v for k, v in mine["data"].items() if k not in strip} == {
            k: v for k, v in theirs["data"].items() if k not in strip
        }, mine["type"]


def test_the_pad_is_no_secure_context_and_keeps_the_token_out_of_urls(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    players = make_players(http, scorer_headers, ["Uma", "Vic"])
    page = open_pad(club_browser, club, None, "x", DESKTOP)
    try:
        page.goto(club + "/score")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("typeof crypto.randomUUID") == "undefined"
        page.fill("#token", secret)
        page.click("#sign-in-button")
        page.wait_for_selector("#new-match")
        # A new match from the form: players picked by name, one created on the spot.
        page.select_option('select.player[data-seat="0"]', players[0])
        page.select_option('select.player[data-seat="1"]', "new")
        page.fill('input.new-player[data-seat="1"]', "Wes")
        page.fill("#format", "quick")
        page.click("#create-match")
        page.wait_for_url("**/matches/*/score")
        page.wait_for_selector("#deal")
        match_id = page.url.split("/")[-2]
        match = http.get(f"/matches/{match_id}").json()
        assert (match["dealing"], match["format"], match["players"][0]) == (
            "physical",
            "quick",
            players[0],
        )
        assert http.get(f"/players/{match['players'][1]}").json()["display_name"] == "Wes"
        assert page.evaluate("localStorage.length") == 0 or secret not in page.evaluate(
            "JSON.stringify(Object.entries(localStorage))"
        )
        assert not any(secret in url for url in page.urls)
        assert secret not in page.evaluate("document.cookie")
        assert page.errors == []
    finally:
        page.context.close()


def lose_first_answer(sent: list[Any], read: Callable[[Any], Any]) -> Callable[[Any], None]:
    """A route handler: the first POST reaches the server but its answer is lost; later
    ones go through; reads (GET) pass. ``read(request)`` of every POST goes to ``sent``."""

    def handle(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(read(route.request))
        if len(sent) == 1:
            route.fetch(url=route.request.url.replace("club.test", "127.0.0.1"))
            route.abort()
        else:
            route.continue_()

    return handle


def test_a_player_created_again_after_a_lost_answer_is_one_player(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    [gus] = make_players(http, scorer_headers, ["Gus"])
    page = open_pad(club_browser, club, secret, "x", DESKTOP)
    sent: list[str] = []
    land_then_drop = lose_first_answer(sent, lambda request: request.post_data_json.get("id"))
    try:
        page.goto(club + "/score")
        page.wait_for_selector("#new-match")
        page.route("**/players", land_then_drop)
        page.select_option('select.player[data-seat="0"]', gus)
        page.select_option('select.player[data-seat="1"]', "new")
        page.fill('input.new-player[data-seat="1"]', "Hal the twice-sent")
        page.click("#create-match")
        page.wait_for_selector("#new-match .message.error:not([hidden])")
        page.click("#create-match")
        page.wait_for_url("**/matches/*/score")
        match = http.get(f"/matches/{page.url.split('/')[-2]}").json()
        assert page.errors == []
    finally:
        page.context.close()
    assert len(sent) == 2 and sent[0] == sent[1]
    assert match["players"] == [gus, sent[0]]
    named = [
        p["id"]
        for p in all_players(http, scorer_headers)
        if p["display_name"] == "Hal the twice-sent"
    ]
    assert named == [sent[0]]


def test_a_match_started_again_after_a_lost_answer_is_one_match(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    ivy, jon = make_players(http, scorer_headers, ["Ivy", "Jon"])
    page = open_pad(club_browser, club, secret, "x", DESKTOP)
    sent: list[tuple[str, str]] = []
    land_then_drop = lose_first_answer(
        sent, lambda request: (request.post_data_json["id"], request.headers["idempotency-key"])
    )
    try:
        page.goto(club + "/score")
        page.wait_for_selector("#new-match")
        page.route("**/matches", land_then_drop)
        page.select_option('select.player[data-seat="0"]', ivy)
        page.select_option('select.player[data-seat="1"]', jon)
        page.click("#create-match")
        page.wait_for_selector("#new-match .message.error:not([hidden])")
        page.click("#create-match")
        page.wait_for_url("**/matches/*/score")
        assert page.errors == []
    finally:
        page.context.close()
    assert len(sent) == 2 and sent[0] == sent[1]
    assert page.url.split("/")[-2] == sent[0][0]
    ivys = http.get("/matches", params={"player_id": ivy}, headers=scorer_headers).json()
    assert [m["id"] for m in ivys["items"]] == [sent[0][0]]


def all_players(http: httpx.Client, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Every player, page by page."""
    players: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 100}
    while True:
        body = http.get("/players", params=params, headers=headers).json()
        players.extend(body["items"])
        if not body["next_cursor"]:
            return players
        params["cursor"] = body["next_cursor"]


def test_a_cuttle_match_recorded_by_taps(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    body, match = physical_cuttle(http, scorer_headers, ["Ann", "Bob"])
    hands = HANDS
    writes: Writes = [("rounds", {"hands": [" ".join(h) for h in hands]})]
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        enter_deal(page, hands)
        tap_move(page, "P1 points 7D")
        writes.append(("moves", {"moves": ["P1 points 7D"]}))
        # A move with a target: the card in hand, then its target on the table.
        before = version_of(page)
        page.click('#table [data-zone="hand-0"] .card[data-card="9S"]')
        page.click('#table .card.target[data-card="7D"]')
        if page.is_visible('#moves button.move[data-move^="P0 scuttle"]'):
            page.click('#moves button.move[data-move^="P0 scuttle"]')
        settle(page, before)
        scuttle = played(http, scorer_headers, match["id"])[-1]
        assert scuttle.startswith("P0 scuttle 9S"), scuttle
        writes.append(("moves", {"moves": [scuttle]}))
        screenshot(page, "pad-cuttle", PHONE)
        assert page.evaluate(SMALL_TARGETS) == []
        for move, drawn in [
            ("P1 draw", "6H"),
            ("P0 playing KH", None),
            ("P1 draw", "6D"),
            ("P0 playing KS", None),
            ("P1 points 8D", None),
            ("P0 playing KD", None),
            ("P1 points 4S", None),
            ("P0 points 5H", None),
        ]:
            if move.startswith("P0 playing"):
                king = move.split()[-1]
                choice = [
                    m
                    for m in legal(http, scorer_headers, match["id"])["moves"]
                    if king in m and "scuttle" not in m
                ]
                assert len(choice) == 1, choice
                move = choice[0]
            tap_move(page, move)
            writes.append(("moves", {"moves": [move]}))
            if drawn:
                assert page.is_visible("#naming")
                name_cards(page, [drawn])
                writes.append(("moves", {"moves": ["cards " + drawn]}))
        page.wait_for_selector("body[data-status=finished]")
        assert page.errors == []
    finally:
        page.context.close()
    same_log(
        events(http, scorer_headers, match["id"]), replayed(http, scorer_headers, body, writes)
    )


def test_a_kozel_deal_recorded_by_taps(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    players = make_players(http, scorer_headers, ["Ada", "Ben", "Cy", "Di"])
    body = {
        "game": "kozel",
        "players": players,
        "dealing": "physical",
        "first_dealer": 0,
        "options": {"loss_limit": 12},
    }
    match = create_match(http, scorer_headers, body)
    pack = KOZEL_PACK[:]
    random.Random(22).shuffle(pack)
    hands = [pack[0:4], pack[4:8], pack[8:12], pack[12:16]]
    indicator = pack[16]
    # The indicator lies under the stock and is drawn, and named, last.
    stock = [*pack[17:], indicator]
    writes: Writes = [("rounds", {"hands": [" ".join(h) for h in hands], "indicator": indicator})]
    page = open_pad(club_browser, club, secret, match["id"], DESKTOP)
    try:
        enter_deal(page, hands, indicator, shot="pad-deal")
        screenshot(page, "pad-kozel", DESKTOP)
        for _ in range(200):
            now = legal(http, scorer_headers, match["id"])
            if now["cards_awaited"]:
                drawn = [c for c in stock if c in now["nameable"]][: now["cards_awaited"]]
                name_cards(page, drawn)
                writes.append(("moves", {"moves": ["cards " + " ".join(drawn)]}))
            elif now["moves"]:
                tap_move(page, now["moves"][0])
                writes.append(("moves", {"moves": [now["moves"][0]]}))
            else:
                break
            if http.get(f"/matches/{match['id']}").json()["round"] is None:
                break
        else:
            pytest.fail("the deal did not end")
        assert page.errors == []
    finally:
        page.context.close()
    recorded = events(http, scorer_headers, match["id"])
    # The whole deal: all 36 cards played out, and scored.
    assert [e["type"] for e in recorded].count("DealScored") == 1
    same_log(recorded, replayed(http, scorer_headers, body, writes))


HANDS = [["KH", "KS", "KD", "5H", "9S", "2C"], ["7D", "8D", "4S", "6C", "3H"]]
"""A quick Cuttle deal: the dealer Ann (P0) can reach her goal with three kings and a 5."""


def physical_cuttle(
    http: httpx.Client, headers: dict[str, str], names: list[str], **extra: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new quick Cuttle match dealt from real cards, seat 0 dealing: its body and answer."""
    body = {
        "game": "cuttle",
        "variant": "standard",
        "format": "quick",
        "players": make_players(http, headers, names),
        "dealing": "physical",
        "first_dealer": 0,
        **extra,
    }
    return body, create_match(http, headers, body)


def deal_hands(http: httpx.Client, headers: dict[str, str], match: dict[str, Any]) -> None:
    """Record ``HANDS`` as the match's first deal."""
    deal = {"hands": [" ".join(h) for h in HANDS], "expected_version": match["version"]}
    answer = http.post(f"/matches/{match['id']}/rounds", json=deal, headers=headers)
    assert 201 == answer.status_code, answer.text


def cuttle_dealt(http: httpx.Client, headers: dict[str, str]) -> dict[str, Any]:
    """A Cuttle match whose first round is dealt (physically), P1 to act."""
    _, match = physical_cuttle(http, headers, ["Cal", "Dot"])
    deal_hands(http, headers, match)
    return match


def test_offline_taps_survive_a_reload_and_land_once(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    moves_path = f"**/matches/{match['id']}/moves"
    try:
        version = version_of(page)
        page.context.set_offline(True)
        page.click('#moves button.move[data-move="P1 points 7D"]')
        page.wait_for_selector("#pending .queued")
        page.wait_for_selector("#connection.offline")
        queued = page.evaluate(f"localStorage.getItem('matchlog.pad.queue.{match['id']}')")
        assert "P1 points 7D" in queued and secret not in queued
        # Back online but the writes still fail: a reload keeps the queue.
        page.route(moves_path, lambda route: route.abort())
        page.context.set_offline(False)
        page.reload()
        page.wait_for_selector("#pending .queued")
        assert version_of(page) == version
        # Then the write lands but its answer is lost: the retry, with the same key,
        # gets the first answer and records nothing more.
        lost: list[bool] = []

        def land_then_drop(route: Any) -> None:
            if not lost:
                # Playwright's own fetch does not go through the browser's host rules.
                route.fetch(url=route.request.url.replace("club.test", "127.0.0.1"))
                lost.append(True)
                route.abort()
            else:
                route.continue_()

        page.unroute(moves_path)
        page.route(moves_path, land_then_drop)
        version = settle(page, version)
        assert lost == [True]
        page.unroute(moves_path)
        tap_move(page, "P0 points 5H")
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D", "P0 points 5H"]


def queue_offline(page: Page, match_id: str, typed: str) -> None:
    """Offline: tap ``P1 points 7D``, then type ``typed`` as the next move (a pad without
    its engine, which knows no move the server has not given it)."""
    version_of(page)
    page.context.set_offline(True)
    page.click('#moves button.move[data-move="P1 points 7D"]')
    page.wait_for_selector("#pending .queued")
    # Who acts after a queued move is the server's to say: no seat is guessed.
    assert page.input_value("#next-move") == ""
    page.fill("#next-move", typed)
    page.click("#queue-move")
    page.wait_for_function("() => document.body.dataset.pending === '2'")
    queued = page.evaluate(f"localStorage.getItem('matchlog.pad.queue.{match_id}')")
    assert "P1 points 7D" in queued and typed in queued


def test_a_move_typed_offline_behind_a_tapped_one_survives_a_reload_and_lands_once(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)

    def no_api(route: Any) -> None:
        # The page itself loads; every read and write of the match fails.
        if route.request.url.endswith("/score"):
            route.continue_()
        else:
            route.abort()

    try:
        version = version_of(page)
        queue_offline(page, match["id"], "P0 points 5H")
        # A reload while the server cannot be reached: the queue stays on the device.
        page.route(f"**/matches/{match['id']}**", no_api)
        page.context.set_offline(False)
        page.reload()
        page.wait_for_selector("#error:has-text('2 entries are kept on this device')")
        assert "P0 points 5H" in page.evaluate(
            f"localStorage.getItem('matchlog.pad.queue.{match['id']}')"
        )
        page.unroute(f"**/matches/{match['id']}**")
        settle(page, version)
        page.wait_for_selector('#moves button.move[data-move="P1 draw"]')
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D", "P0 points 5H"]


def test_behind_a_note_queued_offline_the_next_move_names_the_seat_to_act(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)
    try:
        tap_move(page, "P1 points 7D")
        version = version_of(page)
        # The timeline is redrawn by a read of its own after the move's answer: offline
        # before it lands, the step to note would never appear (seen under CI's load).
        page.wait_for_selector("#timeline li.step .note-button")
        page.context.set_offline(True)
        page.click("#timeline li.step .note-button")
        page.fill("#timeline .note-text", "slow play")
        page.click("#timeline .note-form button")
        page.wait_for_selector("#next-move")
        # A note changes nobody's turn: the server's P0 is still to act.
        assert page.input_value("#next-move") == "P0 "
        page.fill("#next-move", "P0 points 5H")
        page.click("#queue-move")
        page.context.set_offline(False)
        settle(page, version)
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D", "P0 points 5H"]


def test_a_typed_move_the_server_refuses_stops_the_queue_and_is_asked_about(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)
    try:
        # 7D is on the table once P1 has played it: P0 cannot point with it.
        queue_offline(page, match["id"], "P0 points 7D")
        page.context.set_offline(False)
        page.wait_for_selector("#conflict #edit-queued")
        assert "P0 points 7D" in page.inner_text("#conflict")
        assert page.evaluate("document.body.dataset.pending") == "1"
        page.fill("#edit-queued", "P0 points 5H")
        page.press("#edit-queued", "Enter")
        page.wait_for_function(RECOVERED)
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D", "P0 points 5H"]


def record_elsewhere(
    http: httpx.Client, headers: dict[str, str], match_id: str, version: str, move: str
) -> None:
    """Another device records ``move`` on the match at ``version``."""
    answer = http.post(
        f"/matches/{match_id}/moves",
        json={"moves": [move], "expected_version": int(version)},
        headers=headers,
    )
    assert 200 == answer.status_code, answer.text


def drop_the_first_keep_the_next(page: Page, behind: str) -> None:
    """In the conflict box: drop the queued move that no longer applies, then record the
    one queued ``behind`` it, which is asked about in turn."""
    page.wait_for_selector("#conflict:has-text('no longer applies')")
    page.click("#drop-queued")
    page.wait_for_selector("#conflict:has-text('was dropped')")
    assert behind in page.inner_text("#conflict")
    page.click("#keep-queued")
    page.wait_for_function(RECOVERED)


def test_after_a_dropped_conflict_the_move_typed_behind_it_is_asked_about(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)
    try:
        page.route("**/live", lambda route: route.abort())
        page.reload()
        version = version_of(page)
        # Another device records P1's move; this pad queues another one, and one behind it.
        record_elsewhere(http, scorer_headers, match["id"], version, "P1 points 8D")
        queue_offline(page, match["id"], "P0 points 5H")
        page.context.set_offline(False)
        drop_the_first_keep_the_next(page, "P0 points 5H")
        assert page.errors == []
    finally:
        page.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 8D", "P0 points 5H"]


def played(http: httpx.Client, headers: dict[str, str], match_id: str) -> list[str]:
    """The moves recorded, in order."""
    return [e["data"]["move"] for e in events(http, headers, match_id) if e["type"] == "MovePlayed"]


def test_a_read_begun_before_a_write_was_answered_never_draws_the_match_older(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], PHONE, engine=False)
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        # Read from the server now, delivered when the test says.
        url = route.request.url.replace("club.test", "127.0.0.1")
        held.append((route, route.fetch(url=url)))

    try:
        before = version_of(page)
        page.route("**/legal-moves", hold)
        # A read of the match begins (as the live feed's would), then P1's move is tapped
        # and answered while that read is still on its way.
        page.evaluate("dispatchEvent(new Event('online'))")
        while not held:
            page.wait_for_timeout(20)
        page.click('#moves button.move[data-move="P1 points 7D"]')
        while played(http, scorer_headers, match["id"]) != ["P1 points 7D"]:
            page.wait_for_timeout(20)
        route, stale = held[0]
        route.fulfill(response=stale)
        while len(held) < 2:  # the older read is done and drawn; the next one has begun
            page.wait_for_timeout(20)
        # The older read is not drawn: no version behind the write, no move of P1's offered.
        assert page.evaluate("document.body.dataset.version") != before
        assert page.locator('#moves button.move[data-move^="P1 "]').count() == 0
        route, fresh = held[1]
        route.fulfill(response=fresh)
        page.unroute("**/legal-moves")
        page.wait_for_selector('#moves button.move[data-move^="P0 "]')
        assert page.errors == []
    finally:
        page.context.close()


def test_the_slower_of_two_pads_sees_the_conflict_and_recovers(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    quick = open_pad(club_browser, club, secret, match["id"], DESKTOP)
    slow = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        # The slow pad hears nothing of the other (its live feed is cut).
        slow.route("**/live", lambda route: route.abort())
        slow.reload()
        version = version_of(slow)
        assert version_of(quick) == version
        tap_move(quick, "P1 points 7D")
        slow.click('#moves button.move[data-move="P1 points 8D"]')
        slow.wait_for_selector("#conflict")
        assert "7" in slow.inner_text("#conflict")  # what the other pad recorded
        assert "no longer applies" in slow.inner_text("#conflict")
        # While the box asks, nothing is being sent, and the status line says so (#32).
        assert "waiting" == slow.get_attribute("#connection", "class")
        assert "Sending" not in slow.inner_text("#connection")
        slow.click("#drop-queued")
        slow.wait_for_function(RECOVERED)
        slow.wait_for_selector('#moves button.move[data-move="P0 points 5H"]')
        tap_move(slow, "P0 points 5H")
        assert slow.errors == [] and quick.errors == []
    finally:
        slow.context.close()
        quick.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D", "P0 points 5H"]


def test_no_pad_and_no_hidden_card_without_rights(
    club_browser: Any,
    club: str,
    http: httpx.Client,
    viewer_database: str,
    scorer_headers: dict[str, str],
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    hidden = ["KH", "KS", "KD", "5H", "9S", "2C", "7D", "8D", "4S", "6C", "3H"]
    shell = http.get(f"/matches/{match['id']}/score")
    assert 200 == shell.status_code
    assert not any(f'"{c}"' in shell.text or f"'{c}'" in shell.text for c in hidden)
    anonymous = open_pad(club_browser, club, None, match["id"], PHONE)
    try:
        anonymous.wait_for_selector("#sign-in")
        assert anonymous.query_selector_all("[data-card]") == []
    finally:
        anonymous.context.close()
    # A scorer of another competition only.
    other = http.post(
        "/competitions",
        json={"name": "Elsewhere", "game": "cuttle", "variant": "standard"},
        headers=token_headers_admin(viewer_database),
    )
    assert 201 == other.status_code, other.text
    outsider = create_secret(viewer_database, Role.SCORER, [UUID(other.json()["id"])])
    private = private_match(http, viewer_database)
    page = open_pad(club_browser, club, outsider, private, PHONE)
    try:
        page.wait_for_selector("#error")
        assert page.query_selector_all("[data-card]") == []
        assert page.query_selector("#table") is None
    finally:
        page.context.close()


def token_headers_admin(url: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + create_secret(url, Role.ADMIN)}


def private_match(http: httpx.Client, url: str) -> str:
    """A dealt match in a competition of its own, which only its scorers may write."""
    admin = token_headers_admin(url)
    competition = http.post(
        "/competitions",
        json={"name": "Club night", "game": "cuttle", "variant": "standard", "format": "quick"},
        headers=admin,
    )
    assert 201 == competition.status_code, competition.text
    _, match = physical_cuttle(http, admin, ["Eve", "Fay"], competition_id=competition.json()["id"])
    deal_hands(http, admin, match)
    return str(match["id"])


def test_the_pad_of_a_private_match_follows_its_live_feed(
    club_browser: Any, club: str, http: httpx.Client, viewer_database: str
) -> None:
    competition = http.post(
        "/competitions",
        json={
            "name": "Closed doors",
            "game": "cuttle",
            "variant": "standard",
            "format": "quick",
            "public_reads": False,
        },
        headers=token_headers_admin(viewer_database),
    )
    assert 201 == competition.status_code, competition.text
    scorer = create_secret(viewer_database, Role.SCORER, [UUID(competition.json()["id"])])
    headers = {"Authorization": "Bearer " + scorer}
    _, match = physical_cuttle(
        http, headers, ["Gil", "Ida"], competition_id=competition.json()["id"]
    )
    deal_hands(http, headers, match)
    match_id = match["id"]
    assert 401 == http.get(f"/matches/{match_id}").status_code
    page = open_pad(club_browser, club, scorer, match_id, DESKTOP)
    feed: list[int] = []
    page.on("response", lambda r: feed.append(r.status) if r.url.endswith("/live") else None)
    try:
        before = version_of(page)
        # Another device records a move; only the feed can tell the pad.
        answer = http.post(
            f"/matches/{match_id}/moves",
            json={"moves": ["P1 points 7D"], "expected_version": int(before)},
            headers=headers,
        )
        assert 200 == answer.status_code, answer.text
        settle(page, before)
        page.wait_for_selector('#timeline .sentence:has-text("7")')
        assert 401 not in feed
        assert page.errors == []
    finally:
        page.context.close()


def test_undo_a_note_and_a_resignation_by_taps(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    page = open_pad(club_browser, club, secret, match["id"], DESKTOP)
    try:
        tap_move(page, "P1 points 7D")
        before = version_of(page)
        page.keyboard.press("u")
        page.select_option("#undo-reason", "other")
        page.fill("#undo-typed", "Bob meant the 8")
        page.click("#undo-confirm")
        settle(page, before)
        page.wait_for_selector("#timeline li.step.taken-back")
        tap_move(page, "P1 points 8D")
        before = version_of(page)
        page.click("#timeline li.step:not(.taken-back) .note-button")
        page.fill("#timeline .note-text", "slow play")
        page.click("#timeline .note-form button")
        settle(page, before)
        page.wait_for_selector("#timeline .note")
        # An ending takes two taps: the first only arms it.
        before = version_of(page)
        page.click('#tools button[data-action="service:P0 resign"]')
        assert version_of(page) == before
        page.click('#tools button[data-action="service:P0 resign"]')
        page.wait_for_selector("body[data-status=finished]")
        assert page.errors == []
    finally:
        page.context.close()
    recorded = events(http, scorer_headers, match["id"])
    taken = [e["data"] for e in recorded if e["type"] == "TakenBack"]
    assert [t["reason"] for t in taken] == ["Bob meant the 8"]
    assert [e["data"]["text"] for e in recorded if e["type"] == "NoteAdded"] == ["slow play"]
    assert played(http, scorer_headers, match["id"]) == [
        "P1 points 7D",
        "P1 points 8D",
        "P0 resign",
    ]


def test_a_queued_move_still_legal_after_a_conflict_is_recorded_on_the_new_version(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    match = cuttle_dealt(http, scorer_headers)
    slow = open_pad(club_browser, club, secret, match["id"], PHONE)
    try:
        slow.route("**/live", lambda route: route.abort())
        slow.reload()
        version = version_of(slow)
        # Another device adds a note on the deal: a new version, the same legal moves.
        note = {"version": int(version), "text": "late start", "expected_version": int(version)}
        answer = http.post(f"/matches/{match['id']}/notes", json=note, headers=scorer_headers)
        assert 201 == answer.status_code, answer.text
        slow.click('#moves button.move[data-move="P1 points 7D"]')
        slow.wait_for_selector("#keep-queued")
        slow.click("#keep-queued")
        slow.wait_for_function(RECOVERED)
        slow.wait_for_selector('#moves button.move[data-move="P0 points 5H"]')
        assert slow.errors == []
    finally:
        slow.context.close()
    assert played(http, scorer_headers, match["id"]) == ["P1 points 7D"]
