"""Properties of the log code over random simulated matches (no database)."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from domain.logs import jsonl, text
from domain.logs.base import Lines, LogEvent, LogHeader, LogPlayer, MatchBuilder
from domain.logs.commands import first_difference, replay, steps_from_events, steps_from_moves
from domain.stream import MatchConfig, VersionedEvent, effective_events, fold_stream
from service.imports.reading import Chunk, Source, loads_line, read_chunks, read_logs
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


# Lines that make a JSON Lines log hard to cut into matches: blank, broken, binary,
# headers a substring test misses (an escaped key) or finds where there is none.
_awkward_lines = st.sampled_from(
    [
        "",
        "   ",
        "{not json",
        "[]",
        '{"type": "Drew", "data": {"note": "\\"matchlog\\": 1"}}',
        '{"\\u006datchlog": 1, "match": "x"}',
        '{"matchlog": 99}',
        '{"matchlog": 1}',
        '{"matchlog": 1, "bad": "\udcff"}',
        "\x00\x01binary",
    ]
)


class TestChunks:
    @given(
        matches=st.lists(simulated_match_lines(), min_size=1, max_size=3),
        inserts=st.lists(st.tuples(st.integers(min_value=0), _awkward_lines), max_size=6),
        drops=st.lists(st.integers(min_value=0), max_size=2),
    )
    def test_chunks_read_as_the_whole_file_reads(
        self, matches: list[list[str]], inserts: list[tuple[int, str]], drops: list[int]
    ) -> None:
        """Cutting a log at its header lines for workers loses, adds and moves nothing."""
        lines = [line for match in matches for line in match]
        for at in drops:
            del lines[at % len(lines)]
        for at, line in inserts:
            lines.insert(at % (len(lines) + 1), line)
        data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")

        def source() -> Source:
            return Source("in.jsonl", io.BytesIO(data))

        chunked = [
            log
            for item in read_chunks(source())
            for log in (item.logs() if isinstance(item, Chunk) else [item])
        ]
        assert list(read_logs(source())) == chunked
