"""Draw high's ``GameRules``: what the match layer, logs, read models and pages ask of it.

>>> RULES.round_word, RULES.seat_token(1), RULES.score_text({'wins': [2, 1]})
('hand', 'H1', '2-1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from domain.cards import Card, deck, parse_cards
from domain.errors import InvalidSetupError, MalformedError
from domain.events import Event
from domain.game_rules import (
    RESULT_ENTERED,
    CardsToName,
    DealSpec,
    GameRules,
    MatchFormat,
    MoveParts,
    bad_deal,
    format_mismatch,
)
from domain.legal import LegalMoveView
from domain.match_config import MatchConfig
from domain.tally import Finished, Line, Tables, encounters
from tests.third_game import engine
from tests.third_game.engine import SEAT_LETTER, Draw, Position
from tests.third_game.series import FirstTo, Series

_DEFAULT_FORMAT = "first-to-3"
_MOVES = frozenset({"CardDrawn", RESULT_ENTERED})


class DrawHighRules:
    """Draw high's rules, one variant of two seats."""

    game = "drawhigh"
    round_started = "HandStarted"
    round_scored = "HandScored"
    not_started_code = "HAND_NOT_STARTED"
    round_word = "hand"
    seat_letter = SEAT_LETTER
    variants: tuple[str, ...] = ("duel",)
    default_variant = "duel"
    competition_variant: str | None = "duel"
    max_seats = 2
    entrant_size = 1
    tiebreaks: frozenset[str] = frozenset({"head-to-head", "wins"})
    standings_stats: tuple[str, ...] = ("played", "won", "lost", "points", "hands_won")
    standings_tables: tuple[str, ...] = ("players",)

    # Settings
    def validate(self, config: MatchConfig) -> MatchConfig:
        """Return ``config`` with its format canonical and no options, or raise."""
        if config.variant not in self.variants:
            raise InvalidSetupError(
                f"{config.variant!r} is not a draw-high variant: duel",
                code="INVALID_FORMAT",
                details={"variant": config.variant},
            )
        return replace(config, format=self.canonical_format(config.format), options={})

    def seats(self, config: MatchConfig) -> int:
        """Two seats."""
        return 2

    def match_settings(
        self, match_format: object, format: str | None, options: Mapping[str, Any] | None
    ) -> tuple[str | None, Mapping[str, Any] | None]:
        """The competition's format is the match's."""
        fixed = self.canonical_format(match_format)
        if format is not None and self.canonical_format(format) != fixed:
            raise format_mismatch("format", fixed, format)
        return fixed, options

    def competition_format(self, format: str | None, options: Mapping[str, Any]) -> MatchFormat:
        """A competition's format is a match's format text."""
        return format

    def canonical_format(self, value: object) -> str:
        """Return ``first-to-N`` (``first-to-3`` for ``None``), or raise."""
        if value is None:
            return _DEFAULT_FORMAT
        if not isinstance(value, str):
            raise MalformedError("a draw-high format is text", details={"format": repr(value)})
        return FirstTo.from_text(value).text()

    # SeriesRules
    def new_series(self, config: MatchConfig) -> Series:
        """Return a series with no hand played."""
        return Series(2, FirstTo.from_text(config.format or _DEFAULT_FORMAT), config.first_dealer)

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        """A 52-card pack."""
        return DealSpec(deck())

    def setup_data(
        self, config: MatchConfig, series: Series, deal: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Return a hand's set-up from a deck order (different cards, one a seat at least)."""
        if "deck" not in deal:
            raise bad_deal("a hand starts from a deck order", deal)
        cards = parse_cards(deal["deck"])
        if len(set(cards)) != len(cards) or len(cards) < series.seats:
            raise bad_deal("a deck holds different cards, one for each seat at least", deal)
        return {"dealer": series.dealer, "seats": series.seats, "deck": engine.deck_text(cards)}

    def series_at_start(self, series: Series, setup_data: Mapping[str, Any]) -> Series:
        """A hand carries nothing into the series."""
        return series

    def score(self, series: Series, outcome: int, round_no: int) -> tuple[Series, Event]:
        """Record the hand's winner; ``HandScored`` holds it and the wins after it."""
        after = series.record(outcome)
        data = {"hand": round_no, "winner": outcome, "wins": list(after.wins)}
        return after, Event(self.round_scored, data)

    def series_from_scored(self, series: Series, data: Mapping[str, Any]) -> Series:
        """Record the winner a ``HandScored`` holds."""
        return series.record(data["winner"])

    def resign_match(self, series: Series, seat: int) -> Series:
        """Return the series after ``seat`` resigned the match."""
        if not 0 <= seat < series.seats:
            raise MalformedError(f"{seat!r} is not a seat of this match", details={"seat": seat})
        return series.resign(seat)

    def concession(self, move: str) -> int | None:
        """No move concedes the match."""
        return None

    def is_result(self, move: str) -> bool:
        """Whether ``move`` is written ``result ...``."""
        return move.split()[:1] == ["result"]

    def enter_result(self, series: Series, text: str, round_no: int) -> tuple[Series, list[Event]]:
        """Record ``result H1`` as hand ``round_no``, scored as a played one."""
        words = text.split()
        seats = [self.seat_token(s) for s in range(series.seats)]
        if len(words) != 2 or words[1] not in seats:
            raise MalformedError(f"{text!r} is not a result: write result H0", details={})
        after, scored = self.score(series, seats.index(words[1]), round_no)
        return after, [Event(RESULT_ENTERED, {"result": text, self.round_word: round_no}), scored]

    def results(self, config: MatchConfig) -> tuple[str, ...]:
        """Each seat's win."""
        return tuple(f"result {self.seat_token(s)}" for s in range(self.seats(config)))

    def ended_data(self, series: Series) -> dict[str, Any]:
        """The final hands won."""
        return {"wins": list(series.wins)}

    def rounds_data(self, series: Series) -> list[dict[str, Any]]:
        """Each hand's winner with the running wins."""
        wins = [0] * series.seats
        rows = []
        for number, winner in enumerate(series.winners, start=1):
            wins[winner] += 1
            rows.append({"hand": number, "winner": winner, "wins": list(wins)})
        return rows

    def result_data(self, series: Series) -> dict[str, Any]:
        """The seat that resigned, if one did."""
        return {"resigned": series.resigned_by}

    # Engine
    def initial_position(self, setup_data: Mapping[str, Any]) -> Position:
        """Return a hand's start."""
        return engine.initial_position(setup_data)

    decide = staticmethod(engine.decide)
    step = staticmethod(engine.step)
    evolve = staticmethod(engine.evolve)
    outcome = staticmethod(engine.outcome)
    to_act = staticmethod(engine.to_act)
    public_to_act = staticmethod(engine.to_act)

    def legal_moves(self, position: Position) -> LegalMoveView[Position, Draw]:
        """Return the seat to act's draw."""
        return engine.legal_moves(position)

    def service_moves(self, position: Position | None) -> tuple[Draw, ...]:
        """No resignations or offers inside a hand."""
        return ()

    def move_parts(self, move: Draw) -> MoveParts:
        """A draw plays no card from the hand and aims at nothing."""
        return MoveParts(move.seat)

    def cards_awaited(self, position: Position) -> int:
        """The deck is known: nothing is named."""
        return 0

    def cards_to_name(self, position: Position) -> CardsToName | None:
        """Nothing is named."""
        return None

    def unplaced_cards(self, position: Position) -> tuple[Card, ...]:
        """The deck left, top first."""
        return position.deck

    def view(self, position: Position, seat: int | None) -> dict[str, Any]:
        """Every seat sees the same table: drawn cards are face up."""
        return engine.view(position)

    def record_view(self, position: Position) -> dict[str, Any]:
        """Nothing on the table is face down."""
        return engine.view(position)

    # Records
    def move_events(self, dealing: str) -> frozenset[str]:
        """A draw is one ``CardDrawn``; a result one ``ResultEntered``."""
        return _MOVES

    def move_text(self, kind: str, data: Mapping[str, Any]) -> str:
        """Return the draw or result an event records."""
        if kind == RESULT_ENTERED:
            return str(data["result"])
        return Draw(data["seat"]).text()

    def public_data(self, config: MatchConfig, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A drawn card is shown to the table."""
        return data

    def format_tag(self, format: str | None, options: Mapping[str, Any]) -> tuple[str, str]:
        """The ``Format`` tag."""
        return "Format", format or _DEFAULT_FORMAT

    def options_from_tag(self, text: str) -> dict[str, Any]:
        """No options."""
        return {}

    def deal_from_log(self, deal: dict[str, Any]) -> dict[str, Any]:
        """A deck as one string."""
        deal["deck"] = " ".join(deal["deck"])
        return deal

    # Standings
    def places(self, match: Finished) -> list[int]:
        """The winner first, the loser second."""
        winners = set(match.result["winners"])
        return [1 if seat in winners else 2 for seat in range(len(match.players))]

    def rating_teams(self, seats: int) -> list[list[int]]:
        """Each seat is a team of one."""
        return [[s] for s in range(seats)]

    def tally(self, matches: Sequence[Finished]) -> Tables:
        """Players' lines (a win is a point) and their encounters."""
        lines: dict[str, Line] = {}
        met = []
        for match in matches:
            wins = list(match.rounds[-1]["wins"]) if match.rounds else [0] * len(match.players)
            winners = set(match.result["winners"])
            for seat, player in enumerate(match.players):
                stats: dict[str, int | float] = dict.fromkeys(self.standings_stats, 0)
                line = lines.setdefault(player, Line(player, (player,), stats))
                won = seat in winners
                line.add("played", 1)
                line.add("won" if won else "lost", 1)
                line.add("points", 1 if won else 0)
                line.add("hands_won", wins[seat])
            met.extend(encounters(match.players, match.places()))
        return {"players": (lines, met)}

    # Presentation
    def seat_token(self, seat: int) -> str:
        """``H`` and the seat."""
        return f"{SEAT_LETTER}{seat}"

    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str]
    ) -> tuple[str, str, int | None]:
        """Return the draw or result, its sentence and its seat."""
        if kind == RESULT_ENTERED:
            text = str(data["result"])
            seat = int(text.split()[1][1:])
            return text, f"{names[seat]} won hand {data[self.round_word]}", None
        seat = data["seat"]
        return Draw(seat).text(), f"{names[seat]} draws {data['card']}", seat

    def score_text(self, score: Mapping[str, Any]) -> str:
        """Hands won per seat."""
        return "-".join(str(w) for w in score.get("wins", []))


RULES: GameRules[Position, Draw, int, Series] = DrawHighRules()
"""Draw high's rules, as the tests register them."""

__all__ = ["RULES", "DrawHighRules"]
