"""A bounded map that forgets its least recently used entry: the app's per-process caches."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the most recent.

    >>> cache: Lru[str, int] = Lru(2)
    >>> cache.put('a', 1); cache.put('b', 2); cache.get('a'); cache.put('c', 3)
    1
    >>> (cache.get('a'), cache.get('b'), cache.get('c'))
    (1, None, 3)
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """Return the entry of ``key``, or ``None``."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, forgetting the oldest entry beyond the size."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def forget_where(self, matches: Callable[[V], bool]) -> None:
        """Drop every entry whose value ``matches``."""
        for key in [k for k, v in self._entries.items() if matches(v)]:
            del self._entries[key]
