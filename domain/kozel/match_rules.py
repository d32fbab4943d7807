"""Kozel's match-level rules: what the match layer, logs and read models ask of Kozel.

>>> RULES.round_word, RULES.seat_token(3)
('deal', 'S3')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain import kozel
from domain.cards import Card
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
from domain.kozel import describe, sheet
from domain.kozel.context import format_match_position, parse_match_position
from domain.kozel.legal import LegalMoves
from domain.kozel.options import (
    KozelOptions,
    format_options,
    options_from_data,
    options_to_data,
    parse_options,
)
from domain.kozel.pack import parse_kozel_cards
from domain.kozel.series import DealScore, KozelSeries
from domain.kozel.tally import COMPETITION_FORMAT, STANDINGS_STATS, tally_lines
from domain.match_config import MatchConfig
from domain.tally import Finished, Tables
from domain.words import ENGLISH, Words

_PLAYS = {"CardsLed": "lead", "CardsBeaten": "beat", "CardsThrown": "throw"}
# A concession (R47) is recorded as the match's resignation; it is a move of the timeline.
_MOVES = frozenset({*_PLAYS, "MolodkaDeclared", "MatchResigned", RESULT_ENTERED})
# With physical dealing the scorer names the cards each seat draws: a move too.
_PHYSICAL_MOVES = _MOVES | {"CardsDrawn"}


class KozelRules(DefaultRules[kozel.Position, kozel.Move, kozel.DealOutcome, KozelSeries]):
    """Kozel's ``GameRules``: deals scored in loss points to a limit, four seats in pairs."""

    game = "kozel"
    round_started = "DealStarted"
    round_scored = "DealScored"
    not_started_code = "DEAL_NOT_STARTED"
    round_word = "deal"
    seat_letter = "S"
    max_seats = 4
    move_kinds = _MOVES - {RESULT_ENTERED}
    entrant_size = 2
    variants: tuple[str, ...] = ("default",)
    default_variant = "default"
    competition_variant: str | None = "default"
    tiebreaks: frozenset[str] = frozenset(
        {"head-to-head", "sonneborn-berger", "loss-point-difference", "wins"}
    )
    standings_stats: tuple[str, ...] = STANDINGS_STATS
    standings_tables: tuple[str, ...] = ("players", "pairs")

    def validate(self, config: MatchConfig) -> MatchConfig:
        """Return ``config`` with its options canonical and no format."""
        if config.variant != "default":
            raise InvalidSetupError(
                f"{config.variant!r} is not a Kozel variant: the only one is 'default'",
                code="INVALID_FORMAT",
                details={"variant": config.variant},
            )
        return config.with_settings(None, options_to_data(options_from_data(config.options)))

    def seats(self, config: MatchConfig) -> int:
        """Kozel seats four."""
        return 4

    def new_series(self, config: MatchConfig) -> KozelSeries:
        """Return a series with no deal scored."""
        return KozelSeries(options_from_data(config.options), config.first_dealer)

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        """Return the pack; R5: prefer the middle of the stock; R33 accepts any position 0-19."""
        return DealSpec(tuple(kozel.PACK), indicator_positions=range(1, 19))

    def setup_data(
        self, config: MatchConfig, series: KozelSeries, deal: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Return a deal's set-up from a deck order or dealt hands and indicator."""
        options, dealer, leader = series.options, series.dealer, series.leader
        if "position" in deal:
            return _position_setup(series, deal).to_data()
        if "deck" in deal and "hands" not in deal:
            setup = kozel.DealSetup(
                options,
                dealer,
                leader,
                deck=parse_kozel_cards(_card_list(deal["deck"])),
                indicator_position=deal.get("indicator_position"),
            )
        elif "hands" in deal and "deck" not in deal:
            hands = tuple(parse_kozel_cards(_card_list(h)) for h in deal["hands"])
            indicator = parse_kozel_cards([str(deal.get("indicator", ""))])[0]
            setup = kozel.DealSetup(options, dealer, leader, hands=hands, indicator=indicator)
        else:
            raise bad_deal("a deal starts from a deck order or from dealt hands", deal)
        return setup.to_data()

    def initial_position(self, setup_data: Mapping[str, Any]) -> kozel.Position:
        """Return the engine's position at the deal's start."""
        return kozel.initial_position(kozel.DealSetup.from_data(setup_data))

    def series_at_start(self, series: KozelSeries, setup_data: Mapping[str, Any]) -> KozelSeries:
        """Take up the match context of a match's first deal started mid-deal (R40)."""
        if "position" not in setup_data:
            return series
        context, position = kozel.DealSetup.from_data(setup_data).start()
        return KozelSeries.starting(series.options, context, position.dealer)

    def decide(self, position: kozel.Position, move: str) -> list[Event]:
        """Return the engine's events for one move."""
        return kozel.decide(position, move)

    # The engine's own functions, not wrappers: the match layer calls these per move.
    step = staticmethod(kozel.step)
    evolve = staticmethod(kozel.evolve)
    outcome = staticmethod(kozel.outcome)

    def score(
        self, series: KozelSeries, outcome: kozel.DealOutcome, round_no: int
    ) -> tuple[KozelSeries, Event]:
        """Score a deal; ``DealScored`` holds its points, loss points and the totals after."""
        deal = series.score(outcome)
        after = series.record(outcome)
        data = {
            "deal": round_no,
            "card_points": list(outcome.card_points),
            "tricks": list(outcome.tricks),
            "last_trick_seat": outcome.last_trick_seat,
            "eggs": deal.is_eggs,
            "losing_team": deal.losing_team,
            "base_loss_points": deal.base_loss_points,
            "multiplier": deal.multiplier,
            "loss_points": deal.loss_points,
            "totals": list(after.loss_points),
        }
        return after, Event(self.round_scored, data)

    def series_from_scored(self, series: KozelSeries, data: Mapping[str, Any]) -> KozelSeries:
        """Record the deal score a ``DealScored`` holds, as it was scored (not scored again)."""
        outcome = kozel.DealOutcome(
            (data["card_points"][0], data["card_points"][1]),
            (data["tricks"][0], data["tricks"][1]),
            data["last_trick_seat"],
        )
        score = DealScore(
            outcome,
            data["losing_team"],
            data["base_loss_points"],
            data["multiplier"],
            data["loss_points"],
        )
        return series.recorded(score)

    def resign_match(self, series: KozelSeries, seat: int) -> KozelSeries:
        """Return the series after ``seat`` conceded the match for its team (R47)."""
        return series.concede(seat)

    def concession(self, move: str) -> int | None:
        """Return the seat of ``S1 concede`` (R47), which the match records; else ``None``.

        >>> RULES.concession('s1 CONCEDE'), RULES.concession('S1 lead 7S')
        (1, None)
        """
        if move[-7:].lower() != kozel.CONCEDE:
            return None
        try:
            parsed = kozel.Move.from_text(move)
        except MalformedError:
            return None
        return parsed.seat if parsed.kind == kozel.CONCEDE else None

    def service_moves(self, position: kozel.Position | None) -> tuple[kozel.Move, ...]:
        """Return the concessions (R47): any seat, in a deal or between deals."""
        return kozel.service_moves(position) if position is not None else _CONCESSIONS

    def is_result(self, move: str) -> bool:
        """Whether ``move`` is written ``deal ...`` (R48)."""
        return sheet.is_result(move)

    def enter_result(
        self, series: KozelSeries, text: str, round_no: int
    ) -> tuple[KozelSeries, list[Event]]:
        """Record ``deal 75 45`` or ``deal 120 0 blank B`` as deal ``round_no`` (R48).

        ``ResultEntered`` repeats the losing team and loss points ``DealScored`` gives,
        as a score sheet's line shows them: the timeline reads the line alone.
        """
        canonical, outcome = sheet.read_deal(text, series.dealer)
        after, scored = self.score(series, outcome, round_no)
        data = {
            "result": canonical,
            self.round_word: round_no,
            "losing_team": scored.data["losing_team"],
            "loss_points": scored.data["loss_points"],
        }
        return after, [Event(RESULT_ENTERED, data), scored]

    def results(self, config: MatchConfig) -> tuple[str, ...]:
        """None listed: 121 splits of the card points, and blanks (a pad builds a form)."""
        return ()

    def ended_data(self, series: KozelSeries) -> dict[str, Any]:
        """Return the final loss points and eggs."""
        return {"loss_points": list(series.loss_points), "eggs": series.eggs}

    def move_events(self, dealing: str) -> frozenset[str]:
        """Plays and molodka declarations; physically dealt draws too."""
        return _PHYSICAL_MOVES if dealing == "physical" else _MOVES

    def move_text(self, kind: str, data: Mapping[str, Any]) -> str:
        """Return the move a play, a declaration or named draws record."""
        if kind in _PLAYS:
            return f"S{data['seat']} {_PLAYS[kind]} {' '.join(data['cards'])}"
        if kind == "MolodkaDeclared":
            return f"S{data['seat']} molodka"
        if kind == "MatchResigned":
            return f"S{data['seat']} concede"
        if kind == RESULT_ENTERED:
            return str(data["result"])
        return "cards " + " ".join(card for _, card in data["draws"])

    def public_data(self, config: MatchConfig, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Hide drawn cards, and face-down throws unless the match plays ``open_throws``."""
        open_throws = bool(config.options.get("open_throws", False))
        if kind == "CardsThrown" and not open_throws:
            return {"seat": data["seat"], "count": len(data["cards"])}
        if kind == "CardsDrawn":
            return {"draws": [[seat, None] for seat, _ in data["draws"]]}
        if kind == "TrickTaken" and not open_throws:
            # The cards and points would reveal face-down throws and a running total (R39).
            return {"winner": data["winner"], "team": data["team"], "count": len(data["cards"])}
        if kind == "MolodkaDeclared" and not open_throws:
            returned = [[seat, len(cards)] for seat, cards in data.get("returned", [])]
            return {"seat": data["seat"], "cards": data["cards"], "returned_counts": returned}
        return data

    def describe_step(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
    ) -> tuple[str, str, int | None]:
        """Return the move's notation, its sentence, and the seat in its data."""
        if kind == RESULT_ENTERED:
            text = str(data["result"])
            sentence = sheet.describe_deal(
                data[self.round_word], text, data["losing_team"], data["loss_points"], words
            )
            return text, sentence, None
        notation = describe.notation(kind, data) or ""
        sentence = describe.describe_move(kind, data, names, words) or ""
        return notation, sentence, data.get("seat")

    def view(self, position: kozel.Position, seat: int | None) -> dict[str, Any]:
        """Return the engine's view."""
        return kozel.view(position, seat)

    def record_view(self, position: kozel.Position) -> dict[str, Any]:
        """The table's view with face-down throws face up (R44)."""
        return kozel.record_view(position)

    def to_act(self, position: kozel.Position) -> tuple[int, ...]:
        """Return the seats that may act."""
        return kozel.to_act(position)

    def public_to_act(self, position: kozel.Position) -> tuple[int, ...]:
        """Only whose turn it is.

        ``to_act`` also names molodka holders, which would reveal a hand (R19).
        """
        seat = position.to_play
        return () if seat is None else (seat,)

    def cards_awaited(self, position: kozel.Position) -> int:
        """Return how many named cards the position waits for."""
        return kozel.cards_awaited(position)

    def cards_to_name(self, position: kozel.Position) -> CardsToName | None:
        """Return what the scorer must name now (``None``: nothing waits)."""
        return kozel.cards_to_name(position)

    def unplaced_cards(self, position: kozel.Position) -> tuple[Card, ...]:
        """Return the pack's cards not yet placed."""
        return kozel.unplaced_cards(position)

    def legal_moves(self, position: kozel.Position) -> LegalMoves:
        """Return the engine's legal moves."""
        return kozel.legal_moves(position)

    def move_parts(self, move: kozel.Move) -> MoveParts:
        """Return a move's seat and cards; no Kozel move aims at a card or a player.

        >>> [c.text() for c in RULES.move_parts(kozel.Move.from_text('S2 lead 7S KS')).cards]
        ['7S', 'KS']
        >>> RULES.move_parts(kozel.Move.from_text('S3 molodka'))
        MoveParts(seat=3, cards=(), target_card=None, target_seat=None)
        """
        return MoveParts(move.seat, move.cards)

    def format_tag(self, format: str | None, options: Mapping[str, Any]) -> tuple[str, str]:
        """Return the ``Options`` tag."""
        return "Options", format_options(options_from_data(options))

    def options_from_tag(self, text: str) -> dict[str, Any]:
        """Return the options an ``Options`` tag names."""
        return options_to_data(parse_options(text.strip()))

    def deal_from_log(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Kozel set-ups take cards as lists."""
        return deal

    def match_settings(
        self, match_format: object, format: str | None, options: Mapping[str, Any] | None
    ) -> tuple[str | None, Mapping[str, Any] | None]:
        """The competition fixes ``loss_limit`` and ``eggs_double_next``; the match adds the rest.

        >>> RULES.match_settings({'loss_limit': 6}, None, {'open_throws': True})
        (None, {'open_throws': True, 'loss_limit': 6, 'eggs_double_next': False})
        """
        fixed = self.canonical_format(match_format)
        given = dict(options or {})
        for name, value in fixed.items():
            # Strictly equal: a match's ``1`` is not the competition's ``True``.
            if name in given and (type(given[name]), given[name]) != (type(value), value):
                raise format_mismatch(name, value, given[name])
        return format, {**given, **fixed}

    def competition_format(self, format: str | None, options: Mapping[str, Any]) -> dict[str, Any]:
        """A competition's ``match_format`` is the part of a match's options it holds.

        >>> RULES.competition_format(None, {'loss_limit': 6, 'open_throws': True})
        {'loss_limit': 6}
        """
        # The other options (open_throws, ...) are per match: a competition format refuses them.
        return {k: v for k, v in options.items() if k in COMPETITION_FORMAT}

    def canonical_format(self, value: object) -> dict[str, Any]:
        """Return ``{loss_limit, eggs_double_next}`` checked (the defaults for ``None``).

        >>> RULES.canonical_format({'loss_limit': 6})
        {'loss_limit': 6, 'eggs_double_next': False}
        """
        given = {} if value is None else value
        if not isinstance(given, Mapping):
            raise MalformedError(
                "a kozel format is an object: {loss_limit, eggs_double_next}",
                details={"format": repr(value)},
            )
        unknown = sorted(set(given) - set(COMPETITION_FORMAT))
        if unknown:
            raise MalformedError(
                f"{unknown[0]!r} is not a kozel format field: loss_limit, eggs_double_next",
                details={"format": repr(value)},
            )
        options = KozelOptions(**{**COMPETITION_FORMAT, **given})
        return {"loss_limit": options.loss_limit, "eggs_double_next": options.eggs_double_next}

    def score_text(self, score: Mapping[str, Any]) -> str:
        """Return loss points per team, and eggs if any.

        >>> RULES.score_text({'loss_points': [3, 12], 'eggs': 1})
        '3-12 (eggs 1)'
        """
        text = "-".join(str(p) for p in score.get("loss_points", []))
        eggs = score.get("eggs", 0)
        return f"{text} (eggs {eggs})" if eggs else text

    def rounds_data(self, series: KozelSeries) -> list[dict[str, Any]]:
        """Return each deal's card points, tricks, loss points, eggs and multiplier, with totals."""
        totals = list(series.before.loss_points)
        deals = []
        for number, deal in enumerate(series.deals, start=1):
            if deal.losing_team is not None:
                totals[deal.losing_team] += deal.loss_points
            deals.append(
                {
                    "deal": number,
                    "card_points": list(deal.outcome.card_points),
                    "tricks": list(deal.outcome.tricks),
                    "eggs": deal.is_eggs,
                    "losing_team": deal.losing_team,
                    "base_loss_points": deal.base_loss_points,
                    "multiplier": deal.multiplier,
                    "loss_points": deal.loss_points,
                    "totals": list(totals),
                }
            )
        return deals

    def result_data(self, series: KozelSeries) -> dict[str, Any]:
        """Name the seat that conceded (R47), when one did."""
        return {} if series.conceded_by is None else {"conceded": series.conceded_by}

    def rating_teams(self, seats: int) -> list[list[int]]:
        """Partners (seats 0 and 2, 1 and 3) are rated as one team."""
        return [[0, 2], [1, 3]]

    def tally(self, matches: Sequence[Finished]) -> Tables:
        """Tally lines per player and per pair, and their encounters."""
        return {
            "players": tally_lines(matches, pairs=False),
            "pairs": tally_lines(matches, pairs=True),
        }


def _position_setup(series: KozelSeries, deal: Mapping[str, Any]) -> kozel.DealSetup:
    """Return the setup of a match's first deal from a position with its match context.

    Raises:
        InvalidSetupError (INVALID_DECK): not the match's first deal, or a position
            whose rules or dealer are not this match's.
        MalformedError, InvalidSetupError (INVALID_POSITION): an unreadable position.
    """
    if series.deals or not series.before.is_first_deal or len(deal) != 1:
        raise bad_deal("only a match's first deal may start from a position, alone", deal)
    text = str(deal["position"])
    context, position = parse_match_position(text)
    if position.options != series.options:
        raise bad_deal("the position's rules are not the match's", deal)
    if context.first_dealer(position.dealer) != series.first_dealer:
        raise bad_deal(
            f"deal {context.deal} dealt by S{position.dealer} means a first dealer "
            f"S{context.first_dealer(position.dealer)}, not the match's S{series.first_dealer}",
            deal,
        )
    return kozel.DealSetup(
        series.options,
        position.dealer,
        position.leader,
        position=format_match_position(context, position),
    )


def _card_list(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, Sequence):
        return list(map(str, value))
    raise MalformedError(f"{value!r} is not a list of cards", details={"cards": repr(value)})


_CONCESSIONS = tuple(kozel.Move.from_text(f"S{seat} concede") for seat in range(4))

RULES: GameRules[kozel.Position, kozel.Move, kozel.DealOutcome, KozelSeries] = KozelRules()
"""Kozel's match-level rules, as ``domain.games`` registers them."""

__all__ = ["RULES", "KozelRules"]
