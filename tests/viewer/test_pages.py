"""The viewer's pages and assets as HTTP answers (no browser needed)."""

from __future__ import annotations

import uuid
from typing import Any

from litestar.testing import TestClient

from tests.api.conftest import _admin, _client, _scorer  # noqa: F401


class TestPages:
    def test_unknown_match_is_not_found(self, client: TestClient[Any]) -> None:
        response = client.get(f"/matches/{uuid.uuid4()}/view")
        assert 404 == response.status_code
        assert "MATCH_NOT_FOUND" == response.json()["code"]

    def test_unknown_competition_is_not_found(self, client: TestClient[Any]) -> None:
        response = client.get(f"/competitions/{uuid.uuid4()}/view")
        assert 404 == response.status_code
        assert "COMPETITION_NOT_FOUND" == response.json()["code"]

    def test_match_page_names_its_match_and_script(
        self, client: TestClient[Any], scorer: dict[str, str]
    ) -> None:
        players = [
            client.post("/players", json={"display_name": n}, headers=scorer).json()["id"]
            for n in ("Ann", "Bob")
        ]
        match = client.post(
            "/matches",
            json={"game": "cuttle", "variant": "standard", "players": players},
            headers=scorer,
        ).json()
        response = client.get(f"/matches/{match['id']}/view?ply=0")
        assert 200 == response.status_code
        assert response.headers["content-type"].startswith("text/html")
        assert f'data-id="{match["id"]}"' in response.text
        assert '<script src="/static/viewer.js">' in response.text

    def test_private_competition_needs_a_token(
        self, client: TestClient[Any], admin: dict[str, str], scorer: dict[str, str]
    ) -> None:
        """A private competition's pages are refused to anonymous readers, as its JSON is."""
        competition = client.post(
            "/competitions",
            json={"name": "Closed", "game": "cuttle", "variant": "standard", "public_reads": False},
            headers=admin,
        ).json()
        players = [
            client.post("/players", json={"display_name": n}, headers=scorer).json()["id"]
            for n in ("Ann", "Bob")
        ]
        match = client.post(
            "/matches",
            json={"game": "cuttle", "players": players, "competition_id": competition["id"]},
            headers=scorer,
        ).json()
        pages = [f"/competitions/{competition['id']}/view", f"/matches/{match['id']}/view"]
        assert [401, 401] == [client.get(url).status_code for url in pages]
        assert [200, 200] == [client.get(url, headers=scorer).status_code for url in pages]

    def test_assets_are_served(self, client: TestClient[Any]) -> None:
        script = client.get("/static/viewer.js")
        style = client.get("/static/viewer.css")
        assert (200, 200) == (script.status_code, style.status_code)
        assert "javascript" in script.headers["content-type"]
        assert style.headers["content-type"].startswith("text/css")

    def test_pages_stay_out_of_the_api_description(self, client: TestClient[Any]) -> None:
        paths = client.get("/schema/openapi.json").json()["paths"]
        assert [] == [p for p in paths if p.endswith("/view") or p.startswith("/static")]


class TestClubPages:
    def test_home_page_is_a_page_not_a_404(self, client: TestClient[Any]) -> None:
        """See #32: the README sends newcomers to the root."""
        response = client.get("/")
        assert 200 == response.status_code
        assert response.headers["content-type"].startswith("text/html")
        assert '<script src="/static/club.js">' in response.text

    def test_unknown_players_page_is_not_found(self, client: TestClient[Any]) -> None:
        response = client.get(f"/players/{uuid.uuid4()}/view")
        assert 404 == response.status_code
        assert "PLAYER_NOT_FOUND" == response.json()["code"]
