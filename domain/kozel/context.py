"""A match that starts mid-deal: the deal's position with the match around it (R40).

The match context is what a position alone cannot say: the number of the deal in
progress, each team's loss points so far, how many deals ended as eggs, and how many
eggs came in a row just before this deal (they double the next decided deal with
``eggs_double_next``). Who dealt this deal is the position's ``dealer``; the match's
first dealer follows from it and the deal number (R3).

The notation is the position notation (docs/notation.md) followed by the context,
written only when it is not a match's first deal with nothing carried::

    <position> deal=5 loss=4/2 eggs=2 carried=1

>>> text = EXAMPLE_MATCH
>>> context, position = parse_match_position(text)
>>> context.deal, context.loss_points, context.first_dealer(position.dealer)
(5, (4, 2), 3)
>>> format_match_position(context, position) == text
True
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.counts import read_count
from domain.errors import InvalidSetupError, MalformedError
from domain.kozel.position import EXAMPLE, Position, parse_position
from domain.kozel.reachable import why_unreachable


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match around a deal in progress: deal number, loss points, eggs so far.

    Raises:
        InvalidSetupError (INVALID_POSITION): a deal number below 1, negative counts,
            more eggs than deals before, or more carried eggs than eggs.
    """

    deal: int = 1
    loss_points: tuple[int, int] = (0, 0)
    eggs: int = 0
    carried: int = 0

    def __post_init__(self) -> None:
        counts = (self.deal - 1, *self.loss_points, self.eggs, self.carried)
        if any(count < 0 for count in counts):
            raise _invalid("R40: a deal number is 1 or more, and counts are never negative")
        if not self.carried <= self.eggs <= self.deal - 1:
            raise _invalid("R25: eggs come from the deals before this one; carried eggs are eggs")

    @property
    def is_first_deal(self) -> bool:
        """Whether this is a match's first deal with nothing carried (the default)."""
        return self == FIRST_DEAL

    def first_dealer(self, dealer: int) -> int:
        """Return the match's first dealer, given this deal's dealer (R3: one seat a deal)."""
        return (dealer - (self.deal - 1)) % 4

    def multiplier(self, eggs_double_next: bool) -> int:
        """Return the multiplier this deal's loss points get (R25)."""
        return 2**self.carried if eggs_double_next else 1

    def text(self) -> str:
        """Return the context's fields of the notation ('' for the first deal)."""
        if self.is_first_deal:
            return ""
        a, b = self.loss_points
        return f"deal={self.deal} loss={a}/{b} eggs={self.eggs} carried={self.carried}"


FIRST_DEAL = MatchContext()
"""The context of a match's first deal: nothing carried."""

_KEYS = ("deal", "loss", "eggs", "carried")

EXAMPLE_MATCH = f"{EXAMPLE} deal=5 loss=4/2 eggs=2 carried=1"
"""A deal in progress as the fifth deal of a match, for docs and tests."""


def parse_match_position(text: str) -> tuple[MatchContext, Position]:
    """Read a match position: the position notation, then the context if any.

    Raises:
        MalformedError (MALFORMED): a field cannot be read, or the context is partial.
        InvalidSetupError (INVALID_POSITION): as ``Position.from_text``, or a context
            no match can have (see ``MatchContext``): a team already at the loss limit
            (R26), or loss points no sequence of deals gives by this deal (R24, R25;
            ``domain.kozel.reachable``). The message names the rule.
    """
    tokens = text.split()
    found = {
        t.partition("=")[0]: t.partition("=")[2] for t in tokens if t.partition("=")[0] in _KEYS
    }
    position = parse_position(" ".join(t for t in tokens if t.partition("=")[0] not in _KEYS))
    if not found:
        return FIRST_DEAL, position
    if set(found) != set(_KEYS) or len(found) != sum(t.split("=")[0] in _KEYS for t in tokens):
        raise MalformedError(
            f"{text!r}: a match context gives deal, loss, eggs and carried, once each",
            details={"position": text},
        )
    loss = found["loss"].split("/")
    numbers = [found["deal"], *loss, found["eggs"], found["carried"]]
    counts = [read_count(n) for n in numbers]
    if len(loss) != 2 or None in counts:
        raise MalformedError(
            f"{text!r}: deal, eggs and carried are whole numbers, loss is two (4/2)",
            details={"position": text},
        )
    deal, a, b, eggs, carried = (n for n in counts if n is not None)
    context = MatchContext(deal, (a, b), eggs, carried)
    why = why_unreachable(deal, (a, b), eggs, carried, position.options)
    if why is not None:
        raise _invalid(why)
    return context, position


def format_match_position(context: MatchContext, position: Position) -> str:
    """Write a match position (a fixed point of ``parse_match_position``)."""
    written = context.text()
    return f"{position.text()} {written}" if written else position.text()


def _invalid(why: str) -> InvalidSetupError:
    return InvalidSetupError(f"no match can be in this state: {why}", code="INVALID_POSITION")


__all__ = [
    "EXAMPLE_MATCH",
    "FIRST_DEAL",
    "MatchContext",
    "format_match_position",
    "parse_match_position",
]
