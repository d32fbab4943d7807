"""How a Kozel deal ended (rules §9): its card points and tricks, and each seat's team.

``KozelOptions`` lives in ``domain.kozel.options`` and is still importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kozel.options import KozelOptions


def team_of(seat: int) -> int:
    """Return the team of a seat: 0 for team A (seats 0 and 2), 1 for team B (1 and 3)."""
    return seat % 2


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A played-out deal: card points and tricks per team (A, B), and the last trick's taker.

    The two card totals add up to 120; the loss points follow from these in
    ``domain.match`` (R24, R25), which also decides who leads the next deal (R6).
    A deal entered from a score sheet (R48) knows only whether a team took no trick:
    its other team's tricks are ``None``.
    """

    card_points: tuple[int, int]
    tricks: tuple[int | None, int | None]
    last_trick_seat: int

    @property
    def is_eggs(self) -> bool:
        """Whether the deal ended 60 : 60 (§9.3)."""
        return self.card_points == (60, 60)


__all__ = ["DealOutcome", "KozelOptions", "team_of"]
