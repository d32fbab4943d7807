"""Draw high's rules: what ``DefaultRules`` cannot know, and a format, ``first-to-N``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.cards import table_text
from domain.errors import InvalidSetupError
from domain.events import Event
from domain.game_defaults import DefaultRules
from domain.game_rules import GameRules
from domain.match_config import MatchConfig
from domain.words import ENGLISH, Words
from tests.third_game import engine
from tests.third_game.engine import Draw, Position
from tests.third_game.series import Series


class DrawHighRules(DefaultRules[Position, Draw, int, Series]):
    """Two seats, a 52-card pack, first to N hands; every other member is a default."""

    game = "drawhigh"
    round_word = "hand"
    seat_letter = "H"
    max_seats = 2
    move_kinds = frozenset({"CardDrawn"})
    variants: tuple[str, ...] = ("duel",)
    default_format = "first-to-3"

    initial_position = staticmethod(engine.initial_position)
    decide = staticmethod(engine.decide)
    evolve = staticmethod(engine.evolve)
    outcome = staticmethod(engine.outcome)
    legal_moves = staticmethod(engine.legal_moves)
    to_act = staticmethod(engine.to_act)
    view = staticmethod(engine.view)

    def format_text(self, text: str) -> str:
        """Return ``first-to-N`` (N from 1 to 99), or raise INVALID_FORMAT."""
        return f"first-to-{_target(text)}"

    def new_series(self, config: MatchConfig) -> Series:
        """Return a series with no hand played."""
        return Series(_target(config.format or "first-to-3"), config.first_dealer)

    def score(self, series: Series, outcome: int, round_no: int) -> tuple[Series, Event]:
        """Record the hand's winner; ``HandScored`` holds it and the wins after it."""
        after = series.record(outcome)
        return after, Event(self.round_scored, after.rows()[-1])

    def series_from_scored(self, series: Series, data: Mapping[str, Any]) -> Series:
        """Record the winner a ``HandScored`` holds."""
        return series.record(data["winner"])

    def rounds_data(self, series: Series) -> list[dict[str, Any]]:
        """Each hand's winner with the wins after it."""
        return series.rows()

    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
    ) -> tuple[str, str, int | None]:
        """Return the draw, its sentence (the card as the table draws it) and its seat."""
        seat = data["seat"]
        return Draw(seat).text(), f"{names[seat]} draws {table_text(data['card'], words)}", seat


def _target(text: str) -> int:
    found = re.fullmatch(r"first-to-([1-9]\d?)", text.strip().lower())
    if found is None:
        message = f"{text!r} is not a draw-high format: write first-to-N"
        raise InvalidSetupError(message, code="INVALID_FORMAT", details={"format": text})
    return int(found.group(1))


RULES: GameRules[Position, Draw, int, Series] = DrawHighRules()
"""Draw high's rules, as the tests register them."""
