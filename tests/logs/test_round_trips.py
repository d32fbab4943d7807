"""Round trips of both log formats through an empty database, for every variant."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.logs.support import VARIANTS, cli, simulated


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
