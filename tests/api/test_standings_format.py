"""``GET /competitions/{id}/standings?format=``: the names it takes, and a wrong one."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.support import competition, finished_match
from tests.recording.conftest import _make_players  # noqa: F401


@pytest.mark.parametrize("name", ["md", "markdown"])
def test_md_and_markdown_both_answer_markdown(
    client: TestClient[Any],
    admin: dict[str, str],
    scorer: dict[str, str],
    make_players: Any,
    name: str,
) -> None:
    league = competition(client, admin)
    finished_match(client, scorer, make_players(2), league)
    url = f"/competitions/{league}/standings"
    answer = client.get(url, params={"format": name})
    assert 200 == answer.status_code, answer.text
    assert answer.headers["content-type"].startswith("text/markdown")
    by_accept = client.get(url, headers={"Accept": "text/markdown"})
    assert by_accept.text == answer.text
    assert "| " in answer.text and "Player 0" in answer.text


def test_a_wrong_format_answers_422_listing_the_allowed_ones(
    client: TestClient[Any], admin: dict[str, str]
) -> None:
    league = competition(client, admin)
    answer = client.get(f"/competitions/{league}/standings", params={"format": "xlsx"})
    assert 422 == answer.status_code
    body = answer.json()
    assert "VALIDATION_FAILED" == body["code"]
    [error] = body["details"]["errors"]
    assert ("format", "query") == (error["field"], error["source"])
    assert "'xlsx' is not one of: json, csv, markdown, md" == error["message"]
