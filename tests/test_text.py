"""The one text rule (domain/text.py) and the pattern the API's schema declares for it (#29)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import MalformedError
from domain.text import clean_text, text_pattern

HIDING = [
    "\u202e",  # right-to-left override
    "\u202a",  # left-to-right embedding
    "\u2066",  # left-to-right isolate
    "\u2069",  # pop directional isolate
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\u0085",  # next line (C1)
    "\u009b",  # control sequence introducer (C1)
    "\ufeff",  # byte order mark
    "\u2028",  # line separator
]
INVISIBLE_NAMES = ["\u200b", "\u200b\u200c\u200d", " \u2060 ", "\u3164", "\u00ad", "\u2800"]

OPTIONS = [
    {},
    {"lines": True},
    {"required": False},
    {"lines": True, "braces": False},
]


class TestCleanText:
    def test_is_nfc_and_trimmed(self) -> None:
        assert "Zoë" == clean_text("  Zoe\u0308\u3000")

    @pytest.mark.parametrize("character", HIDING)
    @pytest.mark.parametrize("lines", [False, True])
    def test_refuses_what_hides_or_reorders_text(self, character: str, lines: bool) -> None:
        with pytest.raises(MalformedError) as e:
            clean_text(f"Ada{character}Lovelace", lines=lines)
        assert "VALIDATION_FAILED" == e.value.code

    @pytest.mark.parametrize("name", INVISIBLE_NAMES)
    def test_refuses_a_name_that_shows_nothing(self, name: str) -> None:
        with pytest.raises(MalformedError) as e:
            clean_text(name)
        assert "VALIDATION_FAILED" == e.value.code

    def test_an_optional_label_may_be_blank_but_not_invisible(self) -> None:
        assert "" == clean_text("   ", required=False)
        with pytest.raises(MalformedError):
            clean_text("\u200b", required=False)

    def test_stores_crlf_and_cr_as_lf_where_lines_are_allowed(self) -> None:
        assert "ruling:\nthe eight\nstands" == clean_text(
            "ruling:\r\nthe eight\rstands\r\n", lines=True
        )

    @pytest.mark.parametrize("text", ["a\nb", "a\tb", "a\r\nb"])
    def test_a_single_line_refuses_tab_and_line_ends(self, text: str) -> None:
        with pytest.raises(MalformedError):
            clean_text(text)

    def test_braces_are_refused_only_where_asked(self) -> None:
        assert "{x}" == clean_text("{x}", lines=True)
        with pytest.raises(MalformedError):
            clean_text("{x}", lines=True, braces=False)


_CHARACTERS = st.sampled_from(
    ["a", "Z", "é", "e\u0301", " ", "\t", "\n", "\r", "{", "\x00", "\x1f", "\x7f", "\u3000",
     "\u00a0", "\U000110bd", "\U0001f600", *HIDING, *INVISIBLE_NAMES]
)  # fmt: skip


class TestTextPattern:
    @pytest.mark.parametrize("options", OPTIONS, ids=str)
    @given(text=st.lists(_CHARACTERS, max_size=6).map("".join) | st.text(max_size=6))
    def test_matches_exactly_what_the_rule_takes(self, options: dict[str, bool], text: str) -> None:
        """The schema's pattern and the server's check agree on every text."""
        try:
            clean_text(text, **options)
            taken = True
        except MalformedError:
            taken = False
        assert taken == (re.fullmatch(text_pattern(**options), text) is not None)
