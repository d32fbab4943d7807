"""The text notation written: a match's tag header, rounds, numbered moves and result.

What ``domain.logs.text`` reads, written back (docs/log-format.md); ``text``
re-exports ``write_match`` and ``result_text``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.events import Event
from domain.games import rules_for
from domain.logs.base import (
    LogEvent,
    LogHeader,
)
from domain.logs.commands import move_positions
from domain.stream import MatchConfig, VersionedEvent, effective_events, move_text

INFO_TAGS = ("Event", "Site", "Scorer")
"""Tags that describe where a match was played, not how: kept, never interpreted."""


def _seat_tags(game: str) -> tuple[str, int]:
    rules = rules_for(game)
    return rules.seat_letter, rules.max_seats


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_match(header: LogHeader, events: Iterable[LogEvent]) -> str:
    """Return a match's text notation from its header and logged events (derived left out).

    Corrections show as the table saw them: moves taken back stay, followed by the
    ``takeback`` line and the moves that replaced them; notes are ``{ comments }``.
    """
    letter, _ = _seat_tags(header.game)
    tags: list[tuple[str, str]] = [
        ("Game", header.game),
        ("Variant", header.variant),
    ]
    format_tag = rules_for(header.game).format_tag(header.format, header.options)
    if format_tag is not None:
        tags.append(format_tag)
    tags += [("Dealing", header.dealing), ("FirstDealer", str(header.first_dealer))]
    if header.first_dealer_drawn:
        tags.append(("FirstDealerDrawn", "yes"))
    if header.recording != "moves":
        tags.append(("Recording", header.recording))
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
    events = list(events)
    if events and events[0].type == "MatchCreated":
        kept = events[0].metadata.get("tags")
        if isinstance(kept, Mapping):
            tags += [(name, str(kept[name])) for name in INFO_TAGS if name in kept]
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
    return "\n".join(out + _body(header, config, events)) + "\n"


def _body(header: LogHeader, config: MatchConfig, events: Iterable[LogEvent]) -> list[str]:
    """Return the body lines: rounds, moves and takebacks as played, the result, a void.

    Each note is written as a comment on the line of the event it names; an event
    no line shows (a derived one) is on the line of the move that produced it, and
    the match itself (``MatchCreated``) on comment lines before the first round.
    """
    letter, _ = _seat_tags(header.game)
    rules = rules_for(header.game)
    word = rules.round_word
    prelude: list[str] = []
    lines: list[list[str]] = []
    ending = ["result *"]
    void: list[str] = []
    line_of: dict[int, list[str]] = {}
    current = prelude
    pairs: list[VersionedEvent] = []
    number = 0
    for logged in events:
        event = Event(logged.type, logged.data)
        kind, data, text = event.type, event.data, None
        if kind == "NoteAdded":
            target = line_of.get(int(data["version"]), prelude)
            target.append("{ " + _one_line(data["text"]) + " }")
            line_of[logged.version] = target
        elif kind == "TakenBack":
            at = {v: (r, m) for v, r, m in move_positions(config, effective_events(pairs))}
            round_no, number = at[int(data["to_version"])]
            reason = _quote(_one_line(data["reason"]))
            text = f"takeback to {word} {round_no} move {number} {reason}"
        elif kind == rules.round_started:
            text = f"{word} {data[word]} {_deal_text(data['setup'])}"
            number = 0
        elif kind == "MatchResigned":
            number += 1
            # A game that records the resignation as a move (Kozel's concession) writes it.
            written = move_text(config, event) or f"{letter}{data['seat']} resign-match"
            text = f"{number}. {written}"
        elif kind == "MatchEnded":
            ending[0] = f"result {result_text(data['winners'], header.game)}"
            line_of[logged.version] = ending
        elif kind == "MatchVoided":
            void.append(f"void {_quote(_one_line(data['reason']))}")
            line_of[logged.version] = void
        else:
            played = move_text(config, event)
            if played is not None:
                number += 1
                text = f"{number}. {played}"
        if text is not None:
            current = [text]
            lines.append(current)
        line_of.setdefault(logged.version, current)
        pairs.append((logged.version, event))
    out = list(prelude)
    out += [" ".join(line) for line in (*lines, ending)]
    if void:
        out.append(" ".join(void))
    return out


def _one_line(text: str) -> str:
    """Return ``text`` with its line breaks made spaces, so it stays on its line.

    >>> _one_line('a\\nb')
    'a b'
    """
    return " ".join(text.splitlines())


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


__all__ = ["INFO_TAGS", "result_text", "write_match"]
