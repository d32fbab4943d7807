"""Exporting game logs over HTTP: the bytes of ``matchlog export``, under the read rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from service import exporter
from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, finished_match, live_match
from tests.logs.support import cli
from tests.recording.conftest import _make_players  # noqa: F401

FORMATS = ["jsonl", "text"]


@dataclass(frozen=True)
class Club:
    """A club's service: the client, its tokens, a way to add players, and its database."""

    client: TestClient[Any]
    admin: dict[str, str]
    scorer: dict[str, str]
    players: Any
    token: MakeToken
    url: str

    def get(self, url: str, **kwargs: Any) -> Any:
        """GET ``url`` from the service."""
        return self.client.get(url, **kwargs)

    def competition(self, public: bool = True) -> str:
        """Create a Cuttle competition; return its id."""
        return competition(self.client, self.admin, public)

    def live(self, players: list[str], league: str | None = None, seed: int = 1) -> Any:
        """Record a live match with hidden cards."""
        return live_match(self.client, self.scorer, players, league, seed)

    def finished(self, players: list[str], league: str | None = None, seed: int = 1) -> Any:
        """Record a finished match."""
        return finished_match(self.client, self.scorer, players, league, seed)


@pytest.fixture(name="club")
def _club(
    client: TestClient[Any],
    admin: dict[str, str],
    scorer: dict[str, str],
    make_players: Any,
    make_token: MakeToken,
    database_url: str,
) -> Club:
    return Club(client, admin, scorer, make_players, make_token, database_url)


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
    def test_the_body_is_what_matchlog_export_writes(self, club: Club, fmt: str) -> None:
        match = club.finished(club.players(2))
        answer = club.get(f"/matches/{match['id']}/export", params={"format": fmt})
        assert 200 == answer.status_code, answer.text
        assert cli_export(club.url, match["id"], fmt) == answer.content
        assert "content-length" not in answer.headers, "the body is streamed"

    def test_accept_chooses_the_format(self, club: Club) -> None:
        match = club.finished(club.players(2))
        url = f"/matches/{match['id']}/export"
        as_text = club.get(url, headers={"Accept": "text/plain"})
        assert as_text.headers["content-type"].startswith("text/plain")
        assert as_text.text.startswith('[Game "cuttle"]')
        as_lines = club.get(url, headers={"Accept": "application/x-ndjson"})
        assert "application/x-ndjson" == as_lines.headers["content-type"]
        assert as_lines.content == club.get(url).content
        assert as_lines.text.startswith('{"matchlog":1,')
        # The query wins over Accept.
        assert (
            as_lines.content
            == club.get(url, params={"format": "jsonl"}, headers={"Accept": "text/plain"}).content
        )

    def test_a_wrong_format_is_refused_naming_the_allowed_ones(self, club: Club) -> None:
        match = club.finished(club.players(2))
        answer = club.get(f"/matches/{match['id']}/export", params={"format": "pgn"})
        assert 422 == answer.status_code
        assert "VALIDATION_FAILED" == answer.json()["code"]
        assert "jsonl" in answer.text and "text" in answer.text


class TestNoTokenIds:
    """No log names the token that recorded a match, whoever asks (#29)."""

    def recorded_token_ids(self, club: Club, match_id: str) -> int:
        with psycopg.connect(club.url) as conn:
            row = conn.execute(
                "SELECT count(*) FROM events WHERE stream = %s AND metadata ? 'token_id'",
                (f"cuttle-{match_id}",),
            ).fetchone()
        assert row is not None
        return int(row[0])

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_an_anonymous_export_of_a_public_match_names_no_token(
        self, club: Club, fmt: str
    ) -> None:
        league = club.competition()
        match = club.finished(club.players(2), league)
        assert self.recorded_token_ids(club, match["id"]) > 0, "the log itself keeps them"
        for url in (f"/matches/{match['id']}/export", f"/competitions/{league}/export"):
            answer = club.get(url, params={"format": fmt})
            assert 200 == answer.status_code, answer.text
            assert b"token_id" not in answer.content
            assert cli_export(club.url, match["id"], fmt) == answer.content

    def test_a_scorer_with_rights_gets_no_token_id_either(self, club: Club) -> None:
        match = club.finished(club.players(2))
        answer = club.get(f"/matches/{match['id']}/export", headers=club.scorer)
        assert 200 == answer.status_code, answer.text
        assert b"token_id" not in answer.content
        assert b'"metadata":{"role":"scorer"}' in answer.content

    def test_the_events_list_shows_them_only_to_readers_with_rights(self, club: Club) -> None:
        """As docs/recording.md says: a scorer who may record the match, or an admin."""
        league, other = club.competition(), club.competition()
        match = club.finished(club.players(2), league)
        url = f"/matches/{match['id']}/events"
        mine = {"Authorization": f"Bearer {club.token(Role.SCORER, [league])}"}
        elsewhere = {"Authorization": f"Bearer {club.token(Role.SCORER, [other])}"}
        for headers, shown in (
            ({}, False),
            (elsewhere, False),
            (mine, True),
            (club.admin, True),
        ):
            events = club.get(url, headers=headers).json()["items"]
            assert {shown} == {"token_id" in e["metadata"] for e in events}, headers
            assert {"scorer"} == {e["metadata"]["role"] for e in events}


