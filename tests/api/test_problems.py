from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from api.settings import Settings

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

    def test_default_limit_is_one_mebibyte(self, client: Client, scorer: dict[str, str]) -> None:
        body = b'{"display_name": "' + b"x" * (1024 * 1024) + b'"}'
        response = client.post(
            "/players", content=body, headers={**scorer, "Content-Type": "application/json"}
        )
        assert 413 == response.status_code
        assert "BODY_TOO_LARGE" == response.json()["code"]


class TestProblemShape:
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


class TestOpenApi:
    def test_operations_are_named(self, client: Client) -> None:
        paths = client.get("/schema/openapi.json").json()["paths"]
        assert {
            ("/players", "get"): "ListPlayers",
            ("/players", "post"): "CreatePlayer",
            ("/players/{player_id}", "get"): "GetPlayer",
            ("/competitions", "get"): "ListCompetitions",
            ("/competitions", "post"): "CreateCompetition",
            ("/competitions/{competition_id}", "get"): "GetCompetition",
        } == {
            (path, method): op["operationId"]
            for path, ops in paths.items()
            if path != "/health"
            for method, op in ops.items()
        }

    def test_path_parameters_are_described(self, client: Client) -> None:
        paths = client.get("/schema/openapi.json").json()["paths"]
        (parameter,) = paths["/players/{player_id}"]["get"]["parameters"]
        assert "The player's UUID." == parameter["description"]
