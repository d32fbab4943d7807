"""A lazy view of a position's legal moves, shared by the engines (python-chess style).

Iterating runs the engine's move generator once and keeps the list, so ``len`` (and
``count()``), which agree with the iteration, and ``list(view)`` (which asks ``len``
for a length hint) need no second walk; ``in`` asks the engine's checker about one
move; ``bool`` stops at the first move. An engine whose moves may be too many to
keep and are cheap to count (Cuttle's naming of cards) gives a ``count`` that answers
``len``; those moves are then walked lazily, never kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

P = TypeVar("P")
M = TypeVar("M")


class LegalMoveView(Generic[P, M]):
    """The legal moves of one position, generated on demand."""

    __slots__ = ("_count", "_generate", "_is_legal", "_listed", "position")

    def __init__(
        self,
        position: P,
        generate: Callable[[P], Iterator[M]],
        is_legal: Callable[[P, object], bool],
        count: Callable[[P], int | None] | None = None,
    ) -> None:
        self.position = position
        self._generate = generate
        self._is_legal = is_legal
        self._count = count
        self._listed: list[M] | None = None

    def __iter__(self) -> Iterator[M]:
        listed = self._listed
        if listed is None:
            if self._count is not None and self._count(self.position) is not None:
                return self._generate(self.position)  # too many to keep: walked lazily
            listed = self._listed = list(self._generate(self.position))
        return iter(listed)

    def _counted(self) -> int | None:
        return None if self._count is None else self._count(self.position)

    def __contains__(self, move: object) -> bool:
        return self._is_legal(self.position, move)

    def __bool__(self) -> bool:
        listed = self._listed
        if listed is None:
            return next(self._generate(self.position), None) is not None
        return bool(listed)

    def __len__(self) -> int:
        listed = self._listed
        if listed is None:
            counted = self._counted()
            if counted is not None:
                return counted
            listed = self._listed = list(self._generate(self.position))
        return len(listed)

    def count(self) -> int:
        """Return how many moves are legal (``len``)."""
        return len(self)

    def __repr__(self) -> str:
        counted = self._counted() if self._listed is None else None
        if counted is not None:  # too many to print (a Kozel naming: up to 20!/4!)
            return f"<LegalMoves ({counted} moves, not listed)>"
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


__all__ = ["LegalMoveView"]
