from __future__ import annotations

import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.conftest import SharedDatabase
from tests.recording.play import create_match

Client = TestClient[Any]


class TestCreatePlayer:
    def test_creates_with_server_id(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post("/players", json={"display_name": " Ada "}, headers=scorer)
        assert 201 == response.status_code
        body = response.json()
        assert "Ada" == body["display_name"]
        assert f"/players/{body['id']}" == response.headers["location"]
        record = client.get(f"/players/{body['id']}").json()
        assert body == {k: v for k, v in record.items() if k in body}
        assert ([], 0) == (record["matches"], record["results"]["played"])

    def test_same_id_and_content_is_idempotent(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        body = {"id": str(uuid.uuid4()), "display_name": "Ada"}
        first = client.post("/players", json=body, headers=scorer)
        again = client.post("/players", json=body, headers=scorer)
        assert (201, 200) == (first.status_code, again.status_code)
        assert first.json() == again.json()

    def test_same_id_other_content_conflicts(self, client: Client, scorer: dict[str, str]) -> None:
        player_id = str(uuid.uuid4())
        client.post("/players", json={"id": player_id, "display_name": "Ada"}, headers=scorer)
        response = client.post(
            "/players", json={"id": player_id, "display_name": "Bob"}, headers=scorer
        )
        assert 409 == response.status_code
        assert "ALREADY_EXISTS" == response.json()["code"]

    def test_admin_may_create(self, client: Client, admin: dict[str, str]) -> None:
        assert 201 == client.post("/players", json={"display_name": "A"}, headers=admin).status_code

    def test_a_name_is_stored_nfc(self, client: Client, scorer: dict[str, str]) -> None:
        """Zoë typed with a combining diaeresis is the Zoë typed in one character (#29)."""
        response = client.post("/players", json={"display_name": "Zoe\u0308"}, headers=scorer)
        assert (201, "Zo\u00eb") == (response.status_code, response.json()["display_name"])


class TestListPlayers:
    @pytest.mark.parametrize(("count", "pages_expected"), [(4, 2), (5, 3)])
    def test_pages_newest_first(
        self, client: Client, scorer: dict[str, str], count: int, pages_expected: int
    ) -> None:
        """A full last page has no link to an empty one."""
        names = [f"P{i}" for i in range(count)]
        for name in names:
            client.post("/players", json={"display_name": name}, headers=scorer)
        seen: list[str] = []
        url: str | None = "/players?limit=2"
        pages = 0
        while url:
            response = client.get(url)
            assert 200 == response.status_code
            body = response.json()
            seen += [p["display_name"] for p in body["items"]]
            link = response.headers.get("link")
            if body["next_cursor"] is None:
                assert link is None
                url = None
            else:
                assert link.endswith('rel="next"')
                url = link[1 : link.index(">")]
            pages += 1
        assert list(reversed(names)) == seen
        assert pages_expected == pages

    def test_empty_list(self, client: Client) -> None:
        assert {"items": [], "next_cursor": None} == client.get("/players").json()


class TestPlayerRefusals(SharedDatabase):
    """Requests about players that are refused, on a shared database."""

    def test_needs_token(self, client: Client) -> None:
        response = client.post("/players", json={"display_name": "Ada"})
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.headers["content-type"].startswith("application/problem+json")

    def test_unknown_token_is_refused(self, client: Client) -> None:
        response = client.post(
            "/players", json={"display_name": "Ada"}, headers={"Authorization": "Bearer mlt_x"}
        )
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]
        assert 'error="invalid_token"' in response.headers["www-authenticate"]

    def test_non_bearer_scheme_is_refused(self, client: Client) -> None:
        response = client.post(
            "/players", json={"display_name": "Ada"}, headers={"Authorization": "Basic eDp5"}
        )
        assert 401 == response.status_code
        assert "UNAUTHENTICATED" == response.json()["code"]

    def test_authentication_comes_before_validation(self, client: Client) -> None:
        assert 401 == client.post("/players", json={"display_name": ""}).status_code

    def test_blank_name_names_the_field(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post("/players", json={"display_name": "  "}, headers=scorer)
        assert 422 == response.status_code
        body = response.json()
        assert "VALIDATION_FAILED" == body["code"]
        assert ["display_name"] == [e["field"] for e in body["details"]["errors"]]

    @pytest.mark.parametrize("name", ["\u200b", "\u200b \u200d", "\u3164"])
    def test_a_name_that_shows_nothing_is_refused(
        self, client: Client, scorer: dict[str, str], name: str
    ) -> None:
        response = client.post("/players", json={"display_name": name}, headers=scorer)
        problem = response.json()
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert ["display_name"] == [e["field"] for e in problem["details"]["errors"]]

    def test_unknown_field_is_refused(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post("/players", json={"display_name": "A", "age": 3}, headers=scorer)
        assert 422 == response.status_code
        assert ["age"] == [e["field"] for e in response.json()["details"]["errors"]]

    def test_invalid_json_is_malformed(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post(
            "/players",
            content=b"{nope",
            headers={**scorer, "Content-Type": "application/json"},
        )
        assert 400 == response.status_code
        assert "MALFORMED" == response.json()["code"]

    def test_non_object_body_is_malformed(self, client: Client, scorer: dict[str, str]) -> None:
        response = client.post("/players", json=["Ada"], headers=scorer)
        assert 400 == response.status_code
        assert "MALFORMED" == response.json()["code"]

    def test_unknown_id_is_404(self, client: Client) -> None:
        response = client.get(f"/players/{uuid.uuid4()}")
        assert 404 == response.status_code
        assert "PLAYER_NOT_FOUND" == response.json()["code"]

    def test_malformed_id_matches_no_route(self, client: Client) -> None:
        response = client.get("/players/not-a-uuid")
        assert 404 == response.status_code
        assert "NOT_FOUND" == response.json()["code"]

    def test_limit_out_of_range(self, client: Client) -> None:
        response = client.get("/players?limit=0")
        assert 422 == response.status_code
        assert ["limit"] == [e["field"] for e in response.json()["details"]["errors"]]

    def test_bad_cursor(self, client: Client) -> None:
        response = client.get("/players?cursor=%%%")
        assert 422 == response.status_code
        assert ["cursor"] == [e["field"] for e in response.json()["details"]["errors"]]


class TestPlayerMatches:
    def test_pages_on_the_server_newest_first(self, client: Client, scorer: dict[str, str]) -> None:
        """Five matches two a page (#32): three pages by ``next_cursor`` and ``Link``,
        newest first, none twice and none left out; the record is the same on each page."""
        ada, bob, cy = (
            client.post("/players", json={"display_name": n}, headers=scorer).json()["id"]
            for n in ("Ada", "Bob", "Cy")
        )
        made = [
            create_match(client, scorer, {"game": "cuttle", "players": pair})["id"]
            for pair in [[ada, bob], [bob, ada], [ada, cy], [cy, bob], [ada, cy], [bob, ada]]
            if ada in pair
        ]
        seen: list[str] = []
        records: list[tuple[int, Any, Any]] = []
        url: str | None = f"/players/{ada}?limit=2"
        while url:
            response = client.get(url)
            assert 200 == response.status_code, response.text
            body = response.json()
            assert len(body["matches"]) <= 2
            seen += [m["id"] for m in body["matches"]]
            assert all(ada == m["players"][m["seat"]] for m in body["matches"])
            records.append((body["matches_total"], body["results"], body["opponents"]))
            link = response.headers.get("link")
            if body["next_cursor"] is None:
                assert link is None
                url = None
            else:
                assert link.endswith('rel="next"') and body["next_cursor"] in link
                url = f"/players/{ada}?limit=2&cursor={body['next_cursor']}"
        assert list(reversed(made)) == seen
        assert 3 == len(records) and {(5,)} == {r[:1] for r in records}
        assert all(r == records[0] for r in records)

    def test_a_cursor_not_made_by_the_api_names_cursor(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        ada = client.post("/players", json={"display_name": "Ada"}, headers=scorer).json()["id"]
        response = client.get(f"/players/{ada}?cursor=%%%")
        assert 422 == response.status_code
        assert ["cursor"] == [e["field"] for e in response.json()["details"]["errors"]]

    def test_the_page_is_described_in_the_openapi_document(self, client: Client) -> None:
        document = client.get("/schema/openapi.json").json()
        operation = document["paths"]["/players/{player_id}"]["get"]
        assert "cursor" in [p["name"] for p in operation["parameters"]]
        assert "link" in {h.lower() for h in operation["responses"]["200"].get("headers", {})}
        record = document["components"]["schemas"]["PlayerRecordOut"]["properties"]
        assert {"matches", "matches_total", "next_cursor"} <= set(record)


class TestPlayerRatings:
    def test_unknown_player_is_404(self, client: Client) -> None:
        response = client.get(f"/players/{uuid.uuid4()}/ratings")
        assert 404 == response.status_code
        assert "PLAYER_NOT_FOUND" == response.json()["code"]

    def test_a_player_without_matches_has_no_history(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        player = client.post("/players", json={"display_name": "Ada"}, headers=scorer).json()
        body = client.get(f"/players/{player['id']}/ratings").json()
        assert {"player_id": player["id"], "competitions": []} == body
        record = client.get(f"/players/{player['id']}").json()
        assert ([], []) == (record["opponents"], record["competitions"])

    def test_is_described_in_the_openapi_document(self, client: Client) -> None:
        document = client.get("/schema/openapi.json").json()
        operation = document["paths"]["/players/{player_id}/ratings"]["get"]
        assert "GetPlayerRatings" == operation["operationId"]
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["$ref"].endswith("/PlayerRatingsOut")
        record = document["components"]["schemas"]["PlayerRecordOut"]["properties"]
        assert {"opponents", "competitions"} <= set(record)
