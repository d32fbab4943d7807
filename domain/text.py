"""Free text as matchlog stores it: one rule for every name, label, note and reason.

Text is NFC-normalised and trimmed. It may not hold a control character (a note or
a reason may hold tab and line ends; a CR LF or a lone CR is stored as LF), a
bidirectional control (U+061C, U+200E/F, U+202A-202E, U+2066-2069), which makes a
name read differently from what it holds, a byte order mark (U+FEFF), a line or
paragraph separator (U+2028/9) or a lone surrogate. A name must show something: text
made only of spaces and invisible format characters (a zero-width space) is refused.

The same ranges give ``text_pattern``, the regular expression the API's schema
declares for such fields, so the schema and the check cannot drift apart.
"""

from __future__ import annotations

import re
import unicodedata

from domain.errors import MalformedError

_Ranges = tuple[tuple[int, int], ...]

_C0_ONE_LINE: _Ranges = ((0x00, 0x1F),)
_C0_LINES: _Ranges = ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F))
"""C0 controls but tab, LF and CR (a CR is made a LF)."""
_REFUSED: _Ranges = (
    (0x7F, 0x9F),  # DEL and the C1 controls, U+0085 (NEL) among them
    (0x061C, 0x061C),  # bidi controls: the Arabic letter mark,
    (0x200E, 0x200F),  # left-to-right and right-to-left marks,
    (0x2028, 0x2029),  # (line and paragraph separators)
    (0x202A, 0x202E),  # embeddings and overrides,
    (0x2066, 0x2069),  # isolates
    (0xFEFF, 0xFEFF),  # a byte order mark
)
_SPACES: _Ranges = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
"""What trimming takes away (of what text may hold)."""
_INVISIBLE: _Ranges = (
    # Unicode 14's format characters (category Cf) ...
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200D),
    (0x2060, 0x2064),
    (0x206A, 0x206F),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
    # ... and letters and symbols drawn as nothing: Hangul fillers, the blank Braille cell.
    (0x115F, 0x1160),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFFA0, 0xFFA0),
)
"""Characters that show nothing though they are no space."""
_BRACES: _Ranges = ((0x7B, 0x7B), (0x7D, 0x7D))


def _char(code: int) -> str:
    # Escapes for the BMP (surrogates can only be written so); astral characters as
    # themselves, which a Python and an ECMAScript ("u") pattern both read as one.
    return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)


def _class(*groups: _Ranges) -> str:
    return "".join(
        _char(a) if a == b else f"{_char(a)}-{_char(b)}" for group in groups for a, b in group
    )


def _refused(lines: bool, braces: bool) -> str:
    return _class(_C0_LINES if lines else _C0_ONE_LINE, _REFUSED, () if braces else _BRACES)


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate, which no UTF-8 text holds: refused, but not in the pattern, which
validators that read text as Unicode scalars (Rust's regex) could not compile."""


def text_pattern(*, lines: bool = False, required: bool = True, braces: bool = True) -> str:
    """Return the regular expression of the text ``clean_text`` accepts with these options.

    >>> re.fullmatch(text_pattern(), "Ada") is not None
    True
    >>> [re.fullmatch(text_pattern(), t) for t in ("", " ", "\\u200b", "A\\u202eda")]
    [None, None, None, None]
    >>> [re.fullmatch(text_pattern(required=False), t) is not None for t in (" ", "\\n")]
    [True, False]
    """
    refused = _refused(lines, braces)
    shown = f"[^{refused}]*[^{refused}{_class(_SPACES, _INVISIBLE)}][^{refused}]*"
    if required:
        return f"^{shown}$"
    refused_codes = {c for a, b in (_C0_LINES if lines else _C0_ONE_LINE) for c in range(a, b + 1)}
    spaces = tuple((c, c) for a, b in _SPACES for c in range(a, b + 1) if c not in refused_codes)
    return f"^(?:[{_class(spaces)}]*|{shown})$"


_PATTERNS = {
    (lines, braces): (
        re.compile(f"[{_refused(lines, braces)}]"),
        re.compile(f"[^{_refused(lines, braces)}{_class(_SPACES, _INVISIBLE)}]"),
    )
    for lines in (False, True)
    for braces in (False, True)
}


def clean_text(
    text: str, *, lines: bool = False, required: bool = True, braces: bool = True
) -> str:
    """Return ``text`` as it is stored: NFC, line ends LF (``lines``), trimmed.

    ``lines``: tab and line ends are allowed; ``required``: blank text is refused
    (else it is stored as ""); ``braces``: ``{`` and ``}`` are allowed.

    >>> clean_text("  Zoe\\u0308 ")
    'Zoë'
    >>> clean_text("ruled\\r\\nby the TD\\r", lines=True)
    'ruled\\nby the TD'

    Raises:
        MalformedError (VALIDATION_FAILED): a refused character, or nothing to show.
    """
    refused, shown = _PATTERNS[(lines, braces)]
    if _SURROGATE.search(text) is not None:
        raise _refusal("must not contain a lone surrogate")
    if (found := refused.search(text)) is not None:
        raise _refusal(f"must not contain {_name(found.group())}")
    text = unicodedata.normalize("NFC", text)
    if lines:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip()
    if (required or text) and shown.search(text) is None:
        raise _refusal("must show at least one visible character")
    return text


def _name(char: str) -> str:
    try:
        name = unicodedata.name(char)
    except ValueError:
        name = "a control character"
    return f"U+{ord(char):04X} ({name.lower()})"


def _refusal(message: str) -> MalformedError:
    # No details: the text itself may not even be encodable (a lone surrogate).
    return MalformedError(message, code="VALIDATION_FAILED")


__all__ = ["clean_text", "text_pattern"]
