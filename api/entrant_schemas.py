"""Request and response bodies of a competition's entrants and fixtures."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from api.problems import validation_failed
from store.entrants import Entrant


class EntrantIn(BaseModel):
    """An entrant to add: ``player_id`` (Cuttle) or ``players``, a fixed Kozel pair."""

    model_config = ConfigDict(extra="forbid")

    player_id: UUID | None = Field(default=None, description="The one player (Cuttle).")
    players: list[UUID] | None = Field(
        default=None, description="A fixed Kozel pair, partners sitting opposite."
    )

    def player_ids(self) -> list[UUID]:
        """Return the entrant's players in seat order.

        Raises:
            MalformedError (VALIDATION_FAILED): neither or both of ``player_id`` and ``players``.
        """
        if self.player_id is not None and self.players is None:
            return [self.player_id]
        if self.player_id is None and self.players is not None:
            return list(self.players)
        raise validation_failed("players", "give either player_id or players, not both")


class EntrantOut(BaseModel):
    """An entrant: its id and its players."""

    id: UUID
    players: list[UUID]

    @classmethod
    def from_record(cls, entrant: Entrant) -> EntrantOut:
        """Return the body for a stored entrant."""
        return cls(id=entrant.id, players=list(entrant.players))


class EntrantList(BaseModel):
    """A competition's entrants in the order they were entered."""

    items: list[EntrantOut]


class PairingIn(BaseModel):
    """How to make rounds: every round at once (round robin) or the next one (Swiss)."""

    model_config = ConfigDict(extra="forbid")

    system: Literal["round-robin", "swiss"]
    legs: int = Field(default=1, ge=1, le=4, description="Round robin only: how many legs.")
