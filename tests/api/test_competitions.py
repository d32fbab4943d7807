from __future__ import annotations

import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from store.accounts import Role
from tests.api.conftest import MakeToken, SharedDatabase

Client = TestClient[Any]

CUTTLE = {"name": "Club season", "game": "cuttle", "variant": "standard"}
KOZEL = {"name": "Kozel cup", "game": "kozel"}


def create(client: Client, headers: dict[str, str], **fields: Any) -> dict[str, Any]:
    response = client.post("/competitions", json=fields, headers=headers)
    assert 201 == response.status_code, response.text
    body: dict[str, Any] = response.json()
    return body


def field_errors(response: Any) -> list[str]:
    assert 422 == response.status_code, response.text
    assert "VALIDATION_FAILED" == response.json()["code"]
    return [e["field"] for e in response.json()["details"]["errors"]]


class TestCreateCompetition:
    def test_cuttle_defaults(self, client: Client, admin: dict[str, str]) -> None:
        body = create(client, admin, **CUTTLE)
        assert {
            "name": "Club season",
            "game": "cuttle",
            "variant": "standard",
            "format": "normal",
            "tiebreaks": [],
            "public_reads": True,
            "bye": "win",
        } == {k: v for k, v in body.items() if k not in ("id", "created_at")}
        assert body == client.get(f"/competitions/{body['id']}").json()

    def test_kozel_defaults(self, client: Client, admin: dict[str, str]) -> None:
        body = create(client, admin, **KOZEL)
        assert "default" == body["variant"]
        assert {"loss_limit": 12, "eggs_double_next": False} == body["format"]

    def test_format_is_stored_canonically(self, client: Client, admin: dict[str, str]) -> None:
        assert "extended" == create(client, admin, **CUTTLE, format="best-of-5")["format"]
        assert "best-of-7" == create(client, admin, **CUTTLE, format="Best-of-7")["format"]

    def test_kozel_options_and_tiebreaks(self, client: Client, admin: dict[str, str]) -> None:
        body = create(
            client,
            admin,
            **KOZEL,
            format={"loss_limit": 6, "eggs_double_next": True},
            tiebreaks=["loss-point-difference", "head-to-head"],
            public_reads=False,
        )
        assert {"loss_limit": 6, "eggs_double_next": True} == body["format"]
        assert ["loss-point-difference", "head-to-head"] == body["tiebreaks"]
        assert body["public_reads"] is False

    @pytest.mark.parametrize(
        ("fields", "restated"),
        [
            ({**CUTTLE, "format": "best-of-3", "tiebreaks": ["wins"]}, {"format": "normal"}),
            ({**KOZEL, "format": {"loss_limit": 6}}, {"variant": "default"}),
        ],
    )
    def test_same_id_and_content_is_idempotent(
        self,
        client: Client,
        admin: dict[str, str],
        fields: dict[str, Any],
        restated: dict[str, Any],
    ) -> None:
        fields = {**fields, "id": str(uuid.uuid4())}
        first = client.post("/competitions", json=fields, headers=admin)
        again = client.post("/competitions", json={**fields, **restated}, headers=admin)
        assert (201, 200) == (first.status_code, again.status_code)
        assert first.json() == again.json()

    def test_same_id_other_content_conflicts(self, client: Client, admin: dict[str, str]) -> None:
        fields = {**KOZEL, "id": str(uuid.uuid4())}
        create(client, admin, **fields)
        response = client.post(
            "/competitions", json={**fields, "format": {"loss_limit": 6}}, headers=admin
        )
        assert 409 == response.status_code
        assert "ALREADY_EXISTS" == response.json()["code"]


