"""What both log formats read into: a match's header, its events, and its errors.

A reader walks one match per call and reports to a visitor (python-chess's
``pgn.py`` shape): ``begin_match``, ``visit_header``, ``visit_event`` ... ``end_match``,
and ``handle_error`` for every problem, with its line. ``MatchBuilder`` collects the
match and keeps the errors instead of raising, so one bad match never stops the
next from being read.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# NUL, and the surrogates that stand for undecodable bytes (surrogateescape).
_NOT_TEXT = re.compile("[\x00\udc80-\udcff]")

FORMAT_VERSION = 2
"""The newest canonical log format this matchlog reads and writes (docs/log-format.md).

1: the header and event lines as first released. 2: the header may carry
``recording`` (a score-sheet match). A header names the oldest version that holds
everything in it, so a match without ``recording`` is still written as 1 and an
older matchlog still reads it; one it cannot read says so by the version. Bump it,
and say what the new version holds, whenever the format gains a field.
"""

FORMAT_VERSIONS = range(1, FORMAT_VERSION + 1)
"""Every canonical log format version this matchlog reads."""


@dataclass(frozen=True, slots=True)
class LogError:
    """One problem found in a log: where, a stable CAPS code, and a reason for a person."""

    line: int
    code: str
    message: str

    def text(self, source: str) -> str:
        """Return the ``file:line: CODE reason`` line the CLI prints.

        >>> LogError(3, 'MALFORMED_JSON', 'not JSON').text('a.jsonl')
        'a.jsonl:3: MALFORMED_JSON not JSON'
        """
        return f"{source}:{self.line}: {self.code} {self.message}"


@dataclass(frozen=True, slots=True)
class LogPlayer:
    """One seat of a logged match: the player's id (``None`` in hand-typed text) and name."""

    seat: int
    id: str | None
    name: str


