"""Hardening: what an attacker or a clumsy client sends gets a 4xx, never a 5xx.

The routes and their fields come from the app's own OpenAPI document, so a new
route or field is covered without listing it here.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from litestar.serialization import encode_json
from litestar.testing import TestClient

from api.app import create_app
from api.inputs import MAX_DEPTH
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import SharedDatabase

Client = TestClient[Any]


def _document() -> dict[str, Any]:
    app = create_app(Settings(database_url="postgresql://unused"))
    document: dict[str, Any] = json.loads(encode_json(app.openapi_schema.to_schema()))
    return document


DOCUMENT = _document()
OPERATIONS = [
    (method.upper(), path, operation)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
    if method in ("get", "post", "put", "patch", "delete")
]
WRITES = [(m, p, op) for m, p, op in OPERATIONS if "requestBody" in op]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    resolved: dict[str, Any] = DOCUMENT["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return resolved


def _is_text(schema: dict[str, Any]) -> bool:
    schema = _resolve(schema)
    if schema.get("type") == "string":
        return "format" not in schema and "enum" not in schema and "const" not in schema
    return any(_is_text(s) for s in schema.get("oneOf", []) + schema.get("anyOf", []))


def _is_text_list(schema: dict[str, Any]) -> bool:
    schema = _resolve(schema)
    if schema.get("type") == "array":
        return _is_text(schema.get("items", {}))
    return any(_is_text_list(s) for s in schema.get("oneOf", []) + schema.get("anyOf", []))


def _url(path: str) -> str:
    """The path with every path parameter (ids as UUIDs, a round's number) filled in."""
    for name in ("match_id", "player_id", "competition_id", "token_id", "fixture_id", "entrant_id"):
        path = path.replace("{" + name + "}", str(uuid4()))
    return path.replace("{number}", "1")


def _example(operation: dict[str, Any]) -> dict[str, Any]:
    content = operation["requestBody"]["content"]["application/json"]
    example: dict[str, Any] = content["examples"]["example"]["value"]
    return example


TEXT_FIELDS = [
    pytest.param(method, path, operation, field, id=f"{operation['operationId']}.{field}")
    for method, path, operation in WRITES
    for field, schema in _resolve(
        operation["requestBody"]["content"]["application/json"]["schema"]
    )["properties"].items()
    if _is_text(schema) or _is_text_list(schema)
]
QUERY_PARAMETERS = [
    pytest.param(method, path, p["name"], id=f"{operation['operationId']}.{p['name']}")
    for method, path, operation in OPERATIONS
    for p in operation.get("parameters", [])
    if p["in"] == "query"
]
DECIDED = {("AddNote", "text"), ("TakeBack", "reason"), ("VoidMatch", "reason")}
"""Text fields that take tab and line ends, checked by the match's decider."""
PROSE = DECIDED | {
    ("WithdrawEntrant", "reason"),
    ("SwapEntrants", "reason"),
    ("TakeBackRound", "reason"),
}
"""Text fields that take tab and line ends (an organiser's reasons: checked by the schema)."""
WRITE_ROUTES = [pytest.param(m, p, id=op["operationId"]) for m, p, op in WRITES]
WRITE_OPERATIONS = [pytest.param(m, p, op, id=op["operationId"]) for m, p, op in WRITES]


def _refused_for(problem: dict[str, Any], field: str) -> bool:
    """Whether a validation problem names ``field`` (an example's other fields may fail too)."""
    if problem.get("code") != "VALIDATION_FAILED":
        return False
    return any(e["field"].startswith(field) for e in problem["details"]["errors"])


def _with_text(operation: dict[str, Any], field: str, text: str) -> dict[str, Any]:
    """The operation's example body with ``text`` in ``field`` (in a list, if it takes one)."""
    schema = _resolve(operation["requestBody"]["content"]["application/json"]["schema"])
    listed = not _is_text(schema["properties"][field])
    return {**_example(operation), field: [text] if listed else text}


class TestRefusedInput(SharedDatabase):
    """Every refusal here happens before anything is written: one shared database."""

    @pytest.mark.parametrize(("method", "path", "operation", "field"), TEXT_FIELDS)
    @pytest.mark.parametrize("character", ["\x00", "\x07", "\x1b", "\x7f"])
    def test_a_control_character_in_a_text_field_is_refused(
        self,
        client: Client,
        admin: dict[str, str],
        method: str,
        path: str,
        operation: dict[str, Any],
        field: str,
        character: str,
    ) -> None:
        body = _with_text(operation, field, f"a{character}b")
        response = client.request(method, _url(path), json=body, headers=admin)
        problem = response.json()
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert _refused_for(problem, field)

    @pytest.mark.parametrize(("method", "path", "operation", "field"), TEXT_FIELDS)
    def test_a_newline_is_refused_in_single_line_fields_only(
        self,
        client: Client,
        admin: dict[str, str],
        method: str,
        path: str,
        operation: dict[str, Any],
        field: str,
    ) -> None:
        body = _with_text(operation, field, "two\nlines\tand a tab")
        response = client.request(method, _url(path), json=body, headers=admin)
        prose = (operation["operationId"], field) in PROSE
        refused = response.status_code == 422 and _refused_for(response.json(), field)
        assert (not prose) == refused, response.text

    @pytest.mark.parametrize(("method", "path", "operation", "field"), TEXT_FIELDS)
    @pytest.mark.parametrize("character", ["\u202e", "\u2066", "\u0085", "\ufeff"])
    def test_a_character_that_hides_or_reorders_text_is_refused(
        self,
        client: Client,
        admin: dict[str, str],
        method: str,
        path: str,
        operation: dict[str, Any],
        field: str,
        character: str,
    ) -> None:
        """A bidi control, NEL or a BOM in any text field is refused (#29); a note or
        reason is checked by the match's decider, so on no match it is 404 first."""
        body = _with_text(operation, field, f"a{character}b")
        response = client.request(method, _url(path), json=body, headers=admin)
        problem = response.json()
        if (operation["operationId"], field) in DECIDED:
            assert 404 == response.status_code
            return
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert _refused_for(problem, field)

    def test_a_control_character_deep_in_a_body_is_refused(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        body = {"game": "kozel", "players": [str(uuid4())] * 4, "options": {"x": ["ok", "\x00"]}}
        response = client.post("/matches", json=body, headers=scorer)
        problem = response.json()
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert "options.x.1" == problem["details"]["errors"][0]["field"]

    def test_a_whole_number_json_cannot_carry_exactly_is_refused(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        options = {"loss_limit": 2**70}
        body = {"game": "kozel", "players": [str(uuid4())] * 4, "options": options}
        response = client.post("/matches", json=body, headers=scorer)
        problem = response.json()
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert "options.loss_limit" == problem["details"]["errors"][0]["field"]

    @pytest.mark.parametrize(("method", "path", "name"), QUERY_PARAMETERS)
    def test_nul_in_a_query_parameter_is_refused(
        self, client: Client, admin: dict[str, str], method: str, path: str, name: str
    ) -> None:
        url = _url(path)
        response = client.request(method, url, params={name: "a\x00b"}, headers=admin)
        problem = response.json()
        assert (422, "VALIDATION_FAILED") == (response.status_code, problem["code"])
        assert {"field": name, "source": "query"} == {
            k: problem["details"]["errors"][0][k] for k in ("field", "source")
        }

    def test_nul_in_a_query_parameter_name_is_refused(self, client: Client) -> None:
        response = client.get("/matches?%00=1")
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])

    @pytest.mark.parametrize(("method", "path"), WRITE_ROUTES)
    def test_a_thousand_levels_of_nesting_are_malformed(
        self, client: Client, admin: dict[str, str], method: str, path: str
    ) -> None:
        body = b'{"a": ' + b"[" * 1000 + b"]" * 1000 + b"}"
        headers = {**admin, "Content-Type": "application/json"}
        response = client.request(method, _url(path), content=body, headers=headers)
        assert (400, "MALFORMED") == (response.status_code, response.json()["code"])

    def test_nesting_up_to_the_limit_is_read(self, client: Client, scorer: dict[str, str]) -> None:
        options = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
        body = f'{{"game": "cuttle", "players": [], "options": {{"x": {options}}}}}'
        headers = {**scorer, "Content-Type": "application/json"}
        response = client.post("/matches", content=body.encode(), headers=headers)
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])

    @pytest.mark.parametrize(("method", "path"), WRITE_ROUTES)
    def test_a_body_that_is_not_utf8_is_malformed(
        self, client: Client, admin: dict[str, str], method: str, path: str
    ) -> None:
        headers = {**admin, "Content-Type": "application/json"}
        body = b'{"display_name": "\xff\xfe"}'
        response = client.request(method, _url(path), content=body, headers=headers)
        assert (400, "MALFORMED") == (response.status_code, response.json()["code"])

    @pytest.mark.parametrize(("method", "path", "operation"), WRITE_OPERATIONS)
    @pytest.mark.parametrize(
        "media_type",
        ["text/plain", "application/x-www-form-urlencoded", "application/xml", None],
    )
    def test_a_body_that_is_not_json_by_its_type_is_refused(
        self,
        client: Client,
        admin: dict[str, str],
        method: str,
        path: str,
        operation: dict[str, Any],
        media_type: str | None,
    ) -> None:
        """A body holding JSON but typed otherwise is 415, and the answer declares it (#29)."""
        headers = {**admin} if media_type is None else {**admin, "Content-Type": media_type}
        content = operation["requestBody"]["content"]["application/json"]
        example = content.get("examples", {}).get("example", {}).get("value", {})
        response = client.request(method, _url(path), content=json.dumps(example), headers=headers)
        problem = response.json()
        assert (415, "UNSUPPORTED_MEDIA_TYPE") == (response.status_code, problem["code"])
        assert "415" in operation["responses"]

    @pytest.mark.parametrize(
        "media_type", ["application/json; charset=utf-8", "application/merge-patch+json"]
    )
    def test_json_by_any_of_its_names_is_read(
        self, client: Client, scorer: dict[str, str], media_type: str
    ) -> None:
        headers = {**scorer, "Content-Type": media_type}
        body = json.dumps({"display_name": ["not a name"]}).encode()
        response = client.post("/players", content=body, headers=headers)
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])

    def test_a_write_without_a_body_needs_no_type(
        self, client: Client, admin: dict[str, str]
    ) -> None:
        response = client.delete(f"/tokens/{uuid4()}", headers=admin)
        assert (404, "TOKEN_NOT_FOUND") == (response.status_code, response.json()["code"])

    def test_authentication_comes_before_the_media_type(self, client: Client) -> None:
        response = client.post("/players", content=b"{}", headers={"Content-Type": "text/plain"})
        assert 401 == response.status_code

    def test_authentication_still_comes_before_the_body(self, client: Client) -> None:
        headers = {"Content-Type": "application/json"}
        response = client.post("/players", content=b"\xff" + b"[" * 1000, headers=headers)
        assert 401 == response.status_code

    @pytest.mark.parametrize(
        ("header", "value"),
        [
            ("Idempotency-Key", "key\x00"),
            ("If-Match", b'"\xb2"'),
            ("If-Match", "12abc"),
        ],
    )
    def test_a_bad_write_header_is_refused(
        self, client: Client, scorer: dict[str, str], header: str, value: str | bytes
    ) -> None:
        headers = {**scorer, header: value}
        body = _cuttle([str(uuid4()), str(uuid4())])
        response = client.post("/matches", json=body, headers=headers)
        if header == "If-Match":
            url = f"/matches/{uuid4()}/moves"
            response = client.post(url, json={"moves": ["P0 draw"]}, headers=headers)
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])

    def test_a_digit_that_is_not_ascii_is_no_event_position(self, client: Client) -> None:
        url = f"/matches/{uuid4()}/live"
        response = client.get(url, headers={"Last-Event-ID": b"\xb2"})
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])


