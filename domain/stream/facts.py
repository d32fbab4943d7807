"""Which recorded events are moves and which open a command: the one definition of both."""

from __future__ import annotations

from dataclasses import dataclass

from domain.events import EventLike
from domain.game_rules import AnyRules
from domain.games import rules_for
from domain.stream.config import DEALINGS, MatchConfig

COMMAND_EVENTS = ("NoteAdded", "MatchVoided", "MatchResigned", "TakenBack")
"""Events that are a whole command by themselves (none of them is a move)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What the match layer asks of a config on every event, worked out once per kind.

    ``is_move``, ``starts_command`` and the takeback window all read it.
    """

    rules: AnyRules
    round_started: str
    round_scored: str
    round_start_opens: bool
    """Whether a round start opens a command (it does unless the server deals)."""
    moves: frozenset[str]
    """The event types that record a move (``is_move``)."""
    opening: frozenset[str]
    """The event types other than a round start that open a command (``starts_command``)."""

    @classmethod
    def of(cls, game: str, dealing: str) -> Facts:
        """Work out the facts of a game and a way of dealing."""
        rules = rules_for(game)
        moves = rules.move_events(dealing)
        return cls(
            rules,
            rules.round_started,
            rules.round_scored,
            dealing != "server",
            moves,
            moves | frozenset(COMMAND_EVENTS),
        )


_FACTS: dict[tuple[str, str], Facts] = {}
"""``Facts`` by game and dealing, filled as configs are met."""


def facts(config: MatchConfig) -> Facts:
    """Return the facts of ``config``'s game and dealing.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown game.
    """
    key = (config.game, config.dealing)
    found = _FACTS.get(key)
    if found is None:
        found = Facts.of(*key)
        if config.dealing in DEALINGS:
            _FACTS[key] = found
    return found


def starts_command(config: MatchConfig, event: EventLike) -> bool:
    """Whether ``event`` is the first event a command recorded (not one derived from a move).

    Moves (``move_text``), notes, voids, resignations and scorer-dealt round starts
    each open a command; a server-dealt round starts inside the move that ended the
    round before (or inside ``CreateMatch``).

    >>> from domain.events import Event
    >>> cfg = MatchConfig('cuttle', 'standard', ('a', 'b'), 0)
    >>> starts_command(cfg, Event('RoundStarted', {}))
    False
    >>> starts_command(cfg, Event('MovePlayed', {'move': 'P1 draw'}))
    True
    """
    found = facts(config)
    if event.type == found.round_started:
        return found.round_start_opens
    return event.type in found.opening


def is_move(config: MatchConfig, event: EventLike) -> bool:
    """Whether an event records a move: ``move_text(config, event) is not None``, unformatted.

    >>> from domain.events import Event
    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0, dealing='physical')
    >>> is_move(cfg, Event('CardsDrawn', {'draws': []})), is_move(cfg, Event('DealPlayed', {}))
    (True, False)
    """
    return event.type in facts(config).moves


def move_text(config: MatchConfig, event: EventLike) -> str | None:
    """Return the move (engine notation) an engine event records, or ``None`` if derived.

    Replaying these moves through ``decide`` regenerates the whole round, derived
    events included; a log importer and the replay timeline both rely on it.

    >>> from domain.events import Event
    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0)
    >>> move_text(cfg, Event('CardsLed', {'seat': 2, 'cards': ['7S', 'KS']}))
    'S2 lead 7S KS'
    >>> move_text(cfg, Event('TrickTaken', {'winner': 2})) is None
    True
    """
    found = facts(config)
    if event.type not in found.moves:
        return None
    return found.rules.move_text(event.type, event.data)


__all__ = ["COMMAND_EVENTS", "Facts", "facts", "is_move", "move_text", "starts_command"]
