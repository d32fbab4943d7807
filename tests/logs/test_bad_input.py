"""Bad canonical logs: each refused with file, line and code; never a partial match."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from tests.logs.support import cli, simulated


def stored_events(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture(name="lines")
def _lines(tmp_path: Path) -> list[str]:
    """The lines of one small simulated Kozel match."""
    return simulated(tmp_path / "good.jsonl", "kozel", "default", matches=1).splitlines()


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def refused(
    database_url: str, path: Path, lines: list[str] | None = None, *, jobs: str = "1"
) -> str:
    """Import ``path`` (written from ``lines`` if given); check it was refused whole."""
    if lines is not None:
        write(path, lines)
    code, _, err = cli(database_url, "import", "--jobs", jobs, str(path))
    assert 1 == code
    assert "Traceback" not in err
    assert 0 == stored_events(database_url)
    return err


def edit_event(lines: list[str], type_: str, change: Callable[[dict[str, Any]], None]) -> int:
    """Change the data of the first event of ``type_``; return its line number."""
    index = next(i for i, line in enumerate(lines) if f'"{type_}"' in line)
    event = json.loads(lines[index])
    change(event["data"])
    lines[index] = json.dumps(event)
    return index + 1


class TestRefusals:
    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_malformed_json(
        self, database_url: str, tmp_path: Path, lines: list[str], jobs: str
    ) -> None:
        lines[4] = lines[4][:-7]
        path = tmp_path / "bad.jsonl"
        assert f"{path}:5: MALFORMED_JSON " in refused(database_url, path, lines, jobs=jobs)

    def test_unknown_card(self, database_url: str, tmp_path: Path, lines: list[str]) -> None:
        line = edit_event(lines, "CardsLed", lambda data: data["cards"].__setitem__(0, "1Z"))
        path = tmp_path / "bad.jsonl"
        assert f"{path}:{line}: MALFORMED " in refused(database_url, path, lines)

    def test_illegal_move(self, database_url: str, tmp_path: Path, lines: list[str]) -> None:
        line = edit_event(
            lines, "CardsThrown", lambda data: data.__setitem__("seat", (data["seat"] + 1) % 4)
        )
        path = tmp_path / "bad.jsonl"
        assert f"{path}:{line}: NOT_YOUR_TURN " in refused(database_url, path, lines)

    def test_altered_derived_event(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        line = edit_event(
            lines, "TrickTaken", lambda data: data.__setitem__("points", data["points"] + 1)
        )
        path = tmp_path / "bad.jsonl"
        assert f"{path}:{line}: EVENT_MISMATCH " in refused(database_url, path, lines)

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_truncated_file(
        self, database_url: str, tmp_path: Path, lines: list[str], jobs: str
    ) -> None:
        path = tmp_path / "bad.jsonl"
        assert f"{path}:20: TRUNCATED " in refused(database_url, path, lines[:20], jobs=jobs)

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_truncated_gzip(
        self, database_url: str, tmp_path: Path, lines: list[str], jobs: str
    ) -> None:
        packed = gzip.compress("".join(line + "\n" for line in lines).encode())
        path = tmp_path / "bad.jsonl.gz"
        path.write_bytes(packed[: len(packed) // 2])
        err = refused(database_url, path, jobs=jobs)
        assert re.search(rf"^{re.escape(str(path))}:\d+: TRUNCATED ", err, re.M)

    def test_wrong_header(self, database_url: str, tmp_path: Path, lines: list[str]) -> None:
        header = json.loads(lines[0])
        header["players"][0]["id"] = header["players"][1]["id"]
        lines[0] = json.dumps(header)
        path = tmp_path / "bad.jsonl"
        assert f"{path}:1: HEADER_MISMATCH " in refused(database_url, path, lines)

    @pytest.mark.parametrize(
        "change",
        [
            lambda h: h["players"][0].__setitem__("name", "Ada\u202e"),
            lambda h: h["players"][1].__setitem__("name", "\u200b\u200b"),
            lambda h: h.__setitem__("competition", {"id": str(uuid4()), "name": "\ufeffSpring"}),
        ],
        ids=["bidi-override", "zero-width-only", "bom"],
    )
    def test_a_name_the_text_rule_refuses_is_a_header_error(
        self,
        database_url: str,
        tmp_path: Path,
        lines: list[str],
        change: Callable[[dict[str, Any]], None],
    ) -> None:
        """Names coming in by import obey the API's text rule (#29)."""
        header = json.loads(lines[0])
        change(header)
        lines[0] = json.dumps(header)
        path = tmp_path / "bad.jsonl"
        assert f"{path}:1: HEADER_INVALID " in refused(database_url, path, lines)

    def test_a_refused_match_leaves_no_competition_behind(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        competition = "6f1d2b9e-0c4a-4e43-9a57-3d2c8b1e4f60"
        header = json.loads(lines[0])
        header["competition"] = {"id": competition, "name": "Spring league"}
        lines[0] = json.dumps(header)
        edit_event(
            lines, "MatchCreated", lambda data: data.__setitem__("competition_id", competition)
        )
        line = edit_event(
            lines, "CardsThrown", lambda data: data.__setitem__("seat", (data["seat"] + 1) % 4)
        )
        path = tmp_path / "bad.jsonl"
        assert f"{path}:{line}: NOT_YOUR_TURN " in refused(database_url, path, lines)
        with psycopg.connect(database_url) as conn:
            assert [] == conn.execute("SELECT id FROM competitions").fetchall()

    def test_event_ids_of_another_match_are_refused(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        assert 0 == cli(database_url, "import", write(tmp_path / "first.jsonl", lines))[0]
        before = stored_events(database_url)
        header = json.loads(lines[0])
        header["match"] = "0b6c3e58-1f7d-4c2a-9e8b-5a4d3c2b1a09"
        lines[0] = json.dumps(header)
        path = write(tmp_path / "copy.jsonl", lines)
        code, _, err = cli(database_url, "import", path)
        assert 1 == code
        assert f"{path}:1: EVENT_ID_CONFLICT " in err
        assert before == stored_events(database_url)

    def test_missing_header(self, database_url: str, tmp_path: Path, lines: list[str]) -> None:
        path = tmp_path / "bad.jsonl"
        assert f"{path}:1: HEADER_MISSING " in refused(database_url, path, lines[1:])

    def test_header_without_events(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        path = tmp_path / "bad.jsonl"
        header = lines[0].replace(',"events":' + str(len(lines) - 1) + "}", ',"events":0}')
        assert f"{path}:1: EVENT_INVALID " in refused(database_url, path, [header])

    def test_unsupported_format_version(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        lines[0] = lines[0].replace('{"matchlog":1,', '{"matchlog":7,')
        path = tmp_path / "bad.jsonl"
        assert (
            f"{path}:1: FORMAT_VERSION format version 7 is newer than this matchlog reads "
            "(1 to 2): import it with a newer matchlog"
        ) in refused(database_url, path, lines)

    def test_binary_garbage(self, database_url: str, tmp_path: Path) -> None:
        path = tmp_path / "bad.jsonl"
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
        assert f"{path}:1: NOT_TEXT " in refused(database_url, path)

    def test_binary_garbage_inside_a_log(
        self, database_url: str, tmp_path: Path, lines: list[str]
    ) -> None:
        path = tmp_path / "bad.jsonl"
        body = "".join(line + "\n" for line in lines).encode()
        cut = body.index(b"\n", 300) + 1
        path.write_bytes(body[:cut] + b"\xff\xfe\x00garbage\n" + body[cut:])
        line = body[:cut].count(b"\n") + 1
        assert f"{path}:{line}: NOT_TEXT " in refused(database_url, path)

    def test_empty_file(self, database_url: str, tmp_path: Path) -> None:
        path = tmp_path / "empty.jsonl"
        path.write_text("")
        assert f"{path}:1: EMPTY_LOG " in refused(database_url, path)

    def test_blank_lines_only(self, database_url: str, tmp_path: Path) -> None:
        path = tmp_path / "blank.txt"
        path.write_text("\n  \n\n")
        assert f"{path}:1: EMPTY_LOG " in refused(database_url, path)


class TestKeepsGoing:
    def test_good_matches_around_a_bad_one_are_imported(
        self, database_url: str, tmp_path: Path
    ) -> None:
        body = simulated(tmp_path / "three.jsonl", "cuttle", "standard", matches=3)
        lines = body.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith('{"matchlog"')]
        bad = starts[1] + 3
        lines[bad] = "{not json"
        path = write(tmp_path / "three.jsonl", lines)
        code, _, err = cli(database_url, "import", path)
        assert 1 == code
        assert f"{path}:{bad + 1}: MALFORMED_JSON " in err
        assert "2 matches imported" in err
        assert "1 refused" in err
        assert len(lines) - (starts[2] - starts[1]) - 2 == stored_events(database_url)

    def test_a_match_the_database_refuses_leaves_its_batch_recorded(
        self, database_url: str, tmp_path: Path
    ) -> None:
        """The batch's transaction is refused, then its matches are recorded one by one."""
        body = simulated(tmp_path / "five.jsonl", "kozel", "default", matches=5)
        lines = body.splitlines()
        starts = [*(i for i, line in enumerate(lines) if line.startswith('{"matchlog"')), None]
        third = lines[starts[2] : starts[3]]
        # The third match's events, recorded first under another match id.
        header = json.loads(third[0])
        header["match"] = "0b6c3e58-1f7d-4c2a-9e8b-5a4d3c2b1a09"
        assert (
            0
            == cli(
                database_url,
                "import",
                write(tmp_path / "x.jsonl", [json.dumps(header), *third[1:]]),
            )[0]
        )
        path = write(tmp_path / "five.jsonl", lines)
        code, _, err = cli(database_url, "import", path)
        assert 1 == code
        assert [f"{path}:{starts[2] + 1}: EVENT_ID_CONFLICT"] == re.findall(
            r"^(\S+: [A-Z_]+) ", err, re.MULTILINE
        )
        assert "4 matches imported" in err
        # Four matches from the file, and the third's events under the other id.
        assert len(lines) - 5 == stored_events(database_url)

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_a_match_twice_in_one_file_is_recorded_once(
        self, database_url: str, tmp_path: Path, lines: list[str], jobs: str
    ) -> None:
        # Matches overlap in flight (two per process): the copy may be decided while
        # the first is still being written, and must still come out already recorded.
        path = write(tmp_path / "twice.jsonl", lines + lines)
        code, _, err = cli(database_url, "import", "--jobs", jobs, path)
        assert 0 == code, err
        assert "1 match imported" in err
        assert "1 already recorded, 0 refused" in err
        assert len(lines) - 1 == stored_events(database_url)

    def test_worker_processes_report_in_input_order(
        self, database_url: str, tmp_path: Path
    ) -> None:
        body = simulated(tmp_path / "four.jsonl", "kozel", "default", matches=4)
        lines = body.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith('{"matchlog"')]
        lines[starts[1] + 2] = "{not json"
        lines[starts[3] + 2] = "[]"
        path = write(tmp_path / "four.jsonl", lines)
        code, _, err = cli(database_url, "import", "--jobs", "2", path, path)
        assert 1 == code
        assert [
            f"{path}:{starts[1] + 3}: MALFORMED_JSON",
            f"{path}:{starts[3] + 3}: EVENT_INVALID",
        ] * 2 == re.findall(r"^(\S+: [A-Z_]+) ", err, re.MULTILINE)
        assert "2 matches imported" in err
        assert "2 already recorded, 4 refused" in err

    def test_dry_run_writes_nothing(self, database_url: str, tmp_path: Path) -> None:
        path = tmp_path / "in.jsonl"
        simulated(path, "cuttle", "cutthroat", matches=2)
        code, _, err = cli(database_url, "import", "--dry-run", str(path))
        assert 0 == code, err
        assert "2 matches valid" in err
        assert 0 == stored_events(database_url)