class TestReadCompetition:
    def test_private_needs_token(self, client: Client, admin: dict[str, str]) -> None:
        private = create(client, admin, **CUTTLE, public_reads=False)
        response = client.get(f"/competitions/{private['id']}")
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert 200 == client.get(f"/competitions/{private['id']}", headers=admin).status_code

    def test_scoped_scorer_reads_only_its_private_competitions(
        self, client: Client, admin: dict[str, str], make_token: MakeToken
    ) -> None:
        mine = create(client, admin, **CUTTLE, public_reads=False)
        other = create(client, admin, **CUTTLE, public_reads=False)
        public = create(client, admin, **KOZEL)
        token = make_token(Role.SCORER, [uuid.UUID(mine["id"])])
        headers = {"Authorization": f"Bearer {token}"}
        assert 200 == client.get(f"/competitions/{mine['id']}", headers=headers).status_code
        response = client.get(f"/competitions/{other['id']}", headers=headers)
        assert 403 == response.status_code
        assert "FORBIDDEN" == response.json()["code"]
        listed = client.get("/competitions", headers=headers).json()["items"]
        assert [public["id"], mine["id"]] == [c["id"] for c in listed]

    def test_list_shows_anonymous_only_public(self, client: Client, admin: dict[str, str]) -> None:
        public = create(client, admin, **CUTTLE)
        private = create(client, admin, **KOZEL, public_reads=False)
        assert [public["id"]] == [c["id"] for c in client.get("/competitions").json()["items"]]
        everything = client.get("/competitions", headers=admin).json()["items"]
        assert [private["id"], public["id"]] == [c["id"] for c in everything]

    def test_list_pages_with_link(self, client: Client, admin: dict[str, str]) -> None:
        ids = [create(client, admin, **{**CUTTLE, "name": f"C{i}"})["id"] for i in range(3)]
        first = client.get("/competitions?limit=2")
        assert ids[:0:-1] == [c["id"] for c in first.json()["items"]]
        link = first.headers["link"]
        second = client.get(link[1 : link.index(">")])
        assert [ids[0]] == [c["id"] for c in second.json()["items"]]
        assert "link" not in second.headers
        assert second.json()["next_cursor"] is None


class TestCompetitionRefusals(SharedDatabase):
    """Requests about competitions that are refused, on a shared database."""

    @pytest.mark.parametrize(
        ("fields", "field"),
        [
            ({**CUTTLE, "variant": "default"}, "variant"),
            ({"name": "x", "game": "cuttle"}, "variant"),
            ({**KOZEL, "variant": "classic"}, "variant"),
            ({**CUTTLE, "format": "best-of-4"}, "format"),
            ({**CUTTLE, "format": {"loss_limit": 6}}, "format"),
            ({**KOZEL, "format": "normal"}, "format"),
            ({**KOZEL, "format": {"loss_limit": 1}}, "format"),
            ({**KOZEL, "format": {"loss_limit": "12"}}, "format"),
            ({**KOZEL, "format": {"eggs": True}}, "format"),
            ({**CUTTLE, "tiebreaks": ["loss-point-difference"]}, "tiebreaks"),
            ({**KOZEL, "tiebreaks": ["round-difference"]}, "tiebreaks"),
            ({**CUTTLE, "tiebreaks": ["wins", "wins"]}, "tiebreaks"),
            ({**CUTTLE, "tiebreaks": ["coin-toss"]}, "tiebreaks.0"),
            ({**CUTTLE, "game": "chess"}, "game"),
            ({**CUTTLE, "name": ""}, "name"),
            ({**CUTTLE, "name": "\u200b\u200b"}, "name"),
            ({**CUTTLE, "name": "Spring \u202eneqo"}, "name"),
        ],
    )
    def test_invalid_field_is_named(
        self, client: Client, admin: dict[str, str], fields: dict[str, Any], field: str
    ) -> None:
        response = client.post("/competitions", json=fields, headers=admin)
        assert [field] == field_errors(response)

    def test_scorer_is_forbidden(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post("/competitions", json=CUTTLE, headers=scorer)
        assert 403 == response.status_code
        assert "FORBIDDEN" == response.json()["code"]

    def test_needs_token(self, client: Client) -> None:
        response = client.post("/competitions", json=CUTTLE)
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]

    def test_unknown_id_is_404(self, client: Client) -> None:
        response = client.get(f"/competitions/{uuid.uuid4()}")
        assert 404 == response.status_code
        assert "COMPETITION_NOT_FOUND" == response.json()["code"]

    def test_bad_token_is_refused_on_reads(self, client: Client) -> None:
        response = client.get("/competitions", headers={"Authorization": "Bearer mlt_nope"})
        assert 401 == response.status_code
