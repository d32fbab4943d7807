"""The text notation: matches typed by hand, and the reader's errors with their lines."""

from __future__ import annotations

import random
from pathlib import Path

import psycopg
import pytest

from domain.kozel import PACK
from domain.logs.base import Lines, LogEvent, LogHeader, LogPlayer, MatchBuilder
from domain.logs.commands import (
    first_difference,
    replay,
    steps_from_moves,
    text_match_id,
    text_player_id,
)
from domain.logs.text import read_match, write_match
from domain.stream import (
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    decide,
    fold,
)
from tests.logs.support import cli

DATA = Path(__file__).parent / "data"


def read(text: str) -> object:
    return read_match(Lines(text.splitlines()), MatchBuilder())


class TestTypedByHand:
    @pytest.mark.parametrize(
        ("name", "events", "winners"),
        # The comments are notes: three in the Cuttle match, one in the Kozel match.
        [("cuttle_by_hand.txt", 22 + 3, (1,)), ("kozel_by_hand.txt", 44 + 1, (0, 2))],
    )
    def test_hand_typed_match_replays_to_its_result(
        self, name: str, events: int, winners: tuple[int, ...]
    ) -> None:
        match = read_match(Lines((DATA / name).read_text().splitlines()), MatchBuilder())
        assert match is not None and [] == match.errors
        assert match.header is not None
        ids = [text_player_id(p.name) for p in match.header.players]
        replayed = replay(steps_from_moves(match.header, match.moves, ids))
        assert None is replayed.error
        assert replayed.state.result is not None
        assert winners == replayed.state.result.winners
        assert events == len(replayed.events)

    @pytest.mark.parametrize("name", ["cuttle_by_hand.txt", "kozel_by_hand.txt"])
    def test_hand_typed_match_imports_once(self, database_url: str, name: str) -> None:
        path = str(DATA / name)
        code, _, err = cli(database_url, "import", path)
        assert 0 == code, err
        assert "1 match imported" in err
        code, _, err = cli(database_url, "import", path)
        assert 0 == code, err
        assert "1 already recorded" in err

    def test_the_date_tag_dates_the_match(self, database_url: str, tmp_path: Path) -> None:
        typed = (DATA / "cuttle_by_hand.txt").read_text()
        assert '[Date "2026-11-21"]' in typed
        path = tmp_path / "played.txt"
        path.write_text(typed.replace('[Date "2026-11-21"]', '[Date "2025.03.14"]'))
        assert 0 == cli(database_url, "import", str(path))[0]
        with psycopg.connect(database_url) as conn:
            row = conn.execute("SELECT created_at, ended_at FROM matches").fetchone()
        assert row is not None
        assert ["2025-03-14", "2025-03-14"] == [moment.date().isoformat() for moment in row]
        code, out, _ = cli(database_url, "export", "--all", "-f", "text")
        assert 0 == code
        assert '[Date "2025-03-14"]' in out

    def test_event_site_and_scorer_tags_are_kept(self, database_url: str) -> None:
        typed = (DATA / "cuttle_by_hand.txt").read_text()
        assert '[Site "Thursday club"]' in typed
        assert 0 == cli(database_url, "import", str(DATA / "cuttle_by_hand.txt"))[0]
        with psycopg.connect(database_url) as conn:
            row = conn.execute("SELECT metadata FROM events WHERE type = 'MatchCreated'").fetchone()
        assert row is not None
        assert {"source": "import", "tags": {"Site": "Thursday club"}} == row[0]
        code, out, _ = cli(database_url, "export", "--all", "-f", "text")
        assert 0 == code
        assert '[Site "Thursday club"]' in out

    def test_comments_and_layout_do_not_change_the_fingerprint(self) -> None:
        typed = (DATA / "cuttle_by_hand.txt").read_text()
        tidy = typed.replace("{ Bob steals the five }", "").replace("   2. P0", "\n2. P0")
        first, second = read(typed), read(tidy)
        assert first.header is not None and second.header is not None  # type: ignore[attr-defined]
        assert text_match_id(first.header, first.moves) == text_match_id(  # type: ignore[attr-defined]
            second.header,
            second.moves,  # type: ignore[attr-defined]
        )


