"""Notes, takebacks and voids typed in the text notation (#8), and their errors' lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.events import Event
from domain.logs.base import Lines, MatchBuilder, MatchLog
from domain.logs.commands import Replayed, replay, steps_from_moves, text_match_id
from domain.logs.text import read_match
from tests.logs.support import cli

DATA = Path(__file__).parent / "data"
CUTTLE = (DATA / "cuttle_by_hand.txt").read_text()
KOZEL = (DATA / "kozel_by_hand.txt").read_text()
# Bob first scores his ten, then the table takes it back and he plays the jack.
TAKEN_BACK = CUTTLE.replace(
    "1. P1 glasses 8H   2. P0 points 5H\n",
    "1. P1 glasses 8H   2. P0 points 5H\n"
    "3. P1 points TS { too quick }\n"
    'takeback to round 1 move 2 "Bob meant the {jack}, said \\"oops\\""\n',
)


def at_the_end(line: str) -> str:
    """The hand-typed Cuttle match, its last move (line 22) replaced by ``line``."""
    return CUTTLE.replace("15. P0 resign\nresult P1", line + "\nresult *")


def read(text: str) -> MatchLog:
    match = read_match(Lines(text.splitlines()), MatchBuilder())
    assert match is not None
    return match


def replayed(text: str) -> Replayed:
    match = read(text)
    assert [] == match.errors and match.header is not None
    return replay(steps_from_moves(match.header, match.moves, ["a", "b", "c", "d"][:2]))


def kozel_replayed(text: str) -> Replayed:
    match = read(text)
    assert [] == match.errors and match.header is not None
    return replay(steps_from_moves(match.header, match.moves, ["a", "b", "c", "d"]))


def notes(events: tuple[Event, ...]) -> list[tuple[str, str]]:
    """Each note's text and the type of the event it names."""
    return [
        (e.data["text"], events[e.data["version"] - 1].type)
        for e in events
        if e.type == "NoteAdded"
    ]


def noted(events: tuple[Event, ...], text: str) -> Event:
    """The event a note names."""
    (version,) = [
        e.data["version"] for e in events if e.type == "NoteAdded" and e.data["text"] == text
    ]
    return events[version - 1]


class TestComments:
    def test_comments_of_the_hand_typed_match_are_notes(self) -> None:
        """A comment alone on a line before the first round is on the match itself."""
        events = replayed(CUTTLE).events
        assert [
            ("Ada dealt; Bob holds five", "MatchCreated"),
            ("Bob steals the five", "MovePlayed"),
            ("the card Bob drew, read out by the scorer", "MovePlayed"),
        ] == notes(events)
        assert {"move": "P1 jack JD>5H"} == noted(events, "Bob steals the five").data
        assert {"move": "cards AD"} == noted(
            events, "the card Bob drew, read out by the scorer"
        ).data

    def test_comment_is_on_the_move_it_follows(self) -> None:
        text = CUTTLE.replace(
            "1. P1 glasses 8H   2. P0 points 5H",
            "{ first } 1. P1 glasses 8H {a} 2. P0 points 5H {b}",
        )
        events = replayed(text).events
        assert {"move": "P1 glasses 8H"} == noted(events, "first").data
        assert {"move": "P1 glasses 8H"} == noted(events, "a").data
        assert {"move": "P0 points 5H"} == noted(events, "b").data

    def test_comment_alone_on_a_line_is_on_the_line_above(self) -> None:
        events = kozel_replayed(KOZEL).events
        assert "CardsThrown" == noted(events, "Ada leads from here to the end").type
        assert {"seat": 2, "cards": ["6H"]} == noted(events, "Ada leads from here to the end").data

    def test_round_and_result_comments(self) -> None:
        """A round line's comment is on the round start; the result line's on the end."""
        text = KOZEL.replace("indicator-position 10", "indicator-position 10 { cut by Bob }")
        text = text.replace("result S0 S2", "result S0 S2 { signed }")
        events = kozel_replayed(text).events
        assert "DealStarted" == noted(events, "cut by Bob").type
        assert "MatchEnded" == noted(events, "signed").type

    def test_too_long_comment_is_refused_with_its_line(self) -> None:
        text = CUTTLE.replace("{ Bob steals the five }", "{ " + "x" * 501 + " }")
        result = replayed(text)
        assert result.error is not None
        assert (13, "NOTE_INVALID") == (result.error.line, result.error.code)

    def test_a_comment_with_a_bidi_override_is_refused_with_its_line(self) -> None:
        """The text rule of the API's notes holds for imported ones (#29)."""
        text = CUTTLE.replace("{ Bob steals the five }", "{ Bob steals the \u202eevif }")
        result = replayed(text)
        assert result.error is not None
        assert (13, "NOTE_INVALID") == (result.error.line, result.error.code)

    def test_empty_comment_is_no_note(self) -> None:
        result = replayed(CUTTLE.replace("{ Bob steals the five }", "{ }"))
        assert result.error is None
        assert "Bob steals the five" not in [text for text, _ in notes(result.events)]
        assert len(replayed(CUTTLE).events) - 1 == len(result.events)


