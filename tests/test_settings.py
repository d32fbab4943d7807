"""The settings object against what the README tells a user about it."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.settings import Settings

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_setting_is_in_the_readme_table(name: str) -> None:
    """A ``MATCHLOG_*`` variable the code reads is one the README's table lists."""
    assert f"| `MATCHLOG_{name.upper()}` |" in README.read_text()
