"""GET legal-moves lists the side to act's moves and, apart, the service moves; a Kozel
concession is recorded as a move (R47)."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.recording.play import create_match


def _legal(client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]) -> Any:
    return client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()


def test_cuttle_lists_resignations_and_draw_offers_apart(
    client: TestClient[Any], scorer: dict[str, str], make_players: Any
) -> None:
    body = {"game": "cuttle", "variant": "standard", "players": make_players(2)}
    legal = _legal(client, scorer, create_match(client, scorer, body))
    seat = legal["to_act"][0]
    assert {f"P{seat}"} == {move.split()[0] for move in legal["moves"]}
    assert [f"P{seat} offer-draw", "P0 resign", "P1 resign"] == legal["service_moves"]


def test_a_kozel_concession_between_deals_ends_the_match(
    client: TestClient[Any], scorer: dict[str, str], make_players: Any
) -> None:
    players = make_players(4)
    body = {"game": "kozel", "variant": "default", "players": players, "dealing": "scorer"}
    match = create_match(client, scorer, body)
    legal = _legal(client, scorer, match)
    assert ([], ["S0 concede", "S1 concede", "S2 concede", "S3 concede"]) == (
        legal["moves"],
        legal["service_moves"],
    )
    request = {"moves": ["S1 concede"], "expected_version": match["version"]}
    response = client.post(f"/matches/{match['id']}/moves", json=request, headers=scorer)
    assert 200 == response.status_code, response.text
    result = client.get(f"/matches/{match['id']}", headers=scorer).json()["result"]
    assert ([0, 2], [1, 3], "concession") == (
        result["winners"],
        result["losers"],
        result["reason"],
    )
    assert {"moves": [], "service_moves": []} == {
        k: v for k, v in _legal(client, scorer, match).items() if k in ("moves", "service_moves")
    }
