"""Cuttle's match-level rules: what the match layer, logs and read models ask of Cuttle.

>>> RULES.round_word, RULES.seat_token(1)
('round', 'P1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from domain import cuttle
from domain.cards import RANKS, Card, parse_cards
from domain.cuttle import describe, sheet
from domain.cuttle.legal import LegalMoves
from domain.cuttle.series import CuttleFormat, CuttleSeries
from domain.cuttle.state import pack, placed_cards
from domain.errors import InvalidSetupError, MalformedError
from domain.events import Event
from domain.game_defaults import DefaultRules
from domain.game_rules import (
    RESULT_ENTERED,
    CardsToName,
    DealSpec,
    GameRules,
    MoveParts,
    bad_deal,
    format_mismatch,
)
from domain.match_config import MatchConfig
from domain.tally import Finished, Line, Tables, encounters
from domain.words import ENGLISH, Words


class CuttleRules(DefaultRules[cuttle.Position, cuttle.Move, cuttle.Outcome, CuttleSeries]):
    """Cuttle's ``GameRules``: series of rounds, formats quick to best-of-N (§19)."""

    game = "cuttle"
    round_started = "RoundStarted"
    round_scored = "RoundScored"
    not_started_code = "ROUND_NOT_STARTED"
    round_word = "round"
    seat_letter = "P"
    max_seats = 3
    move_kinds = frozenset({"MovePlayed"})
    entrant_size = 1
    variants: tuple[str, ...] = tuple(v.value for v in cuttle.Variant)
    default_variant = "standard"
    competition_variant: str | None = None
    tiebreaks: frozenset[str] = frozenset(
        {"head-to-head", "sonneborn-berger", "round-difference", "wins"}
    )
    standings_stats: tuple[str, ...] = (
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "rounds_won",
        "rounds_lost",
    )
    standings_tables: tuple[str, ...] = ("players",)

    def validate(self, config: MatchConfig) -> MatchConfig:
        """Return ``config`` with its variant and format canonical and no options."""
        try:
            variant = cuttle.Variant(config.variant)
        except ValueError:
            raise InvalidSetupError(
                f"{config.variant!r} is not a Cuttle variant: classic, standard or cutthroat",
                code="INVALID_FORMAT",
                details={"variant": config.variant},
            ) from None
        fmt = CuttleFormat.from_text(config.format or "normal")
        return replace(config, variant=variant.value, format=fmt.text(), options={})

    def seats(self, config: MatchConfig) -> int:
        """Return the variant's seats (3 in cutthroat)."""
        return cuttle.Variant(config.variant).players

    def new_series(self, config: MatchConfig) -> CuttleSeries:
        """Return a series with no round played."""
        return CuttleSeries(
            cuttle.Variant(config.variant),
            CuttleFormat.from_text(config.format or "normal"),
            config.first_dealer,
        )

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        """Return the variant's pack, by suit then rank."""
        variant = cuttle.Variant(config.variant)
        return DealSpec(tuple(sorted(pack(variant), key=lambda c: (c.suit, c.rank))))

    def setup_data(
        self, config: MatchConfig, series: CuttleSeries, deal: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Return a round's set-up from a deck order or dealt hands."""
        variant = cuttle.Variant(config.variant)
        if "deck" in deal and "hands" not in deal:
            setup = cuttle.RoundSetup(variant, series.dealer, deck=parse_cards(deal["deck"]))
        elif "hands" in deal and "deck" not in deal:
            setup = cuttle.RoundSetup(variant, series.dealer, hands=_hands(deal))
        else:
            raise bad_deal("a round starts from a deck order or from dealt hands", deal)
        return setup.to_data()

    def initial_position(self, setup_data: Mapping[str, Any]) -> cuttle.Position:
        """Return the engine's position at the round's start."""
        return cuttle.initial_position(cuttle.RoundSetup.from_data(setup_data))

    def decide(self, position: cuttle.Position, move: str) -> list[Event]:
        """Return the engine's events for one move."""
        return cuttle.decide(position, move)

    # The engine's own functions, not wrappers: the match layer calls these per move.
    step = staticmethod(cuttle.step)
    evolve = staticmethod(cuttle.evolve)
    outcome = staticmethod(cuttle.outcome)

    def score(
        self, series: CuttleSeries, outcome: cuttle.Outcome, round_no: int
    ) -> tuple[CuttleSeries, Event]:
        """Record a round's outcome; ``RoundScored`` holds it and the wins after it."""
        after = series.record(outcome)
        data = {
            "round": round_no,
            "termination": outcome.termination.value,
            "winner": outcome.winner,
            "resigned": outcome.resigned,
            "counts": outcome.winner is not None,
            "wins": list(after.wins),
        }
        return after, Event(self.round_scored, data)

    def series_from_scored(self, series: CuttleSeries, data: Mapping[str, Any]) -> CuttleSeries:
        """Record the outcome a ``RoundScored`` holds."""
        outcome = cuttle.Outcome(
            cuttle.Termination(data["termination"]), data["winner"], data.get("resigned")
        )
        return series.record(outcome)

    def resign_match(self, series: CuttleSeries, seat: int) -> CuttleSeries:
        """Return the series after a whole-match resignation (ruling 37)."""
        if not 0 <= seat < series.players:
            raise MalformedError(f"{seat!r} is not a seat of this match", details={"seat": seat})
        return series.resign_match(seat)

    def ended_data(self, series: CuttleSeries) -> dict[str, Any]:
        """Return the final wins and drawn rounds."""
        return {"wins": list(series.wins), "drawn_rounds": series.drawn_rounds}

    def is_result(self, move: str) -> bool:
        """Whether ``move`` is written ``result ...`` (§27)."""
        return sheet.is_result(move)

    def enter_result(
        self, series: CuttleSeries, text: str, round_no: int
    ) -> tuple[CuttleSeries, list[Event]]:
        """Record ``result P1`` or ``result draw`` as round ``round_no`` (ruling 41)."""
        canonical, outcome = sheet.read_result(text, series.players)
        after, scored = self.score(series, outcome, round_no)
        entered = Event(RESULT_ENTERED, {"result": canonical, self.round_word: round_no})
        return after, [entered, scored]

    def results(self, config: MatchConfig) -> tuple[str, ...]:
        """Each seat's win and a draw."""
        return sheet.results(self.seats(config))

    def move_text(self, kind: str, data: Mapping[str, Any]) -> str:
        """Return the move ``MovePlayed`` holds, or the result ``ResultEntered`` holds."""
        if kind == RESULT_ENTERED:
            return str(data["result"])
        return str(data["move"])

    def public_data(self, config: MatchConfig, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Hide named cards; everything else a Cuttle table sees."""
        move = str(data.get("move", ""))
        if kind == "MovePlayed" and move.split()[:1] == ["cards"]:
            # Named cards may be private draws; revealed ones reappear in CardsRevealed.
            return {"move": "cards", "count": len(move.split()) - 1}
        return data

    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
    ) -> tuple[str, str, int | None]:
        """Return the move's notation, its sentence, and the seat its first word names."""
        if kind == RESULT_ENTERED:
            text = str(data["result"])
            sentence = sheet.describe_result(text, data[self.round_word], names, words)
            return text, sentence, None
        first = str(data.get("move", "")).split()[:1]
        seat = int(first[0][1:]) if first and first[0] != "cards" else None
        return describe.notation(data), describe.describe_move(data, names, words), seat

    def view(self, position: cuttle.Position, seat: int | None) -> dict[str, Any]:
        """Return the engine's view."""
        return cuttle.view(position, seat)

    def record_view(self, position: cuttle.Position) -> dict[str, Any]:
        """The table's view: Cuttle keeps no card face down on the table (hands are seats')."""
        return cuttle.view(position, None)

    def to_act(self, position: cuttle.Position) -> tuple[int, ...]:
        """Return the seats that may act."""
        return cuttle.to_act(position)

    def public_to_act(self, position: cuttle.Position) -> tuple[int, ...]:
        """Who must act next in Cuttle follows from public facts alone."""
        return cuttle.to_act(position)

    def cards_awaited(self, position: cuttle.Position) -> int:
        """Return how many named cards the position waits for."""
        return cuttle.cards_awaited(position)

    def cards_to_name(self, position: cuttle.Position) -> CardsToName | None:
        """Return what the scorer must name now (``None``: nothing waits)."""
        return cuttle.cards_to_name(position)

    def unplaced_cards(self, position: cuttle.Position) -> tuple[Card, ...]:
        """Return the pack's cards not yet placed, by suit then rank."""
        left = pack(position.variant) - frozenset(placed_cards(position))
        return tuple(
            sorted(
                left, key=lambda c: (c.suit, RANKS.index(c.rank) if c.rank in RANKS else 99, c.rank)
            )
        )

    def legal_moves(self, position: cuttle.Position) -> LegalMoves:
        """Return the engine's legal moves."""
        return cuttle.legal_moves(position)

    def service_moves(self, position: cuttle.Position | None) -> tuple[cuttle.Move, ...]:
        """Return the resignations and draw offers of a round (none between rounds)."""
        return () if position is None else cuttle.service_moves(position)

    def concession(self, move: str) -> int | None:
        """No Cuttle move ends the match: ``P0 resign`` resigns the round (ruling 40)."""
        return None

    def move_parts(self, move: cuttle.Move) -> MoveParts:
        """Return a move's seat, cards and target from its fields (§23).

        A three's ``take`` aims at a card in the scrap and plays none from the hand.

        >>> parts = RULES.move_parts(cuttle.Move.from_text('P0 scuttle 9S>7H'))
        >>> [c.text() for c in parts.cards], parts.target_card.text(), parts.target_seat
        (['9S'], '7H', None)
        >>> RULES.move_parts(cuttle.Move.from_text('P2 oneoff 4S@P0')).target_seat
        0
        >>> RULES.move_parts(cuttle.Move.from_text('P1 take 5D')).target_card.text()
        '5D'
        """
        if move.action == "take":
            return MoveParts(move.seat, (), move.card)
        played = move.cards if move.card is None else (move.card,)
        return MoveParts(move.seat, played, move.target, move.player)

    def format_tag(self, format: str | None, options: Mapping[str, Any]) -> tuple[str, str]:
        """Return the ``Format`` tag."""
        return "Format", format or "normal"

    def deal_from_log(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Cuttle set-ups keep a deck as one string and hands as strings."""
        if "deck" in deal:
            deal["deck"] = " ".join(deal["deck"])
        else:
            deal["hands"] = [" ".join(hand) for hand in deal["hands"]]
        return deal

    def match_settings(
        self, match_format: object, format: str | None, options: Mapping[str, Any] | None
    ) -> tuple[str | None, Mapping[str, Any] | None]:
        """The competition's format is the match's; the match may name it again, in any spelling.

        >>> RULES.match_settings('normal', 'Best-of-3', None)
        ('normal', None)
        """
        fixed = self.canonical_format(match_format)
        if format is not None and CuttleFormat.from_text(format).text() != fixed:
            raise format_mismatch("format", fixed, format)
        return fixed, options

    def canonical_format(self, value: object) -> str:
        """Return the canonical format text (``normal`` for ``None``)."""
        if value is None:
            return "normal"
        if not isinstance(value, str):
            raise MalformedError(
                "a cuttle format is text, e.g. 'normal' or 'best-of-7'",
                details={"format": repr(value)},
            )
        return CuttleFormat.from_text(value).text()

    def score_text(self, score: Mapping[str, Any]) -> str:
        """Return wins per seat, and drawn rounds if any.

        >>> RULES.score_text({'wins': [2, 1], 'drawn_rounds': 0})
        '2-1'
        """
        text = "-".join(str(w) for w in score.get("wins", []))
        drawn = score.get("drawn_rounds", 0)
        return f"{text} ({drawn} drawn)" if drawn else text

    def rounds_data(self, series: CuttleSeries) -> list[dict[str, Any]]:
        """Return each round's result (winner or draw, and how) with the running wins."""
        wins = [0] * series.players
        rounds = []
        for number, outcome in enumerate(series.rounds, start=1):
            if outcome.winner is not None:
                wins[outcome.winner] += 1
            rounds.append(
                {
                    "round": number,
                    "winner": outcome.winner,
                    "draw": outcome.winner is None,
                    "termination": outcome.termination.value,
                    "resigned": outcome.resigned,
                    "wins": list(wins),
                }
            )
        return rounds

    def result_data(self, series: CuttleSeries) -> dict[str, Any]:
        """Name the seat that resigned the whole match (``None`` if nobody did)."""
        return {"resigned": series.resigned_by}

    def places(self, match: Finished) -> list[int]:
        """The winner is first; the others follow by counted round wins (ties share)."""
        seats = range(len(match.players))
        winners = set(match.result["winners"])
        wins = _round_wins(match)
        places = []
        for s in seats:
            if s in winners:
                places.append(1)
                continue
            ahead = sum(1 for o in seats if o not in winners and wins[o] > wins[s])
            places.append(2 + ahead)
        return places

    def tally(self, matches: Sequence[Finished]) -> Tables:
        """Tally players' lines and every encounter between opponents."""
        lines: dict[str, Line] = {}
        met = []
        zero = [s for s in self.standings_stats if s != "points"]
        for match in matches:
            wins = _round_wins(match)
            counted = sum(wins)
            winners = set(match.result["winners"])
            for seat, player in enumerate(match.players):
                line = lines.setdefault(player, Line(player, (player,), dict.fromkeys(zero, 0)))
                line.add("played", 1)
                if match.is_draw:
                    line.add("drawn", 1)
                elif seat in winners:
                    line.add("won", 1)
                else:
                    line.add("lost", 1)
                line.add("rounds_won", wins[seat])
                line.add("rounds_lost", counted - wins[seat])
            met.extend(encounters(match.players, match.places()))
        for line in lines.values():
            line.stats["points"] = line.stats["won"] + line.stats["drawn"] / 2
        return {"players": (lines, met)}


def _round_wins(match: Finished) -> list[int]:
    """Counted round wins per seat at the end of the match (its last round's ``wins``)."""
    if not match.rounds:
        return [0] * len(match.players)
    return list(match.rounds[-1]["wins"])


def _hands(deal: Mapping[str, Any]) -> tuple[tuple[Card, ...], ...]:
    hands = deal["hands"]
    if not isinstance(hands, Sequence) or isinstance(hands, str):
        raise bad_deal("hands must be a list with one entry per seat", deal)
    return tuple(parse_cards(hand) for hand in hands)


RULES: GameRules[cuttle.Position, cuttle.Move, cuttle.Outcome, CuttleSeries] = CuttleRules()
"""Cuttle's match-level rules, as ``domain.games`` registers them."""

__all__ = ["RULES", "CuttleRules"]
