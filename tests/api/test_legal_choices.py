"""GET legal-moves: a choice per move (its cards, target and sentence) for a scorer's pad.

The oracle for a choice's cards and target is the move's notation, read with a
regular expression of the tests' own (``tests.test_choices``); the oracle for its
sentence is the timeline, read after the move is recorded.
"""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from tests.api.support import deal_physically, named_players
from tests.recording.play import create_match
from tests.test_choices import expected_parts

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _check_shape(legal: dict[str, Any]) -> None:
    pairs = [("service_moves", "service_choices")]
    if legal["cards_awaited"]:
        assert [] == legal["choices"]  # namings are named from ``nameable``
    else:
        pairs.append(("moves", "choices"))
    for moves, listed in pairs:
        assert legal[moves] == [c["move"] for c in legal[listed]]
        for choice in legal[listed]:
            parts = {k: choice[k] for k in ("seat", "cards", "target_card", "target_seat")}
            assert expected_parts(choice["move"]) == parts
            assert choice["sentence"]


def _play(
    client: TestClient[Any],
    scorer: dict[str, str],
    body: dict[str, Any],
    *,
    seed: int,
    plies: int,
    seen: set[str],
) -> None:
    """Record ``plies`` random choices, each checked against the timeline it writes."""
    rng = random.Random(seed)
    seats = len(body["players"])
    match = create_match(client, scorer, {**body, "dealing": "physical"})
    match_id, version = match["id"], match["version"]
    for _ in range(plies):
        if match["round"] is None:
            if match["status"] != "live":
                return
            match = deal_physically(client, scorer, match, rng)
            version = match["version"]
            continue
        legal = client.get(f"/matches/{match_id}/legal-moves", headers=scorer).json()
        _check_shape(legal)
        if legal["cards_awaited"]:
            named = rng.sample(legal["nameable"], legal["cards_awaited"])
            choice = {"move": "cards " + " ".join(named), "sentence": None}
        else:
            choice = rng.choice(legal["choices"])
        seen.update(choice["move"].split()[1:2])
        for other in legal["choices"]:
            for name in NAMES[seats:]:
                assert name not in other["sentence"]
        played = client.post(
            f"/matches/{match_id}/moves",
            json={"moves": [choice["move"]]},
            headers={**scorer, "If-Match": f'"{version}"'},
        )
        assert 200 == played.status_code, played.text
        match = played.json()["match"]
        version = match["version"]
        steps = client.get(f"/matches/{match_id}/timeline", headers=scorer).json()["steps"]
        if choice["sentence"] is not None:
            last = steps[-1]
            assert (choice["move"], choice["sentence"]) == (last["move"], last["sentence"])


def test_cuttle_choices_name_cards_targets_and_the_timeline_sentence(
    client: TestClient[Any], scorer: dict[str, str]
) -> None:
    players = named_players(client, scorer, NAMES[:2])
    body = {"game": "cuttle", "variant": "standard", "players": players, "format": "quick"}
    seen: set[str] = set()
    for seed in range(3):
        _play(client, scorer, body, seed=seed, plies=40, seen=seen)
    assert {"draw", "points"} <= seen


def test_cutthroat_choices_aim_a_four_at_a_player(
    client: TestClient[Any], scorer: dict[str, str]
) -> None:
    players = named_players(client, scorer, NAMES[:3])
    body = {"game": "cuttle", "variant": "cutthroat", "players": players, "format": "quick"}
    _play(client, scorer, body, seed=7, plies=30, seen=set())


def test_kozel_choices_list_every_card_of_a_lead(
    client: TestClient[Any], scorer: dict[str, str]
) -> None:
    players = named_players(client, scorer, NAMES)
    body = {"game": "kozel", "variant": "default", "players": players}
    _play(client, scorer, body, seed=3, plies=40, seen=set())
