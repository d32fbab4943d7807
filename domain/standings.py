"""What standings tally of finished matches: lines, encounters, and each seat's place.

The games tally their own lines (``GameRules.tally``) with ``domain.tally``'s values,
re-exported here; ranking them by points and tiebreaks, and rating players, is
``projections.standings``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.games import rules_for
from domain.tally import Encounter, Line, encounters, pair_key


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


__all__ = ["Encounter", "FinishedMatch", "ForfeitedTable", "Line", "encounters", "pair_key"]
