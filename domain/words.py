"""The words ``domain/`` writes for people, in the reader's language.

What ``domain/`` says (a move's sentence, a card as the table draws it, a game's
table words) is written through a ``Words``: the standard library's
``gettext.NullTranslations``, whose ``gettext``/``ngettext``/``pgettext`` turn an
English message into the reader's. ``ENGLISH`` (the default everywhere) returns the
English itself: the English text is the message id. The service hands in a
language's catalog (``service.i18n.translations(lang, "moves")``); ``domain/`` reads
no file.

Messages are written where they are used, as calls Babel's extraction finds
(``words.gettext("{who} passes")``); a message defined before it is translated (a
game's presentation words) is marked with ``N_``. Placeholders have names, so a
translation may put them in its own order.

    >>> ENGLISH.gettext("{who} passes").format(who="Ann")
    'Ann passes'
    >>> ENGLISH.ngettext("{count} card", "{count} cards", 2).format(count=2)
    '2 cards'
    >>> N_("Deck"), Nn_("trick", "tricks")
    ('Deck', ('trick', 'tricks'))
"""

from __future__ import annotations

import gettext
from typing import Final

Words = gettext.NullTranslations
"""A language's translations of the ``moves`` messages (``ENGLISH``: none)."""

ENGLISH: Final[Words] = gettext.NullTranslations()
"""The source language: every message is its own English."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


def Nn_(one: str, many: str) -> tuple[str, str]:
    """Mark a counted noun (its singular and English plural) for extraction as one message."""
    return one, many


__all__ = ["ENGLISH", "N_", "Nn_", "Words"]
