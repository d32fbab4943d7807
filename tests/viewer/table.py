"""What the page should draw: zones of cards from the engine's views, and what it did draw.

A zone is a ``data-zone`` element of the page; its cards are listed in order, a
face-down card as ``?``. The expected zones come from the engine's view of the
position after a ply (``rules_for(game).view``), folded here from the match's
events, not from the page's own JSON.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from domain.events import Event
from domain.stream import effective_events, rules_for
from projections.replay import Track

BACK = "?"
CARD = re.compile(r"^(?:[A2-9TJQK][CDHS]|X[12])$")

# The page's zones: every card element (face-down ones as "?"), and the counts shown.
READ_ZONES = """() => {
  const out = {};
  for (const zone of document.querySelectorAll('#table [data-zone]')) {
    out[zone.dataset.zone] = [...zone.querySelectorAll('.card')].map(c => c.dataset.card || '?');
    const count = zone.dataset.count;
    if (count !== undefined) out[zone.dataset.zone + ':count'] = Number(count);
  }
  return out;
}"""


def track_of(client: httpx.Client, headers: dict[str, str], match_id: str) -> Track:
    """Fold a match's whole event stream (read with a scorer's token) into a replay track."""
    track = Track(every=8)
    extend(track, client, headers, match_id)
    return track


def extend(track: Track, client: httpx.Client, headers: dict[str, str], match_id: str) -> None:
    """Add the events recorded since ``track`` was last extended."""
    after = track.version
    while True:
        response = client.get(
            f"/matches/{match_id}/events", params={"after": after, "limit": 1000}, headers=headers
        )
        assert 200 == response.status_code, response.text
        page = response.json()
        assert not any(item["redacted"] for item in page["items"])
        pairs = [(item["version"], Event(item["type"], item["data"])) for item in page["items"]]
        track.extend(list(effective_events(pairs)))
        if page["next_after"] is None:
            return
        after = page["next_after"]


def views_at(
    track: Track, ply: int, *, record: bool = False
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Return the engine's public view after ``ply`` and every seat's own view.

    ``record``: the table's view with its face-down cards turned up instead (what a
    finished match shows, its whole record being public).
    """
    frame = track.frame_after(ply)
    if frame.shown is None:
        return None, []
    assert track.config is not None
    rules = rules_for(track.config.game)
    seats = rules.seats(track.config)
    table = rules.record_view(frame.shown) if record else rules.view(frame.shown, None)
    return table, [rules.view(frame.shown, s) for s in range(seats)]


def stack_cards(text: str) -> list[str]:
    """Return a stack's cards, base first: ``TH[JS:P1]`` gives ``['TH', 'JS']``."""
    base, _, inner = text.partition("[")
    return [base] + [part.split(":")[0] for part in inner.rstrip("]").split(",") if part]


def expected_zones(
    game: str, view: dict[str, Any], seats: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """Return the zones the page should draw for a public ``view``.

    ``seats`` are the seats' own views when every hand may be shown (a finished
    match), else ``None``: hands the public view does not show are face down.
    """
    if game == "cuttle":
        return _cuttle(view, seats)
    return _kozel(view, seats)


def _cuttle(view: dict[str, Any], seats: list[dict[str, Any]] | None) -> dict[str, Any]:
    zones: dict[str, Any] = {}
    for s, hand in enumerate(view["hands"]):
        cards = seats[s]["hands"][s]["cards"] if seats else hand.get("cards")
        zones[f"hand-{s}"] = cards if cards is not None else [BACK] * hand["count"]
        for kind in ("points", "permanents"):
            zones[f"{kind}-{s}"] = [
                card
                for stack in view[kind]
                if stack["controller"] == s
                for card in stack_cards(stack["stack"])
            ]
    count = view["deck"]["count"]
    zones["deck"] = ([BACK] if count else []) + view["deck"]["top"]
    zones["deck:count"] = count
    zones["scrap"] = view["scrap"]
    if view["chain"]:
        zones["chain"] = [link["card"] for link in view["chain"]]
    if view["revealed"]:
        zones["revealed"] = view["revealed"]
    return zones


def _kozel(view: dict[str, Any], seats: list[dict[str, Any]] | None) -> dict[str, Any]:
    zones: dict[str, Any] = {}
    for s, size in enumerate(view["hand_sizes"]):
        zones[f"hand-{s}"] = seats[s]["hand"] if seats else [BACK] * size
    zones["indicator"] = [view["indicator"]]
    zones["stock"] = [BACK] if view["stock"] else []
    zones["stock:count"] = view["stock"]
    zones["trick"] = [
        card for play in view["trick"] for card in play.get("cards", [BACK] * play["count"])
    ]
    for team, pile in enumerate(view["piles"]):
        down = pile.get("face_down_cards", [BACK] * pile["face_down"])
        zones[f"pile-{team}"] = pile["face_up"] + down
    return zones


def cards_in(data: Any) -> set[str]:
    """Return every card named anywhere in a view (stacks included)."""
    if isinstance(data, str):
        return {c for c in stack_cards(data) if CARD.match(c)} if CARD.match(data[:2]) else set()
    if isinstance(data, dict):
        return set().union(*(cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(cards_in(v) for v in data)) if data else set()
    return set()


def card_text(code: str) -> str:
    """Return how the page writes a card: rank then suit symbol (``10♥``)."""
    if code.startswith("X"):
        return "\u2605" + code[1:]
    symbols = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    return ("10" if code[0] == "T" else code[0]) + symbols[code[1]] + "\ufe0e"
