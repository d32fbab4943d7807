"""The text notation: a tag header, rounds, numbered moves, comments, the result.

    [Game "cuttle"]
    [Variant "standard"]
    [Format "quick"]
    [Dealing "scorer"]
    [FirstDealer "0"]
    [P0 "Ada"]
    [P1 "Bob"]

    round 1 deck 7H 2C ...      {the scorer's deck order, top first}
    1. P1 draw
    2. P0 points 7H  {Ada scores}
    3. P1 points 9C
    takeback to round 1 move 2 "Bob played the wrong nine"
    3. P1 points 9S
    result P0

Moves are the engines' notation (docs/notation.md); a line may hold several,
each after its number. Comments are notes on what their line records; a takeback
names a round and a move. Derived events are never written. See docs/log-format.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, TypeVar

from domain.errors import DomainError
from domain.games import GAMES, rules_for
from domain.logs.base import (
    BaseVisitor,
    Lines,
    LogError,
    LogHeader,
    LogMove,
    LogPlayer,
    is_text_line,
)
from domain.logs.commands import move_positions
from domain.logs.text_writer import INFO_TAGS, _seat_tags, result_text, write_match
from domain.stream import RECORDINGS
from domain.text import clean_text

T = TypeVar("T")

_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_TAG = re.compile(rf"^\[\s*([A-Za-z][A-Za-z0-9]*)\s+{_QUOTED}\s*\]$")
_NUMBER = re.compile(r"(?:^|\s)(\d+)\.(?=\s|$)")
_RESULT = re.compile(r"^result\b\s*(.*)$", re.IGNORECASE)
_VOID = re.compile(rf"^void\b(?:\s+{_QUOTED}$)?", re.IGNORECASE)
_KNOWN_TAGS = {
    "Game", "Variant", "Format", "Options", "Dealing", "FirstDealer", "RulesVersion",
    "FirstDealerDrawn", "Match", "Competition", "CompetitionId", "Date", "Event", "Site", "Scorer",
    "Recording",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Lines:
    """The patterns of the lines that name a round or a seat, in any registered game's words."""

    deal: re.Pattern[str]
    resign: re.Pattern[str]
    takeback: re.Pattern[str]


@lru_cache(maxsize=4)
def _lines_for(words: tuple[tuple[str, str], ...]) -> _Lines:
    rounds = "|".join(dict.fromkeys(re.escape(word) for word, _ in words))
    seats = "".join(dict.fromkeys(re.escape(letter) for _, letter in words))
    return _Lines(
        re.compile(rf"^({rounds})\s+(\d+)\s+(.*)$", re.IGNORECASE),
        re.compile(rf"^[{seats}](\d+)\s+resign-match$"),
        re.compile(
            rf"^takeback\b(?:\s+to\s+({rounds})\s+(\d+)\s+move\s+(\d+)\s+{_QUOTED}$)?",
            re.IGNORECASE,
        ),
    )


def _lines() -> _Lines:
    """Return the patterns for the games registered now (a log may use any game's words)."""
    return _lines_for(tuple((r.round_word, r.seat_letter) for r in GAMES.values()))


def read_match(lines: Lines, visitor: BaseVisitor[T]) -> T | None:
    """Read the next text match from ``lines`` into ``visitor``; ``None`` at the end.

    A match runs from its first tag to its ``result`` line and the ``void`` line or
    comments right after it (or to the next match's tags, or the end of input).
    """
    item = lines.next_content()
    if item is None:
        return None
    visitor.begin_match(item[0])
    visitor.visit_text()
    tags: dict[str, tuple[int, str]] = {}
    last = item[0]
    while item is not None:
        number, raw = item
        if not is_text_line(raw):
            visitor.handle_error(LogError(number, "NOT_TEXT", "binary data in a text log"))
            item = lines.next_content()
            last = number
            continue
        text = raw.strip()
        if not text.startswith("["):
            break
        m = _TAG.match(text)
        if m is None:
            visitor.handle_error(
                LogError(number, "HEADER_INVALID", f'a tag is [Name "value"], not {text!r}')
            )
        else:
            tags[m.group(1)] = (number, m.group(2).replace('\\"', '"').replace("\\\\", "\\"))
        last = number
        item = lines.next_content()
    header = _header(tags, visitor, item[0] if item is not None else last)
    if header is not None:
        visitor.visit_header(header)
    body = _Body(visitor)
    while item is not None:
        number, raw = item
        if not is_text_line(raw):
            if body.ended:
                lines.push_back(item)
                break
            last = number
            visitor.handle_error(LogError(number, "NOT_TEXT", "binary data in a text log"))
            item = lines.next_content()
            continue
        code, comments, error = _split_line(raw.lstrip(), number)
        text = code.rstrip()
        # After the result only its void line and comments belong to the match.
        if text.startswith("[") or (body.ended and text and _VOID.match(text) is None):
            lines.push_back(item)
            break
        last = number
        if error is not None:
            visitor.handle_error(error)
        item = lines.next_content()
        body.line(number, text, comments, header)
    visitor.end_match(last)
    return visitor.result()


