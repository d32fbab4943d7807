"""Properties of the pure log code over random simulated matches (no database)."""

from __future__ import annotations

from hypothesis import given

from domain.logs import jsonl, text
from domain.logs.base import Lines, MatchBuilder
from domain.logs.commands import first_difference, replay, steps_from_events, steps_from_moves
from tests.strategies import simulated_match_lines


class TestCanonical:
    @given(simulated_match_lines())
    def test_read_then_write_gives_the_same_lines(self, lines: list[str]) -> None:
        match = jsonl.read_match(Lines(lines), MatchBuilder())
        assert match is not None and [] == match.errors and match.header is not None
        assert lines == [jsonl.header_line(match.header), *map(jsonl.event_line, match.events)]

    @given(simulated_match_lines())
    def test_replaying_the_commands_gives_the_logged_events(self, lines: list[str]) -> None:
        match = jsonl.read_match(Lines(lines), MatchBuilder())
        assert match is not None
        steps, errors = steps_from_events(match)
        assert [] == errors
        replayed = replay(steps)
        assert None is replayed.error
        assert None is first_difference(match.events, replayed.events)


class TestText:
    @given(simulated_match_lines())
    def test_text_replays_to_the_same_events(self, lines: list[str]) -> None:
        match = jsonl.read_match(Lines(lines), MatchBuilder())
        assert match is not None and match.header is not None
        written = text.write_match(match.header, match.events)
        typed = text.read_match(Lines(written.splitlines()), MatchBuilder())
        assert typed is not None and [] == typed.errors and typed.header is not None
        ids = [p.id or "" for p in typed.header.players]
        replayed = replay(steps_from_moves(typed.header, typed.moves, ids))
        assert None is first_difference(match.events, replayed.events)
        assert written == text.write_match(typed.header, match.events)
