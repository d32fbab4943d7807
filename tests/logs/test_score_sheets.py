"""Score-sheet matches (Cuttle §27, Kozel R48) through both log formats: a hand-typed
text log imports, exports as JSONL that moves to an empty database byte for byte, and
exports back to the same text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.database import fresh_database
from tests.logs.support import cli, simulated

CUTTLE = """[Game "cuttle"]
[Variant "cutthroat"]
[Format "normal"]
[Dealing "scorer"]
[FirstDealer "0"]
[Recording "results"]
[P0 "Ann"]
[P1 "Bob"]
[P2 "Cy"]

1. result P1
2. result draw
takeback to round 0 move 1 "the draw was a win"
2. result P2 { Cy's last seven }
3. result draw
4. result P2
result P2
"""

KOZEL = """[Game "kozel"]
[Variant "default"]
[Options "12+eggs"]
[Dealing "scorer"]
[FirstDealer "1"]
[Recording "results"]
[S0 "Ann"]
[S1 "Bob"]
[S2 "Cy"]
[S3 "Di"]

1. deal 75 45
2. deal 60 60
3. deal 100 20
4. deal 30 90
5. deal 120 0 blank B
result S0 S2
"""


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("[")]


@pytest.mark.parametrize(("name", "typed"), [("cuttle", CUTTLE), ("kozel", KOZEL)])
def test_a_score_sheet_round_trips(
    database_url: str,
    admin_url: str,
    template_database: str,
    tmp_path: Path,
    name: str,
    typed: str,
) -> None:
    source = tmp_path / f"{name}.txt"
    source.write_text(typed)
    code, _, err = cli(database_url, "import", str(source))
    assert 0 == code, err
    code, exported, err = cli(database_url, "export", "--all")
    assert 0 == code, err
    header, *events = [json.loads(line) for line in exported.splitlines()]
    assert "results" == header["recording"]
    assert 2 == header["matchlog"], "recording came with format version 2 (#35)"
    types = [e["type"] for e in events]
    assert "ResultEntered" in types and "MatchEnded" == types[-1]
    assert "RoundStarted" not in types and "DealStarted" not in types
    (tmp_path / "m.jsonl").write_text(exported)
    with fresh_database(admin_url, template_database) as other:
        code, _, err = cli(other, "import", str(tmp_path / "m.jsonl"))
        assert 0 == code, err
        assert exported == cli(other, "export", "--all")[1]
    code, as_text, err = cli(database_url, "export", "--all", "--format", "text")
    assert 0 == code, err
    assert '[Recording "results"]' in as_text.splitlines()
    assert _body(typed) == _body(as_text)


def test_the_kozel_sheet_is_scored_as_played_deals(database_url: str, tmp_path: Path) -> None:
    source = tmp_path / "kozel.txt"
    source.write_text(KOZEL)
    assert 0 == cli(database_url, "import", str(source))[0]
    exported = cli(database_url, "export", "--all")[1]
    scored = [json.loads(line) for line in exported.splitlines()[1:]]
    deals = [e["data"] for e in scored if e["type"] == "DealScored"]
    # B 2 (45); eggs; B 4 (20) doubled to 8; A 4 (30, R24's "30 or fewer"); B 6 (blank):
    # B reaches 16 with A at 4.
    assert [2, 0, 8, 4, 6] == [d["loss_points"] for d in deals]
    assert [4, 16] == deals[-1]["totals"]


def test_a_result_in_a_log_of_moves_is_refused(database_url: str, tmp_path: Path) -> None:
    typed = CUTTLE.replace('[Recording "results"]\n', "")
    source = tmp_path / "moves.txt"
    source.write_text(typed)
    code, _, err = cli(database_url, "import", str(source))
    assert 0 != code
    assert "WRONG_RECORDING" in err


class TestFormatVersions:
    """The header's format version says which fields it may hold (#35)."""

    def test_a_log_of_moves_stays_version_1(self, database_url: str, tmp_path: Path) -> None:
        """An older matchlog still reads a match that needs nothing version 2 added."""
        source = tmp_path / "moves.jsonl"
        simulated(source, "cuttle", "standard", matches=1)
        assert 0 == cli(database_url, "import", str(source))[0]
        exported = cli(database_url, "export", "--all")[1]
        assert exported.startswith('{"matchlog":1,"match":')
        assert "recording" not in exported.splitlines()[0]

    def test_a_version_1_score_sheet_still_imports(
        self, database_url: str, admin_url: str, template_database: str, tmp_path: Path
    ) -> None:
        """Logs written before version 2 carried ``recording`` under version 1: still read."""
        source = tmp_path / "sheet.txt"
        source.write_text(CUTTLE)
        assert 0 == cli(database_url, "import", str(source))[0]
        exported = cli(database_url, "export", "--all")[1]
        old = exported.replace('{"matchlog":2,', '{"matchlog":1,', 1)
        assert old != exported
        (tmp_path / "old.jsonl").write_text(old)
        with fresh_database(admin_url, template_database) as other:
            code, _, err = cli(other, "import", str(tmp_path / "old.jsonl"))
            assert 0 == code, err
            assert err.strip().splitlines()[-1].startswith("1 match imported (")
            assert exported == cli(other, "export", "--all")[1]

    @pytest.mark.parametrize(
        ("version", "says"),
        [
            (
                "3",
                "format version 3 is newer than this matchlog reads (1 to 2): import it with a "
                "newer matchlog",
            ),
            ('"2"', "format version '2' is not one matchlog writes (1 to 2)"),
            ("0", "format version 0 is not one matchlog writes (1 to 2)"),
        ],
    )
    def test_a_version_it_cannot_read_is_one_line(
        self, database_url: str, tmp_path: Path, version: str, says: str
    ) -> None:
        source = tmp_path / "sheet.txt"
        source.write_text(CUTTLE)
        assert 0 == cli(database_url, "import", str(source))[0]
        exported = cli(database_url, "export", "--all")[1]
        newer = tmp_path / "newer.jsonl"
        newer.write_text(exported.replace('{"matchlog":2,', '{"matchlog":' + version + ",", 1))
        code, _, err = cli(database_url, "import", str(newer))
        assert 1 == code
        assert [f"{newer}:1: FORMAT_VERSION {says}"] == [
            line for line in err.splitlines() if "FORMAT_VERSION" in line or "Traceback" in line
        ]