class _Body:
    """The body of one text match, line by line: what each line records, and its notes.

    A comment is a note on what its line records; a comment alone on its line is a
    note on what the line above recorded (the match itself before the first round).
    """

    def __init__(self, visitor: BaseVisitor[Any]) -> None:
        self.visitor = visitor
        self.expected_number = 1
        self.anchor = "match"
        self.ended = False
        self.patterns = _lines()

    def line(
        self, number: int, text: str, comments: list[tuple[int, str]], header: LogHeader | None
    ) -> None:
        visitor = self.visitor
        if not text:
            self.notes(number, comments, self.anchor)
            return
        void = _VOID.match(text)
        if void is not None:
            self.void(number, void)
            self.notes(number, comments, "line")
            return
        result = _RESULT.match(text)
        if result is not None:
            visitor.visit_result(result.group(1).strip() or "*", number)
            self.ended = True
            self.notes(number, comments, "end")
            return
        deal = self.patterns.deal.match(text)
        if deal is not None:
            move = _deal_move(number, deal, header, visitor)
            if move is not None:
                visitor.visit_move(move)
            self.expected_number = 1
            self.notes(number, comments, "round")
            return
        takeback = self.patterns.takeback.match(text)
        if takeback is not None:
            self.takeback(number, takeback)
            self.notes(number, comments, "line")
            return
        self.moves(number, text, comments)

    def notes(self, number: int, comments: Iterable[tuple[int, str]], anchor: str) -> None:
        self.anchor = anchor
        for _, comment in comments:
            self.visitor.visit_move(LogMove(number, "note", text=comment, anchor=anchor))

    def void(self, number: int, m: re.Match[str]) -> None:
        if m.group(1) is None:
            self.visitor.handle_error(
                LogError(number, "VOID_INVALID", f'a void line is void "reason", not {m.string!r}')
            )
            return
        self.visitor.visit_move(LogMove(number, "void", text=_unquote(m.group(1))))

    def takeback(self, number: int, m: re.Match[str]) -> None:
        if m.group(1) is None:
            self.visitor.handle_error(
                LogError(
                    number,
                    "TAKEBACK_INVALID",
                    f'a takeback line is takeback to round N move M "reason", not {m.string!r}',
                )
            )
            return
        to = (int(m.group(2)), int(m.group(3)))
        self.visitor.visit_move(LogMove(number, "takeback", text=_unquote(m.group(4)), to=to))
        # Numbering goes on from the move taken back to.
        self.expected_number = to[1] + 1

    def moves(self, number: int, text: str, comments: list[tuple[int, str]]) -> None:
        visitor = self.visitor
        moves = _split_moves(text)
        # A comment is on the move it follows (the line's first move if none does).
        pending = list(comments)
        for index, (given, move_text_, _) in enumerate(moves):
            if given is not None and given != self.expected_number:
                visitor.handle_error(
                    LogError(
                        number,
                        "MOVE_NUMBER",
                        f"move {given} where move {self.expected_number} was expected",
                    )
                )
            self.expected_number = (given or self.expected_number) + 1
            resign = self.patterns.resign.match(move_text_)
            if resign is not None:
                visitor.visit_move(LogMove(number, "resign-match", seat=int(resign.group(1))))
            elif move_text_:
                visitor.visit_move(LogMove(number, "move", text=move_text_))
            last = index + 1 == len(moves)
            notes = [c for c in pending if last or c[0] < moves[index + 1][2]]
            self.notes(number, notes, "line")
            pending = pending[len(notes) :]


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _split_line(raw: str, number: int) -> tuple[str, list[tuple[int, str]], LogError | None]:
    """Split a body line into its text (comments blanked) and its comments, with offsets.

    Quoted strings (reasons) may hold braces; comments may hold quotes.

    >>> _split_line('1. P1 draw {slow} 2. P0 pass', 1)[:2]
    ('1. P1 draw   2. P0 pass', [(11, 'slow')])
    """
    out: list[str] = []
    comments: list[tuple[int, str]] = []
    opened = -1
    quoted = False
    index = 0
    while index < len(raw):
        ch = raw[index]
        if opened >= 0:
            if ch == "}":
                comment = raw[opened + 1 : index].strip()
                if comment:  # an empty { } says nothing: no note
                    comments.append((len(out), comment))
                out.append(" ")
                opened = -1
        elif quoted:
            out.append(ch)
            if ch == "\\" and index + 1 < len(raw):
                index += 1
                out.append(raw[index])
            elif ch == '"':
                quoted = False
        elif ch == "{":
            opened = index
        else:
            quoted = ch == '"'
            out.append(ch)
        index += 1
    if opened >= 0:
        return (
            "".join(out),
            comments,
            LogError(
                number, "COMMENT_UNCLOSED", "a comment opened with '{' is never closed on its line"
            ),
        )
    return "".join(out), comments, None


