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
    result P0

Moves are the engines' notation (docs/notation.md); a line may hold several,
each after its number. Derived events are never written. See docs/log-format.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from domain.errors import DomainError
from domain.events import Event
from domain.logs.base import (
    BaseVisitor,
    Lines,
    LogError,
    LogEvent,
    LogHeader,
    LogMove,
    LogPlayer,
    is_text_line,
)
from domain.stream import MatchConfig, move_text, rules_for

T = TypeVar("T")

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_NUMBER = re.compile(r"(?:^|\s)(\d+)\.(?=\s|$)")
_DEAL = re.compile(r"^(round|deal)\s+(\d+)\s+(.*)$", re.IGNORECASE)
_RESULT = re.compile(r"^result\b\s*(.*)$", re.IGNORECASE)
_RESIGN = re.compile(r"^[PS](\d+)\s+resign-match$")
_KNOWN_TAGS = {
    "Game", "Variant", "Format", "Options", "Dealing", "FirstDealer", "RulesVersion",
    "FirstDealerDrawn", "Match", "Competition", "CompetitionId", "Date", "Event", "Site", "Scorer",
}  # fmt: skip


def _seat_tags(game: str) -> tuple[str, int]:
    return ("P", 3) if game == "cuttle" else ("S", 4)


def read_match(lines: Lines, visitor: BaseVisitor[T]) -> T | None:
    """Read the next text match from ``lines`` into ``visitor``; ``None`` at the end.

    A match runs from its first tag to its ``result`` line (or to the next match's
    tags, or the end of input).
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
    expected_number = 1
    while item is not None:
        number, raw = item
        last = number
        if not is_text_line(raw):
            visitor.handle_error(LogError(number, "NOT_TEXT", "binary data in a text log"))
            item = lines.next_content()
            continue
        text, error = _strip_comments(raw, number)
        if error is not None:
            visitor.handle_error(error)
        text = text.strip()
        if text.startswith("["):
            lines.push_back(item)
            last = number - 1
            break
        item = lines.next_content()
        if not text:
            continue
        result = _RESULT.match(text)
        if result is not None:
            visitor.visit_result(result.group(1).strip() or "*", number)
            if item is not None:
                lines.push_back(item)
            break
        deal = _DEAL.match(text)
        if deal is not None:
            move = _deal_move(number, deal, header, visitor)
            if move is not None:
                visitor.visit_move(move)
            expected_number = 1
            continue
        for given, move_text_ in _split_moves(text):
            if given is not None and given != expected_number:
                visitor.handle_error(
                    LogError(
                        number,
                        "MOVE_NUMBER",
                        f"move {given} where move {expected_number} was expected",
                    )
                )
            expected_number = (given or expected_number) + 1
            resign = _RESIGN.match(move_text_)
            if resign is not None:
                visitor.visit_move(LogMove(number, "resign-match", seat=int(resign.group(1))))
            elif move_text_:
                visitor.visit_move(LogMove(number, "move", text=move_text_))
    visitor.end_match(last)
    return visitor.result()


def _strip_comments(text: str, number: int) -> tuple[str, LogError | None]:
    out: list[str] = []
    depth_start = -1
    for index, ch in enumerate(text):
        if depth_start >= 0:
            if ch == "}":
                depth_start = -1
            continue
        if ch == "{":
            depth_start = index
            out.append(" ")
        else:
            out.append(ch)
    if depth_start >= 0:
        return "".join(out), LogError(
            number, "COMMENT_UNCLOSED", "a comment opened with '{' is never closed on its line"
        )
    return "".join(out), None


def _split_moves(text: str) -> list[tuple[int | None, str]]:
    marks = list(_NUMBER.finditer(text))
    if not marks:
        return [(None, " ".join(text.split()))]
    moves: list[tuple[int | None, str]] = []
    head = text[: marks[0].start()].strip()
    if head:
        moves.append((None, " ".join(head.split())))
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        moves.append((int(mark.group(1)), " ".join(text[mark.end() : end].split())))
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
    if game not in ("cuttle", "kozel"):
        bad("HEADER_INVALID", f"Game {game!r} is not cuttle or kozel", tags["Game"][0])
        return None
    letter, most = _seat_tags(game)
    players = []
    for seat in range(most):
        name = tags.get(f"{letter}{seat}")
        if name is None:
            break
        given_id = tags.get(f"{letter}{seat}Id")
        players.append(LogPlayer(seat, None if given_id is None else given_id[1], name[1]))
    if len(players) < 2:
        bad("HEADER_INVALID", f"name the players in tags {letter}0, {letter}1 ...")
        return None
    options: dict[str, Any] = {}
    if game == "kozel" and "Options" in tags:
        from domain.kozel.state import options_to_data, parse_options

        try:
            options = options_to_data(parse_options(tags["Options"][1].strip()))
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
        competition_name=tags["Competition"][1] if "Competition" in tags else None,
        created_at=tags["Date"][1] if "Date" in tags else None,
        line=first_line,
    )


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
    if header is not None and header.game == "cuttle":
        # Cuttle set-ups keep a deck as one string and hands as strings.
        if "deck" in deal:
            deal["deck"] = " ".join(deal["deck"])
        else:
            deal["hands"] = [" ".join(hand) for hand in deal["hands"]]
    return LogMove(number, "deal", deal=deal)


# --- writing -----------------------------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_match(header: LogHeader, events: Iterable[LogEvent]) -> str:
    """Return a match's text notation from its header and logged events (derived left out)."""
    letter, _ = _seat_tags(header.game)
    tags: list[tuple[str, str]] = [
        ("Game", header.game),
        ("Variant", header.variant),
    ]
    if header.game == "cuttle":
        tags.append(("Format", header.format or "normal"))
    else:
        from domain.kozel.state import format_options, options_from_data

        tags.append(("Options", format_options(options_from_data(header.options))))
    tags += [("Dealing", header.dealing), ("FirstDealer", str(header.first_dealer))]
    if header.first_dealer_drawn:
        tags.append(("FirstDealerDrawn", "yes"))
    if header.rules_version != 1:
        tags.append(("RulesVersion", str(header.rules_version)))
    for p in header.players:
        tags.append((f"{letter}{p.seat}", p.name))
    for p in header.players:
        if p.id is not None:
            tags.append((f"{letter}{p.seat}Id", p.id))
    if header.match_id is not None:
        tags.append(("Match", header.match_id))
    if header.competition_id is not None:
        tags.append(("CompetitionId", header.competition_id))
        if header.competition_name:
            tags.append(("Competition", header.competition_name))
    if header.created_at:
        tags.append(("Date", header.created_at[:10]))
    out = [f"[{name} {_quote(value)}]" for name, value in tags]
    out.append("")
    config = MatchConfig(
        header.game,
        header.variant,
        tuple(p.id or "" for p in header.players),
        header.first_dealer,
        header.dealing,  # type: ignore[arg-type]
        header.format,
        dict(header.options),
    )
    rules = rules_for(header.game)
    word = "round" if header.game == "cuttle" else "deal"
    number = 0
    result = "*"
    for event in events:
        if event.type == rules.round_started:
            out.append(f"{word} {event.data[word]} {_deal_text(event.data['setup'])}")
            number = 0
        elif event.type == "MatchResigned":
            number += 1
            out.append(f"{number}. {letter}{event.data['seat']} resign-match")
        elif event.type == "MatchEnded":
            result = result_text(event.data["winners"], header.game)
        else:
            text = move_text(config, Event(event.type, event.data))
            if text is not None:
                number += 1
                out.append(f"{number}. {text}")
    out.append(f"result {result}")
    return "\n".join(out) + "\n"


def _deal_text(setup: Mapping[str, Any]) -> str:
    parts: list[str] = []
    if "deck" in setup:
        deck = setup["deck"]
        parts.append("deck " + (deck if isinstance(deck, str) else " ".join(deck)))
    else:
        hands: Sequence[Any] = setup["hands"]
        parts.append("hands " + " / ".join(h if isinstance(h, str) else " ".join(h) for h in hands))
    if setup.get("indicator") is not None:
        parts.append(f"indicator {setup['indicator']}")
    if setup.get("indicator_position") is not None:
        parts.append(f"indicator-position {setup['indicator_position']}")
    return " ".join(parts)


def result_text(winners: Sequence[int], game: str) -> str:
    """Return the result as a text log writes it: winning seats, or ``draw``.

    >>> result_text([0, 2], 'kozel')
    'S0 S2'
    """
    letter, _ = _seat_tags(game)
    return " ".join(f"{letter}{s}" for s in winners) if winners else "draw"
