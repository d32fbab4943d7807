"""What everything outside a game's package asks of that game: the ``GameRules`` protocol.

``GameRules`` is generic over the game's position, move, round outcome and series
types, and composed of one protocol per concern: ``Engine`` (a round: positions,
moves, views), ``SeriesRules`` (rounds scored into a match), ``Settings`` (variants,
formats, seats), ``Records`` (what events and logs hold), ``Standings`` (places and
tallies) and ``Presentation`` (words and sentences). Each game's package implements
it in ``match_rules``, typed with its own values (a Cuttle ``Position``, a
``KozelSeries``), so nothing there has to check what it was given; a game inherits
what it need not write from ``domain.game_defaults.DefaultRules``. ``domain.games``
lists them, as ``AnyRules``: the registry holds games of different types, and a
caller hands a game only the values that game gave it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

from domain.cards import Card
from domain.errors import InvalidSetupError
from domain.events import Event
from domain.legal import LegalMoveView
from domain.match_config import MatchConfig
from domain.naming import CardsToName
from domain.series import Series
from domain.tally import Finished, Tables
from domain.words import ENGLISH, Words

P = TypeVar("P")
"""A game's position (a round in progress)."""
M = TypeVar("M")
"""A game's move."""
R = TypeVar("R")
"""A game's round outcome (how a round ended)."""
S = TypeVar("S", bound=Series)
"""A game's series (a match between rounds)."""
R_co = TypeVar("R_co", covariant=True)
R_contra = TypeVar("R_contra", contravariant=True)

MatchFormat: TypeAlias = str | dict[str, Any] | None
"""A competition's ``match_format`` as stored (JSON): Cuttle's format text, Kozel's object."""


