"""What standings tally of finished matches: lines, encounters, and each seat's place.

The games tally their own lines (``GameRules.tally``); ranking them by points and
tiebreaks, and rating players, is ``projections.standings``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games import rules_for


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """What standings need of one finished match (a ``match_series`` row)."""

    match_id: str
    game: str
    players: tuple[str, ...]
    rounds: tuple[Mapping[str, Any], ...]
    result: Mapping[str, Any]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> FinishedMatch:
        """Read a ``match_series`` row (uuid columns as ``UUID`` or text)."""
        return cls(
            match_id=str(row["match_id"]),
            game=row["game"],
            players=tuple(str(p) for p in row["players"]),
            rounds=tuple(row["rounds"]),
            result=row["result"],
        )

    @property
    def is_draw(self) -> bool:
        """Whether nobody won the match."""
        return not self.result["winners"]

    def cuttle_round_wins(self) -> list[int]:
        """Counted round wins per seat at the end of the match."""
        if not self.rounds:
            return [0] * len(self.players)
        return list(self.rounds[-1]["wins"])

    def places(self) -> list[int]:
        """Each seat's finishing place (1 is best; equal places share a number).

        A drawn match puts everyone first; otherwise the game places the seats
        (``GameRules.places``).
        """
        if self.is_draw:
            return [1 for _ in self.players]
        return rules_for(self.game).places(self)


@dataclass(frozen=True, slots=True)
class ForfeitedTable:
    """What standings need of a forfeited fixture: its entrants' players, who forfeited.

    ``entrants`` holds each entrant's players (one, or a Kozel pair's two); ``forfeited``
    the indexes in it of the entrants who forfeited (all of them: a double forfeit).
    """

    entrants: tuple[tuple[str, ...], ...]
    forfeited: frozenset[int]


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


__all__ = ["Encounter", "FinishedMatch", "ForfeitedTable", "Line", "encounters", "pair_key"]