class TestSecurityHeaders(SharedDatabase):
    @pytest.mark.parametrize(
        "url",
        ["/health", "/players", "/nope", "/static/viewer.js", "/schema/openapi.json"],
    )
    def test_every_answer_carries_them(self, client: Client, url: str) -> None:
        headers = client.get(url).headers
        assert {
            "x-content-type-options": "nosniff",
            "x-frame-options": "DENY",
        } == {k: headers.get(k) for k in ("x-content-type-options", "x-frame-options")}
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy
        assert "script-src 'self'" in policy
        assert "style-src 'self'" in policy


def _concurrently(calls: list[Any]) -> list[Any]:
    """Run the calls at once, each in its own thread, released together."""
    barrier = Barrier(len(calls))

    def run(call: Any) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture(name="players")
def _players(client: Client, scorer: dict[str, str]) -> list[str]:
    return [
        client.post("/players", json={"display_name": f"P{i}"}, headers=scorer).json()["id"]
        for i in range(2)
    ]


def _cuttle(players: list[str], **extra: Any) -> dict[str, Any]:
    return {"game": "cuttle", "variant": "standard", "players": players, **extra}


class TestIdempotencyRaces:
    def test_identical_creates_racing_record_one_match_and_answer_alike(
        self, client: Client, scorer: dict[str, str], players: list[str]
    ) -> None:
        headers = {**scorer, "Idempotency-Key": "create-once"}
        body = _cuttle(players, first_dealer=0)
        answers = _concurrently([lambda: client.post("/matches", json=body, headers=headers)] * 6)
        assert [201] * 6 == [a.status_code for a in answers]
        assert 1 == len({a.json()["id"] for a in answers})
        assert 1 == len(client.get("/matches", headers=scorer).json()["items"])

    def test_a_retry_racing_its_original_gets_its_answer(
        self, client: Client, scorer: dict[str, str], players: list[str]
    ) -> None:
        match = client.post("/matches", json=_cuttle(players), headers=scorer).json()
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        move = next(m for m in legal["moves"] if m.endswith("draw"))
        headers = {**scorer, "Idempotency-Key": "tap", "If-Match": f'"{match["version"]}"'}
        url = f"/matches/{match['id']}/moves"
        answers = _concurrently(
            [lambda: client.post(url, json={"moves": [move]}, headers=headers)] * 6
        )
        assert [200] * 6 == [a.status_code for a in answers]
        assert all(answers[0].json() == a.json() for a in answers)
        events = client.get(f"/matches/{match['id']}/events", headers=scorer).json()["items"]
        assert answers[0].json()["version"] == len(events)

    def test_different_requests_racing_with_one_key_get_one_answer_and_refusals(
        self, client: Client, scorer: dict[str, str], players: list[str]
    ) -> None:
        headers = {**scorer, "Idempotency-Key": "shared"}
        bodies = [_cuttle(players, first_dealer=i % 2) for i in range(6)]
        answers = _concurrently(
            [lambda b=b: client.post("/matches", json=b, headers=headers) for b in bodies]
        )
        codes = sorted((a.status_code, a.json().get("code")) for a in answers)
        created = [a for a in answers if a.status_code == 201]
        refused = [a for a in answers if a.status_code == 409]
        assert len(created) + len(refused) == 6, codes
        assert {"IDEMPOTENCY_KEY_REUSED"} >= {a.json()["code"] for a in refused}
        assert 1 == len({a.json()["id"] for a in created})
        assert 1 == len(client.get("/matches", headers=scorer).json()["items"])


