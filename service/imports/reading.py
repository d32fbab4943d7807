"""Reading an import's inputs: finding and opening them, decoding lines, yielding matches.

Files, folders (their log files, ``LOG_SUFFIXES``) and ``-`` (stdin), either format,
gzip or not (recognised by content, not by name). Input is streamed: matches come
one by one as read, or (with ``--jobs``) as raw chunks of lines a worker reads.
"""

from __future__ import annotations

import functools
import gzip
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgspec

from domain.logs import jsonl, text
from domain.logs.base import Lines, LogError, MatchBuilder, MatchLog, is_text_line

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".mlog", ".mlog.gz", ".txt", ".txt.gz", ".log", ".log.gz")
"""What a folder's files must end with to be imported."""


class Source:
    """Decoded, numbered lines of one input, counting the bytes read for the progress bar."""

    def __init__(self, name: str, raw: IO[bytes]) -> None:
        self.name = name
        self._raw = raw
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
        self._gz = gzip.GzipFile(fileobj=raw, mode="rb") if head == b"\x1f\x8b" else None
        self._stream: IO[bytes] = raw if self._gz is None else self._gz  # type: ignore[assignment]
        self.failure: str | None = None

    def position(self) -> int:
        """Return how many bytes of the (possibly compressed) input were consumed."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def lines(self) -> Iterator[str]:
        """Yield decoded lines; undecodable bytes survive as surrogates, reported by readers."""
        try:
            for raw in self._stream:
                yield raw.decode("utf-8", "surrogateescape")
        except (EOFError, OSError, gzip.BadGzipFile) as e:
            self.failure = f"the compressed input is cut short or damaged ({e})"


def iter_paths(paths: Sequence[str]) -> Iterator[str]:
    """Yield the inputs named: files as given, folders' log files in name order, ``-``."""
    for given in paths:
        path = Path(given)
        if given != "-" and path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.name.endswith(LOG_SUFFIXES):
                    yield str(child)
        else:
            yield given


_DECODE = msgspec.json.Decoder().decode


def loads_line(line: str) -> Any:
    """Decode one JSON line exactly as ``json.loads`` does, about three times faster.

    msgspec gives the same values (big integers included); where it refuses (NaN, a
    lone surrogate, or bad JSON) the json module decides, and explains a bad line.
    """
    try:
        return _DECODE(line)
    except (msgspec.DecodeError, UnicodeEncodeError):
        return json.loads(line)


_read_jsonl = functools.partial(jsonl.read_match, loads=loads_line)


def _reader(first: str) -> Any:
    if first.lstrip().startswith("{"):
        return _read_jsonl
    return text.read_match


def _opening(source: Source, lines: Lines) -> MatchLog | Any:
    """Return the reader a source's format needs, or the match that says why there is none."""
    first = lines.next_content()
    if first is None:
        if source.failure is None:
            return MatchLog(errors=[LogError(1, "EMPTY_LOG", "the input holds no match")])
        return MatchLog(errors=[LogError(1, "TRUNCATED", source.failure)])
    stripped = first[1].lstrip()
    if not stripped.startswith(("{", "[")):
        code = "UNKNOWN_FORMAT" if is_text_line(first[1]) else "NOT_TEXT"
        message = (
            "binary data, not a game log"
            if code == "NOT_TEXT"
            else "a log starts with a JSON header line '{...' or a text tag '[...'"
        )
        return MatchLog(errors=[LogError(first[0], code, message)])
    lines.push_back(first)
    return _reader(first[1])


def read_logs(source: Source) -> Iterator[MatchLog]:
    """Yield each match of a source, errors attached; a file-level problem is a match too."""
    lines = Lines(source.lines())
    read = _opening(source, lines)
    if isinstance(read, MatchLog):
        yield read
        return
    yield from _read_matches(source, lines, read)


def _read_matches(source: Source, lines: Lines, read: Any) -> Iterator[MatchLog]:
    while True:
        match = read(lines, MatchBuilder())
        if match is None:
            return
        if source.failure is not None:
            match.errors.append(LogError(lines.number, "TRUNCATED", source.failure))
            source.failure = None
        yield match


@dataclass(frozen=True, slots=True)
class Chunk:
    """The raw lines of one or more whole matches of a JSON Lines log, for a worker to read.

    ``start`` is the number of the line before the first; ``more`` says a header line
    follows the chunk in the file (a match cut short then says the next match
    starts, not that the file ends); ``failure`` is the damage the input ended
    with, which the last match read reports (as ``read_logs`` does).
    """

    start: int
    lines: list[str]
    more: bool
    failure: str | None = None

    def logs(self) -> list[MatchLog]:
        """Read the chunk's matches, as ``read_logs`` reads them from the whole file."""
        # The reader only asks of the line after a match whether it is a header.
        lines = Lines(
            [*self.lines, '{"matchlog": null}'] if self.more else self.lines, start=self.start
        )
        end = self.start + len(self.lines)
        matches = []
        while (item := lines.next_content()) is not None and item[0] <= end:
            lines.push_back(item)
            match = _read_jsonl(lines, MatchBuilder())
            assert match is not None, "a content line starts a match"
            matches.append(match)
        if self.failure is not None and matches:
            matches[-1].errors.append(LogError(lines.number, "TRUNCATED", self.failure))
        return matches


def read_chunks(source: Source) -> Iterator[MatchLog | Chunk]:
    """Yield a source's JSON Lines matches as raw chunks cut at their header lines.

    Reading a JSON line costs more than handing its text to another process, so
    with ``--jobs`` the workers read: this process only finds where each match
    starts. Text logs and file-level problems come as read matches.
    """
    lines = Lines(source.lines())
    read = _opening(source, lines)
    if isinstance(read, MatchLog):
        yield read
        return
    if read is not _read_jsonl:
        yield from _read_matches(source, lines, read)
        return
    pending: list[str] = []
    start = 0
    while (item := lines.next()) is not None:
        number, line = item
        if pending and _starts_match(line):
            yield Chunk(start, pending, more=True)
            pending = []
        if not pending:
            start = number - 1
        pending.append(line)
    yield Chunk(start, pending, more=False, failure=source.failure)
    source.failure = None


def _starts_match(line: str) -> bool:
    """Whether ``jsonl.read_match`` starts a match at ``line`` (only a header line does).

    The substring test spares parsing the other lines. A header whose key is written
    with escapes is not seen here; then it stays in the chunk before, where the
    worker's reader starts its match all the same.
    """
    if '"matchlog"' not in line:
        return False
    try:
        return jsonl.is_header_line(line, loads=loads_line)
    except RecursionError:
        return False


def open_input(name: str) -> IO[bytes]:
    if name == "-":
        return sys.stdin.buffer
    return open(name, "rb")
