"""What a game tallies of finished matches: lines, encounters, and what it reads of a match.

The games tally their own lines (``GameRules.tally``) from these values; ranking them
by points and tiebreaks, and rating players, is ``projections.standings``'s.
``domain.standings`` re-exports them beside the finished match it reads from a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class Finished(Protocol):
    """What a game reads of one finished match when it places seats and tallies lines."""

    @property
    def players(self) -> tuple[str, ...]:
        """The players by seat."""
        ...

    @property
    def rounds(self) -> tuple[Mapping[str, Any], ...]:
        """The scored rounds' rows (``GameRules.rounds_data``)."""
        ...

    @property
    def result(self) -> Mapping[str, Any]:
        """The match result's row (winners, losers, reason, and what the game adds)."""
        ...

    @property
    def is_draw(self) -> bool:
        """Whether nobody won the match."""
        ...

    def places(self) -> list[int]:
        """Each seat's finishing place (1 is best; equal places share a number)."""
        ...


@dataclass(slots=True)
class Line:
    """One entity's line in a table (a player, or a Kozel pair)."""

    entity: str
    members: tuple[str, ...]
    stats: dict[str, int | float] = field(default_factory=dict)

    def add(self, key: str, amount: int | float) -> None:
        """Add ``amount`` to a statistic."""
        self.stats[key] = self.stats.get(key, 0) + amount


@dataclass(frozen=True, slots=True)
class Encounter:
    """One opponent-against-opponent result inside a match: ``score`` is 1, 0.5 or 0 for ``a``."""

    a: str
    b: str
    score: float


Tables = dict[str, tuple[dict[str, Line], list[Encounter]]]
"""Standings tables by name (``players``, ``pairs``): each entity's line and the encounters."""


def pair_key(members: Iterable[str]) -> str:
    """Return the entity id of a pair: its members' ids, sorted, joined by ``+``.

    >>> pair_key(['b', 'a'])
    'a+b'
    """
    return "+".join(sorted(members))


def encounters(entities: Sequence[str], places: Sequence[int]) -> list[Encounter]:
    """Return every encounter between ``entities`` from their places in one match.

    >>> encounters(['a', 'b'], [2, 1])
    [Encounter(a='a', b='b', score=0.0)]
    """
    out = []
    for i, a in enumerate(entities):
        for j in range(i + 1, len(entities)):
            pa, pb = places[i], places[j]
            score = 1.0 if pa < pb else 0.0 if pa > pb else 0.5
            out.append(Encounter(a, entities[j], score))
    return out


PLAYER_STATS = ("played", "won", "drawn", "lost", "points")
"""The columns of ``players_table``'s lines, in order."""
_POINTS = {"won": 1, "drawn": 0.5, "lost": 0}


def players_table(matches: Sequence[Finished]) -> Tables:
    """Return a ``players`` table: each player's matches played, won, drawn and lost, and
    points (a win 1, a draw 1/2), and the encounters their places make.

    The tally of a game with nothing more to count (``domain.game_defaults``).
    """
    lines: dict[str, Line] = {}
    met = []
    for match in matches:
        winners = set(match.result["winners"])
        for seat, player in enumerate(match.players):
            line = lines.setdefault(player, Line(player, (player,), dict.fromkeys(PLAYER_STATS, 0)))
            ended = "drawn" if match.is_draw else "won" if seat in winners else "lost"
            line.add("played", 1)
            line.add(ended, 1)
            line.add("points", _POINTS[ended])
        met.extend(encounters(match.players, match.places()))
    return {"players": (lines, met)}


__all__ = [
    "PLAYER_STATS",
    "Encounter",
    "Finished",
    "Line",
    "Tables",
    "encounters",
    "pair_key",
    "players_table",
]
