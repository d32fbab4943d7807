from __future__ import annotations

from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.settings import Settings
from tests.api.conftest import SharedDatabase

Client = TestClient[Any]


class TestBodyLimit:
    def test_oversized_body_is_refused(self, database_url: str, scorer: dict[str, str]) -> None:
        settings = Settings(database_url=database_url, max_body_size=64)
        with TestClient(create_app(settings)) as client:
            response = client.post("/players", json={"display_name": "x" * 80}, headers=scorer)
            small = client.post("/players", json={"display_name": "Ada"}, headers=scorer)
        assert 413 == response.status_code
        assert "BODY_TOO_LARGE" == response.json()["code"]
        assert response.headers["content-type"].startswith("application/problem+json")
        assert 201 == small.status_code


class TestUnexpectedFailure:
    def test_is_logged_and_answered_without_internals(
        self, client: Client, owner_url: str, caplog: pytest.LogCaptureFixture
    ) -> None:
        with psycopg.connect(owner_url) as conn:
            conn.execute("DROP TABLE players")
        response = client.get("/players")
        assert 500 == response.status_code
        assert response.headers["content-type"].startswith("application/problem+json")
        assert {"code": "INTERNAL_ERROR", "detail": "internal error"} == {
            k: response.json()[k] for k in ("code", "detail")
        }
        assert "players" not in response.text
        assert any(r.name == "matchlog.api" for r in caplog.records)


class TestSharedRefusals(SharedDatabase):
    """Refusals and the schema, on a shared database."""

    def test_default_limit_is_one_mebibyte(self, client: Client, scorer: dict[str, str]) -> None:
        body = b'{"display_name": "' + b"x" * (1024 * 1024) + b'"}'
        response = client.post(
            "/players", content=body, headers={**scorer, "Content-Type": "application/json"}
        )
        assert 413 == response.status_code
        assert "BODY_TOO_LARGE" == response.json()["code"]

    def test_authentication_comes_before_the_size_check(self, client: Client) -> None:
        body = b'{"display_name": "' + b"x" * (1024 * 1024) + b'"}'
        response = client.post(
            "/players", content=body, headers={"Content-Type": "application/json"}
        )
        assert 401 == response.status_code

    def test_problem_fields(self, client: Client) -> None:
        response = client.get("/players/00000000-0000-0000-0000-000000000000")
        assert {
            "type": "https://matchlog.dev/problems/player-not-found",
            "title": "Player not found",
            "status": 404,
            "detail": "no player has id '00000000-0000-0000-0000-000000000000'",
            "code": "PLAYER_NOT_FOUND",
            "details": {"id": "00000000-0000-0000-0000-000000000000"},
        } == response.json()

    def test_wrong_method_has_a_code(self, client: Client) -> None:
        response = client.delete("/players")
        assert 405 == response.status_code
        assert "METHOD_NOT_ALLOWED" == response.json()["code"]

    def test_operations_are_named(self, client: Client) -> None:
        paths = client.get("/schema/openapi.json").json()["paths"]
        named = {
            (path, method): op["operationId"]
            for path, ops in paths.items()
            for method, op in ops.items()
        }
        expected = {
            ("/players", "get"): "ListPlayers",
            ("/players", "post"): "CreatePlayer",
            ("/players/{player_id}", "get"): "GetPlayer",
            ("/competitions", "get"): "ListCompetitions",
            ("/competitions", "post"): "CreateCompetition",
            ("/competitions/{competition_id}", "get"): "GetCompetition",
            ("/tokens", "get"): "ListTokens",
            ("/tokens", "post"): "CreateToken",
            ("/tokens/{token_id}", "get"): "GetToken",
            ("/tokens/{token_id}", "delete"): "RevokeToken",
            ("/matches", "get"): "ListMatches",
            ("/matches", "post"): "CreateMatch",
            ("/matches/{match_id}", "get"): "GetMatch",
            ("/matches/{match_id}/moves", "post"): "RecordMoves",
            ("/matches/{match_id}/rounds", "post"): "StartRound",
            ("/matches/{match_id}/resign", "post"): "ResignMatch",
            ("/matches/{match_id}/legal-moves", "get"): "GetLegalMoves",
            ("/matches/{match_id}/events", "get"): "ListMatchEvents",
        }
        assert expected == {key: named.get(key) for key in expected}

    def test_path_parameters_are_described(self, client: Client) -> None:
        paths = client.get("/schema/openapi.json").json()["paths"]
        parameters = paths["/players/{player_id}"]["get"]["parameters"]
        (parameter,) = [p for p in parameters if p["in"] == "path"]
        assert "The player's UUID." == parameter["description"]
