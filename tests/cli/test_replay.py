"""``matchlog replay`` on a real database: the plies follow takebacks, the table is drawn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from tests.cli.support import assert_fits, invoke
from tests.recording.play import create_match

Headers = dict[str, str]

DECK = (
    "KS KH KD KC JC QH JD 4C TH 8D QC JH 7C 5H TS 6S 4D 9S AS AD 3S 2S TC QS 8H 9D TD 2H AH "
    "9H 5C 7D 3D 6D 7S 2C 3H 5S 3C 8S 8C 2D QD 4S 6H 4H 7H 9C 5D 6C JS AC"
)
"""Every king on top: whichever way the deal goes, seat 1 holds one."""


def record(
    client: TestClient[Any], headers: Headers, match: dict[str, Any], path: str, body: Any
) -> dict[str, Any]:
    r = client.post(
        f"/matches/{match['id']}/{path}",
        json=body,
        headers={**headers, "If-Match": f'"{match["version"]}"'},
    )
    assert r.status_code in (200, 201), r.text
    answer: dict[str, Any] = r.json()["match"]
    return answer


def hand_counts(text: str) -> list[int]:
    """Return the hand sizes a public view prints (each seat's ``hand: N cards`` line)."""
    return [int(n) for n in re.findall(r"^  hand: (\d+) cards?$", text, re.MULTILINE)]


def dealt(client: TestClient[Any], scorer: Headers, make_players: Any) -> dict[str, Any]:
    """Return a new scorer-dealt quick Cuttle match between two players, its round dealt."""
    body = {
        "game": "cuttle",
        "players": make_players(2),
        "first_dealer": 0,
        "format": "quick",
        "dealing": "scorer",
    }
    match = create_match(client, scorer, body)
    return record(client, scorer, match, "rounds", {"deck": DECK})


class TestReplayAfterATakeback:
    def test_the_last_ply_shows_the_hands_the_match_has(
        self, client: TestClient[Any], scorer: Headers, make_players: Any, database_url: str
    ) -> None:
        """Draw, draw, draw, take back to version 4, play a king: hands of 7 and 5."""
        match = dealt(client, scorer, make_players)
        for seat in (1, 0, 1):
            match = record(client, scorer, match, "moves", {"moves": [f"P{seat} draw"]})
        match = record(client, scorer, match, "takeback", {"to_version": 4, "reason": "misdeal"})
        match = record(client, scorer, match, "moves", {"moves": ["P1 king KD"]})
        assert [7, 5] == [hand["count"] for hand in match["round"]["view"]["hands"]]

        result = CliRunner().invoke(
            app,
            ["replay", match["id"]],
            env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "80"},
        )
        assert 0 == result.exit_code, result.output
        assert result.stdout.startswith(
            "cuttle standard · ply 4/4\nlast move: Player 1 plays K♦ as a permanent\n"
        )
        assert [7, 5] == hand_counts(result.stdout)


class TestReplayTable:
    @pytest.fixture(name="live")
    def _live(self, client: TestClient[Any], scorer: Headers, make_players: Any) -> dict[str, Any]:
        match = dealt(client, scorer, make_players)
        return record(client, scorer, match, "moves", {"moves": ["P1 king KD", "P0 draw"]})

    def test_the_table_is_drawn_in_80_columns(
        self, live: dict[str, Any], database_url: str
    ) -> None:
        result = invoke(database_url, "replay", live["id"][:8], "--seat", "1")
        assert 0 == result.exit_code, result.output
        assert_fits(result.stdout)
        lines = result.stdout.splitlines()
        assert ["cuttle standard · ply 2/2", "last move: Player 0 draws a card"] == lines[:2]
        assert "view: seat 1 (Player 1)" in lines
        at = lines.index("P1 Player 1 · 0 of 14 points  ◀ to act")
        assert "  hand: 10♥ J♣ J♦ K♠" == lines[at + 1]
        assert "  royals: K♦" == lines[at + 3]
        assert "  hand: 7 cards" in lines  # seat 0's, unseen
        assert "deck: 40 cards" in lines  # 52, less hands of 6 and 5, less one drawn

    def test_the_full_view_is_refused_for_a_live_match(
        self, live: dict[str, Any], database_url: str
    ) -> None:
        result = invoke(database_url, "replay", live["id"], "--seat", "full")
        assert 1 == result.exit_code
        assert result.stderr.startswith(
            "error: MALFORMED: --seat full shows every hand, so only for a match that is over"
        )

    def test_a_seat_outside_the_match_is_refused(
        self, live: dict[str, Any], database_url: str
    ) -> None:
        result = invoke(database_url, "replay", live["id"], "--seat", "2")
        assert 1 == result.exit_code
        assert "error: MALFORMED: seat '2' is not a seat of this match (0-1) or full\n" == (
            result.stderr
        )


def test_the_full_view_of_a_finished_kozel_match_shows_its_face_down_throws(
    database_url: str, tmp_path: Any
) -> None:
    """R44: once a match is over its whole record is public, throws included."""
    log = tmp_path / "kozel.jsonl"
    made = invoke(None, "simulate", "--game", "kozel", "--loss-limit", "2", "--out", str(log))
    assert 0 == made.exit_code, made.output
    assert 0 == invoke(database_url, "import", "-q", str(log)).exit_code
    match = invoke(database_url, "matches", "--format", "json").stdout
    match_id = re.findall(r'"id": "([0-9a-f-]{36})"', match)[0]
    public = invoke(database_url, "replay", match_id, "--ply", "9")
    full = invoke(database_url, "replay", match_id, "--ply", "9", "--seat", "full")
    assert 0 == public.exit_code == full.exit_code, public.output + full.output
    assert re.search(r"tricks, \d+ face down", public.stdout), public.stdout
    assert not re.search(r"tricks, \d+ face down", full.stdout), full.stdout
    assert "face down " in full.stdout
    assert_fits(full.stdout)
