"""The pages draw a game from its descriptor (``GET /games``), never from its name.

A game the scripts have never heard of, registered in this process's registry of
presentations, is served by ``GET /games`` and drawn by the pages' table drawer
from its descriptor and a public view: three seats, no teams, a few zones.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.viewer import STATIC
from domain.games import GAMES, PRESENTATIONS
from domain.presentation import (
    Case,
    Column,
    Examples,
    Pack,
    Presentation,
    Score,
    Setting,
    Variant,
    Zone,
)
from tests.viewer.conftest import PHONE
from tests.viewer.table import BACK, READ_ZONES
from tests.viewer.test_viewer import screenshot

Page = Any

HIGH_CARD = Presentation(
    game="highcard",
    label="High card",
    round_word="hand",
    seat_letter="H",
    variants=(Variant("three", 3, Pack(ranks="A23456789TJQK")),),
    zones=(
        Zone("held", "Held ({count})", "hand", place="seat", count="held.{seat}"),
        Zone("shown", "Shown", "plays", items="shown", caption="{seat|name}", optional=True),
        Zone("talon", "Talon", "stock", count="talon"),
        Zone("won", "Won ({count})", "cards", cards="won", small=True),
    ),
    score=Score(template="Hands won: {values}", values="hands", by="seat"),
    sheet=(Column("Winner", (Case("{winner|name}"),)),),
    settings=(Setting("format", "Format", "format", "text", "first-to-3"),),
    examples=Examples(moves=("H0 show 9C",), results=("result H1",)),
    acting="turn",
    acting_word="to show",
)
"""A game no script knows: three seats, no teams, four zones."""

VIEW = {
    "held": [2, 3, 3],
    "shown": [{"seat": 0, "cards": ["9C"]}, {"seat": 2, "count": 1}],
    "talon": 40,
    "won": ["KH", "TD"],
    "turn": 1,
}
NAMES = ["Ann", "Bob", "Cid"]

DRAW = """async ([view, names]) => {
  const T = window.MatchTable;
  const d = await T.describe("highcard");
  const table = T.el("section", {id: "table"}, ...T.drawTable(d, view, null, names));
  document.getElementById("app").replaceChildren(
    T.el("h1", {text: T.gameTitle(d, "three") + " · " + T.playersText(d, names)}),
    T.el("p", {id: "score", text: T.scoreText(d, {hands: [1, 0, 2]}, names)}),
    table,
  );
  return d.game;
}"""


def test_no_script_names_a_game() -> None:
    """Every game is drawn from its descriptor: no script branches on a game's name."""
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8").lower()
        named = [game for game in GAMES if re.search(rf"\b{game}\b", text)]
        assert [] == named, script.name


def test_a_game_no_script_knows_is_drawn_from_its_descriptor(
    page: Page, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PRESENTATIONS, HIGH_CARD.game, HIGH_CARD)
    page.goto(f"{server}/score")  # a page that loads the table drawer
    page.wait_for_selector("#sign-in")
    assert "highcard" == page.evaluate(DRAW, [VIEW, NAMES])
    zones = page.evaluate(READ_ZONES)
    assert {
        "held-0": [BACK] * 2,
        "held-1": [BACK] * 3,
        "held-2": [BACK] * 3,
        "shown": ["9C", BACK],
        "talon": [BACK],
        "talon:count": 40,
        "won": ["KH", "TD"],
    } == zones
    assert "High card · Ann v Bob v Cid" == page.inner_text("h1")
    assert "Hands won: Ann 1 · Bob 0 · Cid 2" == page.inner_text("#score")
    seats = page.locator("#table .seat h3").all_inner_texts()
    expected = [["Bob", "H1", "to show"], ["Cid", "H2"], ["Ann", "H0"]]
    assert expected == [[line.strip() for line in s.split("\n")] for s in seats]
    assert "Held (3)" == page.text_content('[data-zone="held-1"] .zone-label')
    assert ["Ann", "Cid"] == page.locator('[data-zone="shown"] small').all_inner_texts()
    assert 1 == page.locator("#table .felt.highcard.across.seats-3").count()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    if page.viewport_size == PHONE:
        screenshot(page, "unknown-game", PHONE)
