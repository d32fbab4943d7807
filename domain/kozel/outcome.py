"""How a Kozel deal ended (rules §9) and the option flags of §11."""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import InvalidSetupError


def team_of(seat: int) -> int:
    """Return the team of a seat: 0 for team A (seats 0 and 2), 1 for team B (1 and 3)."""
    return seat % 2


@dataclass(frozen=True, slots=True)
class KozelOptions:
    """The option flags of §11; a match stores them in its first event."""

    loss_limit: int = 12
    eggs_double_next: bool = False
    trump_indicator_bottom: bool = False
    open_throws: bool = False

    def __post_init__(self) -> None:
        if (
            isinstance(self.loss_limit, bool)
            or not isinstance(self.loss_limit, int)
            or self.loss_limit < 2
        ):
            raise InvalidSetupError(
                f"loss_limit must be a whole number of at least 2, not {self.loss_limit!r}",
                code="INVALID_FORMAT",
                details={"loss_limit": self.loss_limit},
            )


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A played-out deal: card points and tricks per team (A, B), and the last trick's taker.

    The two card totals add up to 120; the loss points follow from these in
    ``domain.match`` (R24, R25), which also decides who leads the next deal (R6).
    """

    card_points: tuple[int, int]
    tricks: tuple[int, int]
    last_trick_seat: int

    @property
    def is_eggs(self) -> bool:
        """Whether the deal ended 60 : 60 (§9.3)."""
        return self.card_points == (60, 60)
