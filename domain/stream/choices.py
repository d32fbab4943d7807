"""The moves a scorer may record now, each with what it plays and the timeline's sentence.

A scorer's pad offers moves as taps on cards and says what each will record. The
sentence is not written here: the move is decided on the match as it stands and
the ply it records is described by the game's own ``describe_step``, so the pad
reads exactly what the timeline will show once the move is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.game_rules import MoveParts
from domain.stream.commands import Play
from domain.stream.decide import step
from domain.stream.facts import facts
from domain.stream.fold import MatchState


@dataclass(frozen=True, slots=True)
class Choice:
    """One move as a pad offers it: its notation, what it acts with, and its sentence."""

    move: str
    parts: MoveParts
    sentence: str


def choices(state: MatchState, moves: Iterable[Any], names: Sequence[str]) -> list[Choice]:
    """Return a ``Choice`` per engine move of ``moves``, in order (``names``: one per seat).

    Each move is decided on ``state``; its sentence is that of the first event it
    records that is a ply (a move that ends the round adds only derived events).

    Raises:
        DomainError: a move ``state`` does not accept (the engine's codes).

    >>> from domain.cards import deck
    >>> from domain.stream import CreateMatch, MatchConfig, StartRound
    >>> config = MatchConfig('cuttle', 'standard', ('a', 'b'), 0, dealing='scorer')
    >>> state = step(MatchState(), CreateMatch(config))[1]
    >>> state = step(state, StartRound({'deck': ' '.join(c.text() for c in deck())}))[1]
    >>> first = choices(state, state.rules.legal_moves(state.position), ['Ann', 'Bob'])[1]
    >>> first.move, [c.text() for c in first.parts.cards], first.sentence
    ('P1 points 3C', ['3C'], 'Bob plays 3C for points')
    """
    config = state.config
    assert config is not None
    found = facts(config)
    rules = found.rules
    listed = []
    for move in moves:
        text = move.text()
        events, _ = step(state, Play(text))
        plies = (e for e in events if e.type in found.moves)
        ply = next(plies, None)
        sentence = "" if ply is None else rules.describe_step(ply.type, ply.data, names)[1]
        listed.append(Choice(text, rules.move_parts(move), sentence))
    return listed


__all__ = ["Choice", "choices"]