class TestLiveMatch:
    def test_hidden_cards_reach_only_a_scorer_who_may_record_it(self, club: Club) -> None:
        league, other = club.competition(), club.competition()
        match = club.live(club.players(2), league)
        url = f"/matches/{match['id']}/export"

        anonymous = club.get(url)
        assert 401 == anonymous.status_code
        assert "UNAUTHENTICATED" == anonymous.json()["code"]
        elsewhere = club.token(Role.SCORER, [other])
        refused = club.get(url, headers={"Authorization": f"Bearer {elsewhere}"})
        assert 403 == refused.status_code
        assert "FORBIDDEN" == refused.json()["code"]

        expected = cli_export(club.url, match["id"], "jsonl")
        assert '"deck"' in expected.decode(), "the live log holds the dealt deck"
        for headers in (
            club.scorer,
            club.admin,
            {"Authorization": f"Bearer {club.token(Role.SCORER, [league])}"},
        ):
            allowed = club.get(url, headers=headers)
            assert 200 == allowed.status_code, allowed.text
            assert expected == allowed.content


class TestCompetition:
    @pytest.mark.parametrize("fmt", FORMATS)
    def test_every_finished_match_oldest_first(self, club: Club, fmt: str) -> None:
        players = club.players(2)
        league = club.competition()
        first = club.finished(players, league, seed=1)
        club.finished(players, None, seed=2)  # outside the competition
        club.live(players, league, seed=3)
        last = club.finished(players, league, seed=4)

        answer = club.get(f"/competitions/{league}/export", params={"format": fmt})
        assert 200 == answer.status_code, answer.text
        assert joined(club.url, [first["id"], last["id"]], fmt) == answer.content

    def test_matches_are_looked_up_a_page_at_a_time(
        self, club: Club, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        players = club.players(2)
        league = club.competition()
        ids = [club.finished(players, league, seed=s)["id"] for s in range(3)]
        monkeypatch.setattr(exporter, "_PAGE", 1)
        answer = club.get(f"/competitions/{league}/export", params={"format": "text"})
        assert joined(club.url, ids, "text") == answer.content

    def test_a_competition_without_finished_matches_exports_nothing(self, club: Club) -> None:
        answer = club.get(f"/competitions/{club.competition()}/export")
        assert 200 == answer.status_code
        assert b"" == answer.content

    def test_a_private_competition_needs_rights(self, club: Club) -> None:
        private, other = (
            club.competition(public=False),
            club.competition(),
        )
        match = club.finished(club.players(2), private)
        url = f"/competitions/{private}/export"
        assert 401 == club.get(url).status_code
        elsewhere = {"Authorization": f"Bearer {club.token(Role.SCORER, [other])}"}
        assert 403 == club.get(url, headers=elsewhere).status_code
        assert 403 == club.get(f"/matches/{match['id']}/export", headers=elsewhere).status_code
        assert 401 == club.get(f"/matches/{match['id']}/export").status_code
        allowed = club.get(url, headers=club.admin)
        assert cli_export(club.url, match["id"], "jsonl") == allowed.content


class TestPlayer:
    def test_the_finished_matches_the_reader_may_read(self, club: Club) -> None:
        ann, bob, cat = club.players(3)
        public, private = (
            club.competition(),
            club.competition(public=False),
        )
        in_public = club.finished([ann, bob], public, seed=1)
        in_private = club.finished([bob, ann], private, seed=2)
        club.live([ann, bob], None, seed=3)
        club.finished([bob, cat], None, seed=4)  # without ann
        outside = club.finished([cat, ann], None, seed=5)
        url = f"/players/{ann}/export"

        anonymous = club.get(url, params={"format": "text"})
        assert 200 == anonymous.status_code, anonymous.text
        assert joined(club.url, [in_public["id"], outside["id"]], "text") == (anonymous.content)
        elsewhere = {"Authorization": f"Bearer {club.token(Role.SCORER, [public])}"}
        assert (
            anonymous.content == club.get(url, params={"format": "text"}, headers=elsewhere).content
        )
        every = [in_public["id"], in_private["id"], outside["id"]]
        assert joined(club.url, every, "jsonl") == club.get(url, headers=club.admin).content


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
