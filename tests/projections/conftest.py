"""Fixtures for projection tests: the API fixtures, players, competitions, whole matches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.conftest import _admin, _client, _make_token, _scorer  # noqa: F401
from tests.recording.conftest import _make_players  # noqa: F401
from tests.recording.play import create_match, play_to_end


@pytest.fixture(name="play_match")
def _play_match(client: TestClient[Any], scorer: dict[str, str]) -> Any:
    """Create a match from ``body`` and play random legal moves until it ends."""

    def play(body: dict[str, Any], seed: int) -> dict[str, Any]:
        match = create_match(client, scorer, body)
        return play_to_end(client, scorer, match, random.Random(seed))

    return play


@pytest.fixture(name="make_competition")
def _make_competition(client: TestClient[Any], admin: dict[str, str]) -> Any:
    """Create a competition and return its id."""

    def make(**body: Any) -> str:
        r = client.post("/competitions", json={"name": "Club", **body}, headers=admin)
        assert 201 == r.status_code, r.text
        competition_id: str = r.json()["id"]
        return competition_id

    return make
