"""A match's event stream: the commands it accepts, the events it records, its fold.

One decider serves both games. A match stream starts with ``MatchCreated`` (the
rules it is played under: game, variant, options, rules version, seats, format,
first dealer, how rounds are dealt). Each round opens with ``RoundStarted``
(Cuttle) or ``DealStarted`` (Kozel) holding the engine's setup; the engine's own
events follow; when a round ends this module scores it (``RoundScored`` /
``DealScored``, through ``domain.match``) and, when the series is decided, appends
``MatchEnded``. Nothing here reads a clock or a random source: a server-dealt
round's deck arrives in the command (``deal``), shuffled by the caller.

    >>> state = fold([])
    >>> state.config is None
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from domain import cuttle, kozel
from domain.cards import RANKS, Card, parse_cards
from domain.errors import IllegalMoveError, InvalidSetupError, MalformedError, NotFoundError
from domain.events import Event, EventLike
from domain.match import CuttleFormat, CuttleSeries, KozelSeries, MatchResult
from domain.records import builder

Dealing = Literal["server", "scorer", "physical"]
DEALINGS: tuple[Dealing, ...] = ("server", "scorer", "physical")
RULES_VERSION = 1
"""Bumped when a rule changes; old matches replay under the version they recorded."""

Series = CuttleSeries | KozelSeries


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
        )


_match_config = builder(MatchConfig)


@dataclass(frozen=True, slots=True)
class DealSpec:
    """What a server needs to deal a round: the pack, and where an indicator may lie."""

    pack: tuple[Card, ...]
    indicator_positions: range | None = None


class GameRules(Protocol):
    """What the match decider needs of one game; ``RULES`` holds one per game."""

    game: str
    round_started: str
    round_scored: str
    not_started_code: str

    def validate(self, config: MatchConfig) -> MatchConfig: ...
    def seats(self, config: MatchConfig) -> int: ...
    def new_series(self, config: MatchConfig) -> Series: ...
    def deal_spec(self, config: MatchConfig) -> DealSpec: ...
    def setup_data(self, config: MatchConfig, series: Series, deal: Mapping[str, Any]) -> Any: ...
    def initial_position(self, setup_data: Mapping[str, Any]) -> Any: ...
    def decide(self, position: Any, move: str) -> list[Event]: ...
    def step(self, position: Any, move: str) -> tuple[list[Event], Any]: ...
    def evolve(self, position: Any, event: Event) -> Any: ...
    def outcome(self, position: Any) -> Any: ...
    def score(self, series: Series, outcome: Any, round_no: int) -> tuple[Series, Event]: ...
    def series_from_scored(self, series: Series, data: Mapping[str, Any]) -> Series: ...
    def view(self, position: Any, seat: int | None) -> dict[str, Any]: ...
    def to_act(self, position: Any) -> tuple[int, ...]: ...
    def public_to_act(self, position: Any) -> tuple[int, ...]: ...
    def cards_awaited(self, position: Any) -> int: ...
    def unplaced_cards(self, position: Any) -> tuple[Card, ...]: ...
    def legal_moves(self, position: Any) -> Iterable[Any]: ...
    def seat_token(self, seat: int) -> str: ...


def _bad_deal(message: str, deal: Mapping[str, Any]) -> InvalidSetupError:
    return InvalidSetupError(message, code="INVALID_DECK", details={"deal": dict(deal)})


def _hands(deal: Mapping[str, Any]) -> tuple[tuple[Card, ...], ...]:
    hands = deal["hands"]
    if not isinstance(hands, Sequence) or isinstance(hands, str):
        raise _bad_deal("hands must be a list with one entry per seat", deal)
    return tuple(parse_cards(hand) for hand in hands)


class _CuttleRules:
    game = "cuttle"
    round_started = "RoundStarted"
    round_scored = "RoundScored"
    not_started_code = "ROUND_NOT_STARTED"

    def validate(self, config: MatchConfig) -> MatchConfig:
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
        return cuttle.Variant(config.variant).players

    def new_series(self, config: MatchConfig) -> Series:
        return CuttleSeries(
            cuttle.Variant(config.variant),
            CuttleFormat.from_text(config.format or "normal"),
            config.first_dealer,
        )

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        from domain.cuttle.state import pack

        variant = cuttle.Variant(config.variant)
        return DealSpec(tuple(sorted(pack(variant), key=lambda c: (c.suit, c.rank))))

    def setup_data(self, config: MatchConfig, series: Series, deal: Mapping[str, Any]) -> Any:
        variant = cuttle.Variant(config.variant)
        if "deck" in deal and "hands" not in deal:
            setup = cuttle.RoundSetup(variant, series.dealer, deck=parse_cards(deal["deck"]))
        elif "hands" in deal and "deck" not in deal:
            setup = cuttle.RoundSetup(variant, series.dealer, hands=_hands(deal))
        else:
            raise _bad_deal("a round starts from a deck order or from dealt hands", deal)
        return setup.to_data()

    def initial_position(self, setup_data: Mapping[str, Any]) -> Any:
        return cuttle.initial_position(cuttle.RoundSetup.from_data(setup_data))

    def decide(self, position: Any, move: str) -> list[Event]:
        return cuttle.decide(position, move)

    # The engine's own functions, not wrappers: the match layer calls these per move.
    step = staticmethod(cuttle.step)
    evolve = staticmethod(cuttle.evolve)
    outcome = staticmethod(cuttle.outcome)

    def view(self, position: Any, seat: int | None) -> dict[str, Any]:
        return cuttle.view(position, seat)

    def to_act(self, position: Any) -> tuple[int, ...]:
        return cuttle.to_act(position)

    def public_to_act(self, position: Any) -> tuple[int, ...]:
        # Who must act next in Cuttle follows from public facts alone.
        return cuttle.to_act(position)

    def cards_awaited(self, position: Any) -> int:
        return cuttle.cards_awaited(position)

    def unplaced_cards(self, position: Any) -> tuple[Card, ...]:
        from domain.cuttle.state import pack, placed_cards

        left = pack(position.variant) - frozenset(placed_cards(position))
        return tuple(
            sorted(
                left, key=lambda c: (c.suit, RANKS.index(c.rank) if c.rank in RANKS else 99, c.rank)
            )
        )

    def legal_moves(self, position: Any) -> Iterable[Any]:
        return cuttle.legal_moves(position)

    def seat_token(self, seat: int) -> str:
        return "P" + str(seat)

    def score(self, series: Series, outcome: Any, round_no: int) -> tuple[Series, Event]:
        assert isinstance(series, CuttleSeries)
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

    def series_from_scored(self, series: Series, data: Mapping[str, Any]) -> Series:
        assert isinstance(series, CuttleSeries)
        outcome = cuttle.Outcome(
            cuttle.Termination(data["termination"]), data["winner"], data.get("resigned")
        )
        return series.record(outcome)


class _KozelRules:
    game = "kozel"
    round_started = "DealStarted"
    round_scored = "DealScored"
    not_started_code = "DEAL_NOT_STARTED"

    def validate(self, config: MatchConfig) -> MatchConfig:
        if config.variant != "default":
            raise InvalidSetupError(
                f"{config.variant!r} is not a Kozel variant: the only one is 'default'",
                code="INVALID_FORMAT",
                details={"variant": config.variant},
            )
        from domain.kozel.state import options_from_data, options_to_data

        options = options_to_data(options_from_data(config.options))
        # ``replace`` would go through ``__init__`` by keywords, several times slower.
        return _match_config(
            config.game,
            config.variant,
            config.players,
            config.first_dealer,
            config.dealing,
            None,
            options,
            config.first_dealer_drawn,
            config.competition_id,
            config.rules_version,
        )

    def seats(self, config: MatchConfig) -> int:
        return 4

    def new_series(self, config: MatchConfig) -> Series:
        from domain.kozel.state import options_from_data

        return KozelSeries(options_from_data(config.options), config.first_dealer)

    def deal_spec(self, config: MatchConfig) -> DealSpec:
        # R5: prefer the middle of the stock; R33 accepts any position 0-19.
        return DealSpec(tuple(kozel.PACK), indicator_positions=range(1, 19))

    def setup_data(self, config: MatchConfig, series: Series, deal: Mapping[str, Any]) -> Any:
        assert isinstance(series, KozelSeries)
        from domain.kozel.pack import parse_kozel_cards

        options, dealer, leader = series.options, series.dealer, series.leader
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
            raise _bad_deal("a deal starts from a deck order or from dealt hands", deal)
        return setup.to_data()

    def initial_position(self, setup_data: Mapping[str, Any]) -> Any:
        return kozel.initial_position(kozel.DealSetup.from_data(setup_data))

    def decide(self, position: Any, move: str) -> list[Event]:
        return kozel.decide(position, move)

    # The engine's own functions, not wrappers: the match layer calls these per move.
    step = staticmethod(kozel.step)
    evolve = staticmethod(kozel.evolve)
    outcome = staticmethod(kozel.outcome)

    def view(self, position: Any, seat: int | None) -> dict[str, Any]:
        return kozel.view(position, seat)

    def to_act(self, position: Any) -> tuple[int, ...]:
        return kozel.to_act(position)

    def public_to_act(self, position: Any) -> tuple[int, ...]:
        # to_act also names molodka holders, which would reveal a hand (R19): the
        # table sees only whose turn it is.
        seat = position.to_play
        return () if seat is None else (seat,)

    def cards_awaited(self, position: Any) -> int:
        return kozel.cards_awaited(position)

    def unplaced_cards(self, position: Any) -> tuple[Card, ...]:
        return kozel.unplaced_cards(position)

    def legal_moves(self, position: Any) -> Iterable[Any]:
        return kozel.legal_moves(position)

    def seat_token(self, seat: int) -> str:
        return "S" + str(seat)

    def score(self, series: Series, outcome: Any, round_no: int) -> tuple[Series, Event]:
        assert isinstance(series, KozelSeries)
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

    def series_from_scored(self, series: Series, data: Mapping[str, Any]) -> Series:
        assert isinstance(series, KozelSeries)
        outcome = kozel.DealOutcome(
            (data["card_points"][0], data["card_points"][1]),
            (data["tricks"][0], data["tricks"][1]),
            data["last_trick_seat"],
        )
        return series.record(outcome)


def _card_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, Sequence):
        return list(map(str, value))
    raise MalformedError(f"{value!r} is not a list of cards", details={"cards": repr(value)})


RULES: dict[str, GameRules] = {"cuttle": _CuttleRules(), "kozel": _KozelRules()}
"""The match-level rules of each game, by game name."""


def rules_for(game: str) -> GameRules:
    """Return the rules of a game.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown game.
    """
    try:
        return RULES[game]
    except KeyError:
        raise InvalidSetupError(
            f"{game!r} is not a game matchlog records: cuttle or kozel",
            code="INVALID_FORMAT",
            details={"game": game},
        ) from None


# --- commands ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateMatch:
    """Open a match. With server dealing, ``deal`` is the first round's shuffled deck."""

    config: MatchConfig
    deal: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class StartRound:
    """Open the next round from a scorer-given deck order or physically dealt hands."""

    deal: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Play:
    """Record one move in the engine's notation.

    ``next_deal`` is a freshly shuffled deck for server-dealt matches: if this move
    ends a round and the match goes on, the next round starts from it at once.
    """

    move: str
    next_deal: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ResignMatch:
    """A 2-player Cuttle resignation of the whole match (ruling 37)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Go back to the match exactly as it was at ``to_version``, on its effective line."""

    to_version: int
    reason: str


