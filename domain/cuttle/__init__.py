"""Cuttle: classic, standard and cutthroat as parameters of one engine (rules/cuttle.md)."""

from domain.cuttle.moves import Move
from domain.cuttle.outcome import Outcome, Termination, Variant
from domain.cuttle.rules import (
    LegalMoves,
    apply,
    cards_awaited,
    controller,
    decide,
    evolve,
    generate_moves,
    goal,
    initial_position,
    is_terminal,
    legal_moves,
    outcome,
    outcome_of,
    push,
    to_act,
    totals,
    view,
    visible_hands,
)
from domain.cuttle.state import Phase, Position, RoundSetup, Stack

__all__ = [
    "LegalMoves",
    "Move",
    "Outcome",
    "Phase",
    "Position",
    "RoundSetup",
    "Stack",
    "Termination",
    "Variant",
    "apply",
    "cards_awaited",
    "controller",
    "decide",
    "evolve",
    "generate_moves",
    "goal",
    "initial_position",
    "is_terminal",
    "legal_moves",
    "outcome",
    "outcome_of",
    "push",
    "to_act",
    "totals",
    "view",
    "visible_hands",
]
