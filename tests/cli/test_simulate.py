"""``matchlog simulate`` makes a season that ``import`` turns into standings."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.support import assert_fits, invoke

POOL = ("Ada", "Bell", "Cy", "Dora", "Emil")


def header(path: Path) -> dict[str, object]:
    """Return the first match's header line of a simulated log."""
    with path.open(encoding="utf-8") as lines:
        found: dict[str, object] = json.loads(next(lines))
    return found


class TestSeason:
    def test_a_simulated_season_imports_into_standings(
        self, database_url: str, tmp_path: Path
    ) -> None:
        log = tmp_path / "season.jsonl"
        args = ["--matches", "6", "--players", "5", "--competition", "Spring Cup"]
        made = invoke(database_url, "simulate", "--game", "kozel", *args, "--out", str(log))
        assert 0 == made.exit_code, made.output
        first = header(log)
        competition = first["competition"]
        assert isinstance(competition, dict) and "Spring Cup" == competition["name"]
        assert {p["name"] for p in first["players"]} <= set(POOL)  # type: ignore[attr-defined]
        assert f"competition {competition['id']} (Spring Cup)" in made.stderr
        imported = invoke(database_url, "import", str(log))
        assert 0 == imported.exit_code, imported.output
        assert f"competition {competition['id']}\n" == imported.stdout

        shown = invoke(database_url, "standings", str(competition["id"])[:6], "-f", "table")
        assert 0 == shown.exit_code, shown.output
        assert_fits(shown.stdout)
        assert shown.stdout.startswith("Spring Cup: 6 finished matches\n")
        players = shown.stdout.split("Pairs")[0]
        assert set(POOL) == set(re.findall(r"^\d+ +(\w+) ", players, re.MULTILINE))
        ratings = re.findall(r" (-?\d+\.\d+)$", players, re.MULTILINE)
        assert 5 == len(ratings) and all(re.fullmatch(r"-?\d+\.\d\d", r) for r in ratings)

    def test_defaults_are_the_apis(self, tmp_path: Path) -> None:
        for game, setting in (("cuttle", ("format", "normal")), ("kozel", ("options", 12))):
            log = tmp_path / f"{game}.jsonl"
            assert 0 == invoke(None, "simulate", "--game", game, "--out", str(log)).exit_code
            first = header(log)
            value = first[setting[0]]
            assert setting[1] == (value["loss_limit"] if isinstance(value, dict) else value)
            assert {"cuttle": "standard", "kozel": "default"}[game] == first["variant"]

    def test_a_pool_smaller_than_a_table_is_refused(self) -> None:
        result = invoke(None, "simulate", "--game", "kozel", "--players", "3")
        assert 1 == result.exit_code
        assert "a kozel default match seats 4: --players must be at least that" in result.stderr