@dataclass(frozen=True, slots=True)
class VoidMatch:
    """Void a finished match: it stays in the log, marked void, and counts nowhere."""

    reason: str


@dataclass(frozen=True, slots=True)
class AddNote:
    """Attach a short note (a ruling, a misplay seen, a clock time) to a recorded event."""

    version: int
    text: str


Command = CreateMatch | StartRound | Play | ResignMatch | TakeBack | VoidMatch | AddNote

MAX_NOTE_LENGTH = 500
"""The longest note, in characters."""
MAX_REASON_LENGTH = 200
"""The longest takeback or void reason, in characters."""


# --- state and fold --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchState:
    """What the next decision needs: the rules, the series, the round in progress."""

    config: MatchConfig | None = None
    series: Series | None = None
    rounds_started: int = 0
    position: Any = None
    result: MatchResult | None = None
    voided: bool = False
    version: int = 0
    """The stream version of the last folded event (see ``fold_versioned``)."""
    window: tuple[tuple[int, bool], ...] = ()
    """The effective events a takeback may still reach back to, oldest first, as
    ``(version, starts_command)``: from the event before the start of the last round
    with a recorded move (or of the first round) to the last event."""
    round_start: int | None = None
    """The index in ``window`` of the last round start."""
    moved_since_start: bool = False
    """Whether a move has been recorded since the last round start."""

    @property
    def rules(self) -> GameRules:
        """The game's match-level rules."""
        assert self.config is not None
        return rules_for(self.config.game)

    @property
    def round_in_progress(self) -> bool:
        """Whether a round has started and not yet been scored."""
        return self.position is not None

    @property
    def is_over(self) -> bool:
        """Whether the match has a result."""
        return self.result is not None