def _split_moves(text: str) -> list[tuple[int | None, str, int]]:
    marks = list(_NUMBER.finditer(text))
    if not marks:
        return [(None, " ".join(text.split()), 0)]
    moves: list[tuple[int | None, str, int]] = []
    head = text[: marks[0].start()].strip()
    if head:
        moves.append((None, " ".join(head.split()), 0))
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        moves.append((int(mark.group(1)), " ".join(text[mark.end() : end].split()), mark.start()))
    return moves


def _header(
    tags: Mapping[str, tuple[int, str]], visitor: BaseVisitor[Any], line: int
) -> LogHeader | None:
    first_line = min((n for n, _ in tags.values()), default=line)

    def bad(code: str, message: str, at: int | None = None) -> None:
        visitor.handle_error(LogError(first_line if at is None else at, code, message))

    if not tags:
        bad("HEADER_MISSING", 'a text match starts with its tags ([Game "cuttle"] ...)')
        return None
    if "Game" not in tags or "Variant" not in tags:
        bad("HEADER_INVALID", "the tags Game and Variant are required")
        return None
    game = tags["Game"][1].strip().lower()
    if game not in GAMES:
        bad("HEADER_INVALID", f"Game {game!r} is not {' or '.join(GAMES)}", tags["Game"][0])
        return None
    letter, most = _seat_tags(game)
    players = []
    for seat in range(most):
        name = tags.get(f"{letter}{seat}")
        if name is None:
            break
        given_id = tags.get(f"{letter}{seat}Id")
        try:
            shown = clean_text(name[1])
        except DomainError as e:
            bad("HEADER_INVALID", f"{letter}{seat}: a player's name {e.message}", name[0])
            return None
        players.append(LogPlayer(seat, None if given_id is None else given_id[1], shown))
    if len(players) < 2:
        bad("HEADER_INVALID", f"name the players in tags {letter}0, {letter}1 ...")
        return None
    competition_name = None
    if "Competition" in tags:
        try:
            competition_name = clean_text(tags["Competition"][1])
        except DomainError as e:
            bad("HEADER_INVALID", f"Competition {e.message}", tags["Competition"][0])
            return None
    options: dict[str, Any] = {}
    if "Options" in tags:
        try:
            options = rules_for(game).options_from_tag(tags["Options"][1])
        except DomainError as e:
            bad(e.code, e.message, tags["Options"][0])
            return None
    ints: dict[str, int] = {}
    for tag, default in (("FirstDealer", 0), ("RulesVersion", 1)):
        given = tags.get(tag)
        if given is None:
            ints[tag] = default
        elif given[1].strip().isdigit():
            ints[tag] = int(given[1])
        else:
            bad("HEADER_INVALID", f"{tag} is a number, not {given[1]!r}", given[0])
            return None
    recording = tags["Recording"][1].strip().lower() if "Recording" in tags else "moves"
    if recording not in RECORDINGS:
        bad(
            "HEADER_INVALID",
            f"Recording is moves or results, not {recording!r}",
            tags["Recording"][0],
        )
        return None
    played_on = None
    if "Date" in tags:
        try:
            played_on = _date(tags["Date"][1])
        except ValueError:
            bad(
                "HEADER_INVALID",
                f"Date is YYYY-MM-DD (or PGN's YYYY.MM.DD), not {tags['Date'][1]!r}",
                tags["Date"][0],
            )
            return None
    for tag, (number, _) in tags.items():
        if tag not in _KNOWN_TAGS and not re.fullmatch(f"{letter}[0-{most - 1}](Id)?", tag):
            bad("HEADER_INVALID", f"unknown tag {tag!r}", number)
            return None
    return LogHeader(
        match_id=tags["Match"][1] if "Match" in tags else None,
        game=game,
        variant=tags["Variant"][1].strip().lower(),
        players=tuple(players),
        first_dealer=ints["FirstDealer"],
        first_dealer_drawn=tags.get("FirstDealerDrawn", (0, "no"))[1].strip().lower() == "yes",
        dealing=tags["Dealing"][1].strip().lower() if "Dealing" in tags else "scorer",
        format=tags["Format"][1].strip() if "Format" in tags else None,
        options=options,
        rules_version=ints["RulesVersion"],
        competition_id=tags["CompetitionId"][1] if "CompetitionId" in tags else None,
        competition_name=competition_name,
        created_at=played_on,
        line=first_line,
        tags={name: tags[name][1] for name in INFO_TAGS if name in tags},
        recording=recording,
    )


