"""Fixtures for command tests that set matches up through the API."""

from __future__ import annotations

from tests.api.conftest import _admin, _client, _make_token, _scorer  # noqa: F401
from tests.recording.conftest import _make_players  # noqa: F401