RESULT_ENTERED = "ResultEntered"
"""The event of a round entered as its result in a match recorded by results (Cuttle §27,
Kozel R48). It holds the result as written (``result``) and the round's number; the
game's scoring event (``RoundScored``, ``DealScored``) follows it, as it follows a
played round's last move, so every read model counts the round as a played one."""


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a server needs to deal a round: the pack, and where an indicator may lie."""

    pack: tuple[Card, ...]
    indicator_positions: range | None = None


def bad_deal(message: str, deal: Mapping[str, Any]) -> InvalidSetupError:
    """Return the error for a deal a round cannot start from."""
    return InvalidSetupError(message, code="INVALID_DECK", details={"deal": dict(deal)})


def format_mismatch(field: str, fixed: object, given: object) -> InvalidSetupError:
    """Return the error for a match naming another ``field`` than its competition fixes.

    >>> format_mismatch('format', 'quick', 'normal').message
    "the competition's format is 'quick': a match of it may repeat it or leave it out, not 'normal'"
    """
    return InvalidSetupError(
        f"the competition's {field} is {fixed!r}: a match of it may repeat it or leave it out,"
        f" not {given!r}",
        code="FORMAT_MISMATCH",
        details={"field": field, "competition": fixed, "match": given},
    )


@dataclass(frozen=True, slots=True)
class MoveParts:
    """What a move acts with, for a page that offers moves as taps on cards.

    ``seat`` is the acting seat (``None``: the scorer naming cards); ``cards`` the
    cards the move plays (from the hand, or the card a Cuttle seven revealed; the
    scorer's named cards in draw order); ``target_card`` the card it aims at on the
    table (or takes from the scrap); ``target_seat`` the player it aims at.
    """

    seat: int | None
    cards: tuple[Card, ...] = ()
    target_card: Card | None = None
    target_seat: int | None = None


class Engine(Protocol[P, M, R_co]):
    """A round of the game: its positions, moves, outcome and views."""

    def initial_position(self, setup_data: Mapping[str, Any]) -> P:
        """Return the engine's position at a round's start."""
        ...

    def decide(self, position: P, move: str) -> list[Event]:
        """Return the engine's events for one move."""
        ...

    def step(self, position: P, move: str) -> tuple[list[Event], P]:
        """Return the engine's events for one move and the position after them."""
        ...

    def evolve(self, position: P, event: Event) -> P:
        """Return the position after one engine event."""
        ...

    def outcome(self, position: P) -> R_co | None:
        """Return a finished round's outcome, or ``None`` while it goes on."""
        ...

    def legal_moves(self, position: P) -> LegalMoveView[P, M]:
        """Return the legal moves."""
        ...

    def service_moves(self, position: P | None) -> Iterable[M]:
        """Return the moves any seat may make besides playing (``None``: between rounds)."""
        ...

    def move_parts(self, move: M) -> MoveParts:
        """Return the seat, cards and target of one of the engine's moves."""
        ...

    def to_act(self, position: P) -> tuple[int, ...]:
        """Return the seats that may act."""
        ...

    def public_to_act(self, position: P) -> tuple[int, ...]:
        """Return the seats that may act, as far as the table may know."""
        ...

    def cards_awaited(self, position: P) -> int:
        """Return how many named cards the position waits for."""
        ...

    def cards_to_name(self, position: P) -> CardsToName | None:
        """Return what the scorer must name now (``None``: nothing waits).

        How many drawn cards, in draw order, and which may be named (``CardsToName``):
        a caller picks from it and never lists the orderings. While it is set,
        ``legal_moves`` is a lazy view of every naming: ``bool`` is true, ``len``
        counts them, ``in`` checks one; it is never to be listed.
        """
        ...

    def unplaced_cards(self, position: P) -> tuple[Card, ...]:
        """Return the cards the position has not placed yet."""
        ...

    def view(self, position: P, seat: int | None) -> dict[str, Any]:
        """Return the position as ``seat`` (``None``: the table) may see it."""
        ...

    def record_view(self, position: P) -> dict[str, Any]:
        """Return the table's view with every card it keeps face down turned up.

        What a reader may see once the whole record is public (a finished match), or a
        scorer who may see everything: the public view's shape, no card left a back.
        """
        ...


class SeriesRules(Protocol[R_contra, S]):
    """Rounds composed into a match: dealing, scoring, results, the series' rows."""

    @property
    def round_started(self) -> str:
        """The event type that opens a round (``RoundStarted``, ``DealStarted``)."""
        ...

    @property
    def round_scored(self) -> str:
        """The event type that scores a round (``RoundScored``, ``DealScored``)."""
        ...

    @property
    def not_started_code(self) -> str:
        """The error code of a move made with no round in progress."""
        ...

    def new_series(self, config: MatchConfig) -> S:
        """Return the series of a match just created."""
        ...

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        """Return what a server needs to deal ``config``'s rounds."""
        ...

    def setup_data(self, config: MatchConfig, series: S, deal: Mapping[str, Any]) -> dict[str, Any]:
        """Return the next round's set-up data from a deck order or dealt hands."""
        ...

    def series_at_start(self, series: S, setup_data: Mapping[str, Any]) -> S:
        """Return the series as a round starting from ``setup_data`` finds it.

        A match whose first round starts mid-way (a Kozel deal with its match context)
        takes up what that round carries; otherwise the series is unchanged.
        """
        ...

    def score(self, series: S, outcome: R_contra, round_no: int) -> tuple[S, Event]:
        """Return the series after a round's outcome, and the event scoring it."""
        ...

    def series_from_scored(self, series: S, data: Mapping[str, Any]) -> S:
        """Return the series after a recorded scoring event."""
        ...

    def resign_match(self, series: S, seat: int) -> S:
        """Return the series after ``seat`` resigned the whole match, or raise."""
        ...

    def concession(self, move: str) -> int | None:
        """Return the seat a move concedes the match for (Kozel's ``S1 concede``), or ``None``.

        The match records such a move as a resignation of the match, in or between rounds.
        """
        ...

    def is_result(self, move: str) -> bool:
        """Whether ``move`` is written as a score-sheet result (readable or not)."""
        ...

    def enter_result(self, series: S, text: str, round_no: int) -> tuple[S, list[Event]]:
        """Return the series after a result entered as round ``round_no``, and its events.

        The events are ``ResultEntered`` and the game's scoring event, scored by the
        series exactly as a played round's outcome.

        Raises:
            MalformedError (MALFORMED): an unreadable result, or a seat the variant lacks.
            IllegalMoveError (INVALID_RESULT): a readable result no deal can have (Kozel).
        """
        ...

    def results(self, config: MatchConfig) -> tuple[str, ...]:
        """Return every result a round may have, when they are few enough to list (else ``()``)."""
        ...

    def ended_data(self, series: S) -> dict[str, Any]:
        """Return what ``MatchEnded`` records of the final score, beside the result."""
        ...

    def rounds_data(self, series: S) -> list[dict[str, Any]]:
        """Return the scored rounds of a series as JSON-ready rows."""
        ...

    def result_data(self, series: S) -> dict[str, Any]:
        """Return what a match result adds from the series (a whole-match resignation)."""
        ...


class Settings(Protocol):
    """What a match of the game is played under: variants, formats, options, seats."""

    variants: tuple[str, ...]
    """Every variant, the default first where there is one."""

    @property
    def default_variant(self) -> str:
        """The variant of a match created without one."""
        ...

    @property
    def competition_variant(self) -> str | None:
        """The variant of a competition created without one; ``None``: one must be named."""
        ...

    max_seats: int
    """The most seats any variant has: the text log's seat tags run up to it."""

    entrant_size: int
    """The players one entrant of a competition is: 1, or a fixed pair's 2 (Kozel)."""

    def validate(self, config: MatchConfig) -> MatchConfig:
        """Return ``config`` with variant, format and options canonical, or raise."""
        ...

    def seats(self, config: MatchConfig) -> int:
        """Return how many players ``config``'s variant seats."""
        ...

    def match_settings(
        self, match_format: object, format: str | None, options: Mapping[str, Any] | None
    ) -> tuple[str | None, Mapping[str, Any] | None]:
        """Return a match's format and options under a competition's ``match_format``.

        What the competition fixes is the match's: the match may repeat it or leave it
        out; what it does not fix (Kozel's ``open_throws``) the match adds.

        Raises:
            InvalidSetupError (FORMAT_MISMATCH): the match names another value of what
                the competition fixes; the message names the competition's.
        """
        ...

    def competition_format(self, format: str | None, options: Mapping[str, Any]) -> MatchFormat:
        """Return the competition ``match_format`` a match's format and options make."""
        ...

    def canonical_format(self, value: object) -> MatchFormat:
        """Return a competition's ``match_format`` canonical (``None``: the default), or raise."""
        ...


class Records(Protocol):
    """What the game's events and logs hold: moves, public data, log tags."""

    def move_events(self, dealing: str) -> frozenset[str]:
        """Return the event types that record a move under ``dealing``."""
        ...

    def move_text(self, kind: str, data: Mapping[str, Any]) -> str:
        """Return the move (engine notation) a move event records."""
        ...

    def public_data(self, config: MatchConfig, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Return an engine event's data (a copy) as anyone may see it in a live match."""
        ...

    def format_tag(self, format: str | None, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """Return the text log's tag (name, value) for a match's format or options, if any."""
        ...

    def options_from_tag(self, text: str) -> dict[str, Any]:
        """Return a match's options from the text log's ``Options`` tag, or raise."""
        ...

    def deal_from_log(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Return a text log's deal (cards as lists) as the set-up takes it."""
        ...


class Standings(Protocol):
    """How finished matches place seats and tally standings lines."""

    tiebreaks: frozenset[str]
    """The standings tiebreaks a competition of this game may list."""

    standings_stats: tuple[str, ...]
    """The columns of a standings line, in order (docs/standings.md)."""

    standings_tables: tuple[str, ...]
    """The standings tables (``players``, and ``pairs`` for a partnership game)."""

    def places(self, match: Finished) -> list[int]:
        """Return each seat's finishing place in a won match (1 is best; ties share)."""
        ...

    def rating_teams(self, seats: int) -> list[list[int]]:
        """Return the seats rated as one team each, in the order their places are given."""
        ...

    def tally(self, matches: Sequence[Finished]) -> Tables:
        """Return the standings tables' lines and encounters of finished matches."""
        ...


class Presentation(Protocol):
    """How the game is written for people: seats, rounds, moves and scores as text."""

    round_word: str
    """What a round is called: its key in round events, and in messages and logs."""

    seat_letter: str
    """The letter before a seat number in moves and text-log tags (``P0``, ``S0``)."""

    def seat_token(self, seat: int) -> str:
        """Return a seat as moves name it."""
        ...

    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
    ) -> tuple[str, str, int | None]:
        """Return a move's notation, its sentence in ``words``' language, and its seat."""
        ...

    def score_text(self, score: Mapping[str, Any]) -> str:
        """Return a running score (``series_score``'s data) in a few characters."""
        ...


class GameRules(
    Engine[P, M, R],
    SeriesRules[R, S],
    Settings,
    Records,
    Standings,
    Presentation,
    Protocol[P, M, R, S],
):
    """What everything outside a game's package needs of that game, every concern at once."""

    game: str
    """The game's name, as matches and the registry name it."""


AnyRules: TypeAlias = GameRules[Any, Any, Any, Any]
"""A game reached through the registry: its types are the game's own, unknown there."""

__all__ = [
    "RESULT_ENTERED",
    "AnyRules",
    "CardsToName",
    "DealSpec",
    "Engine",
    "GameRules",
    "MatchFormat",
    "MoveParts",
    "Presentation",
    "Records",
    "Series",
    "SeriesRules",
    "Settings",
    "Standings",
    "Tables",
    "bad_deal",
    "format_mismatch",
]
