"""Query and header parameters as the schema declares them (#29): what a pattern allows
is what the server reads, and OPTIONS lists every method of a path."""

from __future__ import annotations

import re
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import given
from hypothesis import strategies as st
from litestar.testing import TestClient

from api.matches import MATCH_CURSOR_PATTERN
from api.schemas import CURSOR_PATTERN, decode_cursor, encode_cursor
from domain.errors import MalformedError
from tests.api.conftest import SharedDatabase

Client = TestClient[Any]


class TestCursorPattern:
    @given(st.integers(min_value=0, max_value=2**63 - 1))
    def test_every_cursor_made_fits_the_pattern(self, position: int) -> None:
        cursor = encode_cursor(position)
        assert re.fullmatch(CURSOR_PATTERN, cursor) is not None
        assert position == decode_cursor(cursor)

    @given(st.from_regex(CURSOR_PATTERN, fullmatch=True))
    def test_every_text_the_pattern_allows_is_read(self, cursor: str) -> None:
        decode_cursor(cursor)

    @given(st.text(alphabet="cDAEIMQUYcgkwxyz012345NOTjz_-=", max_size=12))
    def test_the_pattern_allows_exactly_what_is_read(self, cursor: str) -> None:
        try:
            decode_cursor(cursor)
            read = True
        except MalformedError:
            read = False
        assert read == (re.fullmatch(CURSOR_PATTERN, cursor) is not None)


class TestListingParameters(SharedDatabase):
    @pytest.mark.parametrize("name", ["status", "player_id", "competition_id"])
    def test_the_text_null_is_no_absent_value(self, client: Client, name: str) -> None:
        """Litestar read ``?status=null`` as no status; the schema allows no such value."""
        response = client.get("/matches", params={name: "null"})
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])

    def test_a_match_cursor_of_the_pattern_is_a_place_in_the_listing(self, client: Client) -> None:
        cursor = f"1700000000000000-{uuid4().hex}"
        assert re.fullmatch(MATCH_CURSOR_PATTERN, cursor) is not None
        response = client.get("/matches", params={"cursor": cursor})
        assert (200, []) == (response.status_code, response.json()["items"])


class TestOptions(SharedDatabase):
    @pytest.mark.parametrize(
        ("path", "allow"),
        [
            ("/competitions/{id}/entrants", "GET, OPTIONS, POST"),
            ("/competitions/{id}/fixtures", "GET, OPTIONS, POST"),
            ("/players", "GET, OPTIONS, POST"),
            ("/matches/{id}/moves", "OPTIONS, POST"),
        ],
    )
    def test_allow_lists_every_method_of_the_path(
        self, client: Client, path: str, allow: str
    ) -> None:
        response = client.options(path.replace("{id}", str(uuid4())))
        assert (204, allow) == (response.status_code, response.headers["allow"])