def evolve(state: MatchState, event: Event, version: int | None = None) -> MatchState:
    """Fold one stored event into the match state; never raises for a stored event.

    ``version`` is the event's stream version (default: the next one). Folds go
    through ``effective_events``, which drops ``TakenBack`` itself: here it changes
    nothing. ``NoteAdded`` changes nothing either, except the takeback window.
    """
    at = state.version + 1 if version is None else version
    kind, data = event.type, event.data
    if kind == "MatchCreated":
        created = MatchConfig.from_data(data)
        new_series = rules_for(created.game).new_series(created)
        return MatchState(created, new_series, version=at, window=((at, True),))
    config = state.config
    if config is None or kind == "TakenBack":
        return replace(state, version=at)
    # One constructor call per event: ``dataclasses.replace`` is several times slower
    # and folds run once per recorded event (imports, rebuilds, replays).
    series, rounds_started, position = state.series, state.rounds_started, state.position
    result, voided = state.result, state.voided
    entries, round_start, moved = state.window, state.round_start, state.moved_since_start
    facts = _facts(config)
    rules = facts.rules
    # The takeback window: every event joins it; a round start opens a new round in it.
    if kind == facts.round_started:
        entries += ((at, facts.round_start_opens),)
        round_start, moved = len(entries) - 1, False
        position = rules.initial_position(data["setup"])
        rounds_started += 1
    else:
        entries += ((at, kind in facts.opening),)
        if not moved and kind in facts.moves:
            # The first move of a round closes the round before it to takebacks.
            moved = True
            if round_start is not None:
                cut = max(round_start - 1, 0)
                entries, round_start = entries[cut:], round_start - cut
        if kind == "NoteAdded":
            pass
        elif kind == "MatchVoided":
            voided = True
        elif kind == facts.round_scored:
            assert series is not None
            series, position = rules.series_from_scored(series, data), None
        elif kind == "MatchResigned":
            assert isinstance(series, CuttleSeries)
            series, position = series.resign_match(data["seat"]), None
        elif kind == "MatchEnded":
            result = MatchResult(tuple(data["winners"]), tuple(data["losers"]), data["reason"])
            position = None
        elif position is not None:
            position = rules.evolve(position, event)
    return _match_state(
        config, series, rounds_started, position, result, voided, at, entries, round_start, moved
    )


