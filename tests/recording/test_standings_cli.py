"""``matchlog standings``: the same table as the API, in every format."""

from __future__ import annotations

import json
from typing import Any

from litestar.testing import TestClient

from tests.logs.support import cli


def test_standings_in_every_format_match_the_api(
    client: TestClient[Any],
    admin: dict[str, str],
    scorer: dict[str, str],
    make_players: Any,
    database_url: str,
) -> None:
    league = client.post(
        "/competitions",
        json={"name": "Autumn", "game": "cuttle", "variant": "standard", "tiebreaks": ["wins"]},
        headers=admin,
    ).json()["id"]
    ann, bob = make_players(2)
    for loser in (0, 0, 1):
        match = client.post(
            "/matches",
            json={
                "game": "cuttle",
                "players": [ann, bob],
                "competition_id": league,
                "dealing": "scorer",
            },
            headers=scorer,
        ).json()
        resigned = client.post(
            f"/matches/{match['id']}/resign",
            json={"seat": loser, "expected_version": 1},
            headers=scorer,
        )
        assert 200 == resigned.status_code, resigned.text

    code, out, _ = cli(database_url, "standings", league, "--format", "csv")
    assert 0 == code
    assert client.get(f"/competitions/{league}/standings", params={"format": "csv"}).text == out
    code, out, _ = cli(database_url, "standings", league, "--format", "json")
    rows = json.loads(out)["players"]
    assert [("Player 1", 2), ("Player 0", 1)] == [(r["name"], r["won"]) for r in rows]
    code, out, _ = cli(database_url, "standings", league, "--format", "md")
    assert out.startswith("# Autumn") and "| 1 | Player 1 |" in out
    code, out, _ = cli(database_url, "standings", league, "--format", "table")
    assert 0 == code and "Player 1" in out and "Autumn" in out


def test_unknown_competition_is_one_line(database_url: str) -> None:
    code, _, err = cli(database_url, "standings", "00000000-0000-4000-8000-000000000000")
    assert 1 == code
    assert err.startswith("error: COMPETITION_NOT_FOUND")
    code, _, err = cli(database_url, "standings", "not-an-id")
    assert 1 == code
    assert err.startswith("error: MALFORMED: 'not-an-id' is not a competition id")