def _date(text: str) -> str | None:
    """Return a ``Date`` tag as ``YYYY-MM-DD``, or ``None`` when unknown (``????.??.??``).

    Raises:
        ValueError: the tag is not a date.

    >>> _date('2026.11.21'), _date('????.??.??')
    ('2026-11-21', None)
    """
    value = text.strip().replace(".", "-")
    if not value or set(value) <= {"?", "-"}:
        return None
    if len(value) != 10:
        raise ValueError(value)
    return date.fromisoformat(value).isoformat()


def _deal_move(
    number: int, m: re.Match[str], header: LogHeader | None, visitor: BaseVisitor[Any]
) -> LogMove | None:
    words = m.group(3).split()
    deal: dict[str, Any] = {}
    key: str | None = None
    for word in words:
        lowered = word.lower()
        if lowered in ("deck", "hands", "indicator", "indicator-position"):
            key = lowered
            if key == "hands":
                deal["hands"] = [[]]
            continue
        if key == "deck":
            deal.setdefault("deck", []).append(word)
        elif key == "hands":
            if word == "/":
                deal["hands"].append([])
            else:
                deal["hands"][-1].append(word)
        elif key == "indicator":
            deal["indicator"] = word
        elif key == "indicator-position" and word.isdigit():
            deal["indicator_position"] = int(word)
        else:
            visitor.handle_error(
                LogError(
                    number,
                    "DEAL_INVALID",
                    f"{word!r}: a round line is 'round N deck CARDS' or "
                    "'round N hands CARDS / CARDS ...'",
                )
            )
            return None
    if ("deck" in deal) == ("hands" in deal):
        visitor.handle_error(
            LogError(number, "DEAL_INVALID", "a round starts from a deck or from hands")
        )
        return None
    if header is not None:
        deal = rules_for(header.game).deal_from_log(deal)
    return LogMove(number, "deal", deal=deal)


__all__ = [
    "INFO_TAGS",
    "Lines",
    "is_text_line",
    "move_positions",
    "read_match",
    "result_text",
    "write_match",
]
