"""Request and response bodies of the match resources."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from litestar.params import Parameter
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from api.inputs import MAX_SAFE_INTEGER, Line
from api.schemas import GameName
from domain.events import RecordedEvent
from domain.stream.commands import MAX_NOTE_LENGTH, MAX_REASON_LENGTH
from domain.text import text_pattern
from projections.matches import match_summary

Dealing = Literal["server", "scorer", "physical"]
Recording = Literal["moves", "results"]
# A note and a reason are checked (and cleaned: CR LF stored as LF) by the match's
# decider, imports' too, with the codes it has always given (NOTE_INVALID,
# REASON_REQUIRED); here the schema only says what it takes: domain.text's rule.
Reason = Annotated[
    StrictStr, Parameter(pattern=text_pattern(lines=True), max_length=MAX_REASON_LENGTH)
]
"""A takeback's or a void's reason: text, tab and line ends allowed."""
NoteText = Annotated[
    StrictStr,
    Parameter(pattern=text_pattern(lines=True, braces=False), max_length=MAX_NOTE_LENGTH),
]
"""A note: text, tab and line ends allowed, no braces (they delimit the text log's comments)."""


KOZEL_OPTIONS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "loss_limit": {"type": "integer", "minimum": 2, "maximum": MAX_SAFE_INTEGER},
        "eggs_double_next": {"type": "boolean"},
        "trump_indicator_bottom": {"type": "boolean"},
        "open_throws": {"type": "boolean"},
    },
}
"""What ``options`` takes (domain.kozel.options): an unknown flag is INVALID_FORMAT."""


class MatchIn(BaseModel):
    """A match to create."""

    model_config = ConfigDict(extra="forbid")

    id: UUID | None = Field(
        default=None,
        description="Optional client-chosen id (for imports); the server makes one otherwise.",
    )
    game: GameName
    variant: Line | None = Field(
        default=None,
        description="cuttle: classic, standard or cutthroat; kozel: default. "
        "Defaults to the competition's variant.",
    )
    players: list[UUID] = Field(
        description="Player ids by seat: 2 (cuttle), 3 (cutthroat) or 4 (kozel: seats 0+2 "
        "and 1+3 are the teams).",
        min_length=2,
        max_length=4,
    )
    format: Line | None = Field(
        default=None,
        description="cuttle: quick, short, normal, extended or best-of-N (N odd); defaults "
        "to the competition's format (another is FORMAT_MISMATCH), else normal.",
    )
    options: dict[str, Any] | None = Field(
        default=None,
        json_schema_extra={"one_of": [KOZEL_OPTIONS, {"type": "null"}]},
        description="kozel: {loss_limit (>= 2, default 12), eggs_double_next, "
        "trump_indicator_bottom, open_throws}; in a competition, loss_limit and "
        "eggs_double_next are its own (another is FORMAT_MISMATCH) and the others add to them.",
    )
    first_dealer: StrictInt | None = Field(
        default=None,
        description="Seat of the first dealer; drawn at random when omitted. A fixture's "
        "match takes its table's first_dealer (another seat is FIXTURE_MISMATCH).",
    )
    dealing: Dealing = Field(
        default="server",
        description="server: the server shuffles every round; scorer: the scorer gives each "
        "round's deck order; physical: the scorer gives the dealt hands and names drawn cards.",
    )
    recording: Recording = Field(
        default="moves",
        description="moves: every move is recorded; results: a score sheet, each round "
        "entered as its result through POST /matches/{id}/moves (cuttle 'result P1' or "
        "'result draw'; kozel 'deal 75 45' or 'deal 120 0 blank B'), no deals "
        "(docs/competitions.md, Score-sheet matches).",
    )
    competition_id: UUID | None = None
    fixture_id: UUID | None = Field(
        default=None,
        description="A table of the competition's fixtures (GET /competitions/{id}/fixtures): "
        "the match is the one played there, its players seated as the fixture says.",
    )


class RoundIn(BaseModel):
    """The start of a round (Cuttle) or deal (Kozel) dealt by the scorer."""

    model_config = ConfigDict(extra="forbid")

    deck: Line | list[Line] | None = Field(
        default=None, description="The whole deck order, top card first."
    )
    hands: list[Line | list[Line]] | None = Field(
        default=None, description="Physical deck: the dealt hands, seat 0 first."
    )
    indicator: Line | None = Field(
        default=None, description="kozel, physical deck: the trump indicator."
    )
    indicator_position: StrictInt | None = Field(
        default=None, description="kozel, deck order: the indicator's place in the stock (0-19)."
    )
    position: Line | None = Field(
        default=None,
        description="kozel, a match's first deal only, alone: the deal in progress in the "
        "position notation, followed by its match context (deal=N loss=A/B eggs=N carried=N), "
        "so the match takes up mid-deal with the loss points and eggs it carried "
        "(docs/notation.md).",
    )
    expected_version: StrictInt | None = Field(
        default=None, description="The version the client last saw (or send If-Match)."
    )

    def deal(self) -> dict[str, Any]:
        """Return the deal mapping the match decider reads."""
        fields = ("deck", "hands", "indicator", "indicator_position", "position")
        return {k: getattr(self, k) for k in fields if getattr(self, k) is not None}


