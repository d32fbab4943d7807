"""Property tests of the whole API from its own OpenAPI schema (schemathesis).

A live server on a free port (the viewer tests' uvicorn thread) serves a fresh
database; schemathesis sends every
operation a bounded, derandomized set of generated requests, anonymously and with a
scorer's token, and checks that no answer is a 5xx and every answer (status, media
type, headers, body) is one the schema declares.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from litestar.serialization import encode_json
from schemathesis import Case
from schemathesis.specs.openapi.checks import allow_header_conformance, positive_data_acceptance

from api.app import create_app
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import create_secret
from tests.viewer.conftest import _server, _viewer_database  # noqa: F401

MAX_EXAMPLES = 6
"""Generated cases per operation and caller; the run stays well under a minute."""


NOT_CHECKED = [positive_data_acceptance, allow_header_conformance]
"""Checks that do not apply. Schema-valid is not acceptable here: the rules engine
refuses well-formed moves (422). ``Allow`` on OPTIONS is Litestar's automatic answer,
which names only the methods of the first handler registered on a path."""


@pytest.fixture(name="scorer_secret", scope="module")
def _scorer_secret(viewer_database: str) -> str:
    return create_secret(viewer_database, Role.SCORER)


def _served_schema() -> dict[str, Any]:
    """The OpenAPI document the app serves at /schema/openapi.json, built without a server."""
    app = create_app(Settings(database_url="postgresql://unused"))
    document: dict[str, Any] = json.loads(encode_json(app.openapi_schema.to_schema()))
    return document


def _schema(phases: dict[str, Any]) -> Any:
    config = schemathesis.Config.from_dict({"phases": phases})
    return schemathesis.openapi.from_dict(_served_schema(), config=config)


# A scorer's requests reach the body checks; they get the coverage phase too (every
# boundary and wrong type the schema implies), anonymous ones the examples and fuzzing.
scorer_schema = _schema({"coverage": {"unexpected-methods": []}})
anonymous_schema = _schema({"coverage": {"enabled": False}})
bounded = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@anonymous_schema.parametrize()
@bounded
def test_anonymous_answers_are_declared_and_none_is_a_server_error(case: Case, server: str) -> None:
    case.call_and_validate(base_url=server, excluded_checks=NOT_CHECKED, timeout=10)


@scorer_schema.parametrize()
@bounded
def test_scorer_answers_are_declared_and_none_is_a_server_error(
    case: Case, server: str, scorer_secret: str
) -> None:
    headers = {"Authorization": f"Bearer {scorer_secret}"}
    case.call_and_validate(
        base_url=server, headers=headers, excluded_checks=NOT_CHECKED, timeout=10
    )
