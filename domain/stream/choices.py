"""The moves a scorer may record now, each with what it plays and the timeline's sentence.

A scorer's pad offers moves as taps on cards and says what each will record. The
sentence is not written here: the move is decided on the match as it stands and
the ply it records is described by the game's own ``describe_step``, so the pad
reads exactly what the timeline will show once the move is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.game_rules import MoveParts
from domain.stream.commands import Play
from domain.stream.decide import step
from domain.stream.facts import facts
from domain.stream.fold import MatchState
from domain.words import ENGLISH, Words


@dataclass(frozen=True, slots=True)
class Choice:
    """One move as a pad offers it: its notation, what it acts with, and its sentence."""

    move: str
    parts: MoveParts
    sentence: str

    def data(self) -> dict[str, Any]:
        """Return the choice as the API lists it (``ChoiceOut``; the pad's engine too)."""
        parts = self.parts
        target = parts.target_card
        return {
            "move": self.move,
            "seat": parts.seat,
            "cards": [card.text() for card in parts.cards],
            "target_card": None if target is None else target.text(),
            "target_seat": parts.target_seat,
            "sentence": self.sentence,
        }


def choices(
    state: MatchState, moves: Iterable[Any], names: Sequence[str], words: Words = ENGLISH
) -> list[Choice]:
    """Return a ``Choice`` per engine move of ``moves``, in order (``names``: one per seat).

    Sentences are in ``words``' language (``domain.words``).

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
    ('P1 points 3C', ['3C'], 'Bob plays 3♣ for points')
    """
    config = state.config
    assert config is not None
    rules = facts(config).rules
    return [_choice(state, move.text(), rules.move_parts(move), names, words) for move in moves]


def result_choices(state: MatchState, names: Sequence[str], words: Words = ENGLISH) -> list[Choice]:
    """Return the results a score-sheet match may take now (Cuttle ``result P1``, ...).

    No seat makes a result: the scorer enters it. A Kozel deal has too many results
    to list (``GameRules.results``): a pad builds a form for them instead.

    >>> from domain.stream import CreateMatch, MatchConfig
    >>> config = MatchConfig('cuttle', 'standard', ('a', 'b'), 0, recording='results')
    >>> state = step(MatchState(), CreateMatch(config))[1]
    >>> [(c.move, c.sentence) for c in result_choices(state, ['Ann', 'Bob'])][1:]
    [('result P1', 'Bob won round 1'), ('result draw', 'Round 1 was drawn')]
    """
    config = state.config
    assert config is not None
    rules = facts(config).rules
    return [_choice(state, text, MoveParts(None), names, words) for text in rules.results(config)]


def _choice(
    state: MatchState, text: str, parts: MoveParts, names: Sequence[str], words: Words
) -> Choice:
    """Decide ``text`` on ``state`` and describe the first ply it records."""
    assert state.config is not None
    found = facts(state.config)
    events, _ = step(state, Play(text))
    ply = next((e for e in events if e.type in found.moves), None)
    sentence = "" if ply is None else found.rules.describe_step(ply.type, ply.data, names, words)[1]
    return Choice(text, parts, sentence)


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """A match's legal moves at ``version``: each a ``Choice`` (move, cards, sentence).

    While cards are awaited (a physical deck's draw) nothing is listed: the scorer
    names ``cards_awaited`` cards from ``nameable``, then ``name_last`` if set.
    """

    version: int
    to_act: list[int] = field(default_factory=list)
    cards_awaited: int = 0
    nameable: list[str] = field(default_factory=list)
    name_last: str | None = None
    choices: list[Choice] = field(default_factory=list)
    service_choices: list[Choice] = field(default_factory=list)
    """Moves any seat may make besides playing (resignations, draw offers, concessions)."""

    @property
    def moves(self) -> list[str]:
        """The listed moves in notation, in ``choices``' order."""
        return [c.move for c in self.choices]

    def data(self) -> dict[str, Any]:
        """Return the listing as ``GET /matches/{id}/legal-moves`` answers it (the pad's
        engine too)."""
        return {
            "version": self.version,
            "to_act": list(self.to_act),
            "cards_awaited": self.cards_awaited,
            "nameable": list(self.nameable),
            "name_last": self.name_last,
            "moves": self.moves,
            "service_moves": [c.move for c in self.service_choices],
            "choices": [c.data() for c in self.choices],
            "service_choices": [c.data() for c in self.service_choices],
        }


def list_legal_moves(
    state: MatchState, version: int, names: Sequence[str], words: Words = ENGLISH
) -> LegalMoves:
    """Return the legal moves of ``state`` (seats named by ``names`` in the sentences,
    written in ``words``' language)."""
    listed: list[Choice] = []
    service: list[Choice] = []
    if state.config is not None and not state.is_over:
        if state.config.recording == "results":
            # A score sheet takes results only: no moves, no concessions (§27, R48).
            listed = result_choices(state, names, words)
        else:
            service = choices(state, state.rules.service_moves(state.position), names, words)
    if state.position is None or state.is_over:
        return LegalMoves(version, choices=listed, service_choices=service)
    rules = state.rules
    to_act = list(rules.to_act(state.position))
    ask = rules.cards_to_name(state.position)
    if ask is None:
        listed = choices(state, rules.legal_moves(state.position), names, words)
        return LegalMoves(version, to_act, choices=listed, service_choices=service)
    # Namings are never listed (63,960 orderings after a Cuttle five, 20!/4! in a
    # Kozel deal): a pad names them from ``nameable`` (#29).
    return LegalMoves(
        version,
        to_act,
        cards_awaited=ask.count,
        nameable=[c.text() for c in ask.candidates],
        name_last=None if ask.last is None else ask.last.text(),
        choices=listed,
        service_choices=service,
    )


__all__ = ["Choice", "LegalMoves", "choices", "list_legal_moves", "result_choices"]
