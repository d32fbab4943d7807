"""A competition's stored row: checked when written, and a bad one never takes reads down."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from litestar.testing import TestClient
from psycopg.types.json import Jsonb

from domain.errors import DomainError
from store import accounts
from tests.logs.support import cli

DATA = Path(__file__).resolve().parents[1] / "logs" / "data"
COMPETITION = "3b7c1a52-3c3e-4a8e-9d62-8f1f0c3c2a11"


def kozel_log_in_competition(options: str) -> str:
    """The hand-typed Kozel match with these ``Options`` and a competition id."""
    typed = (DATA / "kozel_by_hand.txt").read_text()
    return typed.replace('[Options "2"]', f'[Options "{options}"]').replace(
        '[Dealing "scorer"]', f'[Dealing "scorer"]\n[CompetitionId "{COMPETITION}"]'
    )


def run_sql(url: str, sql: str, params: tuple[Any, ...]) -> None:
    """Run one statement straight on the database at ``url``."""

    async def main() -> None:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            await conn.execute(sql, params)

    asyncio.run(main())


class TestImportedKozelCompetition:
    def test_a_match_with_per_match_options_leaves_a_readable_competition(
        self, client: TestClient[Any], database_url: str, tmp_path: Path
    ) -> None:
        path = tmp_path / "k.txt"
        path.write_text(kozel_log_in_competition("2+open"))
        code, out, err = cli(database_url, "import", str(path))
        assert 0 == code, out + err

        listing = client.get("/competitions")
        assert 200 == listing.status_code, listing.text
        assert [COMPETITION] == [c["id"] for c in listing.json()["items"]]
        one = client.get(f"/competitions/{COMPETITION}")
        assert 200 == one.status_code, one.text
        # The competition keeps what a competition format holds; the match keeps the rest.
        assert {"loss_limit": 2, "eggs_double_next": False} == one.json()["format"]
        match = client.get("/matches", params={"competition": COMPETITION}).json()["items"][0]
        header = cli(database_url, "export", match["id"])[1].splitlines()[0]
        assert '"open_throws":true' in header


class TestWritesAreChecked:
    @pytest.mark.parametrize(
        ("game", "variant", "match_format"),
        [
            ("kozel", "default", {"loss_limit": 12, "open_throws": True}),
            ("kozel", "default", {"loss_limit": 1}),
            ("kozel", "default", "normal"),
            ("cuttle", "standard", {"loss_limit": 12}),
            ("cuttle", "standard", "best-of-4"),
            ("cuttle", "hearts", "normal"),
            ("chess", "default", None),
        ],
    )
    def test_the_store_refuses_a_competition_a_reader_could_not_read(
        self, database_url: str, game: str, variant: str, match_format: Any
    ) -> None:
        async def create() -> None:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                await accounts.create_competition(
                    conn, name="x", game=game, variant=variant, match_format=match_format
                )

        with pytest.raises(DomainError):
            asyncio.run(create())

    def test_the_store_keeps_a_format_canonical(self, database_url: str) -> None:
        async def create() -> Any:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                competition, _ = await accounts.create_competition(
                    conn, name="x", game="cuttle", variant="standard", match_format="best-of-3"
                )
            return competition.match_format

        assert "normal" == asyncio.run(create())


class TestABadStoredRow:
    @pytest.fixture(name="bad_id")
    def _bad_id(self, client: TestClient[Any], admin: dict[str, str], database_url: str) -> str:
        for name in ("before", "after"):
            body = {"name": name, "game": "kozel"}
            assert 201 == client.post("/competitions", json=body, headers=admin).status_code
        bad = "0d7e4c1a-1111-4222-8333-944455556666"
        # As an importer before the fix wrote it: match options in the competition format.
        run_sql(
            database_url,
            "INSERT INTO competitions (id, name, game, variant, match_format, tiebreaks)"
            " VALUES (%s, 'bad', 'kozel', 'default', %s, '{}')",
            (UUID(bad), Jsonb({"loss_limit": 12, "open_throws": True})),
        )
        assert (
            201
            == client.post(
                "/competitions", json={"name": "last", "game": "kozel"}, headers=admin
            ).status_code
        )
        return bad

    def test_the_listing_leaves_it_out_and_logs_one_line(
        self, client: TestClient[Any], bad_id: str, caplog: pytest.LogCaptureFixture
    ) -> None:
        with caplog.at_level(logging.WARNING, logger="store.accounts"):
            listing = client.get("/competitions")
        assert 200 == listing.status_code, listing.text
        assert ["last", "after", "before"] == [c["name"] for c in listing.json()["items"]]
        lines = [r.getMessage() for r in caplog.records if r.name == "store.accounts"]
        assert 1 == len(lines)
        assert bad_id in lines[0] and "open_throws" in lines[0]

    def test_pages_around_it_still_reach_every_good_row(
        self, client: TestClient[Any], bad_id: str
    ) -> None:
        names: list[str] = []
        params: dict[str, Any] = {"limit": 1}
        while True:
            page = client.get("/competitions", params=params)
            assert 200 == page.status_code, page.text
            names += [c["name"] for c in page.json()["items"]]
            if page.json()["next_cursor"] is None:
                break
            params["cursor"] = page.json()["next_cursor"]
        assert ["last", "after", "before"] == names

    def test_reading_it_alone_answers_a_clear_problem(
        self, client: TestClient[Any], bad_id: str
    ) -> None:
        answer = client.get(f"/competitions/{bad_id}")
        assert 409 == answer.status_code, answer.text
        assert "application/problem+json" == answer.headers["content-type"]
        assert "COMPETITION_UNREADABLE" == answer.json()["code"]
        assert "open_throws" in answer.json()["detail"]

    def test_the_documented_repair_makes_it_readable(
        self, client: TestClient[Any], bad_id: str, owner_url: str
    ) -> None:
        guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
        repair = guide.split("```sql\n", 1)[1].split("```", 1)[0]
        # The guide's repair is for the schema's owner: the service's role updates no row.
        run_sql(owner_url, repair, ())
        answer = client.get(f"/competitions/{bad_id}")
        assert 200 == answer.status_code, answer.text
        assert {"loss_limit": 12, "eggs_double_next": False} == answer.json()["format"]
        assert 4 == len(client.get("/competitions").json()["items"])
