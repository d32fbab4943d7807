"""A match between rounds, as every game shares it: the ``Series`` protocol and its result.

Each game keeps its own series value in its package (``domain.cuttle.series``,
``domain.kozel.series``); the match layer reads them through this protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended. ``winners`` and ``losers`` are seats; both empty for a draw."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        """Whether the match was drawn (only a Cuttle ``quick`` match can be)."""
        return not self.winners


class Series(Protocol):
    """A match between rounds, as the match layer sees it: whose deal, the score, any result."""

    @property
    def dealer(self) -> int:
        """The seat that deals the next round."""
        ...

    def score_data(self) -> dict[str, object]:
        """Return the running score as JSON-ready data."""
        ...

    def result(self) -> MatchResult | None:
        """Return the match result, or ``None`` while the match goes on."""
        ...


def series_score(series: Series) -> dict[str, object]:
    """Return the running score as JSON-ready data (what summaries and views show).

    >>> from domain.kozel.outcome import KozelOptions
    >>> from domain.kozel.series import KozelSeries
    >>> series_score(KozelSeries(KozelOptions(), 0))
    {'loss_points': [0, 0], 'eggs': 0, 'deals': 0, 'multiplier': 1, 'loss_limit': 12}
    """
    return series.score_data()


__all__ = ["MatchResult", "Series", "series_score"]
