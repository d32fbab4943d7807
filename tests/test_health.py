from __future__ import annotations

from litestar.testing import TestClient

from api.app import create_app
from service.settings import Settings


def test_health_reports_database(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        response = client.get("/health")
    assert 200 == response.status_code
    assert "ok" == response.json()["status"]


def test_openapi_schema_is_served(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        schema = client.get("/schema/openapi.json").json()
    assert "GetHealth" == schema["paths"]["/health"]["get"]["operationId"]


def test_unknown_route_is_problem_json(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        response = client.get("/nope")
    assert 404 == response.status_code
    assert response.headers["content-type"].startswith("application/problem+json")
