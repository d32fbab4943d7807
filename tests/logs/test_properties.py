"""Properties of the log code over random simulated matches (no database)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from cli.importer import loads_line
from domain.logs import jsonl, text
from domain.logs.base import Lines, LogEvent, LogHeader, LogPlayer, MatchBuilder
from domain.logs.commands import first_difference, replay, steps_from_events, steps_from_moves
from domain.stream import MatchConfig, VersionedEvent, effective_events, fold_stream
from tests.strategies import corrected_streams, simulated_match_lines

# Any JSON the json module reads: integers of any size, NaN and infinities, lone
# surrogates (escaped when ensure_ascii), keys in any order.
_any_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children),
    max_leaves=10,
)


class TestJsonLines:
    @given(value=_any_json, ascii_only=st.booleans())
    @example(value="\ud800", ascii_only=False)
    @example(value=["\udfff", float("nan")], ascii_only=True)
    @example(value={"n": 2**70, "m": -(2**64) - 1, "f": 1e300}, ascii_only=True)
    def test_a_line_reads_as_the_json_module_reads_it(self, value: Any, ascii_only: bool) -> None:
        """The importer's fast decoder gives the json module's values, big integers included."""
        line = json.dumps(value, ensure_ascii=ascii_only)
        # repr tells 1 from 1.0 and compares NaN with itself.
        assert repr(json.loads(line)) == repr(loads_line(line))


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


class TestTextCorrections:
    @given(corrected_streams())
    def test_corrections_round_trip_through_text(
        self, stream: tuple[MatchConfig, list[VersionedEvent]]
    ) -> None:
        """Written, read and replayed, a corrected match writes the same text again."""
        config, pairs = stream
        players = tuple(LogPlayer(seat, pid, pid) for seat, pid in enumerate(config.players))
        header = LogHeader(
            None, config.game, config.variant, players, 0, config.dealing, config.format,
            dict(config.options),
        )  # fmt: skip
        written = text.write_match(header, [LogEvent(0, v, e.type, e.data) for v, e in pairs])
        typed = text.read_match(Lines(written.splitlines()), MatchBuilder())
        assert typed is not None and [] == typed.errors and typed.header is not None
        replayed = replay(steps_from_moves(typed.header, typed.moves, config.players))
        assert None is replayed.error, written
        again = list(enumerate(replayed.events, start=1))
        relogged = [LogEvent(0, v, e.type, e.data) for v, e in again]
        assert written == text.write_match(header, relogged)
        assert _played(pairs) == _played(again)
        before, after = fold_stream(pairs), fold_stream(again)
        assert (before.series, before.result, before.voided, before.position) == (
            after.series,
            after.result,
            after.voided,
            after.position,
        )


def _played(pairs: list[VersionedEvent]) -> list[tuple[str, object]]:
    return [(e.type, e.data) for _, e in effective_events(pairs) if e.type != "NoteAdded"]
