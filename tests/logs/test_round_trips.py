"""Round trips of both log formats through an empty database, for every variant."""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path

import pytest
from psycopg_pool import AsyncConnectionPool

from domain.stream import CreateMatch, MatchConfig, Play, StartRound
from projections.matches import project_match_summary
from service.imports import BATCH_MATCHES
from store.accounts import create_player
from store.recorder import Recorder, shuffled_deal
from tests.database import fresh_database
from tests.logs.support import VARIANTS, cli, simulated

DATA = Path(__file__).parent / "data"


class TestCanonicalRoundTrip:
    @pytest.mark.parametrize(("game", "variant"), VARIANTS)
    def test_export_of_an_import_is_the_same_bytes(
        self, database_url: str, tmp_path: Path, game: str, variant: str
    ) -> None:
        source = tmp_path / "in.jsonl"
        body = simulated(source, game, variant)
        code, _, err = cli(database_url, "import", str(source))
        assert 0 == code, err
        code, out, err = cli(database_url, "export", "--all")
        assert 0 == code, err
        assert body == out

    @pytest.mark.parametrize("jobs", ["1", "2"])
    @pytest.mark.parametrize("matches", [3 * BATCH_MATCHES + 5, 2 * BATCH_MATCHES + 1])
    def test_matches_are_recorded_in_the_order_read(
        self, database_url: str, tmp_path: Path, matches: int, jobs: str
    ) -> None:
        """Batches in flight (in one process or in workers) still record in input order,
        a short last batch too: export gives the file back."""
        source = tmp_path / "in.jsonl"
        body = simulated(source, "kozel", "default", matches=matches)
        code, _, err = cli(database_url, "import", "--jobs", jobs, str(source))
        assert 0 == code, err
        assert body == cli(database_url, "export", "--all")[1]

    def test_importing_twice_records_nothing_new(self, database_url: str, tmp_path: Path) -> None:
        source = tmp_path / "in.jsonl"
        simulated(source, "cuttle", "standard")
        assert 0 == cli(database_url, "import", str(source))[0]
        code, _, err = cli(database_url, "import", str(source))
        assert 0 == code
        assert "0 matches imported (0 events), 2 already recorded, 0 refused" in err


class TestTextRoundTrip:
    @pytest.mark.parametrize(("game", "variant"), VARIANTS)
    def test_text_export_reimports_to_the_same_events(
        self, database_url: str, tmp_path: Path, game: str, variant: str
    ) -> None:
        """Text carries no ids: importing it elsewhere gives the same types and data."""
        source = tmp_path / "in.jsonl"
        simulated(source, game, variant, matches=1)
        assert 0 == cli(database_url, "import", str(source))[0]
        code, as_text, err = cli(database_url, "export", "--all", "--format", "text")
        assert 0 == code, err
        (tmp_path / "m.txt").write_text(as_text)
        # Dropping the Match tag gives a new match id (from the fingerprint).
        stripped = _without_match_tag(as_text)
        (tmp_path / "fresh.txt").write_text(stripped)
        code, _, err = cli(database_url, "import", str(tmp_path / "fresh.txt"))
        assert 0 == code, err
        code, both, _ = cli(database_url, "export", "--all", "--format", "text")
        first, second = both.split("\n\n[Game", 1)
        assert _moves(first) == _moves("[Game" + second)

    def test_reimporting_the_same_text_is_recognised(
        self, database_url: str, tmp_path: Path
    ) -> None:
        source = tmp_path / "in.jsonl"
        simulated(source, "kozel", "default", matches=1)
        assert 0 == cli(database_url, "import", str(source))[0]
        _, as_text, _ = cli(database_url, "export", "--all", "--format", "text")
        stripped = _without_match_tag(as_text)
        (tmp_path / "m.txt").write_text(stripped)
        assert 0 == cli(database_url, "import", str(tmp_path / "m.txt"))[0]
        code, _, err = cli(database_url, "import", str(tmp_path / "m.txt"))
        assert 0 == code
        assert "0 matches imported (0 events), 1 already recorded, 0 refused" in err


def _moves(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("[") and line.strip()]


def _without_match_tag(text: str) -> str:
    return "".join(line for line in text.splitlines(True) if not line.startswith("[Match "))


class TestLosslessAcrossDatabases:
    def test_a_match_recorded_live_moves_to_an_empty_database_unchanged(
        self, database_url: str, admin_url: str, template_database: str, tmp_path: Path
    ) -> None:
        """Ids, the database's own times and the API's metadata survive export and import.

        All but the token ids, which no log carries (#29): export, import and export
        again still give the same bytes.
        """
        record_live_match(database_url)
        code, exported, err = cli(database_url, "export", "--all")
        assert 0 == code, err
        assert "token_id" not in exported
        assert '"metadata":{"request":"r-1","role":"scorer","token":"t-1"}' in exported
        (tmp_path / "m.jsonl").write_text(exported)
        with fresh_database(admin_url, template_database) as other:
            code, _, err = cli(other, "import", str(tmp_path / "m.jsonl"))
            assert 0 == code, err
            assert exported == cli(other, "export", "--all")[1]

    def test_a_competition_is_exported_alone(self, database_url: str, tmp_path: Path) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text()
        competition = "3b7c1a52-3c3e-4a8e-9d62-8f1f0c3c2a11"
        tagged = typed.replace(
            '[Dealing "scorer"]', f'[Dealing "scorer"]\n[CompetitionId "{competition}"]'
        )
        (tmp_path / "c.txt").write_text(tagged)
        (tmp_path / "plain.txt").write_text(typed)
        assert (
            0
            == cli(database_url, "import", str(tmp_path / "c.txt"), str(tmp_path / "plain.txt"))[0]
        )
        code, out, _ = cli(database_url, "export", "--competition", competition, "-f", "text")
        assert 0 == code
        assert 1 == out.count("[Game ")
        assert f'[CompetitionId "{competition}"]' in out


def record_live_match(url: str) -> None:
    """Record a short scorer-dealt Cuttle match through the recorder, as the API does."""

    async def main() -> None:
        async with AsyncConnectionPool(url, min_size=1, max_size=1, open=False) as pool:
            recorder = Recorder(pool, [project_match_summary])
            config = MatchConfig(
                "cuttle", "standard", (PLAYERS[0], PLAYERS[1]), 0, dealing="scorer", format="quick"
            )
            stream = "cuttle-" + str(uuid.uuid4())
            meta = {"token": "t-1", "request": "r-1", "role": "scorer", "token_id": TOKEN}
            await recorder.record(stream, [CreateMatch(config)], expected_version=0, metadata=meta)
            deal = shuffled_deal(config, random.Random(4))
            await recorder.record(stream, [StartRound(deal)], expected_version=1, metadata=meta)
            await recorder.record(stream, [Play("P1 draw")], expected_version=None)
            await recorder.record(
                stream, [Play("P0 resign")], expected_version=None, metadata={"x": [1, "é"]}
            )
            async with pool.connection() as conn:
                for pid, name in zip(PLAYERS, ("Ada", "Bob"), strict=True):
                    await create_player(conn, name, player_id=uuid.UUID(pid))

    asyncio.run(main())


TOKEN = "5f0c2a1e-8d3b-4c6a-9e7f-0a1b2c3d4e5f"
PLAYERS = ("0c8d1f3e-5b1a-4f6e-8a3b-1d2c3e4f5a6b", "7e6d5c4b-3a29-4187-9605-f4e3d2c1b0a9")
