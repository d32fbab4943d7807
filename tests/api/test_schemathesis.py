"""Property tests of the whole API from its own OpenAPI schema (schemathesis).

A live server on a free port (the viewer tests' uvicorn thread) serves a fresh
database; schemathesis sends every
operation a bounded, derandomized set of generated requests, anonymously and with a
scorer's token, and runs every check: no answer is a 5xx, every answer (status, media
type, headers, body) is one the schema declares, a request the schema refuses is
refused, one it allows is accepted (but for ``REFUSED_THOUGH_VALID``), and ``OPTIONS``
(sent as the scorer) lists exactly the methods the schema declares. The schema says
what the server does (#29).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from litestar.serialization import encode_json
from schemathesis import Case
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import create_secret
from tests.viewer.conftest import _server, _viewer_database  # noqa: F401

MAX_EXAMPLES = 6
"""Generated cases per operation and caller; the run stays under a minute."""


REFUSED_THOUGH_VALID: dict[tuple[str, int, str], str] = {
    ("POST /matches", 422, "UNKNOWN_PLAYER"): "the example's players are ids of no player:"
    " whether a player exists is the database's to say, not the schema's",
}
"""Schema-valid requests the server refuses, by operation, status and code, and why:
each is refused by a rule or names a record that does not exist. Any other refusal of
a schema-valid request fails ``positive_data_acceptance``."""


def accepts_valid_data(ctx: Any, response: Any, case: Case) -> bool | None:
    """``positive_data_acceptance``, but for the refusals ``REFUSED_THOUGH_VALID`` lists."""
    try:
        problem = response.json()
    except ValueError:
        problem = None
    code = problem.get("code") if isinstance(problem, dict) else None
    if (case.operation.label, response.status_code, code) in REFUSED_THOUGH_VALID:
        return None
    return positive_data_acceptance(ctx, response, case)


def check(case: Case, server: str, headers: dict[str, str] | None = None) -> None:
    """Send ``case`` and run every check on its answer (``positive_data_acceptance``
    as ``accepts_valid_data``)."""
    case.call_and_validate(
        base_url=server,
        headers=headers,
        excluded_checks=[positive_data_acceptance],
        additional_checks=[accepts_valid_data],
        timeout=10,
    )


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
scorer_schema = _schema({"coverage": {"unexpected-methods": ["OPTIONS"]}})
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
    check(case, server)


@scorer_schema.parametrize()
@bounded
def test_scorer_answers_are_declared_and_none_is_a_server_error(
    case: Case, server: str, scorer_secret: str
) -> None:
    check(case, server, {"Authorization": f"Bearer {scorer_secret}"})
