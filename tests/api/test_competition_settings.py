"""A competition's settings have one home, ``domain.competitions.checked_settings``: its
game's defaults and canonical format, and its refusals, are the same for the API, an
import (``matchlog import``) and the store (issue #30)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from domain.competitions import CompetitionSettings, checked_settings
from domain.errors import DomainError
from domain.games import GAMES
from store import accounts
from tests.logs.support import cli
from tests.logs.test_competition_formats import COMPETITION, in_competition
from tests.test_registry_reads import HighCard

Client = TestClient[Any]


class TestCheckedSettings:
    def test_defaults_come_from_the_games_rules(self) -> None:
        assert CompetitionSettings(
            "kozel", "default", {"loss_limit": 12, "eggs_double_next": False}
        ) == checked_settings("kozel")
        assert CompetitionSettings("cuttle", "classic", "normal") == checked_settings(
            "cuttle", "classic"
        )

    def test_the_format_is_made_canonical(self) -> None:
        assert "extended" == checked_settings("cuttle", "standard", "best-of-5").match_format

    @pytest.mark.parametrize(
        ("args", "field"),
        [
            (("chess",), "game"),
            (("cuttle",), "variant"),
            (("kozel", "classic"), "variant"),
            (("cuttle", "standard", "best-of-4"), "format"),
            (("kozel", None, {"loss_limit": "12"}), "format"),
            (("kozel", None, None, ["round-difference"]), "tiebreaks"),
            (("cuttle", "standard", None, ["wins", "wins"]), "tiebreaks"),
            (("cuttle", "standard", None, (), "half"), "bye"),
        ],
    )
    def test_a_refusal_names_its_field(self, args: tuple[Any, ...], field: str) -> None:
        with pytest.raises(DomainError) as e:
            checked_settings(*args)
        assert "VALIDATION_FAILED" == e.value.code
        assert [field] == [error["field"] for error in e.value.details["errors"]]


class TestOneRuleForEveryFace:
    @pytest.mark.parametrize(
        ("body", "args"),
        [
            ({"variant": "standard", "format": "best-of-4"}, ("cuttle", "standard", "best-of-4")),
            ({"game": "kozel", "format": {"loss_limit": 1}}, ("kozel", None, {"loss_limit": 1})),
            ({"variant": "hearts"}, ("cuttle", "hearts")),
            ({}, ("cuttle",)),
        ],
    )
    def test_the_api_refuses_as_the_rule_does(
        self, client: Client, admin: dict[str, str], body: dict[str, Any], args: tuple[Any, ...]
    ) -> None:
        with pytest.raises(DomainError) as e:
            checked_settings(*args)
        sent = {"name": "Season", "game": "cuttle", **body}
        response = client.post("/competitions", json=sent, headers=admin)
        assert 422 == response.status_code
        assert e.value.details["errors"] == response.json()["details"]["errors"]

    def test_an_import_makes_the_competition_the_api_would(
        self, client: Client, admin: dict[str, str], database_url: str, tmp_path: Path
    ) -> None:
        """A Kozel match imported into a new competition gives it the rule's settings."""
        log = tmp_path / "one.txt"
        log.write_text(in_competition("2", "a"))
        code, _, err = cli(database_url, "import", str(log))
        assert 0 == code, err
        imported = client.get(f"/competitions/{COMPETITION}").json()
        sent = {"name": "Cup", "game": "kozel", "format": {"loss_limit": 2}}
        made = client.post("/competitions", json=sent, headers=admin).json()
        expected = checked_settings("kozel", None, {"loss_limit": 2})
        for body in (imported, made):
            assert (expected.variant, expected.match_format, [], "win") == (
                body["variant"],
                body["format"],
                body["tiebreaks"],
                body["bye"],
            )

    def test_the_store_holds_the_same_rule(self, database_url: str) -> None:
        async def create() -> None:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                await accounts.create_competition(
                    conn, name="x", game="cuttle", variant="standard", match_format="best-of-4"
                )

        with pytest.raises(DomainError) as e:
            asyncio.run(create())
        assert ["format"] == [error["field"] for error in e.value.details["errors"]]


def test_a_registered_games_competition_takes_its_defaults(
    client: Client, admin: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No list of games stands in the way: the schema, the rule, the table (0019) and
    the entrant's size (one player, as ``HighCard.entrant_size`` says)."""
    monkeypatch.setitem(GAMES, "highcard", HighCard())  # type: ignore[arg-type]
    response = client.post(
        "/competitions", json={"name": "Draw high", "game": "highcard"}, headers=admin
    )
    assert 201 == response.status_code, response.text
    body = response.json()
    assert ("highcard", "default", "first-to-1") == (body["game"], body["variant"], body["format"])
    assert body == client.get(f"/competitions/{body['id']}").json()
    player = client.post("/players", json={"display_name": "Ada"}, headers=admin).json()["id"]
    entrants = f"/competitions/{body['id']}/entrants"
    pair = {"players": [player, player]}
    assert 422 == client.post(entrants, json=pair, headers=admin).status_code
    entered = client.post(entrants, json={"player_id": player}, headers=admin)
    assert 201 == entered.status_code, entered.text