class TestTakebacks:
    def test_takeback_line_undoes_the_moves_after_its_target(self) -> None:
        result = replayed(TAKEN_BACK)
        assert None is result.error
        (taken,) = [e for e in result.events if e.type == "TakenBack"]
        assert 'Bob meant the {jack}, said "oops"' == taken.data["reason"]
        assert "MovePlayed" == result.events[taken.data["to_version"] - 1].type
        assert {"move": "P0 points 5H"} == result.events[taken.data["to_version"] - 1].data
        assert "MovePlayed" == noted(result.events, "too quick").type
        assert result.state.result is not None and (1,) == result.state.result.winners

    def test_numbering_goes_on_from_the_target(self) -> None:
        """After ``takeback to round 1 move 2`` the next move is 3; anything else is reported."""
        assert [] == read(TAKEN_BACK).errors
        skipped = TAKEN_BACK.replace("3. P1 jack JD>5H", "5. P1 jack JD>5H")
        assert [(15, "MOVE_NUMBER")] == [(e.line, e.code) for e in read(skipped).errors][:1]

    def test_malformed_takeback_is_reported_with_its_line(self) -> None:
        bad = TAKEN_BACK.replace("takeback to round 1 move 2", "takeback round 1")
        assert [(14, "TAKEBACK_INVALID")] == [(e.line, e.code) for e in read(bad).errors][:1]

    def test_takeback_to_a_move_not_played_is_out_of_range(self) -> None:
        result = replayed(at_the_end('takeback to round 1 move 20 "x"'))
        assert result.error is not None
        assert (22, "TAKEBACK_OUT_OF_RANGE") == (result.error.line, result.error.code)

    def test_takeback_to_where_the_match_is_takes_nothing_back(self) -> None:
        result = replayed(at_the_end('takeback to round 1 move 14 "x"'))
        assert result.error is not None
        assert (22, "NOTHING_TO_TAKE_BACK") == (result.error.line, result.error.code)

    def test_replay_returns_the_resolved_commands(self) -> None:
        """The steps a recorder is given name real versions, not the text's moves."""
        result = replayed(TAKEN_BACK)
        again = replay(result.steps)
        assert result.events == again.events


class TestVoid:
    def test_void_line_after_the_result_belongs_to_the_match(self) -> None:
        text = CUTTLE.replace("result P1", 'result P1\nvoid "wrong table" { by the organiser }')
        lines = Lines((text + "\n" + KOZEL).splitlines())
        first = read_match(lines, MatchBuilder())
        second = read_match(lines, MatchBuilder())
        assert first is not None and second is not None and [] == second.errors
        assert first.header is not None
        result = replay(steps_from_moves(first.header, first.moves, ["a", "b"]))
        assert result.state.voided
        assert "MatchVoided" == noted(result.events, "by the organiser").type

    def test_void_of_a_match_in_progress_is_refused_with_its_line(self) -> None:
        text = CUTTLE.replace("15. P0 resign\nresult P1", 'void "no"\nresult *')
        result = replayed(text)
        assert result.error is not None
        assert (22, "VOID_NOT_FINISHED") == (result.error.line, result.error.code)


