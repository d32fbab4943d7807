"""The pad's own engine (issue #34): the server's rules running in the page on Pyodide.

Loaded from this server alone, in the background; a tapped move shows the next ones at
once; offline, taps go on and are sent once each, in order, when the network is back.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.viewer.conftest import PHONE
from tests.viewer.test_pad import (
    HANDS,
    _club,
    _club_browser,
    _secret,
    enter_deal,
    open_pad,
    physical_cuttle,
    played,
    settle,
    version_of,
)

__all__ = ["_club", "_club_browser", "_secret"]  # the pad's fixtures, used here too

Page = Any
ENGINE_READY = "body[data-engine=ready]"


def wait_for_engine(page: Page) -> None:
    """Wait until the engine has loaded and folded the match (the first load compiles
    the runtime: allow it time on a loaded machine)."""
    try:
        page.wait_for_selector("body[data-engine]", timeout=90_000)
    finally:
        print("console:", page.console)
    assert page.evaluate("document.body.dataset.engine") == "ready"


def test_the_engine_loads_from_this_server_and_shows_the_next_moves_before_the_answer(
    club_browser: Any, club: str, secret: str, http: httpx.Client, scorer_headers: dict[str, str]
) -> None:
    _, match = physical_cuttle(http, scorer_headers, ["Ann", "Bob"])
    page = open_pad(club_browser, club, secret, match["id"], PHONE)
    page.console = []
    page.on("console", lambda m: page.console.append(m.text))
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
