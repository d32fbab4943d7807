"""Every page of ours in the pseudo-language, and the pad and the viewer in Japanese, Korean
and Russian at 390 px, in Debian's Chromium against the real app and real matches (#33).

The pseudo-language (``x-pseudo``, service/i18n.py) writes every translated string
between ⟦ and ⟧: a visible text without the marks is a word that bypassed the catalogs.
Player and competition names, card faces, seat tags, numbers and dates may stand
unmarked (the narrow rule in ``unmarked``). The game's words and the moves' sentences
(the ``moves`` domain, from domain/) come marked too: nothing on a page is left out.
Set ``MATCHLOG_SCREENSHOTS=docs/screenshots`` to refresh the pad's pictures per language.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.i18n import NAMES, PSEUDO
from store.accounts import Role
from tests.recording.play import create_match, play_to_end
from tests.viewer.conftest import PHONE, token_headers
from tests.viewer.test_rounds import enter, fixture_match, league, resign, round_robin
from tests.viewer.test_viewer import make_players

Page = Any

PEOPLE = ["Ann", "Bob", "Cid"]
LEAGUE = "Club league"

# Every visible text node of the page (what a reader sees), with the element holding it.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const host = n.parentElement;
    if (!text || host.closest('script, style, noscript')) continue;
    if (!host.checkVisibility() && host.tagName !== 'OPTION') continue;
    out.push({ text, html: host.outerHTML.slice(0, 80),
               languages: Boolean(host.closest('nav.languages')) });
  }
  return out;
}"""
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
SEAT_OR_CARD = re.compile(r"\b[A-Z]\d\b|(?:10|[2-9AJQK])[♠♣♥♦]\uFE0E?|★\d+")
DATE = re.compile(
    r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}|\b\d{1,2}:\d{2}(?::\d{2})?\s?[AP]M\b"
    # A time names the reader's zone as Intl writes it (table.js): UTC, GMT+9, EST.
    r"(?:\s(?:UTC|GMT(?:[+-]\d{1,2}(?::\d{2})?)?|[A-Z]{2,4}T))?"
)
LEFT = re.compile(r"[\s\d.,:;·/\-–—()#+½★⇄%×«»◀▶♠♣♥♦\uFE0E\u00A0\u202F]*")


def unmarked(text: str, names: list[str]) -> str:
    """Return what of ``text`` no mark covers and the narrow rule does not allow ('' if all)."""
    while True:
        stripped = MARKED.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = SEAT_OR_CARD.sub(" ", DATE.sub(" ", text))
    return "" if LEFT.fullmatch(text) else text.strip()


@pytest.fixture(name="night", scope="module")
def _night(http: httpx.Client, viewer_database: str, scorer_headers: dict[str, str]) -> Any:
    """A public league of three (a round robin, one table finished by a resignation), a
    finished match played out in it, and a live match the server dealt, outside it."""
    admin = token_headers(viewer_database, Role.ADMIN)
    ann, bob, cid = make_players(http, scorer_headers, PEOPLE)
    competition = league(http, admin, LEAGUE, "cuttle", "standard")
    for player in (ann, bob, cid):
        enter(http, admin, competition, {"player_id": player})
    rounds = round_robin(http, admin, competition)
    table = rounds[0]["tables"][0]
    resign(http, scorer_headers, fixture_match(http, scorer_headers, "cuttle", table), 1)
    body = {"game": "cuttle", "players": [ann, cid], "competition_id": competition}
    played = create_match(http, scorer_headers, body)
    play_to_end(http, scorer_headers, played, random.Random(7))
    live = create_match(
        http, scorer_headers, {"game": "cuttle", "players": [bob, cid], "dealing": "server"}
    )
    return {
        "admin": admin["Authorization"].removeprefix("Bearer "),
        "scorer": scorer_headers["Authorization"].removeprefix("Bearer "),
        "competition": competition,
        "played": played["id"],
        "live": live["id"],
        "player": ann,
    }