class TestTextErrors:
    def test_illegal_move_is_refused_with_its_line(self, database_url: str, tmp_path: Path) -> None:
        typed = (
            (DATA / "cuttle_by_hand.txt").read_text().replace("4. P0 points 8D", "4. P1 points 8D")
        )
        path = tmp_path / "bad.txt"
        path.write_text(typed)
        code, _, err = cli(database_url, "import", str(path))
        assert 1 == code
        assert f"{path}:14: NOT_YOUR_TURN " in err
        assert "0 matches imported" in err

    def test_unknown_card_is_refused_with_its_line(self, database_url: str, tmp_path: Path) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text().replace("S1 lead JH", "S1 lead JZ")
        path = tmp_path / "bad.txt"
        path.write_text(typed)
        code, _, err = cli(database_url, "import", str(path))
        assert 1 == code
        assert f"{path}:12: MALFORMED " in err

    def test_wrong_result_is_refused(self, database_url: str, tmp_path: Path) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text().replace("result S0 S2", "result S1 S3")
        path = tmp_path / "bad.txt"
        path.write_text(typed)
        code, _, err = cli(database_url, "import", str(path))
        assert 1 == code
        assert f"{path}:20: RESULT_MISMATCH " in err

    def test_skipped_move_number_is_reported(self) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text().replace("3. S3 beat", "4. S3 beat")
        match = read(typed)
        assert ["MOVE_NUMBER"] == [e.code for e in match.errors][:1]  # type: ignore[attr-defined]

    def test_unclosed_comment_is_reported(self) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text().replace("{ Ada leads", "{{ Ada leads ")
        typed = typed.replace("end }", "end")
        match = read(typed)
        assert [(15, "COMMENT_UNCLOSED")] == [(e.line, e.code) for e in match.errors]  # type: ignore[attr-defined]

    def test_a_date_that_is_no_date_is_a_header_error(self) -> None:
        typed = (DATA / "cuttle_by_hand.txt").read_text()
        match = read(typed.replace('[Date "2026-11-21"]', '[Date "last Thursday"]'))
        assert [(7, "HEADER_INVALID")] == [(e.line, e.code) for e in match.errors]  # type: ignore[attr-defined]
        unknown = read(typed.replace('[Date "2026-11-21"]', '[Date "????.??.??"]'))
        assert [] == unknown.errors  # type: ignore[attr-defined]

    @pytest.mark.parametrize(
        ("tag", "refused"),
        [
            ('[P0 "Ada"]', '[P0 "Ada\u202e"]'),
            ('[P1 "Bob"]', '[P1 "\u200b"]'),
            ('[Site "Thursday club"]', '[Competition "\ufeffSpring"]'),
        ],
    )
    def test_a_name_the_text_rule_refuses_is_a_header_error(self, tag: str, refused: str) -> None:
        """A player's or competition's name breaks the API's text rule: refused (#29)."""
        match = read((DATA / "cuttle_by_hand.txt").read_text().replace(tag, refused))
        assert ["HEADER_INVALID"] == [e.code for e in match.errors]  # type: ignore[attr-defined]

    def test_a_name_is_read_nfc_and_trimmed(self) -> None:
        typed = (DATA / "cuttle_by_hand.txt").read_text().replace('"Ada"', '" Zoe\u0308 "')
        match = read(typed)
        assert "Zo\u00eb" == match.header.players[0].name  # type: ignore[attr-defined]

    def test_missing_game_tag_is_a_header_error(self) -> None:
        typed = (DATA / "kozel_by_hand.txt").read_text().replace('[Game "kozel"]\n', "")
        match = read(typed)
        assert ["HEADER_INVALID"] == [e.code for e in match.errors]  # type: ignore[attr-defined]

    def test_next_match_still_reads_after_a_bad_one(self) -> None:
        good = (DATA / "kozel_by_hand.txt").read_text()
        bad = good.replace("1. S1 lead JH  ", "1. S1 lead JH\nround 2 shuffled\n")
        lines = Lines((bad + "\n" + good).splitlines())
        first = read_match(lines, MatchBuilder())
        second = read_match(lines, MatchBuilder())
        assert first is not None and second is not None
        assert (13, "DEAL_INVALID") == (first.errors[0].line, first.errors[0].code)
        assert [] == second.errors
        assert 28 == len([m for m in second.moves if m.kind == "move"])


class TestPhysicalDeck:
    def test_physical_kozel_deal_round_trips_through_text(self) -> None:
        """Dealt hands, the indicator and the scorer's named draws survive write and read."""
        rng = random.Random(3)
        config = MatchConfig(
            "kozel",
            "default",
            ("a", "b", "c", "d"),
            0,
            dealing="physical",
            options={"loss_limit": 2},
        )
        state = MatchState()
        events = decide(state, CreateMatch(config))
        state = fold(events, state)
        deck = [card.text() for card in PACK]
        rng.shuffle(deck)
        hands = [deck[i : i + 4] for i in range(0, 16, 4)]
        unseen = [*deck[17:], deck[16]]  # the indicator is the stock's last card
        moves: list[Command] = [StartRound({"hands": hands, "indicator": deck[16]})]
        while True:
            new = decide(state, moves[-1])
            state = fold(new, state)
            events.extend(new)
            if state.position is None:
                break
            wanted = state.rules.cards_awaited(state.position)
            if wanted:
                named, unseen = unseen[:wanted], unseen[wanted:]
                moves.append(Play("cards " + " ".join(named)))
            else:
                legal = [m.text() for m in state.rules.legal_moves(state.position)]
                moves.append(Play(rng.choice(legal[:40])))
        header = LogHeader(
            None, "kozel", "default", tuple(LogPlayer(i, None, n) for i, n in enumerate("abcd")),
            0, "physical", None, dict(state.config.options),  # type: ignore[union-attr]
        )  # fmt: skip
        logged = [LogEvent(0, i, e.type, e.data) for i, e in enumerate(events, 1)]
        written = write_match(header, logged)
        assert "indicator " in written and "\n1. S" in written and " cards " in written
        match = read_match(Lines(written.splitlines()), MatchBuilder())
        assert match is not None and [] == match.errors and match.header is not None
        replayed = replay(steps_from_moves(match.header, match.moves, list("abcd")))
        assert None is first_difference(logged, replayed.events)
