"""The rules a match is played under: ``MatchConfig`` (``MatchCreated``'s data) and dealing.

Every game reads it (``GameRules.validate``), so it sits below the registry and the match
stream; ``domain.stream.config`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.records import builder

Dealing = Literal["server", "scorer", "physical"]
DEALINGS: tuple[Dealing, ...] = ("server", "scorer", "physical")
Recording = Literal["moves", "results"]
RECORDINGS: tuple[Recording, ...] = ("moves", "results")
"""How a match's rounds are entered: move by move, or as results from a score sheet
(Cuttle §27, Kozel R48)."""
RULES_VERSION = 1
"""Bumped when a rule changes; old matches replay under the version they recorded."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Everything ``MatchCreated`` records: the rules a match is played under and who plays."""

    game: str
    variant: str
    players: tuple[str, ...]
    first_dealer: int
    dealing: Dealing = "server"
    format: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    first_dealer_drawn: bool = False
    competition_id: str | None = None
    rules_version: int = RULES_VERSION
    recording: Recording = "moves"

    def to_data(self) -> dict[str, Any]:
        """Return the JSON-ready data of ``MatchCreated``."""
        return {
            "game": self.game,
            "variant": self.variant,
            "rules_version": self.rules_version,
            "format": self.format,
            "options": dict(self.options),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "first_dealer_drawn": self.first_dealer_drawn,
            "dealing": self.dealing,
            "competition_id": self.competition_id,
            "recording": self.recording,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchConfig:
        """Read ``MatchCreated`` data back (as ``to_data`` wrote it)."""
        # Every fold reads one (rebuilds, replays): build it without the frozen __init__.
        return _match_config(
            data["game"],
            data["variant"],
            tuple(data["players"]),
            data["first_dealer"],
            data["dealing"],
            data.get("format"),
            dict(data.get("options") or {}),
            bool(data.get("first_dealer_drawn", False)),
            data.get("competition_id"),
            data.get("rules_version", RULES_VERSION),
            # Matches created before score-sheet matches existed were all recorded by moves.
            data.get("recording", "moves"),
        )

    def with_settings(self, format: str | None, options: Mapping[str, Any]) -> MatchConfig:
        """Return this config with another format and options (as given: nothing is checked).

        >>> config = MatchConfig('kozel', 'default', (), 0, format='x')
        >>> config.with_settings(None, {}).format is None
        True
        """
        # ``replace`` would go through ``__init__`` by keywords, several times slower.
        return _match_config(
            self.game,
            self.variant,
            self.players,
            self.first_dealer,
            self.dealing,
            format,
            options,
            self.first_dealer_drawn,
            self.competition_id,
            self.rules_version,
            self.recording,
        )


_match_config = builder(MatchConfig)

__all__ = ["DEALINGS", "RECORDINGS", "RULES_VERSION", "Dealing", "MatchConfig", "Recording"]