def open_in(browser: Any, language: str, viewport: dict[str, int]) -> Page:
    """A page in a fresh context whose every request asks for ``language``."""
    context = browser.new_context(
        viewport=viewport, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


@pytest.fixture(name="pseudo", scope="module")
def _pseudo(browser: Any) -> Iterator[Page]:
    page = open_in(browser, PSEUDO, {"width": 1280, "height": 900})
    try:
        yield page
        assert [] == page.errors, "a page's script failed"
    finally:
        page.context.close()


def sign_in(page: Page, url: str, secret: str, ready: str) -> None:
    page.goto(url)
    page.fill("#token", secret)
    page.click("#sign-in-button")
    page.wait_for_selector(ready)


def check_marked(page: Page, where: str) -> list[str]:
    """Return the visible texts of ``page`` that carry no marks and are not a name, a card,
    a number or a date; the switcher's names must be the languages' own."""
    names = [*PEOPLE, LEAGUE]
    found = []
    for item in page.evaluate(VISIBLE_TEXTS):
        if item["languages"]:
            assert item["text"] in NAMES.values(), item
            continue
        left = unmarked(item["text"], names)
        if left:
            found.append(f"{where}: {left!r} in {item['html']}")
    return found


def test_unmarked_allows_only_names_cards_numbers_and_dates() -> None:
    assert "" == unmarked("⟦Won by Ann⟦ & ⟧Bob⟧ · 3-1", PEOPLE)
    assert "" == unmarked("Dec 2, 2026, 3:04 AM · 10♣\ufe0e P0", PEOPLE)
    assert "" == unmarked("Dec 2, 2026, 3:04\u202fPM GMT+9 · 9:30 AM EST", PEOPLE)
    assert "UTC" == unmarked("UTC", PEOPLE)  # a zone only after a time
    assert "Live now" == unmarked("Live now", PEOPLE)
    assert "3 cards" == unmarked("⟦Ann⟧ 3 cards", PEOPLE)


def test_every_page_shows_only_marked_words(
    pseudo: Page, http: httpx.Client, server: str, night: dict[str, Any]
) -> None:
    """Home, player, match and competition viewers, the pad (sign-in, list, a match with
    moves offered), the desk (sign-in, a competition) and the print page: no visible text
    but the catalogs' (the /schema page's third-party interface excepted)."""
    page = pseudo
    assert f'<html lang="{PSEUDO}">' in http.get("/", headers={"Accept-Language": PSEUDO}).text
    visits = [
        ("/", "#live"),
        (f"/players/{night['player']}/view", "#head-to-head"),
        (f"/matches/{night['played']}/view", "#timeline-list li.step"),
        (f"/competitions/{night['competition']}/view", "#standings"),
        ("/score", "#sign-in"),
        (f"/competitions/{night['competition']}/rounds/1/print", "body[data-ready]"),
        ("/organise", "#sign-in"),
    ]
    found: list[str] = []
    for path, ready in visits:
        page.goto(server + path)
        page.wait_for_selector(ready)
        found += check_marked(page, path)
    sign_in(page, server + "/score", night["scorer"], "#new-match")
    found += check_marked(page, "/score signed in")
    page.goto(f"{server}/matches/{night['live']}/score")
    page.wait_for_selector("#moves button.move")
    found += check_marked(page, "the pad of a live match")
    page.goto(server + "/organise")
    page.click("#sign-out")
    sign_in(page, server + "/organise", night["admin"], "#competition-list")
    page.goto(f"{server}/organise#competition={night['competition']}")
    page.wait_for_selector("#standings")
    found += check_marked(page, "/organise with a competition")
    assert not found, "text without the pseudo-language's marks:\n" + "\n".join(found)


# Elements whose own text overflows them (clipped or spilling), and the document's width.
OVERFLOWING = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.checkVisibility() || e.closest('.scroll, script, style')) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.clientWidth === 0) continue;
    if (e.scrollWidth > e.clientWidth + 1) out.push(e.outerHTML.slice(0, 100));
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push('the document: ' + doc.scrollWidth);
  return out;
}"""


@pytest.mark.parametrize("language", ["ja", "ko", "ru"])
def test_the_pad_and_the_viewer_fit_390px(
    browser: Any, server: str, night: dict[str, Any], language: str
) -> None:
    """The pad (moves offered) and the viewer, in the language, at 390 px: written in it
    (``<html lang>``), in its font, no text clipped or overflowing."""
    page = open_in(browser, language, PHONE)
    try:
        sign_in(page, server + "/score", night["scorer"], "#new-match")
        page.goto(f"{server}/matches/{night['live']}/score")
        page.wait_for_selector("#moves button.move")
        assert language == page.evaluate("document.documentElement.lang")
        assert [] == page.evaluate(OVERFLOWING), f"the pad in {language}"
        fonts = page.evaluate("getComputedStyle(document.body).fontFamily")
        if language in ("ja", "ko"):
            assert fonts.startswith(f'"Noto Sans CJK {language.upper()[0]}'), fonts
        folder = os.environ.get("MATCHLOG_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"pad-lang-{language}-390px.png"))
        page.goto(f"{server}/matches/{night['played']}/view")
        page.wait_for_selector("#timeline-list li.step")
        assert [] == page.evaluate(OVERFLOWING), f"the viewer in {language}"
        assert [] == page.errors
    finally:
        page.context.close()


def test_the_switcher_keeps_the_place_on_the_page(
    browser: Any, server: str, night: dict[str, Any]
) -> None:
    """Switching language keeps the page's other parameters: a reader who stepped the viewer
    to ply 2 reads ply 2 in Japanese, and the desk keeps its open competition."""
    page = open_in(browser, "en", PHONE)
    try:
        page.goto(f"{server}/matches/{night['played']}/view?ply=1")
        page.wait_for_selector('#table[data-ply="1"]', state="attached")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector('#table[data-ply="2"]', state="attached")
        page.click('nav.languages a[hreflang="ja"]')
        page.wait_for_selector('#table[data-ply="2"]', state="attached")
        assert "ja" == page.evaluate("document.documentElement.lang")
        query = page.evaluate("Object.fromEntries(new URL(location.href).searchParams)")
        assert {"ply": "2", "lang": "ja"} == query
        page.goto(f"{server}/organise#competition={night['competition']}")
        page.click('nav.languages a[hreflang="ru"]')
        page.wait_for_load_state()
        assert "ru" == page.evaluate("document.documentElement.lang")
        assert f"#competition={night['competition']}" == page.evaluate("location.hash")
        assert [] == page.errors
    finally:
        page.context.close()
