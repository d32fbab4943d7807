from __future__ import annotations

import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.conftest import SharedDatabase

Client = TestClient[Any]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


class TestTokensApi:
    def test_created_token_works_until_revoked(self, client: Client, admin: dict[str, str]) -> None:
        response = client.post("/tokens", json={"role": "scorer", "name": "tablet"}, headers=admin)
        assert 201 == response.status_code
        created = response.json()
        assert created["token"].startswith("mlt_")
        assert ("scorer", "tablet", None, None) == (
            created["role"],
            created["name"],
            created["competitions"],
            created["revoked_at"],
        )
        headers = bearer(created["token"])
        assert (
            201 == client.post("/players", json={"display_name": "A"}, headers=headers).status_code
        )
        revoked = client.delete(f"/tokens/{created['id']}", headers=admin)
        assert 200 == revoked.status_code
        assert revoked.json()["revoked_at"] is not None
        again = client.delete(f"/tokens/{created['id']}", headers=admin)
        assert revoked.json() == again.json()
        refused = client.post("/players", json={"display_name": "B"}, headers=headers)
        assert 401 == refused.status_code

    def test_listing_never_shows_secrets(self, client: Client, admin: dict[str, str]) -> None:
        created = client.post("/tokens", json={"role": "admin"}, headers=admin).json()
        listed = client.get("/tokens", headers=admin).json()
        assert 2 == len(listed)
        assert created["id"] == listed[0]["id"]
        assert all("token" not in t for t in listed)
        assert created["token"] not in client.get("/tokens", headers=admin).text
        one = client.get(f"/tokens/{created['id']}", headers=admin).json()
        assert {k: v for k, v in created.items() if k != "token"} == one

    def test_active_only_leaves_out_revoked(self, client: Client, admin: dict[str, str]) -> None:
        created = client.post("/tokens", json={"role": "scorer"}, headers=admin).json()
        client.delete(f"/tokens/{created['id']}", headers=admin)
        active = client.get("/tokens?active=true", headers=admin).json()
        assert created["id"] not in [t["id"] for t in active]

    def test_scoped_scorer_token(self, client: Client, admin: dict[str, str]) -> None:
        competition = client.post(
            "/competitions",
            json={"name": "Cup", "game": "kozel", "public_reads": False},
            headers=admin,
        ).json()
        created = client.post(
            "/tokens", json={"role": "scorer", "competitions": [competition["id"]]}, headers=admin
        ).json()
        assert [competition["id"]] == created["competitions"]
        headers = bearer(created["token"])
        assert 200 == client.get(f"/competitions/{competition['id']}", headers=headers).status_code

    def test_every_token_reads_its_own_record(self, client: Client, admin: dict[str, str]) -> None:
        competition = client.post(
            "/competitions", json={"name": "Own", "game": "kozel"}, headers=admin
        ).json()
        body = {"role": "scorer", "name": "table 3", "competitions": [competition["id"]]}
        created = client.post("/tokens", json=body, headers=admin).json()
        mine = client.get("/tokens/me", headers=bearer(created["token"]))
        assert 200 == mine.status_code, mine.text
        assert {k: v for k, v in created.items() if k != "token"} == mine.json()
        assert "admin" == client.get("/tokens/me", headers=admin).json()["role"]
        client.delete(f"/tokens/{created['id']}", headers=admin)
        revoked = client.get("/tokens/me", headers=bearer(created["token"]))
        assert (401, "UNAUTHENTICATED") == (revoked.status_code, revoked.json()["code"])


class TestTokenRefusals(SharedDatabase):
    """Requests that are refused or read nothing, on a shared database."""

    def test_unknown_competition_is_404(self, client: Client, admin: dict[str, str]) -> None:
        response = client.post(
            "/tokens", json={"role": "scorer", "competitions": [str(uuid.uuid4())]}, headers=admin
        )
        assert 404 == response.status_code
        assert "COMPETITION_NOT_FOUND" == response.json()["code"]

    def test_admin_with_competitions_is_invalid(
        self, client: Client, admin: dict[str, str]
    ) -> None:
        response = client.post(
            "/tokens", json={"role": "admin", "competitions": [str(uuid.uuid4())]}, headers=admin
        )
        assert 422 == response.status_code
        assert ["competitions"] == [e["field"] for e in response.json()["details"]["errors"]]

    @pytest.mark.parametrize("name", ["\u200b", "tablet\ufeff", "\u202etelbat"])
    def test_a_name_that_hides_or_shows_nothing_is_invalid(
        self, client: Client, admin: dict[str, str], name: str
    ) -> None:
        response = client.post("/tokens", json={"role": "scorer", "name": name}, headers=admin)
        assert 422 == response.status_code
        assert ["name"] == [e["field"] for e in response.json()["details"]["errors"]]

    def test_unknown_role_is_invalid(self, client: Client, admin: dict[str, str]) -> None:
        response = client.post("/tokens", json={"role": "owner"}, headers=admin)
        assert ["role"] == [e["field"] for e in response.json()["details"]["errors"]]

    def test_scorer_may_not_manage_tokens(self, client: Client, scorer: dict[str, str]) -> None:
        for response in (
            client.get("/tokens", headers=scorer),
            client.post("/tokens", json={"role": "admin"}, headers=scorer),
            client.delete(f"/tokens/{uuid.uuid4()}", headers=scorer),
        ):
            assert 403 == response.status_code
            assert "FORBIDDEN" == response.json()["code"]

    def test_anonymous_may_not_list(self, client: Client) -> None:
        for response in (client.get("/tokens"), client.get("/tokens/me")):
            assert 401 == response.status_code
            assert "UNAUTHENTICATED" == response.json()["code"]

    def test_unknown_token_id_is_404(self, client: Client, admin: dict[str, str]) -> None:
        response = client.delete(f"/tokens/{uuid.uuid4()}", headers=admin)
        assert 404 == response.status_code
        assert "TOKEN_NOT_FOUND" == response.json()["code"]

    def test_public_read_with_bad_token_is_refused(self, client: Client) -> None:
        response = client.get("/players", headers=bearer("mlt_nope"))
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]

    def test_public_read_with_good_token_is_served(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        assert 200 == client.get("/players", headers=scorer).status_code

    def test_a_token_is_not_remembered_across_requests(
        self, client: Client, admin: dict[str, str]
    ) -> None:
        assert 200 == client.get("/tokens", headers=admin).status_code
        assert 401 == client.get("/tokens").status_code
