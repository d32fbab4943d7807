"""The languages of the pages: catalogs, the request's language, and its translations.

Catalogs are gettext ``.po`` files under ``service/locales/<lang>/LC_MESSAGES/``, one
per domain: ``moves`` holds what ``domain/`` says (sentences of moves, the words of a
game's table), ``pages`` what the pages and the API's problems say. They are read from
the ``.po`` files and compiled in memory on first use, so an editable install works and
no compiled catalog is committed. English is the source language: its words are the
message ids, so ``en`` needs no catalog.

``domain/`` never imports this module: it is handed a ``gettext.NullTranslations``.

    >>> negotiate(query="ko", cookie="ja", accept_language="ru")
    'ko'
    >>> negotiate(query="xx", cookie=None, accept_language="ru-RU,ru;q=0.9,en;q=0.5")
    'ru'
    >>> negotiate(query=None, cookie=None, accept_language="de-DE,de;q=0.9")
    'en'
    >>> translations("en", "moves").gettext("anything")
    'anything'

The pseudo-language ``x-pseudo`` is English with every translated string between marks,
so a page read in it shows at a glance any word that bypassed the catalogs. It is always
served (a check needs nothing switched on, and a visitor who finds it reads English) but
never listed among the languages a page offers.

    >>> negotiate(query="x-pseudo", cookie=None, accept_language=None)
    'x-pseudo'
    >>> translations(PSEUDO, "pages").gettext("Live now")
    '⟦Live now⟧'
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import Final, Literal

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES: Final = Path(__file__).parent / "locales"
"""Where the catalogs live: ``<lang>/LC_MESSAGES/<domain>.po``, templates ``<domain>.pot``."""

DEFAULT: Final = "en"
LANGUAGES: Final[tuple[str, ...]] = ("en", "ja", "ko", "ru")
"""The languages a page may be read in; the first is the default and the source language."""

PSEUDO: Final = "x-pseudo"
"""The unlisted pseudo-language: English between ``PSEUDO_MARKS``, to find untranslated text."""
PSEUDO_MARKS: Final = ("⟦", "⟧")

NAMES: Final[dict[str, str]] = {"en": "English", "ja": "日本語", "ko": "한국어", "ru": "Русский"}
"""Each language by its own name, as the language switcher offers it."""

Domain = Literal["moves", "pages"]
DOMAINS: Final[tuple[Domain, ...]] = ("moves", "pages")


def catalog_path(lang: str, domain: Domain) -> Path:
    """Return where ``lang``'s catalog of ``domain`` lives."""
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(lang: str, domain: Domain) -> gettext.NullTranslations:
    """Return ``lang``'s translations of ``domain`` (English, the ids, for ``en``).

    The ``.po`` file is compiled in memory once per process.
    """
    if lang == PSEUDO:
        return PseudoTranslations()
    compiled = compiled_catalog(lang, domain)
    if compiled is None:
        return gettext.NullTranslations()
    return Translations(io.BytesIO(compiled), domain=domain)


@cache
def compiled_catalog(lang: str, domain: Domain) -> bytes | None:
    """Return ``lang``'s catalog of ``domain`` as a compiled ``.mo`` file, or ``None`` where
    English (the message ids) is all there is.

    The pseudo-language's is every template message marked, as ``PseudoTranslations``
    marks it: the pad's in-browser engine (``projections.pad_engine``) reads ``.mo`` files
    with the standard library's ``gettext`` and nothing else.
    """
    if lang == PSEUDO:
        with (LOCALES / f"{domain}.pot").open("rb") as pot:
            catalog = read_po(pot, locale=DEFAULT, domain=domain)
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, str):
                message.string = _mark(message.id)
            else:
                message.string = tuple(_mark(str(i)) for i in message.id)
    else:
        if lang == DEFAULT or lang not in LANGUAGES:
            return None
        path = catalog_path(lang, domain)
        if not path.exists():
            return None
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=domain)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    return mo.getvalue()


class PseudoTranslations(gettext.NullTranslations):
    """English with every message between ``PSEUDO_MARKS`` (placeholders kept whole)."""

    def gettext(self, message: str) -> str:
        """Return ``message`` marked."""
        return _mark(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """Return the English form for ``n``, marked."""
        return _mark(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        """Return ``message`` marked."""
        return _mark(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        """Return the English form for ``n``, marked."""
        return _mark(msgid1 if n == 1 else msgid2)


def _mark(message: str) -> str:
    return PSEUDO_MARKS[0] + message + PSEUDO_MARKS[1]


def babel_locale(lang: str) -> str:
    """Return the locale Babel formats dates and numbers with for ``lang`` (English for the
    pseudo-language)."""
    return lang if lang in LANGUAGES else DEFAULT


def supported(tag: str | None) -> str | None:
    """Return the language of ours that a language tag names (``ru-RU`` → ``ru``), if any.

    >>> supported("ru-RU"), supported("X-Pseudo"), supported("de")
    ('ru', 'x-pseudo', None)
    """
    if not tag:
        return None
    if tag.strip().lower() == PSEUDO:
        return PSEUDO
    primary = tag.strip().lower().replace("_", "-").split("-", 1)[0]
    return primary if primary in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """Return the best language of ours an ``Accept-Language`` header asks for, if any."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = supported(tag)
        if lang and quality > 0:
            ranked.append((-quality, index, lang))
    return min(ranked)[2] if ranked else None


def negotiate(*, query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """Return the language to answer in: ``?lang=``, then the device's choice, then the header."""
    return supported(query) or supported(cookie) or from_accept_language(accept_language) or DEFAULT