class TestFingerprint:
    def match_id(self, text: str) -> str:
        match = read(text)
        assert match.header is not None
        return text_match_id(match.header, match.moves)

    def test_notes_reasons_and_voids_keep_the_match_id(self) -> None:
        """They annotate the record; re-importing must not make a second match."""
        assert self.match_id(CUTTLE) == self.match_id(CUTTLE.replace("{ Bob steals the five }", ""))
        reworded = TAKEN_BACK.replace("Bob meant the", "Bob wanted the")
        assert self.match_id(TAKEN_BACK) == self.match_id(reworded)
        voided = CUTTLE.replace("result P1", 'result P1\nvoid "wrong table"')
        assert self.match_id(CUTTLE) == self.match_id(voided)

    def test_a_takeback_changes_the_match_id(self) -> None:
        assert self.match_id(CUTTLE) != self.match_id(TAKEN_BACK)


class TestImport:
    def test_hand_typed_takeback_imports_and_exports(
        self, database_url: str, tmp_path: Path
    ) -> None:
        path = tmp_path / "taken.txt"
        path.write_text(TAKEN_BACK)
        code, _, err = cli(database_url, "import", str(path))
        assert 0 == code, err
        assert "1 match imported (28 events)" in err
        code, out, err = cli(database_url, "export", "--all", "--format", "text")
        assert 0 == code, err
        assert (
            "2. P0 points 5H\n3. P1 points TS { too quick }\n"
            'takeback to round 1 move 2 "Bob meant the {jack}, said \\"oops\\""\n'
            "3. P1 jack JD>5H { Bob steals the five }\n"
        ) in out
        code, _, err = cli(database_url, "import", str(path))
        assert 0 == code, err
        assert "1 already recorded" in err

    @pytest.mark.parametrize(
        ("line", "code"),
        [
            ('takeback to round 2 move 0 "x"', "TAKEBACK_OUT_OF_RANGE"),
            ('takeback to move 3 "x"', "TAKEBACK_INVALID"),
            ('takeback to round 1 move 3 ""', "REASON_REQUIRED"),
        ],
    )
    def test_bad_takeback_reports_file_and_line(
        self, database_url: str, tmp_path: Path, line: str, code: str
    ) -> None:
        path = tmp_path / "bad.txt"
        path.write_text(at_the_end(line))
        exit_code, _, err = cli(database_url, "import", str(path))
        assert 1 == exit_code
        assert f"{path}:22: {code} " in err
        assert "0 matches imported" in err

    def test_adding_a_comment_after_import_is_refused_not_duplicated(
        self, database_url: str, tmp_path: Path
    ) -> None:
        """The commented text has the same id, so it meets the stored match and is refused."""
        plain = tmp_path / "plain.txt"
        plain.write_text(KOZEL)
        assert 0 == cli(database_url, "import", str(plain))[0]
        commented = tmp_path / "commented.txt"
        commented.write_text(KOZEL.replace("result S0 S2", "result S0 S2 { well played }"))
        code, _, err = cli(database_url, "import", str(commented))
        assert 1 == code
        (refusal,) = [line for line in err.splitlines() if line.startswith(f"{commented}:")]
        assert "MATCH_EXISTS" == refusal.split()[1]
        assert "0 matches imported (0 events), 0 already recorded, 1 refused" in err
        code, out, _ = cli(database_url, "export", "--all", "--format", "text")
        assert 1 == out.count("[Game ")
