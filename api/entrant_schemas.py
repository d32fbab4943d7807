"""Request and response bodies of a competition's entrants and fixtures."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from api.inputs import Text
from api.problems import validation_failed
from service.competitions import Entrant
from service.organising import REASON_MAX, record_report, withdrawn_report
from service.organising import Record as ChangeRecord


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


class ByOut(BaseModel):
    """Who made a change: the API token's id and name (null and a user's name at a terminal)."""

    token_id: UUID | None
    name: str


class WithdrawnOut(BaseModel):
    """When an entrant withdrew, by whom, and why."""

    at: datetime
    by: ByOut
    reason: str


class EntrantOut(BaseModel):
    """An entrant: its id, its players, and its withdrawal if it has withdrawn."""

    id: UUID
    players: list[UUID]
    withdrawn: WithdrawnOut | None = Field(
        default=None,
        description="Set once the entrant has withdrawn: it is paired in no later round.",
    )

    @classmethod
    def from_record(cls, entrant: Entrant) -> EntrantOut:
        """Return the body for a stored entrant."""
        withdrawn = withdrawn_report(entrant)
        return cls(
            id=entrant.id,
            players=list(entrant.players),
            withdrawn=None if withdrawn is None else WithdrawnOut.model_validate(withdrawn),
        )


Reason = Annotated[str, Text(max_length=REASON_MAX, lines=True)]
"""Why an organiser changed something: kept in the records (``domain.text``'s rule)."""


class WithdrawIn(BaseModel):
    """Why an entrant withdraws."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason = Field(description="Why: kept in the records.")


class SwapIn(BaseModel):
    """Two entrants of a round to swap between tables (or a table and a bye), and why."""

    model_config = ConfigDict(extra="forbid")

    a: UUID = Field(description="An entrant id.")
    b: UUID = Field(description="Another entrant id, at another table or a bye.")
    reason: Reason = Field(description="Why: kept in the records.")


class TakebackIn(BaseModel):
    """Why the last round is taken back."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason = Field(description="Why: kept in the records.")


class RecordOut(BaseModel):
    """One change an organiser made: a withdrawal, a swap, a taken-back round or a corrected
    result (a new match at a table whose match was voided)."""

    id: UUID
    kind: Literal["withdrawal", "swap", "takeback", "correction"]
    at: datetime
    by: ByOut
    reason: str
    round: int | None = Field(
        description="The round swapped, (first) taken back, or of the corrected table."
    )
    entrant_id: UUID | None = Field(description="The entrant who withdrew.")
    details: dict[str, Any] = Field(
        description="withdrawal: {forfeited: fixture ids}; swap: {a, b, fixture_ids}; "
        "takeback: {rounds: the rounds taken back, as GET .../fixtures gave them}; "
        "correction: {fixture_id, table, void_match_id, match_id, voided_at, voided_by}, "
        "its reason the void's."
    )

    @classmethod
    def from_record(cls, record: ChangeRecord) -> RecordOut:
        """Return the body for a stored record."""
        return cls.model_validate(record_report(record))


class RecordList(BaseModel):
    """A competition's records, newest first."""

    items: list[RecordOut]


class EntrantList(BaseModel):
    """A competition's entrants in the order they were entered."""

    items: list[EntrantOut]


class PairingIn(BaseModel):
    """How to make rounds: every round at once (round robin) or the next one (Swiss)."""

    model_config = ConfigDict(extra="forbid")

    system: Literal["round-robin", "swiss"]
    legs: int = Field(default=1, ge=1, le=4, description="Round robin only: how many legs.")

    def checked_legs(self) -> int:
        """Return the legs asked for.

        Raises:
            MalformedError (VALIDATION_FAILED): legs other than 1 for a Swiss round.
        """
        if self.system == "swiss" and self.legs != 1:
            raise validation_failed("legs", "a Swiss round has no legs: leave legs out")
        return self.legs


class TableOut(BaseModel):
    """One table of a round: entrants and players in seat order, the match and its result."""

    id: UUID = Field(description="The fixture id: send it as fixture_id on POST /matches.")
    entrants: list[UUID]
    players: list[UUID] = Field(description="The match's players by seat.")
    first_dealer: int | None = Field(
        description="The seat that deals first: POST /matches with this fixture_id takes it. "
        "Null on tables made before tables carried one (the match draws it)."
    )
    match_id: UUID | None
    result: dict[str, Any] | None = Field(
        description="The finished match's result with forfeit false, or a forfeit's: "
        "{winners (seats), draw false, forfeit true, forfeited_by (entrant ids)}; else null."
    )


class ForfeitIn(BaseModel):
    """Who forfeits a table: one or more of its entrants (all of them: a double forfeit)."""

    model_config = ConfigDict(extra="forbid")

    forfeited_by: list[UUID] = Field(min_length=1, description="Entrant ids at the table.")


class RoundOut(BaseModel):
    """One round: how it was made, its tables, who sits out, how many rematches it holds."""

    number: int
    system: Literal["round-robin", "swiss"]
    rematches: int = Field(description="Pairs meeting again because no other pairing existed.")
    tables: list[TableOut]
    byes: list[UUID]


class FixturesOut(BaseModel):
    """A competition's rounds, in order (``service.fixture_reports.rounds_report``)."""

    rounds: list[RoundOut]
    swiss_scores: dict[UUID, float] = Field(
        description="Each entrant seated so far: the score Swiss rounds are paired by (1 a "
        "win, 1/2 a draw, 0 a loss, a forfeit won as a win, a bye as the competition's bye)."
    )
