"""The commands a match stream accepts: one dataclass per thing a scorer or server may ask."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.stream.config import MatchConfig


@dataclass(frozen=True, slots=True)
class CreateMatch:
    """Open a match. With server dealing, ``deal`` is the first round's shuffled deck."""

    config: MatchConfig
    deal: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class StartRound:
    """Open the next round from a scorer-given deck order or physically dealt hands."""

    deal: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Play:
    """Record one move in the engine's notation.

    ``next_deal`` is a freshly shuffled deck for server-dealt matches: if this move
    ends a round and the match goes on, the next round starts from it at once.
    """

    move: str
    next_deal: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ResignMatch:
    """A resignation of the whole match, where the game allows one (Cuttle 2-player, ruling 37)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Go back to the match exactly as it was at ``to_version``, on its effective line."""

    to_version: int
    reason: str


@dataclass(frozen=True, slots=True)
class VoidMatch:
    """Void a finished match: it stays in the log, marked void, and counts nowhere."""

    reason: str


@dataclass(frozen=True, slots=True)
class AddNote:
    """Attach a short note (a ruling, a misplay seen, a clock time) to a recorded event."""

    version: int
    text: str


Command = CreateMatch | StartRound | Play | ResignMatch | TakeBack | VoidMatch | AddNote

MAX_NOTE_LENGTH = 500
"""The longest note, in characters."""
MAX_REASON_LENGTH = 200
"""The longest takeback or void reason, in characters."""

__all__ = [
    "MAX_NOTE_LENGTH",
    "MAX_REASON_LENGTH",
    "AddNote",
    "Command",
    "CreateMatch",
    "Play",
    "ResignMatch",
    "StartRound",
    "TakeBack",
    "VoidMatch",
]
