"""The log commands end to end: inputs, replay, verify, simulate, help."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import psycopg
import pytest

from cli.replay import render, step_through
from cli.simulate import simulated_lines
from domain.events import Event
from service.replay import Ply, plies
from tests.logs.support import cli, simulated

DATA = Path(__file__).parent / "data"


def match_id(line: str) -> str:
    return str(json.loads(line)["match"])


class TestInputs:
    def test_stdin(self, database_url: str, tmp_path: Path) -> None:
        body = simulated(tmp_path / "in.jsonl", "cuttle", "standard", matches=1)
        code, _, err = cli(database_url, "import", "-", input=body)
        assert 0 == code, err
        assert "1 match imported" in err

    def test_gzip_is_recognised_by_content(self, database_url: str, tmp_path: Path) -> None:
        body = simulated(tmp_path / "in.jsonl", "kozel", "default", matches=2)
        packed = tmp_path / "packed.data"
        packed.write_bytes(gzip.compress(body.encode()))
        code, _, err = cli(database_url, "import", str(packed))
        assert 0 == code, err
        assert "2 matches imported" in err

    def test_folder_mixes_both_formats(self, database_url: str, tmp_path: Path) -> None:
        folder = tmp_path / "logs"
        folder.mkdir()
        simulated(folder / "a.jsonl", "cuttle", "classic", matches=1)
        (folder / "b.txt").write_text((DATA / "kozel_by_hand.txt").read_text())
        (folder / "notes.md").write_text("not a log")
        code, _, err = cli(database_url, "import", str(folder))
        assert 0 == code, err
        assert "2 matches imported" in err

    def test_missing_file_is_one_line(self, database_url: str, tmp_path: Path) -> None:
        code, _, err = cli(database_url, "import", str(tmp_path / "nope.jsonl"))
        assert 1 == code
        assert f"{tmp_path / 'nope.jsonl'}:0: UNREADABLE " in err
        assert "Traceback" not in err


class TestExport:
    def test_one_match_to_a_gzip_file(self, database_url: str, tmp_path: Path) -> None:
        body = simulated(tmp_path / "in.jsonl", "cuttle", "standard", matches=2)
        assert 0 == cli(database_url, "import", str(tmp_path / "in.jsonl"))[0]
        second = body.splitlines()
        starts = [i for i, line in enumerate(second) if line.startswith('{"matchlog"')]
        wanted = "".join(line + "\n" for line in second[starts[1] :])
        out = tmp_path / "one.jsonl.gz"
        code, _, err = cli(database_url, "export", match_id(second[starts[1]]), "--out", str(out))
        assert 0 == code, err
        assert wanted == gzip.decompress(out.read_bytes()).decode()

    def test_unknown_match_is_one_line(self, database_url: str) -> None:
        code, _, err = cli(database_url, "export", "00000000-0000-4000-8000-000000000000")
        assert 1 == code
        assert "error: MATCH_NOT_FOUND:" in err

    def test_needs_exactly_one_choice(self, database_url: str) -> None:
        assert 2 == cli(database_url, "export")[0]


class TestSimulate:
    def test_same_seed_same_bytes(self, database_url: str, tmp_path: Path) -> None:
        args = ["simulate", "--game", "kozel", "--matches", "2", "--seed", "9", "--loss-limit", "2"]
        first = cli(database_url, *args, "--out", str(tmp_path / "a.jsonl"))
        second = cli(database_url, *args, "--out", str(tmp_path / "b.jsonl"))
        assert 0 == first[0] == second[0]
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()

    def test_unknown_variant_is_refused(self, database_url: str) -> None:
        code, _, err = cli(database_url, "simulate", "--game", "cuttle", "--variant", "poker")
        assert 1 == code
        assert "error: INVALID_FORMAT:" in err


class TestVerify:
    def test_intact_chains(self, database_url: str, tmp_path: Path) -> None:
        simulated(tmp_path / "in.jsonl", "cuttle", "standard", matches=1)
        cli(database_url, "import", str(tmp_path / "in.jsonl"))
        code, out, _ = cli(database_url, "verify")
        assert 0 == code
        assert re.search(r"\d+ events verified", out)

    def test_broken_chain_names_the_first_broken_link(
        self, database_url: str, owner_url: str, tmp_path: Path
    ) -> None:
        body = simulated(tmp_path / "in.jsonl", "cuttle", "standard", matches=1)
        cli(database_url, "import", str(tmp_path / "in.jsonl"))
        stream = "cuttle-" + match_id(body.splitlines()[0])
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
            conn.execute(
                'UPDATE events SET data = \'{"move": "P0 draw"}\' '
                "WHERE stream = %s AND version = 3",
                (stream,),
            )
        code, out, _ = cli(database_url, "verify")
        assert 1 == code
        assert out.startswith(f"{stream} 3: hash does not match the event\n")


class TestReplay:
    @pytest.fixture(name="imported")
    def _imported(self, database_url: str) -> str:
        code, _, err = cli(database_url, "import", str(DATA / "kozel_by_hand.txt"))
        assert 0 == code, err
        with psycopg.connect(database_url) as conn:
            row = conn.execute("SELECT stream FROM events WHERE version = 1").fetchone()
        assert row is not None
        return str(row[0])

    def test_ply_prints_the_public_view(self, database_url: str, imported: str) -> None:
        code, out, err = cli(database_url, "replay", imported, "--ply", "3")
        assert 0 == code, err
        lines = out.splitlines()
        assert "kozel default · ply 3/28" == lines[0]
        # The sentence writes cards as the table draws them; the log keeps "S3 beat QD".
        assert "last move: Di beats with Q♦" == lines[1]
        assert "view: public" in lines
        hands = re.findall(r"^  hand: (.*)$", out, re.MULTILINE)
        assert 4 == len(hands) and all(re.fullmatch(r"\d+ cards?", h) for h in hands), hands

    def test_ply_with_a_seat_shows_its_hand(self, database_url: str, imported: str) -> None:
        code, out, _ = cli(database_url, "replay", imported, "--ply", "0", "--seat", "1")
        assert 0 == code
        assert "view: seat 1 (Bob)" in out
        seat_1 = re.search(r"^S1 Bob · team B.*\n  hand: (.*)$", out, re.MULTILINE)
        assert seat_1 is not None, out
        assert re.fullmatch(r"(\w+[♠♥♦♣] ){3}\w+[♠♥♦♣]", seat_1.group(1))
        assert 3 == len(re.findall(r"^  hand: 4 cards$", out, re.MULTILINE))

    def test_last_ply_of_a_finished_match_shows_every_hand(
        self, database_url: str, imported: str
    ) -> None:
        code, out, _ = cli(database_url, "replay", imported, "--ply", "28", "--seat", "full")
        assert 0 == code
        assert "result: Ada, Cy won (goat)" in out
        assert "view: full (every hand)" in out
        assert 4 == len(re.findall(r"^  hand: -$", out, re.MULTILINE))  # all played out

    def test_ply_out_of_range_is_one_line(self, database_url: str, imported: str) -> None:
        code, _, err = cli(database_url, "replay", imported, "--ply", "99")
        assert 1 == code
        assert "error: MALFORMED: ply 99 is not in this match (0-28)\n" == err

    def test_without_a_terminal_the_last_ply_is_printed(
        self, database_url: str, imported: str
    ) -> None:
        code, out, _ = cli(database_url, "replay", imported)
        assert 0 == code
        assert out.startswith("kozel default · ply 28/28\nlast move: Di throws 8♦\n")

    def test_help_names_the_keys(self, database_url: str) -> None:
        code, out, _ = cli(database_url, "replay", "--help")
        assert 0 == code
        assert "--ply" in out and "j/k" in out


class TestStepThrough:
    @pytest.fixture(name="frames")
    def _frames(self) -> list[Ply]:
        lines = list(simulated_lines("cuttle", "standard", 1, 3, fmt="quick", options={}))
        return plies(Event(e["type"], e["data"]) for e in map(json.loads, lines[1:]))

    def test_keys_step_forward_back_and_quit(self, frames: list[Ply]) -> None:
        shown: list[str] = []
        last = step_through(frames, iter(["l", "l", "\x1b[C", "h", "q", "l"]), shown.append)
        assert 2 == last
        assert 5 == len(shown)
        assert shown[-1].startswith("cuttle standard · ply 2/")

    def test_cannot_step_outside_the_match(self, frames: list[Ply]) -> None:
        shown: list[str] = []
        assert 0 == step_through(frames, iter(["k", "k"]), shown.append)
        assert len(frames) - 1 == step_through(frames, iter(["G", "j", "j"]), shown.append)

    def test_render_matches_ply_output(self, frames: list[Ply]) -> None:
        shown: list[str] = []
        step_through(frames, iter(["j"]), shown.append)
        assert shown[-1].startswith(render(frames[1], len(frames) - 1, None))
