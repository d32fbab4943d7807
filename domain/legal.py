"""A lazy view of a position's legal moves, shared by the engines (python-chess style).

Iterating runs the engine's move generator; ``in`` asks the engine's checker about one
move; ``bool`` stops at the first move and ``count()`` builds no list. There is
deliberately no ``__len__``: ``list(view)`` would call it for a length hint and so
generate every move twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

P = TypeVar("P")
M = TypeVar("M")


class LegalMoveView(Generic[P, M]):
    """The legal moves of one position, generated on demand."""

    __slots__ = ("_generate", "_is_legal", "position")

    def __init__(
        self,
        position: P,
        generate: Callable[[P], Iterator[M]],
        is_legal: Callable[[P, object], bool],
    ) -> None:
        self.position = position
        self._generate = generate
        self._is_legal = is_legal

    def __iter__(self) -> Iterator[M]:
        return self._generate(self.position)

    def __contains__(self, move: object) -> bool:
        return self._is_legal(self.position, move)

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def count(self) -> int:
        """Return how many moves are legal."""
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


__all__ = ["LegalMoveView"]
