"""Driving matches over HTTP in tests: create, deal, and play random legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from domain.cards import format_cards
from domain.stream import MatchConfig, rules_for


class Http(Protocol):
    """What the tests need of a client: litestar's TestClient or an httpx.Client."""

    def get(self, url: str, **kwargs: Any) -> Any: ...
    def post(self, url: str, **kwargs: Any) -> Any: ...


def seats_of(game: str, variant: str) -> int:
    """How many players a game and variant seat."""
    return rules_for(game).seats(MatchConfig(game, variant, (), 0))


def create_match(client: Http, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    """Create a match and return its body; fail the test on any refusal."""
    response = client.post("/matches", json=body, headers=headers)
    assert 201 == response.status_code, response.text
    match: dict[str, Any] = response.json()
    return match


def shuffled_deal(game: str, variant: str, rng: random.Random) -> dict[str, Any]:
    """A deal a scorer could give: a shuffled deck (and, for Kozel, an indicator position)."""
    config = MatchConfig(game, variant, (), 0)
    spec = rules_for(game).deal_spec(config)
    deck = list(spec.pack)
    rng.shuffle(deck)
    deal: dict[str, Any] = {"deck": format_cards(deck)}
    if spec.indicator_positions is not None:
        deal["indicator_position"] = rng.choice(spec.indicator_positions)
    return deal


def physical_deal(game: str, variant: str, dealer: int, rng: random.Random) -> dict[str, Any]:
    """Hands as a scorer would type them from a physical deal (Kozel adds the indicator)."""
    config = MatchConfig(game, variant, (), 0)
    rules = rules_for(game)
    cards = list(rules.deal_spec(config).pack)
    rng.shuffle(cards)
    seats = rules.seats(config)
    if game == "kozel":
        sizes = [4] * 4
    elif seats == 3:
        sizes = [5] * 3
    else:
        sizes = [6 if seat == dealer else 5 for seat in range(2)]
    hands, start = [], 0
    for size in sizes:
        hands.append(format_cards(cards[start : start + size]))
        start += size
    deal: dict[str, Any] = {"hands": hands}
    if game == "kozel":
        deal["indicator"] = cards[start].text()
    return deal


def play_to_end(
    client: Http,
    headers: dict[str, str],
    match: dict[str, Any],
    rng: random.Random,
    *,
    after_each: Callable[[dict[str, Any]], None] | None = None,
    max_moves: int = 4000,
) -> dict[str, Any]:
    """Play random legal moves (no resignations or draw offers) until the match ends.

    Scorer-dealt rounds are opened with a deck the test shuffles. ``after_each`` gets
    the match body after every write. Returns the final match body.
    """
    match_id, version = match["id"], match["version"]
    game, variant = match["game"], match["variant"]
    for _ in range(max_moves):
        if match["status"] != "live":
            return match
        if match["round"] is None:
            if match["dealing"] == "physical":
                deal = physical_deal(game, variant, match["dealer"], rng)
            else:
                deal = shuffled_deal(game, variant, rng)
            response = client.post(
                f"/matches/{match_id}/rounds",
                json={**deal, "expected_version": version},
                headers=headers,
            )
            assert 201 == response.status_code, response.text
        else:
            legal = client.get(f"/matches/{match_id}/legal-moves", headers=headers).json()
            if legal["cards_awaited"]:
                named = rng.sample(legal["nameable"], legal["cards_awaited"])
                move = "cards " + " ".join(named)
            else:
                move = rng.choice(legal["moves"])
            response = client.post(
                f"/matches/{match_id}/moves",
                json={"moves": [move]},
                headers={**headers, "If-Match": f'"{version}"'},
            )
            assert 200 == response.status_code, response.text
        match = response.json()
        if "match" in match:
            match = match["match"]
        version = match["version"]
        if after_each is not None:
            after_each(match)
    raise AssertionError(f"match {match_id} did not end within {max_moves} writes")