class TestOnAMatch:
    def test_a_digit_that_is_not_ascii_is_no_seat(
        self, client: Client, scorer: dict[str, str], players: list[str]
    ) -> None:
        match = client.post("/matches", json=_cuttle(players), headers=scorer).json()
        url = f"/matches/{match['id']}/replay"
        response = client.get(url, params={"ply": 0, "seat": "²"})
        assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])


class TestLeaks:
    def test_a_taken_id_does_not_say_where_the_match_is(
        self, client: Client, admin: dict[str, str], make_token: Any, players: list[str]
    ) -> None:
        private, other = (
            client.post(
                "/competitions",
                json={"name": n, "game": "cuttle", "variant": "standard", "public_reads": False},
                headers=admin,
            ).json()["id"]
            for n in ("Private", "Other")
        )
        match_id = str(uuid4())
        client.post(
            "/matches", json=_cuttle(players, id=match_id, competition_id=private), headers=admin
        )
        outsider = {"Authorization": f"Bearer {make_token(Role.SCORER, [other])}"}
        response = client.post(
            "/matches", json=_cuttle(players, id=match_id, competition_id=other), headers=outsider
        )
        problem = response.json()
        assert (409, "ALREADY_EXISTS") == (response.status_code, problem["code"])
        assert {"id": match_id} == problem["details"]
        assert "version" not in response.text

    def test_readers_without_rights_see_no_token_ids(
        self, client: Client, scorer: dict[str, str], players: list[str]
    ) -> None:
        match = client.post("/matches", json=_cuttle(players), headers=scorer).json()
        base = f"/matches/{match['id']}"
        resign = {"seat": 0, "expected_version": match["version"]}
        resigned = client.post(f"{base}/resign", json=resign, headers=scorer)
        assert 200 == resigned.status_code, resigned.text
        version = resigned.json()["version"]
        note = {"version": 1, "text": "a ruling", "expected_version": version}
        assert 201 == client.post(f"{base}/notes", json=note, headers=scorer).status_code
        public_events = client.get(f"{base}/events").json()["items"]
        scorer_events = client.get(f"{base}/events", headers=scorer).json()["items"]
        public_timeline = client.get(f"{base}/timeline").json()
        scorer_timeline = client.get(f"{base}/timeline", headers=scorer).json()
        assert not any("token_id" in e["metadata"] for e in public_events)
        assert all("token_id" in e["metadata"] for e in scorer_events)
        assert {"role": "scorer"} == public_timeline["notes"][0]["by"]
        assert "token_id" in scorer_timeline["notes"][0]["by"]

    def test_health_does_not_say_why_the_database_is_unreachable(
        self, client: Client, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        pool = client.app.state.pool

        def refuse(*_: Any, **__: Any) -> Any:
            raise psycopg.OperationalError("connection to 10.1.2.3 failed for user 'secret'")

        monkeypatch.setattr(pool, "connection", refuse)
        response = client.get("/health")
        assert (503, {"status": "unavailable"}) == (response.status_code, response.json())