@dataclass(frozen=True, slots=True)
class LogHeader:
    """Everything a log says about a match before its first event.

    ``events`` is the number of event lines that follow (canonical logs), so a
    truncated file is recognised; ``None`` when a hand-written log leaves it out.
    """

    match_id: str | None
    game: str
    variant: str
    players: tuple[LogPlayer, ...]
    first_dealer: int
    dealing: str
    format: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    rules_version: int = 1
    first_dealer_drawn: bool = False
    competition_id: str | None = None
    competition_name: str | None = None
    created_at: str | None = None
    ended_at: str | None = None
    events: int | None = None
    line: int = 1
    recording: str = "moves"
    """``results`` for a score-sheet match (written only then: older logs lack it)."""
    tags: Mapping[str, str] = field(default_factory=dict)
    """A text log's informational tags (``Event``, ``Site``, ``Scorer``); an import keeps
    them in ``MatchCreated``'s metadata."""


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One logged event; ids and times are absent in the text notation."""

    line: int
    version: int
    type: str
    data: Mapping[str, Any]
    event_id: str | None = None
    recorded_at: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LogMove:
    """One thing a text log records (commands, not events): a round start, a move, a correction.

    ``kind`` is ``deal`` (``deal`` holds the setup), ``move`` (``text``),
    ``resign-match`` (``seat``), ``note`` (``text``; ``anchor`` says what it is on:
    ``match``, ``round``, ``line`` or ``end``), ``takeback`` (``to`` is the
    ``(round, move)`` gone back to, ``text`` the reason) or ``void`` (``text``, the reason).
    """

    line: int
    kind: str
    text: str = ""
    deal: Mapping[str, Any] | None = None
    seat: int | None = None
    anchor: str | None = None
    to: tuple[int, int] | None = None


@dataclass(slots=True)
class MatchLog:
    """One match as read from a log: header, events or moves, and every error found.

    ``text`` tells a text-notation match (moves) from a canonical one (events).
    """

    text: bool = False
    header: LogHeader | None = None
    events: list[LogEvent] = field(default_factory=list)
    moves: list[LogMove] = field(default_factory=list)
    result: str | None = None
    result_line: int | None = None
    errors: list[LogError] = field(default_factory=list)
    first_line: int = 1
    last_line: int = 1


class BaseVisitor(ABC, Generic[T]):
    """Hooks a reader calls while it walks one match; ``result`` is what the read returns."""

    def begin_match(self, line: int) -> None:
        """Called at the first line of a match."""

    def visit_text(self) -> None:
        """Called at the start of a match in the text notation."""

    def visit_header(self, header: LogHeader) -> None:
        """Called once the header is read."""

    def visit_event(self, event: LogEvent) -> None:
        """Called for each event line (canonical logs)."""

    def visit_move(self, move: LogMove) -> None:
        """Called for each move, round start or resignation (text logs)."""

    def visit_result(self, result: str, line: int) -> None:
        """Called with the result a text log states at its end."""

    def handle_error(self, error: LogError) -> None:
        """Called for every problem; the default raises it as a ``LogFormatError``."""
        raise LogFormatError(error)

    def end_match(self, line: int) -> None:
        """Called after the last line of a match."""

    @abstractmethod
    def result(self) -> T:
        """Return what the read produced (each visitor says what that is)."""


class LogFormatError(Exception):
    """A log problem raised by ``BaseVisitor.handle_error`` (builders collect instead)."""

    def __init__(self, error: LogError) -> None:
        super().__init__(f"line {error.line}: {error.code} {error.message}")
        self.error = error


class MatchBuilder(BaseVisitor[MatchLog]):
    """Collect one match, keeping every error instead of raising."""

    def __init__(self) -> None:
        self.match = MatchLog()

    def begin_match(self, line: int) -> None:
        self.match = MatchLog(first_line=line, last_line=line)

    def visit_text(self) -> None:
        self.match.text = True

    def visit_header(self, header: LogHeader) -> None:
        self.match.header = header

    def visit_event(self, event: LogEvent) -> None:
        self.match.events.append(event)

    def visit_move(self, move: LogMove) -> None:
        self.match.moves.append(move)

    def visit_result(self, result: str, line: int) -> None:
        self.match.result = result
        self.match.result_line = line

    def handle_error(self, error: LogError) -> None:
        self.match.errors.append(error)

    def end_match(self, line: int) -> None:
        self.match.last_line = line

    def result(self) -> MatchLog:
        return self.match


class Lines:
    """Numbered lines with one line of look-back, so a reader can stop at the next match.

    ``start`` is the number of the line before the first, for lines cut from the
    middle of a file.

    >>> lines = Lines(['a', 'b'])
    >>> lines.next(), lines.next(), lines.next()
    ((1, 'a'), (2, 'b'), None)
    >>> Lines(['c'], start=41).next()
    (42, 'c')
    """

    def __init__(self, lines: Iterable[str], *, start: int = 0) -> None:
        self._lines: Iterator[str] = iter(lines)
        self._number = start
        self._pushed: tuple[int, str] | None = None

    @property
    def number(self) -> int:
        """The number of the last line read (0 before the first)."""
        return self._number

    def next(self) -> tuple[int, str] | None:
        """Return the next line (without its newline) and its number, or ``None`` at the end."""
        if self._pushed is not None:
            pushed, self._pushed = self._pushed, None
            return pushed
        try:
            text = next(self._lines)
        except StopIteration:
            return None
        self._number += 1
        return self._number, text.rstrip("\r\n")

    def next_content(self) -> tuple[int, str] | None:
        """Return the next line that is not blank, or ``None`` at the end."""
        while True:
            item = self.next()
            if item is None or item[1].strip():
                return item

    def push_back(self, line: tuple[int, str]) -> None:
        """Give a line back; the next ``next`` returns it again."""
        self._pushed = line


def is_text_line(text: str) -> bool:
    """Whether a line is text a person could have written (no NUL, no undecodable bytes).

    >>> is_text_line('{"a": 1}'), is_text_line('\\x00\\x01')
    (True, False)
    """
    if text.isascii():
        # The common case, and a cheap one: an ASCII line can only fail by a NUL.
        return "\x00" not in text
    return _NOT_TEXT.search(text) is None
