"""The option flags of Kozel's §11 (``KozelOptions``) and their two written forms.

The position notation writes them as ``rules=8+eggs`` (``format_options``); a match's
and a deal's first events hold them as data (``options_to_data``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.counts import read_count
from domain.errors import InvalidSetupError, MalformedError


@dataclass(frozen=True, slots=True)
class KozelOptions:
    """The option flags of §11; a match stores them in its first event."""

    loss_limit: int = 12
    eggs_double_next: bool = False
    trump_indicator_bottom: bool = False
    open_throws: bool = False

    def __post_init__(self) -> None:
        if (
            isinstance(self.loss_limit, bool)
            or not isinstance(self.loss_limit, int)
            or self.loss_limit < 2
        ):
            raise InvalidSetupError(
                f"loss_limit must be a whole number of at least 2, not {self.loss_limit!r}",
                code="INVALID_FORMAT",
                details={"loss_limit": self.loss_limit},
            )


_OPTION_FLAGS = (
    ("eggs", "eggs_double_next"),
    ("bottom", "trump_indicator_bottom"),
    ("open", "open_throws"),
)


def format_options(options: KozelOptions) -> str:
    """Write option flags as ``<loss_limit>[+eggs][+bottom][+open]``.

    >>> format_options(KozelOptions(loss_limit=8, open_throws=True))
    '8+open'
    """
    flags = [short for short, name in _OPTION_FLAGS if getattr(options, name)]
    return "+".join([str(options.loss_limit), *flags])


def parse_options(text: str) -> KozelOptions:
    """Read option flags written by ``format_options``.

    Raises:
        MalformedError (MALFORMED): an unknown flag or a limit that is not a number.
        InvalidSetupError (INVALID_FORMAT): a loss limit below 2 (R34).
    """
    limit, *flags = text.split("+")
    loss_limit = read_count(limit)
    if loss_limit is None:
        raise MalformedError(f"{limit!r} is not a loss limit", details={"rules": text})
    names = dict(_OPTION_FLAGS)
    values: dict[str, Any] = {"loss_limit": loss_limit}
    for flag in flags:
        if flag not in names:
            raise MalformedError(
                f"{flag!r} is not a rule flag: use eggs, bottom or open", details={"rules": text}
            )
        values[names[flag]] = True
    return KozelOptions(**values)


def options_to_data(options: KozelOptions) -> dict[str, Any]:
    """Return the option flags as JSON-ready data."""
    return {
        "loss_limit": options.loss_limit,
        "eggs_double_next": options.eggs_double_next,
        "trump_indicator_bottom": options.trump_indicator_bottom,
        "open_throws": options.open_throws,
    }


_OPTION_NAMES = frozenset(options_to_data(KozelOptions()))


def options_from_data(data: Mapping[str, Any]) -> KozelOptions:
    """Read option flags from ``options_to_data`` output; missing flags take defaults.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown flag or a bad loss limit (R34).
    """
    unknown = set(data) - _OPTION_NAMES
    if unknown:
        raise InvalidSetupError(
            f"unknown option flags {sorted(unknown)!r}",
            code="INVALID_FORMAT",
            details={"options": dict(data)},
        )
    return KozelOptions(**data)


__all__ = [
    "KozelOptions",
    "format_options",
    "options_from_data",
    "options_to_data",
    "parse_options",
]
