"""Exporting game logs over HTTP: the bytes of ``matchlog export``, under the read rules."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service import exporter
from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, finished_match, live_match
from tests.logs.support import cli
from tests.recording.conftest import _make_players  # noqa: F401

FORMATS = ["jsonl", "text"]


def cli_export(url: str, match_id: str, fmt: str) -> bytes:
    """What ``matchlog export MATCH -f FMT`` writes."""
    code, out, err = cli(url, "export", match_id, "-f", fmt)
    assert 0 == code, err
    return out.encode("utf-8")


def joined(url: str, match_ids: list[str], fmt: str) -> bytes:
    """The CLI's exports of these matches, one after another as a multi-match log."""
    logs = [cli_export(url, m, fmt) for m in match_ids]
    return (b"\n" if fmt == "text" else b"").join(logs)


class TestOneMatch:
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_the_body_is_what_matchlog_export_writes(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        database_url: str,
        fmt: str,
    ) -> None:
        match = finished_match(client, scorer, make_players(2))
        answer = client.get(f"/matches/{match['id']}/export", params={"format": fmt})
        assert 200 == answer.status_code, answer.text
        assert cli_export(database_url, match["id"], fmt) == answer.content
        assert "content-length" not in answer.headers, "the body is streamed"

    def test_accept_chooses_the_format(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        match = finished_match(client, scorer, make_players(2))
        url = f"/matches/{match['id']}/export"
        as_text = client.get(url, headers={"Accept": "text/plain"})
        assert as_text.headers["content-type"].startswith("text/plain")
        assert as_text.text.startswith('[Game "cuttle"]')
        as_lines = client.get(url, headers={"Accept": "application/x-ndjson"})
        assert "application/x-ndjson" == as_lines.headers["content-type"]
        assert as_lines.content == client.get(url).content
        assert as_lines.text.startswith('{"matchlog":1,')
        # The query wins over Accept.
        assert (
            as_lines.content
            == client.get(url, params={"format": "jsonl"}, headers={"Accept": "text/plain"}).content
        )

    def test_a_wrong_format_is_refused_naming_the_allowed_ones(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        match = finished_match(client, scorer, make_players(2))
        answer = client.get(f"/matches/{match['id']}/export", params={"format": "pgn"})
        assert 422 == answer.status_code
        assert "VALIDATION_FAILED" == answer.json()["code"]
        assert "jsonl" in answer.text and "text" in answer.text


class TestLiveMatch:
    def test_hidden_cards_reach_only_a_scorer_who_may_record_it(
        self,
        client: TestClient[Any],
        admin: dict[str, str],
        scorer: dict[str, str],
        make_players: Any,
        make_token: MakeToken,
        database_url: str,
    ) -> None:
        league, other = competition(client, admin), competition(client, admin)
        match = live_match(client, scorer, make_players(2), league)
        url = f"/matches/{match['id']}/export"

        anonymous = client.get(url)
        assert 401 == anonymous.status_code
        assert "UNAUTHENTICATED" == anonymous.json()["code"]
        elsewhere = make_token(Role.SCORER, [other])
        refused = client.get(url, headers={"Authorization": f"Bearer {elsewhere}"})
        assert 403 == refused.status_code
        assert "FORBIDDEN" == refused.json()["code"]

        expected = cli_export(database_url, match["id"], "jsonl")
        assert '"deck"' in expected.decode(), "the live log holds the dealt deck"
        for headers in (
            scorer,
            admin,
            {"Authorization": f"Bearer {make_token(Role.SCORER, [league])}"},
        ):
            allowed = client.get(url, headers=headers)
            assert 200 == allowed.status_code, allowed.text
            assert expected == allowed.content


class TestCompetition:
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_every_finished_match_oldest_first(
        self,
        client: TestClient[Any],
        admin: dict[str, str],
        scorer: dict[str, str],
        make_players: Any,
        database_url: str,
        fmt: str,
    ) -> None:
        players = make_players(2)
        league = competition(client, admin)
        first = finished_match(client, scorer, players, league, seed=1)
        finished_match(client, scorer, players, None, seed=2)  # outside the competition
        live_match(client, scorer, players, league, seed=3)
        last = finished_match(client, scorer, players, league, seed=4)

        answer = client.get(f"/competitions/{league}/export", params={"format": fmt})
        assert 200 == answer.status_code, answer.text
        assert joined(database_url, [first["id"], last["id"]], fmt) == answer.content

    def test_matches_are_looked_up_a_page_at_a_time(
        self,
        client: TestClient[Any],
        admin: dict[str, str],
        scorer: dict[str, str],
        make_players: Any,
        database_url: str,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        players = make_players(2)
        league = competition(client, admin)
        ids = [finished_match(client, scorer, players, league, seed=s)["id"] for s in range(3)]
        monkeypatch.setattr(exporter, "_PAGE", 1)
        answer = client.get(f"/competitions/{league}/export", params={"format": "text"})
        assert joined(database_url, ids, "text") == answer.content

    def test_a_competition_without_finished_matches_exports_nothing(
        self, client: TestClient[Any], admin: dict[str, str]
    ) -> None:
        answer = client.get(f"/competitions/{competition(client, admin)}/export")
        assert 200 == answer.status_code
        assert b"" == answer.content

    def test_a_private_competition_needs_rights(
        self,
        client: TestClient[Any],
        admin: dict[str, str],
        scorer: dict[str, str],
        make_players: Any,
        make_token: MakeToken,
        database_url: str,
    ) -> None:
        private, other = competition(client, admin, public=False), competition(client, admin)
        match = finished_match(client, scorer, make_players(2), private)
        url = f"/competitions/{private}/export"
        assert 401 == client.get(url).status_code
        elsewhere = {"Authorization": f"Bearer {make_token(Role.SCORER, [other])}"}
        assert 403 == client.get(url, headers=elsewhere).status_code
        assert 403 == client.get(f"/matches/{match['id']}/export", headers=elsewhere).status_code
        assert 401 == client.get(f"/matches/{match['id']}/export").status_code
        allowed = client.get(url, headers=admin)
        assert cli_export(database_url, match["id"], "jsonl") == allowed.content


class TestPlayer:
    def test_the_finished_matches_the_reader_may_read(
        self,
        client: TestClient[Any],
        admin: dict[str, str],
        scorer: dict[str, str],
        make_players: Any,
        make_token: MakeToken,
        database_url: str,
    ) -> None:
        ann, bob, cat = make_players(3)
        public, private = competition(client, admin), competition(client, admin, public=False)
        in_public = finished_match(client, scorer, [ann, bob], public, seed=1)
        in_private = finished_match(client, scorer, [bob, ann], private, seed=2)
        live_match(client, scorer, [ann, bob], None, seed=3)
        finished_match(client, scorer, [bob, cat], None, seed=4)  # without ann
        outside = finished_match(client, scorer, [cat, ann], None, seed=5)
        url = f"/players/{ann}/export"

        anonymous = client.get(url, params={"format": "text"})
        assert 200 == anonymous.status_code, anonymous.text
        assert joined(database_url, [in_public["id"], outside["id"]], "text") == (anonymous.content)
        elsewhere = {"Authorization": f"Bearer {make_token(Role.SCORER, [public])}"}
        assert (
            anonymous.content
            == client.get(url, params={"format": "text"}, headers=elsewhere).content
        )
        every = [in_public["id"], in_private["id"], outside["id"]]
        assert joined(database_url, every, "jsonl") == client.get(url, headers=admin).content


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("matches", "MATCH_NOT_FOUND"),
        ("competitions", "COMPETITION_NOT_FOUND"),
        ("players", "PLAYER_NOT_FOUND"),
    ],
)
def test_an_unknown_id_is_not_found(client: TestClient[Any], kind: str, code: str) -> None:
    answer = client.get(f"/{kind}/00000000-0000-4000-8000-000000000000/export")
    assert 404 == answer.status_code
    assert code == answer.json()["code"]
