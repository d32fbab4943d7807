"""Keep the shell's ``MATCHLOG_*`` settings away from the tests (#35).

Run from a shell that exports the README's ``MATCHLOG_DATABASE_URL`` and
``MATCHLOG_MIGRATION_DATABASE_URL``, the suite once migrated the club's real database
down and back and rebuilt and revoked on it. Every test now starts without any
``MATCHLOG_*`` variable (tests/conftest.py clears them), sets the ones it means, and
hands a process it starts ``clean_env(...)``.
"""

from __future__ import annotations

import os

TEST_KNOBS = frozenset({"MATCHLOG_SCREENSHOTS", "MATCHLOG_CHROMIUM"})
"""Variables the tests themselves read (where to keep screenshots, which Chromium);
matchlog never reads them, so they are left as the shell sets them."""


def matchlog_variables() -> list[str]:
    """Names of the ``MATCHLOG_*`` settings set in this process's environment."""
    return [name for name in os.environ if name.startswith("MATCHLOG_") and name not in TEST_KNOBS]


def clean_env(**settings: str) -> dict[str, str]:
    """Return this process's environment without matchlog's settings, plus ``settings``.

    For tests that start ``matchlog`` as a process of its own: the child sees only
    the settings its test gives it.
    """
    unset = set(matchlog_variables())
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **settings}