# Folds build one per event (imports, rebuilds, replays): skip the frozen __init__.
_match_state = builder(MatchState)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the match layer asks of a config on every event, worked out once per kind.

    The one definition of which events are moves and which open a command: ``is_move``
    and ``starts_command`` read it too.
    """

    rules: GameRules
    round_started: str
    round_scored: str
    round_start_opens: bool
    """Whether a round start opens a command (it does unless the server deals)."""
    moves: frozenset[str]
    """The event types that record a move (``is_move``)."""
    opening: frozenset[str]
    """The event types other than a round start that open a command (``starts_command``)."""

    @classmethod
    def of(cls, game: str, dealing: str) -> _Facts:
        rules = rules_for(game)
        if game == "cuttle":
            moves = frozenset({"MovePlayed"})
        else:
            kinds = {*_KOZEL_PLAYS, "MolodkaDeclared"}
            moves = frozenset(kinds | {"CardsDrawn"} if dealing == "physical" else kinds)
        return cls(
            rules,
            rules.round_started,
            rules.round_scored,
            dealing != "server",
            moves,
            moves | frozenset(_COMMAND_EVENTS),
        )


_FACTS: dict[tuple[str, str], _Facts] = {}
"""``_Facts`` by game and dealing, filled as configs are met."""


def _facts(config: MatchConfig) -> _Facts:
    """Return the facts of ``config``'s game and dealing.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown game.
    """
    key = (config.game, config.dealing)
    facts = _FACTS.get(key)
    if facts is None:
        facts = _Facts.of(*key)
        if config.dealing in DEALINGS:
            _FACTS[key] = facts
    return facts


def _after_engine_events(
    state: MatchState, facts: _Facts, events: Sequence[Event], position: Any
) -> MatchState:
    """Return ``state`` after an engine's own events, whose fold ``position`` already is.

    The window moves on as ``evolve`` moves it event by event, but one tuple is built:
    an engine records no round start, and only a round's first move cuts the window.
    """
    at = state.version
    window, round_start, moved = state.window, state.round_start, state.moved_since_start
    opening = facts.opening
    if moved and len(events) == 1:
        # Most moves record one event, mid-round: nothing to cut, one entry to add.
        at += 1
        window += ((at, events[0].type in opening),)
    else:
        moves = facts.moves
        new: list[tuple[int, bool]] = []
        cut = 0
        for event in events:
            at += 1
            kind = event.type
            new.append((at, kind in opening))
            if not moved and kind in moves:
                # The first move of a round closes the round before it to takebacks.
                moved = True
                if round_start is not None:
                    cut = max(round_start - 1, 0)
                    round_start -= cut
        window = (window[cut:] if cut else window) + tuple(new)
    return _match_state(
        state.config,
        state.series,
        state.rounds_started,
        position,
        state.result,
        state.voided,
        at,
        window,
        round_start,
        moved,
    )


def starts_command(config: MatchConfig, event: Event) -> bool:
    """Whether ``event`` is the first event a command recorded (not one derived from a move).

    Moves (``move_text``), notes, voids, resignations and scorer-dealt round starts
    each open a command; a server-dealt round starts inside the move that ended the
    round before (or inside ``CreateMatch``).

    >>> cfg = MatchConfig('cuttle', 'standard', ('a', 'b'), 0)
    >>> starts_command(cfg, Event('RoundStarted', {}))
    False
    >>> starts_command(cfg, Event('MovePlayed', {'move': 'P1 draw'}))
    True
    """
    facts = _facts(config)
    if event.type == facts.round_started:
        return facts.round_start_opens
    return event.type in facts.opening


_COMMAND_EVENTS = ("NoteAdded", "MatchVoided", "MatchResigned", "TakenBack")
"""Events that are a whole command by themselves (none of them is a move)."""


VersionedEvent = tuple[int, Event]
"""A stored event with its stream version (1-based), as ``effective_events`` takes them."""


UNDOING_EVENTS = ("TakenBack",)
"""Events after which a fold must start again from ``effective_events``."""


def effective_events(events: Iterable[VersionedEvent]) -> list[VersionedEvent]:
    """Return the events a fold should see: the raw stream less what takebacks undo.

    Every read-side fold (replays, summaries, series, standings, rebuilds) goes
    through this one function. The match "as it was at version t" is the fold of
    the effective events up to and including version t. A ``TakenBack`` naming
    ``to_version`` t truncates the effective list after t and is itself dropped;
    ``decide`` only lets a takeback name a version on the effective line, so the
    events after it are undone and nothing is revived. Versions travel with the
    events so callers can still say which stored event a step came from. The same
    truncation holds for any subset of a stream taken in version order (a rebuild
    reads only the series events).

    >>> e = Event('MatchCreated', {})
    >>> m = Event('MovePlayed', {'move': 'P1 draw'})
    >>> t = Event('TakenBack', {'to_version': 2, 'reason': 'wrong card'})
    >>> [v for v, _ in effective_events([(1, e), (2, m), (3, m), (4, t), (5, m)])]
    [1, 2, 5]
    """
    kept: list[VersionedEvent] = []
    for version, event in events:
        if event.type == "TakenBack":
            to_version = event.data["to_version"]
            while kept and kept[-1][0] > to_version:
                kept.pop()
            continue
        kept.append((version, event))
    return kept


def undone_by(events: Iterable[VersionedEvent]) -> dict[int, int]:
    """Return, for each version a takeback undid, the version of the ``TakenBack`` that did.

    >>> m = Event('MovePlayed', {'move': 'P1 draw'})
    >>> t = Event('TakenBack', {'to_version': 1, 'reason': 'misdeal'})
    >>> undone_by([(1, m), (2, m), (3, t)])
    {2: 3}
    """
    kept: list[int] = []
    undone: dict[int, int] = {}
    for version, event in events:
        if event.type == "TakenBack":
            to_version = event.data["to_version"]
            while kept and kept[-1] > to_version:
                undone[kept.pop()] = version
            continue
        kept.append(version)
    return undone


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """Fold events (effective ones: takebacks already applied) from ``state`` or the start.

    Versions count on from ``state.version``; after a takeback they do not, so a
    fold that must decide takebacks uses ``fold_versioned``.
    """
    current = MatchState() if state is None else state
    for event in events:
        current = evolve(current, event)
    return current


def fold_versioned(pairs: Iterable[VersionedEvent], state: MatchState | None = None) -> MatchState:
    """Fold effective ``(version, event)`` pairs from ``state`` or the start."""
    current = MatchState() if state is None else state
    for version, event in pairs:
        current = evolve(current, event, version)
    return current


def fold_stream(pairs: Sequence[VersionedEvent]) -> MatchState:
    """Fold a raw stream's ``(version, event)`` pairs through ``effective_events``.

    The state's ``version`` is the raw head, so the next events number on from it.
    """
    state = fold_versioned(effective_events(pairs))
    return replace(state, version=pairs[-1][0]) if pairs else state


# --- decide ------------------------------------------------------------------------------


def decide(state: MatchState, command: Command) -> list[Event]:
    """Check a command against the match and return the events it records.

    Raises:
        InvalidSetupError (INVALID_FORMAT, INVALID_DECK): a bad match or round set-up.
        IllegalMoveError (MATCH_OVER): the match already has a result (checked first;
            notes and voids apply to finished matches).
        IllegalMoveError (MATCH_VOID): the match is void (only notes are taken).
        IllegalMoveError (VOID_NOT_FINISHED): only a finished match can be voided.
        IllegalMoveError (NOTHING_TO_TAKE_BACK): the target is where the match is.
        IllegalMoveError (TAKEBACK_OUT_OF_RANGE): the target is not on the effective
            line inside the current round (or the round just ended).
        IllegalMoveError (TAKEBACK_MID_MOVE): the target lies inside one move's events.
        MalformedError (REASON_REQUIRED, NOTE_INVALID): a blank or too long reason or note.
        NotFoundError (NOTE_TARGET_NOT_FOUND): a note names no event of the match.
        IllegalMoveError (ROUND_NOT_STARTED / DEAL_NOT_STARTED): no round in progress.
        IllegalMoveError (ROUND_IN_PROGRESS): a round is started while one is live.
        MalformedError, IllegalMoveError: the engine's codes for the move.
    """
    return step(state, command)[0]


def step(state: MatchState, command: Command) -> tuple[list[Event], MatchState]:
    """Decide a command and return its events with the state they lead to.

    The same as ``decide`` followed by ``fold``, but a move's events are folded once
    (deciding a move has to fold them anyway, to see whether the round ended).

    Raises:
        DomainError: as ``decide``.
    """
    if isinstance(command, Play) and state.config is not None and state.result is None:
        return _play(state, command)
    if isinstance(command, CreateMatch):
        return _create(state, command)
    events = _decide_other(state, command)
    return events, fold(events, state)


def _decide_other(state: MatchState, command: Command) -> list[Event]:
    if state.config is None:
        raise IllegalMoveError("the match has not been created", code="MATCH_NOT_CREATED")
    if isinstance(command, AddNote):
        return _add_note(state, command)
    if state.voided:
        raise IllegalMoveError("the match is void", code="MATCH_VOID")
    if isinstance(command, VoidMatch):
        return _void(state, command.reason)
    if state.result is not None:
        raise IllegalMoveError("the match is over", code="MATCH_OVER")
    if isinstance(command, StartRound):
        return _start_round(state, command.deal)
    if isinstance(command, ResignMatch):
        return _resign_match(state, command.seat)
    if isinstance(command, TakeBack):
        return _take_back(state, command)
    raise AssertionError(f"unknown command {command!r}")


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text or len(text) > MAX_REASON_LENGTH:
        raise MalformedError(
            f"a reason is 1-{MAX_REASON_LENGTH} characters, not {len(text)}",
            code="REASON_REQUIRED",
            details={"reason": reason},
        )
    return text


def _take_back(state: MatchState, command: TakeBack) -> list[Event]:
    reason = _reason(command.reason)
    target = command.to_version
    versions = [version for version, _ in state.window]
    details = {"to_version": target, "earliest": versions[0] if versions else None}
    if versions and target == versions[-1]:
        raise IllegalMoveError(
            f"the match is already at version {target!r}: nothing to take back",
            code="NOTHING_TO_TAKE_BACK",
            details=details,
        )
    if target not in versions:
        raise IllegalMoveError(
            f"version {target!r} is not a version a takeback can reach: the current round,"
            " or the round just ended while the next has no move",
            code="TAKEBACK_OUT_OF_RANGE",
            details=details,
        )
    index = versions.index(target)
    if not state.window[index + 1][1]:
        raise IllegalMoveError(
            f"version {target!r} lies inside one move's events: name the version before a move",
            code="TAKEBACK_MID_MOVE",
            details=details,
        )
    return [Event("TakenBack", {"to_version": target, "reason": reason})]


def _void(state: MatchState, reason: str) -> list[Event]:
    text = _reason(reason)
    if state.result is None:
        raise IllegalMoveError(
            "only a finished match can be voided: take moves back instead",
            code="VOID_NOT_FINISHED",
        )
    return [Event("MatchVoided", {"reason": text})]


def _add_note(state: MatchState, command: AddNote) -> list[Event]:
    text = command.text.strip()
    if not text or len(text) > MAX_NOTE_LENGTH or "{" in text or "}" in text:
        # Braces delimit comments in the text log format, so a note may not hold them.
        raise MalformedError(
            f"a note is 1-{MAX_NOTE_LENGTH} characters without braces, not {command.text!r}",
            code="NOTE_INVALID",
            details={"text": command.text},
        )
    if not 1 <= command.version <= state.version:
        raise NotFoundError(
            f"version {command.version!r} is not an event of this match",
            code="NOTE_TARGET_NOT_FOUND",
            details={"version": command.version},
        )
    return [Event("NoteAdded", {"version": command.version, "text": text})]


def _create(state: MatchState, command: CreateMatch) -> tuple[list[Event], MatchState]:
    if state.config is not None:
        raise IllegalMoveError("the match already exists", code="MATCH_EXISTS")
    rules = rules_for(command.config.game)
    config = rules.validate(command.config)
    seats = rules.seats(config)
    if config.dealing not in DEALINGS:
        raise InvalidSetupError(
            f"{config.dealing!r} is not a way of dealing: server, scorer or physical",
            code="INVALID_FORMAT",
            details={"dealing": config.dealing},
        )
    if len(config.players) != seats:
        raise InvalidSetupError(
            f"{config.game} {config.variant} has {seats} seats, not {len(config.players)}",
            code="INVALID_FORMAT",
            details={"players": list(config.players)},
        )
    if len(set(config.players)) != len(config.players):
        raise InvalidSetupError(
            "a player may take only one seat",
            code="INVALID_FORMAT",
            details={"players": list(config.players)},
        )
    if not 0 <= config.first_dealer < seats:
        raise InvalidSetupError(
            f"the first dealer must be a seat 0-{seats - 1}, not {config.first_dealer!r}",
            code="INVALID_FORMAT",
            details={"first_dealer": config.first_dealer},
        )
    events = [Event("MatchCreated", config.to_data())]
    created = evolve(state, events[0])
    if config.dealing != "server":
        return events, created
    if command.deal is None:
        raise InvalidSetupError("a server-dealt match needs its first deck", code="INVALID_DECK")
    started = _start_round(created, command.deal)
    events.extend(started)
    return events, fold(started, created)


def _start_round(state: MatchState, deal: Mapping[str, Any]) -> list[Event]:
    if state.round_in_progress:
        raise IllegalMoveError(
            "a round is in progress; finish it before starting the next",
            code="ROUND_IN_PROGRESS",
        )
    assert state.config is not None and state.series is not None
    rules = state.rules
    setup = rules.setup_data(state.config, state.series, deal)
    key = "round" if rules.game == "cuttle" else "deal"
    return [Event(rules.round_started, {key: state.rounds_started + 1, "setup": setup})]


def _resign_match(state: MatchState, seat: int) -> list[Event]:
    assert state.config is not None and state.series is not None
    if not isinstance(state.series, CuttleSeries):
        raise IllegalMoveError(
            "a Kozel match cannot be resigned", code="WRONG_PHASE", details={"seat": seat}
        )
    if not 0 <= seat < state.series.players:
        raise MalformedError(f"{seat!r} is not a seat of this match", details={"seat": seat})
    series = state.series.resign_match(seat)
    result = series.result()
    assert result is not None
    return [Event("MatchResigned", {"seat": seat}), _match_ended(series, result)]


def _match_ended(series: Series, result: MatchResult) -> Event:
    data: dict[str, Any] = {
        "winners": list(result.winners),
        "losers": list(result.losers),
        "reason": result.reason,
    }
    if isinstance(series, CuttleSeries):
        data["wins"] = list(series.wins)
        data["drawn_rounds"] = series.drawn_rounds
    else:
        data["loss_points"] = list(series.loss_points)
        data["eggs"] = series.eggs
    return Event("MatchEnded", data)


def _play(state: MatchState, command: Play) -> tuple[list[Event], MatchState]:
    config = state.config
    assert config is not None
    facts = _facts(config)
    rules = facts.rules
    if state.position is None:
        what = "round" if rules.game == "cuttle" else "deal"
        raise IllegalMoveError(
            f"no {what} is in progress: the scorer must start the next {what}",
            code=rules.not_started_code,
            details={"move": command.move},
        )
    events, position = rules.step(state.position, command.move)
    after = _after_engine_events(state, facts, events, position)
    outcome = rules.outcome(position)
    if outcome is None:
        return events, after
    assert after.series is not None
    series, scored = rules.score(after.series, outcome, after.rounds_started)
    after = evolve(after, scored)
    events.append(scored)
    result = series.result()
    if result is not None:
        ended = _match_ended(series, result)
        events.append(ended)
        return events, evolve(after, ended)
    if not facts.round_start_opens and command.next_deal:
        started = _start_round(after, command.next_deal)
        events.extend(started)
        return events, fold(started, after)
    return events, after


# --- what the public may see of a live match's events ------------------------------------


def public_event_data(config: MatchConfig, event: Event) -> dict[str, Any]:
    """Return an event's data as anyone may see it while the match is live.

    Deck orders, dealt hands, drawn and named cards, and face-down throws (unless
    Kozel's ``open_throws``) become counts; public facts stay as they are. Once a
    match is over its whole record is public (Cuttle §16 with design.md, Kozel R44),
    so callers redact only live matches.

    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0)
    >>> public_event_data(cfg, Event('CardsThrown', {'seat': 1, 'cards': ['6D', '8C']}))
    {'seat': 1, 'count': 2}
    """
    data = dict(event.data)
    kind = event.type
    if kind in ("RoundStarted", "DealStarted"):
        setup = dict(data["setup"])
        hidden = {"deck", "hands", "indicator_position"}
        data["setup"] = {k: v for k, v in setup.items() if k not in hidden}
        return data
    if config.game == "cuttle":
        move = str(data.get("move", ""))
        if kind == "MovePlayed" and move.split()[:1] == ["cards"]:
            # Named cards may be private draws; revealed ones reappear in CardsRevealed.
            return {"move": "cards", "count": len(move.split()) - 1}
        return data
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


# --- moves as recorded ------------------------------------------------------------------

_KOZEL_PLAYS = {"CardsLed": "lead", "CardsBeaten": "beat", "CardsThrown": "throw"}


def is_move(config: MatchConfig, event: EventLike) -> bool:
    """Whether an event records a move: ``move_text(config, event) is not None``, unformatted.

    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0, dealing='physical')
    >>> is_move(cfg, Event('CardsDrawn', {'draws': []})), is_move(cfg, Event('DealPlayed', {}))
    (True, False)
    """
    return event.type in _facts(config).moves


def move_text(config: MatchConfig, event: EventLike) -> str | None:
    """Return the move (engine notation) an engine event records, or ``None`` if derived.

    Replaying these moves through ``decide`` regenerates the whole round, derived
    events included; a log importer and the replay timeline both rely on it.

    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0)
    >>> move_text(cfg, Event('CardsLed', {'seat': 2, 'cards': ['7S', 'KS']}))
    'S2 lead 7S KS'
    >>> move_text(cfg, Event('TrickTaken', {'winner': 2})) is None
    True
    """
    if not is_move(config, event):
        return None
    data = event.data
    if config.game == "cuttle":
        return str(data["move"])
    if event.type in _KOZEL_PLAYS:
        return f"S{data['seat']} {_KOZEL_PLAYS[event.type]} {' '.join(data['cards'])}"
    if event.type == "MolodkaDeclared":
        return f"S{data['seat']} molodka"
    return "cards " + " ".join(card for _, card in data["draws"])
