"""Setting up competitions and matches over HTTP for API tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tests.recording.play import Http, create_match, physical_deal, shuffled_deal


def live_match(
    client: Http,
    scorer: dict[str, str],
    players: list[str],
    competition: str | None = None,
    seed: int = 1,
) -> dict[str, Any]:
    """A Cuttle match with a dealt round (hidden cards) and a few moves, still live.

    A match of a competition plays its format; one alone plays ``quick``.
    """
    rng = random.Random(seed)
    body = {"game": "cuttle", "variant": "standard", "players": players[:2]}
    if competition is None:
        body["format"] = "quick"
    match = create_match(
        client, scorer, {**body, "dealing": "scorer", "competition_id": competition}
    )
    dealt = client.post(
        f"/matches/{match['id']}/rounds",
        json={**shuffled_deal("cuttle", "standard", rng), "expected_version": match["version"]},
        headers=scorer,
    )
    assert 201 == dealt.status_code, dealt.text
    version = dealt.json()["version"]
    for _ in range(3):
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        moves = legal["moves"]
        played = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": [rng.choice(moves)]},
            headers={**scorer, "If-Match": f'"{version}"'},
        )
        assert 200 == played.status_code, played.text
        version = played.json()["version"]
    match = played.json()["match"]
    assert "live" == match["status"]
    return match


def finished_match(
    client: Http,
    scorer: dict[str, str],
    players: list[str],
    competition: str | None = None,
    seed: int = 1,
) -> dict[str, Any]:
    """A Cuttle match played a little and then resigned."""
    match = live_match(client, scorer, players, competition, seed)
    resigned = client.post(
        f"/matches/{match['id']}/resign",
        json={"seat": 0, "expected_version": match["version"]},
        headers=scorer,
    )
    assert 200 == resigned.status_code, resigned.text
    return match


def competition(
    client: Http, admin: dict[str, str], public: bool = True, format: str = "normal"
) -> str:
    """Create a Cuttle competition (its matches play ``format``); return its id."""
    body = {
        "name": "League",
        "game": "cuttle",
        "variant": "standard",
        "public_reads": public,
        "format": format,
    }
    created = client.post("/competitions", json=body, headers=admin)
    assert 201 == created.status_code, created.text
    return str(created.json()["id"])


def named_players(client: Http, headers: dict[str, str], names: Sequence[str]) -> list[str]:
    """Create a player per display name; return their ids in order."""
    ids = []
    for name in names:
        made = client.post("/players", json={"display_name": name}, headers=headers)
        assert 201 == made.status_code, made.text
        ids.append(str(made.json()["id"]))
    return ids


def deal_physically(
    client: Http, headers: dict[str, str], match: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """Enter the hands of a physically dealt match's next round; return the match after it."""
    deal = physical_deal(match["game"], match["variant"], match["dealer"], rng)
    dealt = client.post(
        f"/matches/{match['id']}/rounds",
        json={**deal, "expected_version": match["version"]},
        headers=headers,
    )
    assert 201 == dealt.status_code, dealt.text
    after: dict[str, Any] = dealt.json()["match"]
    return after
