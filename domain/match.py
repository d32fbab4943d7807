"""Rounds composed into a match: each game's series, by the names it always had here.

Each engine decides one round (a Cuttle round, a Kozel deal) and reports how it
ended; the game's series turns those endings into a series score and a match result.
Each series lives in its game's package: ``domain.cuttle.series`` (rules §19:
``quick``, ``short``, ``normal``, ``extended`` or ``best-of-N``; drawn rounds are
recorded but do not count) and ``domain.kozel.series`` (rules §9-10: loss points
2/4/6, eggs, the goat at ``loss_limit``). What every game shares (``MatchResult``,
the ``Series`` protocol, ``series_score``) is ``domain.series``'s. This module
re-exports them all, so scripts importing them from here keep working.
"""

from __future__ import annotations

from domain.cuttle.series import CuttleFormat, CuttleSeries
from domain.kozel.outcome import team_of
from domain.kozel.series import DealScore, KozelSeries, LossReason, score_deal
from domain.series import MatchResult, series_score

__all__ = [
    "CuttleFormat",
    "CuttleSeries",
    "DealScore",
    "KozelSeries",
    "LossReason",
    "MatchResult",
    "score_deal",
    "series_score",
    "team_of",
]
