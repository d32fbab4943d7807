"""A competition's format is the format of its matches (see #29).

A match may name it again or name nothing; another format, loss limit or eggs rule is
422 ``FORMAT_MISMATCH`` naming the competition's; what the competition does not fix
(Kozel's ``open_throws``) the match adds.
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.recording.conftest import _make_players  # noqa: F401

Client = TestClient[Any]


def competition(client: Client, admin: dict[str, str], **fields: Any) -> str:
    created = client.post("/competitions", json={"name": "League", **fields}, headers=admin)
    assert 201 == created.status_code, created.text
    return str(created.json()["id"])


def kozel_match(league: str, players: list[str], **fields: Any) -> dict[str, Any]:
    return {"game": "kozel", "players": players, "competition_id": league, **fields}


def cuttle_match(league: str, players: list[str], **fields: Any) -> dict[str, Any]:
    return {"game": "cuttle", "players": players, "competition_id": league, **fields}


def matches_of(client: Client, league: str) -> list[Any]:
    return client.get("/matches", params={"competition_id": league}).json()["items"]


class TestKozel:
    @pytest.fixture(name="league")
    def _league(self, client: Client, admin: dict[str, str]) -> str:
        return competition(client, admin, game="kozel", format={"loss_limit": 6})

    def test_open_throws_add_to_the_competitions_loss_limit(
        self, client: Client, scorer: dict[str, str], make_players: Any, league: str
    ) -> None:
        body = kozel_match(league, make_players(4), options={"open_throws": True})
        created = client.post("/matches", json=body, headers=scorer)
        assert 201 == created.status_code, created.text
        assert {
            "loss_limit": 6,
            "eggs_double_next": False,
            "trump_indicator_bottom": False,
            "open_throws": True,
        } == created.json()["options"]

    @pytest.mark.parametrize(
        "options", [None, {"loss_limit": 6}, {"loss_limit": 6, "eggs_double_next": False}]
    )
    def test_naming_the_competitions_values_again_or_nothing_is_accepted(
        self,
        client: Client,
        scorer: dict[str, str],
        make_players: Any,
        league: str,
        options: dict[str, Any] | None,
    ) -> None:
        created = client.post(
            "/matches", json=kozel_match(league, make_players(4), options=options), headers=scorer
        )
        assert 201 == created.status_code, created.text
        assert 6 == created.json()["options"]["loss_limit"]

    @pytest.mark.parametrize(
        ("options", "field", "fixed"),
        [
            ({"loss_limit": 12}, "loss_limit", 6),
            ({"open_throws": True, "loss_limit": 12}, "loss_limit", 6),
            ({"eggs_double_next": True}, "eggs_double_next", False),
        ],
    )
    def test_another_loss_limit_or_eggs_rule_is_refused(
        self,
        client: Client,
        scorer: dict[str, str],
        make_players: Any,
        league: str,
        options: dict[str, Any],
        field: str,
        fixed: Any,
    ) -> None:
        body = kozel_match(league, make_players(4), options=options)
        refused = client.post("/matches", json=body, headers=scorer)
        assert 422 == refused.status_code, refused.text
        problem = refused.json()
        assert "FORMAT_MISMATCH" == problem["code"]
        assert {"field": field, "competition": fixed, "competition_id": league} == {
            k: problem["details"][k] for k in ("field", "competition", "competition_id")
        }
        assert f"{field} is {fixed!r}" in problem["detail"]
        assert [] == matches_of(client, league)


class TestCuttle:
    @pytest.fixture(name="league")
    def _league(self, client: Client, admin: dict[str, str]) -> str:
        return competition(client, admin, game="cuttle", variant="standard", format="quick")

    @pytest.mark.parametrize("fmt", ["normal", "best-of-7", "best-of-1"])
    def test_another_format_is_refused_naming_quick(
        self, client: Client, scorer: dict[str, str], make_players: Any, league: str, fmt: str
    ) -> None:
        body = cuttle_match(league, make_players(2), format=fmt)
        refused = client.post("/matches", json=body, headers=scorer)
        assert 422 == refused.status_code, refused.text
        problem = refused.json()
        assert "FORMAT_MISMATCH" == problem["code"]
        assert "quick" == problem["details"]["competition"]
        assert "'quick'" in problem["detail"]
        assert [] == matches_of(client, league)

    @pytest.mark.parametrize("fmt", [None, "quick", " Quick"])
    def test_the_competitions_format_again_or_none_is_accepted(
        self,
        client: Client,
        scorer: dict[str, str],
        make_players: Any,
        league: str,
        fmt: str | None,
    ) -> None:
        body = cuttle_match(league, make_players(2), format=fmt)
        created = client.post("/matches", json=body, headers=scorer)
        assert 201 == created.status_code, created.text
        assert "quick" == created.json()["format"]
