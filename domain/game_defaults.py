"""What a game need not write: ``DefaultRules``, the ``GameRules`` members every game may share.

A game's rules class inherits ``DefaultRules[Position, Move, Outcome, Series]`` and
writes only what no default can know (the abstract members below):

- who it is: ``game``, ``round_word``, ``seat_letter``, ``max_seats`` (every match
  seats that many), ``move_kinds`` (the engine events that record a move);
- its engine: ``initial_position``, ``decide``, ``evolve``, ``outcome``,
  ``legal_moves``, ``to_act`` and the table's ``view``;
- its series: ``new_series``, ``score``, ``series_from_scored``, ``rounds_data``;
- its words: ``describe_step`` (a move's notation, sentence and seat).

Everything else has the default of a game with nothing more to it: one variant, no
format unless it names a ``default_format`` and reads formats (``format_text``), no
options, no score sheet, no concession or resignation of the match, no service
moves, no card named by the scorer, nothing face down on the table or hidden in an
event, rounds dealt from the whole pack shuffled, each seat rated on its own and
placed by the result, and standings of matches won, drawn and lost
(``domain.tally.players_table``). A game overrides any of them (Cuttle and Kozel
override most). Event type names derive from ``round_word``: a round word ``hand``
gives ``HandStarted``, ``HandScored`` and ``HAND_NOT_STARTED``, which stored events
keep: a game that renames its round word names them itself.

One generic base class, not a mixin per concern, because the defaults cross the
concerns (``move_text`` is ``describe_step``'s notation, ``validate`` reads the
formats, ``results`` the seats) and each concern's mixin would redeclare the
members it reads. Abstract members make a game that forgets one fail twice, where
it is written: ``mypy`` refuses to instantiate it, and so does Python, naming the
member. The registry's ``GameRules`` protocol still checks the whole class
structurally (``RULES: GameRules[...] = DrawHighRules()``); members derived here are
read-only properties there, so a game may give them as plain attributes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Generic, Protocol, TypeVar

from domain.cards import Card, deck, format_cards, parse_cards
from domain.errors import IllegalMoveError, InvalidSetupError, MalformedError
from domain.events import Event
from domain.game_rules import RESULT_ENTERED, DealSpec, MatchFormat, MoveParts, bad_deal
from domain.game_rules import format_mismatch as _mismatch
from domain.legal import LegalMoveView
from domain.match_config import MatchConfig
from domain.naming import CardsToName
from domain.series import Series
from domain.tally import PLAYER_STATS, Finished, Tables, players_table
from domain.words import ENGLISH, Words


class Notated(Protocol):
    """A move with a text form (every engine's moves have one)."""

    def text(self) -> str:
        """Return the move's notation."""
        ...


P = TypeVar("P")
M = TypeVar("M", bound=Notated)
R = TypeVar("R")
S = TypeVar("S", bound=Series)


class DefaultRules(ABC, Generic[P, M, R, S]):
    """The ``GameRules`` defaults; subclasses write the abstract members (module docstring)."""

    variants: tuple[str, ...] = ("default",)
    entrant_size = 1
    default_format: str | None = None
    """The format of a match created without one; ``None``: the game has no formats."""
    tiebreaks: frozenset[str] = frozenset({"head-to-head", "sonneborn-berger", "wins"})
    standings_stats: tuple[str, ...] = PLAYER_STATS
    standings_tables: tuple[str, ...] = ("players",)

    # What no default can know: who the game is, its engine, its series, its words.
    @property
    @abstractmethod
    def game(self) -> str:
        """The game's name, as matches and the registry name it."""

    @property
    @abstractmethod
    def round_word(self) -> str:
        """What a round is called (``hand``)."""

    @property
    @abstractmethod
    def seat_letter(self) -> str:
        """The letter before a seat number in moves and text-log tags."""

    @property
    @abstractmethod
    def max_seats(self) -> int:
        """The seats every match of the game has."""

    @property
    @abstractmethod
    def move_kinds(self) -> frozenset[str]:
        """The event types the engine records a move as."""

    @abstractmethod
    def initial_position(self, setup_data: Mapping[str, Any]) -> P:
        """Return the engine's position at a round's start."""

    @abstractmethod
    def decide(self, position: P, move: str) -> list[Event]:
        """Return the engine's events for one move, or raise."""

    @abstractmethod
    def evolve(self, position: P, event: Event) -> P:
        """Return the position after one engine event."""

    @abstractmethod
    def outcome(self, position: P) -> R | None:
        """Return a finished round's outcome, or ``None`` while it goes on."""

    @abstractmethod
    def legal_moves(self, position: P) -> LegalMoveView[P, M]:
        """Return the legal moves."""

    @abstractmethod
    def to_act(self, position: P) -> tuple[int, ...]:
        """Return the seats that may act."""

    @abstractmethod
    def view(self, position: P, seat: int | None) -> dict[str, Any]:
        """Return the position as ``seat`` (``None``: the table) may see it."""

    @abstractmethod
    def new_series(self, config: MatchConfig) -> S:
        """Return the series of a match just created."""

    @abstractmethod
    def score(self, series: S, outcome: R, round_no: int) -> tuple[S, Event]:
        """Return the series after a round's outcome, and the event scoring it."""

    @abstractmethod
    def series_from_scored(self, series: S, data: Mapping[str, Any]) -> S:
        """Return the series after a recorded scoring event."""

    @abstractmethod
    def rounds_data(self, series: S) -> list[dict[str, Any]]:
        """Return the scored rounds of a series as JSON-ready rows."""

    @abstractmethod
    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
    ) -> tuple[str, str, int | None]:
        """Return a move's notation, its sentence in ``words``' language, and its seat."""

    # Engine
    # Positional-only, as every caller passes them: Cuttle and Kozel put their engines'
    # own ``step`` here, whose move parameter is called ``command``.
    def step(self, position: P, move: str, /) -> tuple[list[Event], P]:
        """Return ``decide``'s events and the position ``evolve`` makes of them."""
        events = self.decide(position, move)
        for event in events:
            position = self.evolve(position, event)
        return events, position

    def service_moves(self, position: P | None) -> Iterable[M]:
        """No moves besides playing."""
        return ()

    def move_parts(self, move: M) -> MoveParts:
        """The seat a move's first word names (``H1 draw``); no card, no target."""
        first = move.text().split()[0]
        named = first[:1] == self.seat_letter and first[1:].isdigit()
        return MoveParts(int(first[1:]) if named else None)

    def public_to_act(self, position: P) -> tuple[int, ...]:
        """Whoever may act: the table knows it."""
        return self.to_act(position)

    def cards_awaited(self, position: P) -> int:
        """The scorer names no card."""
        return 0

    def cards_to_name(self, position: P) -> CardsToName | None:
        """The scorer names no card."""
        return None

    def unplaced_cards(self, position: P) -> tuple[Card, ...]:
        """No card waits to be named."""
        return ()

    def record_view(self, position: P) -> dict[str, Any]:
        """The table's view: no card on the table is face down."""
        return self.view(position, None)

    # Series
    @property
    def round_started(self) -> str:
        """``<Round>Started``."""
        return self.round_word.capitalize() + "Started"

    @property
    def round_scored(self) -> str:
        """``<Round>Scored``."""
        return self.round_word.capitalize() + "Scored"

    @property
    def not_started_code(self) -> str:
        """``<ROUND>_NOT_STARTED``."""
        return self.round_word.upper() + "_NOT_STARTED"

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        """A 52-card pack."""
        return DealSpec(deck())

    def setup_data(self, config: MatchConfig, series: S, deal: Mapping[str, Any]) -> dict[str, Any]:
        """Return a round's ``dealer``, ``seats`` and ``deck`` (the whole pack, top first).

        Raises:
            InvalidSetupError (INVALID_DECK): anything but a deck order of the whole pack.
            MalformedError (MALFORMED): a word of the deck that is no card.
        """
        pack = self.deal_spec(config).pack
        if set(deal) != {"deck"}:
            raise bad_deal(f"a {self.round_word} starts from a deck order", deal)
        cards = parse_cards(deal["deck"])
        if len(cards) != len(pack) or set(cards) != set(pack):
            raise bad_deal(f"a deck order holds the {len(pack)} cards of the pack once", deal)
        return {"dealer": series.dealer, "seats": self.seats(config), "deck": format_cards(cards)}

    def series_at_start(self, series: S, setup_data: Mapping[str, Any]) -> S:
        """A round carries nothing into the series."""
        return series

    def resign_match(self, series: S, seat: int) -> S:
        """Refuse: the game has no resignation of a whole match.

        Raises:
            IllegalMoveError (RESIGNATION_UNSUPPORTED): always.
        """
        raise IllegalMoveError(
            f"a {self.game} match cannot be resigned: play it to its end or void it",
            code="RESIGNATION_UNSUPPORTED",
            details={"seat": seat},
        )

    def concession(self, move: str) -> int | None:
        """No move concedes the match."""
        return None

    def is_result(self, move: str) -> bool:
        """The game keeps no score sheet: no move is a result."""
        return False

    def enter_result(self, series: S, text: str, round_no: int) -> tuple[S, list[Event]]:
        """Refuse: the game keeps no score sheet.

        Raises:
            MalformedError (MALFORMED): always.
        """
        raise MalformedError(f"{text!r}: {self.game} keeps no score sheet", details={})

    def results(self, config: MatchConfig) -> tuple[str, ...]:
        """No results to list."""
        return ()

    def ended_data(self, series: S) -> dict[str, Any]:
        """The final score (``score_data``)."""
        return dict(series.score_data())

    def result_data(self, series: S) -> dict[str, Any]:
        """Nothing beside the result."""
        return {}

    # Settings
    @property
    def default_variant(self) -> str:
        """The first variant."""
        return self.variants[0]

    @property
    def competition_variant(self) -> str | None:
        """The only variant; ``None`` (one must be named) when there are more."""
        return self.variants[0] if len(self.variants) == 1 else None

    def seats(self, config: MatchConfig) -> int:
        """Every match seats ``max_seats``."""
        return self.max_seats

    def validate(self, config: MatchConfig) -> MatchConfig:
        """Return ``config`` with its format canonical and no options, or raise.

        Raises:
            InvalidSetupError (INVALID_FORMAT): a variant or format the game lacks, or
                a match recorded by results of a game with no results to list.
        """
        if config.variant not in self.variants:
            raise InvalidSetupError(
                f"{config.variant!r} is not a {self.game} variant: {', '.join(self.variants)}",
                code="INVALID_FORMAT",
                details={"variant": config.variant},
            )
        if config.recording == "results" and not self.results(config):
            raise InvalidSetupError(
                f"{self.game} keeps no score sheet: record its matches by moves",
                code="INVALID_FORMAT",
                details={"recording": config.recording},
            )
        return replace(config, format=self._format(config.format), options={})

    def format_text(self, text: str) -> str:
        """Return a format's canonical text, or raise; by default the game has none.

        Raises:
            InvalidSetupError (INVALID_FORMAT): always, unless a game overrides it.
        """
        raise InvalidSetupError(
            f"{text!r} is not a {self.game} format: it has none",
            code="INVALID_FORMAT",
            details={"format": text},
        )

    def canonical_format(self, value: object) -> MatchFormat:
        """Return the canonical format (``default_format`` for ``None``), or raise."""
        return self._format(value)

    def _format(self, value: object) -> str | None:
        if value is None:
            return self.default_format
        if not isinstance(value, str):
            raise MalformedError(f"a {self.game} format is text", details={"format": repr(value)})
        return self.format_text(value)

    def match_settings(
        self, match_format: object, format: str | None, options: Mapping[str, Any] | None
    ) -> tuple[str | None, Mapping[str, Any] | None]:
        """The competition's format is the match's: the match may repeat it, in any spelling."""
        fixed = self._format(match_format)
        if format is not None and self._format(format) != fixed:
            raise _mismatch("format", fixed, format)
        return fixed, options

    def competition_format(self, format: str | None, options: Mapping[str, Any]) -> MatchFormat:
        """A competition's ``match_format`` is a match's format."""
        return format

    # Records
    def move_events(self, dealing: str) -> frozenset[str]:
        """``move_kinds``, however the round was dealt, and a score sheet's result."""
        return self.move_kinds | {RESULT_ENTERED}

    def move_text(self, kind: str, data: Mapping[str, Any]) -> str:
        """The result a ``ResultEntered`` holds, else ``describe_step``'s notation."""
        if kind == RESULT_ENTERED:
            return str(data["result"])
        tokens = [self.seat_token(seat) for seat in range(self.max_seats)]
        return self.describe_step(kind, data, tokens)[0]

    def public_data(self, config: MatchConfig, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Nothing an event holds is hidden."""
        return data

    def format_tag(self, format: str | None, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """The ``Format`` tag, when the match has a format."""
        return None if format is None else ("Format", format)

    def options_from_tag(self, text: str) -> dict[str, Any]:
        """No options: an ``Options`` tag is ignored."""
        return {}

    def deal_from_log(self, deal: dict[str, Any]) -> dict[str, Any]:
        """``setup_data`` reads a deck as a log writes it."""
        return deal

    # Standings
    def places(self, match: Finished) -> list[int]:
        """The winners first, everyone else second."""
        winners = set(match.result["winners"])
        return [1 if seat in winners else 2 for seat in range(len(match.players))]

    def rating_teams(self, seats: int) -> list[list[int]]:
        """Each seat is a one-player team."""
        return [[seat] for seat in range(seats)]

    def tally(self, matches: Sequence[Finished]) -> Tables:
        """Players' matches won, drawn and lost, and their encounters."""
        return players_table(matches)

    # Presentation
    def seat_token(self, seat: int) -> str:
        """``seat_letter`` and the seat."""
        return self.seat_letter + str(seat)

    def score_text(self, score: Mapping[str, Any]) -> str:
        """Each value of the score, lists joined by dashes (``wins 2-1, target 3``)."""
        return ", ".join(
            f"{key} {'-'.join(map(str, value)) if isinstance(value, list) else value}"
            for key, value in score.items()
        )


__all__ = ["DefaultRules", "Notated"]
