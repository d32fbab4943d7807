"""A match's event stream: the commands it accepts, the events it records, its fold.

One decider serves every game. A match stream starts with ``MatchCreated`` (the
rules it is played under: game, variant, options, rules version, seats, format,
first dealer, how rounds are dealt). Each round opens with the game's round start
(``RoundStarted`` in Cuttle, ``DealStarted`` in Kozel) holding the engine's setup;
the engine's own events follow; when a round ends the game's rules score it
(``RoundScored`` / ``DealScored``) and, when the series is decided, ``MatchEnded``
follows. Nothing here reads a clock or a random source: a server-dealt round's
deck arrives in the command (``deal``), shuffled by the caller.

The package's modules, one concern each: ``config`` (what a match is played
under), ``commands`` (what it accepts), ``facts`` (which events are moves and
which open a command), ``fold`` (the state, the takeback window, effective
events), ``decide`` (the decider), ``public`` (what a live match shows) and
``choices`` (the moves of the moment as a scorer's pad offers them).

    >>> state = fold([])
    >>> state.config is None
    True
"""

from domain.game_rules import DealSpec, GameRules, Series
from domain.games import GAMES, rules_for
from domain.stream.choices import Choice, choices, result_choices
from domain.stream.commands import (
    MAX_NOTE_LENGTH,
    MAX_REASON_LENGTH,
    AddNote,
    Command,
    CreateMatch,
    Play,
    ResignMatch,
    StartRound,
    TakeBack,
    VoidMatch,
)
from domain.stream.config import (
    DEALINGS,
    RECORDINGS,
    RULES_VERSION,
    Dealing,
    MatchConfig,
    Recording,
)
from domain.stream.decide import decide, step
from domain.stream.facts import is_move, move_text, starts_command
from domain.stream.fold import (
    UNDOING_EVENTS,
    MatchState,
    VersionedEvent,
    effective_events,
    evolve,
    fold,
    fold_stream,
    fold_versioned,
    undone_by,
)
from domain.stream.public import public_event_data

__all__ = [
    "DEALINGS",
    "GAMES",
    "MAX_NOTE_LENGTH",
    "MAX_REASON_LENGTH",
    "RECORDINGS",
    "RULES_VERSION",
    "UNDOING_EVENTS",
    "AddNote",
    "Choice",
    "Command",
    "CreateMatch",
    "DealSpec",
    "Dealing",
    "GameRules",
    "MatchConfig",
    "MatchState",
    "Play",
    "Recording",
    "ResignMatch",
    "Series",
    "StartRound",
    "TakeBack",
    "VersionedEvent",
    "VoidMatch",
    "choices",
    "decide",
    "effective_events",
    "evolve",
    "fold",
    "fold_stream",
    "fold_versioned",
    "is_move",
    "move_text",
    "public_event_data",
    "result_choices",
    "rules_for",
    "starts_command",
    "step",
    "undone_by",
]
