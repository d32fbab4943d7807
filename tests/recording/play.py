"""Driving matches over HTTP in tests: create, deal, and play random legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from domain.cards import format_cards
from domain.stream import MatchConfig, rules_for

SKIPPED_ACTIONS = ("resign", "offer-draw")


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
            response = client.post(
                f"/matches/{match_id}/rounds",
                json={**shuffled_deal(game, variant, rng), "expected_version": version},
                headers=headers,
            )
            assert 201 == response.status_code, response.text
        else:
            legal = client.get(f"/matches/{match_id}/legal-moves", headers=headers).json()
            choices = [m for m in legal["moves"] if m.split()[1] not in SKIPPED_ACTIONS]
            response = client.post(
                f"/matches/{match_id}/moves",
                json={"moves": [rng.choice(choices)]},
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
