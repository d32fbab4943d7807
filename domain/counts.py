"""Counts written in notation: plain ASCII digits, nothing ``int`` would also read.

``str.isdigit`` lets ``²`` through (which ``int`` refuses with a ``ValueError``) and
``٣`` (which ``int`` reads as 3, so the text would not be written back as typed);
``int`` alone also reads ``+5``, `` 5`` and ``5_0``. Every position and options text of
both games reads its counts here, so each refuses the same spellings.
"""

from __future__ import annotations

_MAX_DIGITS = 9
"""Longer is no count any position holds, and stays far below int()'s digit limit."""


def read_count(text: str) -> int | None:
    """Return the count ``text`` writes, or ``None`` if it is not one.

    >>> read_count('30'), read_count('²'), read_count('٣'), read_count('+5'), read_count('')
    (30, None, None, None, None)
    """
    if 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


__all__ = ["read_count"]
