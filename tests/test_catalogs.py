"""Every message has a translation in every catalog, and the templates match the source.

The messages are extracted from the source here (``service.catalogs.extract``, Babel's
own extractor), so a word added to the code without its translations fails, and so does
a template (``.pot``) left behind by the code. Both domains: ``pages`` (api/) and
``moves`` (domain/).
"""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from service.catalogs import extract, template_path
from service.i18n import DEFAULT, DOMAINS, LANGUAGES, Domain, catalog_path

TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def ids(catalog: Catalog) -> set[tuple[str, str | None]]:
    """Return a catalog's messages as (id, context), a plural by its singular."""
    return {
        (message.id if isinstance(message.id, str) else message.id[0], message.context)
        for message in catalog
        if message.id
    }


def read(path: str, lang: str | None, domain: Domain) -> Catalog:
    """Return the catalog at ``path``."""
    with open(path, "rb") as po:
        return read_po(po, locale=lang, domain=domain)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_is_the_source_s(domain: Domain) -> None:
    """The committed ``.pot`` holds exactly the messages the source marks."""
    source = ids(extract(domain))
    path = template_path(domain)
    if not source and not path.exists():
        return  # no words marked in this domain's source yet, and no template to match
    template = ids(read(str(path), None, domain))
    assert set() == source - template, f"{path.name} lacks these: run python -m service.catalogs"
    assert set() == template - source, f"{path.name} is stale: run python -m service.catalogs"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated(domain: Domain, lang: str) -> None:
    """Each language's catalog translates every message of the source, each plural form,
    keeping every ``{placeholder}`` of the English."""
    source = extract(domain)
    if not len(source):
        return
    path = catalog_path(lang, domain)
    assert path.exists(), f"no {lang} catalog of {domain}"
    catalog = read(str(path), lang, domain)
    missing: list[str] = []
    broken: list[str] = []
    for message in source:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = (
            ()
            if found is None
            else (found.string,)
            if isinstance(found.string, str)
            else tuple(found.string)
        )
        english = message.id if isinstance(message.id, str) else message.id[-1]
        if found is None or found.fuzzy or not strings or not all(s.strip() for s in strings):
            missing.append(english)
            continue
        if isinstance(message.id, tuple) and len(strings) != catalog.num_plurals:
            broken.append(english)
        wanted = set(PLACEHOLDER.findall(english))
        for text in strings:
            got = set(PLACEHOLDER.findall(text))
            # Every placeholder kept, none made up; a count's form may leave out {n}.
            if not wanted - {"{n}"} <= got <= wanted:
                broken.append(f"{english} -> {text}")
    assert [] == missing, f"{lang} {domain}.po lacks translations"
    assert [] == broken, f"{lang} {domain}.po changes placeholders or plural forms"
