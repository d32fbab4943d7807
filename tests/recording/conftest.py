"""Fixtures for recording tests: the API fixtures, players, and a match helper."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.conftest import _admin, _client, _make_token, _scorer  # noqa: F401


@pytest.fixture(name="make_players")
def _make_players(client: TestClient[Any], scorer: dict[str, str]) -> Any:
    """Create ``n`` players and return their ids."""

    def make(n: int) -> list[str]:
        ids = []
        for i in range(n):
            r = client.post("/players", json={"display_name": f"Player {i}"}, headers=scorer)
            assert 201 == r.status_code, r.text
            ids.append(r.json()["id"])
        return ids

    return make
