"""Every command that takes a match, player, competition or token id takes a unique prefix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import psycopg
import pytest

from tests.cli.support import assert_fits, invoke

TWINS = ("abcd0000-0000-4000-8000-000000000001", "abcd0000-0000-4000-8000-000000000002")


@pytest.fixture(name="season")
def _season(database_url: str, tmp_path: Path) -> dict[str, str]:
    """Import a small Cuttle season; return its competition's and first match's ids."""
    log = tmp_path / "season.jsonl"
    args = ["--matches", "2", "--players", "3", "--competition", "Cup", "--out", str(log)]
    assert 0 == invoke(None, "simulate", "--game", "cuttle", "--format", "quick", *args).exit_code
    assert 0 == invoke(database_url, "import", str(log)).exit_code
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    with psycopg.connect(database_url) as conn:
        for n, twin in enumerate(TWINS):
            conn.execute("INSERT INTO players (id, display_name) VALUES (%s, %s)", (twin, f"T{n}"))
    return {"competition": first["competition"]["id"], "match": first["match"]}


def test_a_unique_prefix_names_the_match_competition_and_player(
    database_url: str, season: dict[str, str]
) -> None:
    match, competition = season["match"], season["competition"]
    for prefix in (match[:7], match[:7].upper(), f"cuttle-{match[:10]}"):
        replayed = invoke(database_url, "replay", prefix, "--ply", "0")
        assert (0, "cuttle standard · ply 0/") == (replayed.exit_code, replayed.stdout[:24])
    exported = invoke(database_url, "export", match[:6])
    assert 0 == exported.exit_code and match in exported.stdout.splitlines()[0]
    both = invoke(database_url, "export", "--competition", competition[:5])
    assert 2 == sum('"matchlog":1' in line for line in both.stdout.splitlines())
    listed = invoke(database_url, "matches", "--competition", competition[:5], "--format", "json")
    assert 2 == len(json.loads(listed.stdout))
    player = json.loads(listed.stdout)[0]["players"][0]
    assert 0 == invoke(database_url, "matches", "--player", player[:8]).exit_code


def test_an_ambiguous_prefix_lists_every_candidate_whole(
    database_url: str, season: dict[str, str]
) -> None:
    result = invoke(database_url, "matches", "--player", "abcd")
    assert 1 == result.exit_code
    assert [
        "error: AMBIGUOUS_ID: 'abcd' starts several player ids; type more of one:",
        f"  {TWINS[0]}  T0",
        f"  {TWINS[1]}  T1",
    ] == result.stderr.splitlines()
    assert_fits(result.stderr)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["replay", "0000"], "error: MATCH_NOT_FOUND: no match id starts with '0000'"),
        (["standings", "0000"], "error: COMPETITION_NOT_FOUND: no competition id starts with"),
        (["matches", "--player", "0000"], "error: PLAYER_NOT_FOUND: no player id starts with"),
        (["tokens", "revoke", "0000"], "error: TOKEN_NOT_FOUND: no token id starts with '0000'"),
        (["replay", "x1"], "error: MALFORMED: 'x1' is not a match id or the start of one"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_a_prefix_that_names_nothing_says_so(
    database_url: str, season: dict[str, str], args: list[str], says: str
) -> None:
    result = invoke(database_url, *args)
    assert 1 == result.exit_code
    assert result.stderr.startswith(says), result.stderr


def test_a_token_is_revoked_by_its_prefix(database_url: str) -> None:
    created = invoke(database_url, "tokens", "create", "--role", "admin", "--name", "ops")
    token = re.search(r"token ([0-9a-f-]{36})", created.stderr)
    assert token is not None, created.stderr
    revoked = invoke(database_url, "tokens", "revoke", token.group(1)[:6])
    assert (0, f"token {token.group(1)} revoked\n") == (revoked.exit_code, revoked.stdout)