class MovesIn(BaseModel):
    """One move or a batch (all or nothing), in the engine's notation."""

    model_config = ConfigDict(extra="forbid")

    moves: list[Line] = Field(
        min_length=1,
        max_length=200,
        description="Moves in order, e.g. ['P0 points 7H'] (cuttle) or ['S0 lead 7S KS'] "
        "(kozel); the scorer's 'cards ...' names unknown cards.",
    )
    seat: StrictInt | None = Field(
        default=None,
        description="Seat that makes the moves: prefixed to moves written without a seat.",
    )
    expected_version: StrictInt | None = Field(
        default=None, description="The version the client last saw (or send If-Match)."
    )


class ResignIn(BaseModel):
    """A whole-match resignation: 2-player Cuttle, or a Kozel concession (R47)."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt
    expected_version: StrictInt | None = None


class TakebackIn(BaseModel):
    """Go back to the match as it was at ``to_version`` (a scorer's correction)."""

    model_config = ConfigDict(extra="forbid")

    to_version: StrictInt
    reason: Reason
    expected_version: StrictInt | None = None


class VoidIn(BaseModel):
    """Void a finished match (admin): it stays in the log and counts nowhere."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason
    expected_version: StrictInt | None = None


class NoteIn(BaseModel):
    """A short note on a recorded event (a ruling, a misplay seen, a clock time)."""

    model_config = ConfigDict(extra="forbid")

    version: StrictInt
    text: NoteText
    expected_version: StrictInt | None = None


class EventOut(BaseModel):
    """One recorded event (hidden cards redacted for readers who may not see them)."""

    position: int
    version: int
    id: UUID
    type: str
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    redacted: bool = False

    @classmethod
    def from_recorded(cls, event: RecordedEvent, data: dict[str, Any] | None = None) -> EventOut:
        """Return the body of a recorded event, with ``data`` replacing its data if given."""
        return cls(
            position=event.global_position,
            version=event.version,
            id=event.event_id,
            type=event.type,
            data=dict(event.data) if data is None else data,
            metadata=dict(event.metadata),
            recorded_at=event.recorded_at,
            redacted=data is not None and data != dict(event.data),
        )


class RoundOut(BaseModel):
    """The round in progress: its number and the public view of the table."""

    number: int
    to_act: list[int]
    cards_awaited: int
    view: dict[str, Any]


class MatchOut(BaseModel):
    """A match: its rules, seats, series score, result and the round in progress."""

    id: UUID
    game: str
    variant: str
    rules_version: int
    format: str | None
    options: dict[str, Any]
    players: list[UUID]
    first_dealer: int
    first_dealer_drawn: bool
    dealing: Dealing
    recording: Recording
    competition_id: UUID | None
    fixture_id: UUID | None = Field(
        description="The table of the competition's fixtures the match was made for "
        "(GET /competitions/{id}/fixtures); null for a match made outside them."
    )
    status: Literal["live", "finished", "void"]
    version: int
    score: dict[str, Any]
    result: dict[str, Any] | None
    rounds_started: int
    dealer: int = Field(description="Who deals the round in progress, or the next one.")
    round: RoundOut | None


class RecordedOut(BaseModel):
    """What a write recorded: the new version, every event (derived ones too), the match."""

    version: int
    events: list[EventOut]
    match: MatchOut


class ChoiceOut(BaseModel):
    """One move as a scorer's pad offers it: the cards it plays, its target, its sentence."""

    move: str = Field(description="The move, as in `moves` (engine notation).")
    seat: int | None = Field(description="The seat that makes it; null: the scorer naming cards.")
    cards: list[str] = Field(
        description="The cards it plays, from the acting seat's hand (a Cuttle seven's"
        " revealed card; the scorer's named cards in order); empty for a draw, a pass,"
        " a molodka or a resignation."
    )
    target_card: str | None = Field(
        description="The card on the table it aims at (a scuttle's, a jack's, a two's or"
        " nine's target; the card a three takes from the scrap), or null."
    )
    target_seat: int | None = Field(
        description="The player it aims at (a cutthroat four's victim), or null."
    )
    sentence: str = Field(description="The sentence the match's timeline writes for it.")


class LegalMovesOut(BaseModel):
    """Who may act now and every legal move, in the engine's notation."""

    version: int
    to_act: list[int]
    cards_awaited: int = Field(description="Cards the scorer must name now (physical deck).")
    nameable: list[str] = Field(
        default_factory=list,
        description="While cards are awaited: the cards that may be named, in any order.",
    )
    name_last: str | None = Field(
        default=None,
        description="While cards are awaited: the card that must be named last (Kozel's"
        " indicator under the stock, drawn last, R32), not in `nameable`; else null.",
    )
    moves: list[str] = Field(
        description="The moves of whoever must act now; empty while cards are awaited (the"
        " namings are never listed: see `nameable`)."
    )
    service_moves: list[str] = Field(
        default_factory=list,
        description="Moves any seat may make besides playing: resignations and draw offers"
        " (Cuttle), concessions (Kozel, also between deals).",
    )
    choices: list[ChoiceOut] = Field(
        default_factory=list,
        description="One entry per entry of `moves`, in the same order: its cards, target"
        " and sentence. Empty, like `moves`, while cards are awaited: a scorer names"
        " `cards_awaited` cards from `nameable` (then `name_last`), in draw order.",
    )
    service_choices: list[ChoiceOut] = Field(
        default_factory=list,
        description="One entry per entry of `service_moves`, in the same order.",
    )


class EventPage(BaseModel):
    """A page of a match's raw events, oldest first."""

    items: list[EventOut]
    next_after: int | None = Field(description="Pass as ?after= for the next page.")


class MatchSummaryOut(BaseModel):
    """A match in a listing: who played, the score, how it ended."""

    id: UUID
    game: str
    variant: str
    competition_id: UUID | None
    players: list[UUID]
    dealing: Dealing
    recording: Recording
    status: Literal["live", "finished", "void"]
    version: int
    rounds: int
    score: dict[str, Any]
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> MatchSummaryOut:
        """Return the listing entry of a ``matches`` row."""
        return cls(**match_summary(row))


class MatchPage(BaseModel):
    """One page of matches, newest first."""

    items: list[MatchSummaryOut]
    next_cursor: str | None = Field(description="Pass as ?cursor= for the next page.")


PlayerOutcome = Literal["won", "lost", "drawn", "live", "void"]


class PlayerMatchOut(MatchSummaryOut):
    """A match in a player's record: the match, the player's seat and how it went for them."""

    seat: int
    outcome: PlayerOutcome


class PlayerRecordOut(BaseModel):
    """A player with a page of their matches (newest first, up to ``limit``) and their results."""

    id: UUID
    display_name: str
    created_at: datetime
    results: dict[str, int] = Field(
        description="Over every finished match the caller may read: played, won, lost, drawn."
    )
    matches: list[PlayerMatchOut] = Field(
        description="A page of the player's matches, newest first (``limit``, ``cursor``)."
    )
    matches_total: int = Field(description="How many matches of the player the caller may read.")
    next_cursor: str | None = Field(
        description="The ``cursor`` of the next page of matches; null on the last page."
    )
    opponents: list[HeadToHeadOut] = Field(
        description="Head-to-head: the finished matches against each opponent, most first."
    )
    competitions: list[CompetitionEnteredOut] = Field(
        description="Competitions the player entered or played in, newest first."
    )


class HeadToHeadOut(BaseModel):
    """The player's finished matches against one opponent (a player on another side)."""

    player_id: UUID
    played: int
    won: int
    lost: int
    drawn: int


class CompetitionEnteredOut(BaseModel):
    """A competition the player entered or played a match in."""

    id: UUID
    name: str
    game: str
    variant: str


class RatingPointOut(BaseModel):
    """The player's openskill rating right after one of their finished matches."""

    match_id: UUID
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma, the value the standings show.")


class RatingHistoryOut(BaseModel):
    """A player's rating history in one competition, in the order its matches ended."""

    competition_id: UUID
    name: str
    game: str
    variant: str
    points: list[RatingPointOut]


class PlayerRatingsOut(BaseModel):
    """A player's rating history in each competition the caller may read."""

    player_id: UUID
    competitions: list[RatingHistoryOut]


def player_outcome(row: dict[str, Any], seat: int) -> PlayerOutcome:
    """Return how a match went for the player in ``seat``: won, lost, drawn, live or void."""
    if row["status"] != "finished":
        return "live" if row["status"] == "live" else "void"
    result = row["result"] or {}
    if seat in result.get("winners", []):
        return "won"
    if seat in result.get("losers", []):
        return "lost"
    return "drawn"
