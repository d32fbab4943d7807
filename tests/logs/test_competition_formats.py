"""An import holds each match to its competition's format (see #29).

A match naming another loss limit or eggs rule than its competition's is refused like
any invalid match, listed with its line and reason; the rest are imported.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from uuid import UUID

import psycopg
import pytest

from store import accounts
from tests.logs.support import cli

DATA = Path(__file__).parent / "data"
COMPETITION = "6f1b6f0e-5d7a-4c1e-9a5b-2f3c4d5e6f70"


def in_competition(options: str, site: str) -> str:
    """The hand-typed Kozel match with these ``Options``, in ``COMPETITION``."""
    typed = (DATA / "kozel_by_hand.txt").read_text()
    return typed.replace(
        '[Options "2"]',
        f'[Options "{options}"]\n[CompetitionId "{COMPETITION}"]\n[Site "{site}"]',
    )


def matches_in(url: str) -> list[tuple[int, bool]]:
    """The loss limit and open throws of each recorded match of ``COMPETITION``."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT data->'options' FROM events WHERE type = 'MatchCreated'"
            " AND data->>'competition_id' = %s ORDER BY global_position",
            (COMPETITION,),
        ).fetchall()
    return [(row[0]["loss_limit"], row[0]["open_throws"]) for row in rows]


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_match_off_the_competitions_format_is_refused_and_the_rest_imported(
    database_url: str, tmp_path: Path, dry_run: bool
) -> None:
    path = tmp_path / "season.txt"
    logs = [in_competition("2", "a"), in_competition("2+open", "b"), in_competition("2+eggs", "c")]
    path.write_text("\n".join(logs))
    third = 1 + sum(log.count("\n") + 1 for log in logs[:2])
    code, _, err = cli(database_url, "import", *(["--dry-run"] if dry_run else []), str(path))
    assert 1 == code, err
    assert f"{path}:{third}: FORMAT_MISMATCH the competition's eggs_double_next is False" in err
    assert "1 refused" in err
    assert ([] if dry_run else [(2, False), (2, True)]) == matches_in(database_url)


def test_a_match_is_held_to_a_competition_already_there(database_url: str, tmp_path: Path) -> None:
    async def create() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await accounts.create_competition(
                conn,
                name="To six",
                game="kozel",
                variant="default",
                match_format={"loss_limit": 6},
                competition_id=UUID(COMPETITION),
            )

    asyncio.run(create())
    path = tmp_path / "one.txt"
    path.write_text(in_competition("2", "a"))
    code, _, err = cli(database_url, "import", str(path))
    assert 1 == code, err
    assert f"{path}:1: FORMAT_MISMATCH the competition's loss_limit is 6" in err
    assert [] == matches_in(database_url)
