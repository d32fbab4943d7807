"""``GET /games``: every registered game's presentation descriptor, as its schema says."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
from litestar.testing import TestClient


def test_games_lists_every_registered_game_with_its_descriptor(
    refusing_client: TestClient[Any],
) -> None:
    answer = refusing_client.get("/games")
    assert 200 == answer.status_code
    items = answer.json()["items"]
    assert ["cuttle", "kozel"] == [item["game"] for item in items]
    cuttle, kozel = items
    assert ["standard", "classic", "cutthroat"] == [v["name"] for v in cuttle["variants"]]
    assert [2, 2, 3] == [v["seats"] for v in cuttle["variants"]]
    assert [["X1", "X2"]] == [
        v["pack"]["jokers"] for v in cuttle["variants"] if v["pack"]["jokers"]
    ]
    assert [[0, 2], [1, 3]] == [team["seats"] for team in kozel["teams"]]
    assert ("round", "deal") == (cuttle["round_word"], kozel["round_word"])
    zones = {z["name"]: z for z in kozel["zones"]}
    assert ("seat", "hand_sizes.{seat}") == (zones["hand"]["place"], zones["hand"]["count"])


def test_games_answer_matches_the_schema_the_document_gives(
    refusing_client: TestClient[Any],
) -> None:
    document = refusing_client.get("/schema/openapi.json").json()
    operation = document["paths"]["/games"]["get"]
    assert "ListGames" == operation["operationId"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert {"$ref": "#/components/schemas/GameList"} == schema
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": document["components"]})
    body = refusing_client.get("/games").json()
    assert [] == [str(error) for error in validator.iter_errors(body)]
    # The schema can fail: a zone without its kind is refused.
    body["items"][0]["zones"][0].pop("kind")
    assert not validator.is_valid(body)
