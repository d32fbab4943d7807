"""Extracting the catalogs' messages from the source and keeping the ``.po`` files in step.

``python -m service.catalogs pages`` (or ``moves``) writes the domain's template
(``locales/<domain>.pot``) from the source, then updates every language's ``.po`` from it
(new messages added empty, gone ones dropped), as ``pybabel extract`` and ``pybabel
update`` would with ``locales/<domain>.cfg`` (docs/languages.md). The check that every
message is translated (tests/test_catalogs.py) extracts with ``extract`` too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from service.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALES, Domain, catalog_path

ROOT: Final = Path(__file__).resolve().parents[1]
SOURCES: Final[dict[Domain, str]] = {"pages": "api", "moves": "domain"}
"""The directory each domain's messages are extracted from."""
KEYWORDS: Final = {**DEFAULT_KEYWORDS, "Nn_": (1, 2)}
"""gettext's own keywords (``N_`` among them), and ``Nn_`` for a count's two forms."""
METHOD_MAP: Final = [("**.py", "python")]
"""The same map as ``locales/<domain>.cfg``."""


def template_path(domain: Domain) -> Path:
    """Return where ``domain``'s template lives."""
    return LOCALES / f"{domain}.pot"


def extract(domain: Domain) -> Catalog:
    """Return the messages the source of ``domain`` marks, as a template catalog."""
    catalog = Catalog(domain=domain, project="matchlog", fuzzy=False)
    for _, _, message, comments, context in extract_from_dir(
        ROOT / SOURCES[domain], METHOD_MAP, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, None, [], auto_comments=comments, context=context)
    return catalog


def main(domains: list[str]) -> None:
    """Write each named domain's template and update every language's catalog from it."""
    for domain in DOMAINS:
        if domain not in domains:
            continue
        template = extract(domain)
        with template_path(domain).open("wb") as out:
            write_po(out, template, no_location=True, sort_output=True, width=88)
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            path = catalog_path(lang, domain)
            if path.exists():
                with path.open("rb") as po:
                    catalog = read_po(po, locale=lang, domain=domain)
            else:
                catalog = Catalog(locale=lang, domain=domain, project="matchlog")
                path.parent.mkdir(parents=True, exist_ok=True)
            catalog.update(template, no_fuzzy_matching=True)
            with path.open("wb") as out:
                write_po(
                    out,
                    catalog,
                    no_location=True,
                    sort_output=True,
                    width=88,
                    ignore_obsolete=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:] or list(DOMAINS))
