"""Kozel: the four-player partnership game to 12 loss points (rules: docs/rules/kozel.md).

The engine is a decider over ``Position`` values: ``initial_position(setup)``,
``decide(position, command) -> events``, ``evolve(position, event)`` (``step`` does
both at once), with ``legal_moves``, ``apply``, ``outcome`` and ``view`` around it.
"""

from domain.kozel.moves import CONCEDE, Move
from domain.kozel.outcome import DealOutcome, KozelOptions, team_of
from domain.kozel.pack import PACK, beats, set_beats
from domain.kozel.rules import (
    LegalMoves,
    apply,
    can_declare,
    cards_awaited,
    cards_to_name,
    check,
    deal_started,
    decide,
    evolve,
    generate_legal_moves,
    initial_position,
    is_legal,
    is_terminal,
    legal_moves,
    outcome,
    play,
    read,
    service_moves,
    step,
    to_act,
    unplaced_cards,
)
from domain.kozel.state import DealSetup, Play, Position
from domain.kozel.views import record_view, view

__all__ = [
    "CONCEDE",
    "PACK",
    "DealOutcome",
    "DealSetup",
    "KozelOptions",
    "LegalMoves",
    "Move",
    "Play",
    "Position",
    "apply",
    "beats",
    "can_declare",
    "cards_awaited",
    "cards_to_name",
    "check",
    "deal_started",
    "decide",
    "evolve",
    "generate_legal_moves",
    "initial_position",
    "is_legal",
    "is_terminal",
    "legal_moves",
    "outcome",
    "play",
    "read",
    "record_view",
    "service_moves",
    "set_beats",
    "step",
    "team_of",
    "to_act",
    "unplaced_cards",
    "view",
]
