"""Small builders for Cuttle unit tests: positions from notation, moves played in turn."""

from __future__ import annotations

from domain.cuttle import Position
from domain.cuttle.rules import apply
from domain.errors import DomainError


def pos(
    variant: str = "standard",
    *,
    hands: str = "- / -",
    points: str | None = None,
    perms: str | None = None,
    scrap: str = "-",
    deck: str = "?20",
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "MAIN",
    extra: str = "",
) -> Position:
    """Build a position from the notation's sections (empty fields by default)."""
    players = 3 if variant == "cutthroat" else 2
    empty = " / ".join(["-"] * players)
    dealer = (turn - 1) % players if dealer is None else dealer
    text = (
        f"{variant}; dealer P{dealer}; turn P{turn}; phase {phase}; deck {deck}; "
        f"hands {hands}; points {points or empty}; permanents {perms or empty}; scrap {scrap}"
    )
    if extra:
        text += "; " + extra
    return Position.from_text(text)


def play(p: Position, *moves: str) -> Position:
    """Apply moves in order."""
    for move in moves:
        p = apply(p, move)
    return p


def refusal(p: Position, move: str) -> str:
    """Return the code ``apply`` refuses ``move`` with (fails the test if it is accepted)."""
    try:
        apply(p, move)
    except DomainError as e:
        return e.code
    raise AssertionError(f"{move!r} was accepted in {p.text()}")
