"""A Kozel deal in progress: the ``Position`` value and its notation.

What starts a deal (``DealSetup``) is ``domain.kozel.state``'s, which re-exports
everything here.

A ``Position`` is an immutable value: hands, stock (known cards, or a count of
unknown ones for a physical deck, R43), the current trick since its last restart,
team piles and trick counts. Hands and piles are kept in canonical card order
(suit ``C D H S``, then rank low to high), so equal positions compare equal and
print the same text.

Position notation (docs/notation.md, "Kozel"), fields in this order, space-separated,
``-`` for an empty list, cards comma-separated::

    dealer=0 leader=1 trump=9H hands=6C,7C/8C,AC/6D,8D/TD,AD stock=AH,6H,7H,8H
    trick=1:7S,KS/2+TS,AS/3~6D,8C piles=QS,~6S/- tricks=1/0 [draw=4] [rules=8+eggs]

>>> p = Position.from_text(EXAMPLE)
>>> p.text() == EXAMPLE
True
>>> p.to_play
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from domain.cards import Card
from domain.counts import read_count
from domain.errors import InvalidSetupError, MalformedError
from domain.kozel.moves import BEAT, LEAD, THROW
from domain.kozel.options import (
    KozelOptions,
    format_options,
    parse_options,
)
from domain.kozel.pack import (
    PACK,
    parse_kozel_cards,
    set_beats,
    sort_cards,
)
from domain.records import builder

EXAMPLE = (
    "dealer=3 leader=0 trump=9H hands=6C,7C,8C/JC,QC,KC/AC,6D,7D,8D/9D,JD,QD,KD "
    "stock=?20 trick=0:7S/1+KS piles=-/- tricks=0/0"
)
"""A position of a physical deck's first trick: S0 led 7S, S1 beat it with KS."""


class Play(NamedTuple):
    """One play to the current trick: seat, ``lead``/``beat``/``throw``, and cards."""

    seat: int
    kind: str
    cards: tuple[Card, ...]


Hands = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
Piles = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Position:
    """A deal in progress.

    ``leader`` is the trick's *original leader* (R21): the seat due to lead when the
    trick opened; once the deal is played out it is the last trick's winner.
    ``trick`` holds the plays since the trick last (re)started (R20, R38); its
    first play is the lead. ``piles`` are the face-up cards each team (A, B) took,
    ``face_down`` the face-down ones. ``stock`` is the known stock, top first;
    ``unknown_stock`` counts the cards of a physical deck's stock (R43), and
    ``draw`` counts the drawn cards the scorer must name now (R46).
    """

    options: KozelOptions
    dealer: int
    leader: int
    indicator: Card
    hands: Hands
    stock: tuple[Card, ...]
    unknown_stock: int
    trick: tuple[Play, ...]
    piles: Piles
    face_down: Piles
    tricks: tuple[int, int]
    draw: int = 0

    @property
    def trump(self) -> str:
        """The trump suit letter (the indicator's suit, §5.4)."""
        return self.indicator.suit

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock, known or not."""
        return len(self.stock) + self.unknown_stock

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is to lead or answer, ignoring molodka rights.

        ``None`` while the scorer must name drawn cards or once the deal is played out.
        """
        if self.draw or (not self.hands[self.leader] and not self.trick):
            return None
        trick = self.trick
        if not trick:
            return self.leader
        return (trick[0].seat + len(trick)) % 4

    def text(self) -> str:
        """Return the position notation (a fixed point of ``from_text``)."""
        return format_position(self)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Build a position from its notation (R40); every card must be placed once.

        Raises:
            MalformedError (MALFORMED): a field or card code cannot be read.
            InvalidSetupError (INVALID_POSITION): the fields are readable but no deal
                can be in that state (a card twice, unequal hands, a failed beat ...).
        """
        return parse_position(text)


_build_position = builder(Position)


def new_position(
    options: KozelOptions,
    dealer: int,
    leader: int,
    indicator: Card,
    hands: Hands,
    stock: tuple[Card, ...],
    unknown_stock: int,
    trick: tuple[Play, ...],
    piles: Piles,
    face_down: Piles,
    tricks: tuple[int, int],
    draw: int,
) -> Position:
    """Build a ``Position`` field by field, skipping the frozen dataclass's slow ``__init__``.

    The engine's transitions use it once or twice per move; it checks nothing.
    """
    p: Position = _build_position(
        options, dealer, leader, indicator, hands, stock, unknown_stock, trick, piles,
        face_down, tricks, draw,
    )  # fmt: skip
    return p


# --- position notation ----------------------------------------------------------

_FIELDS = ("dealer", "leader", "trump", "hands", "stock", "trick", "piles", "tricks")
_OPTIONAL = ("draw", "rules")
_KIND_MARK = {LEAD: ":", BEAT: "+", THROW: "~"}
_MARK_KIND = {mark: kind for kind, mark in _KIND_MARK.items()}


def _cards_text(cards: Sequence[Card]) -> str:
    return ",".join(c.rank + c.suit for c in cards) if cards else "-"


def format_position(p: Position) -> str:
    """Write a position in the notation of docs/notation.md."""
    stock = _cards_text(p.stock) if p.stock or not p.unknown_stock else ""
    if p.unknown_stock:
        stock = f"{stock}?{p.unknown_stock}"
    plays = "/".join(f"{s}{_KIND_MARK[k]}{_cards_text(c)}" for s, k, c in p.trick) or "-"
    piles = "/".join(
        ",".join([*(c.text() for c in up), *("~" + c.text() for c in down)]) or "-"
        for up, down in zip(p.piles, p.face_down, strict=True)
    )
    parts = [
        f"dealer={p.dealer}",
        f"leader={p.leader}",
        f"trump={p.indicator.text()}",
        "hands=" + "/".join(_cards_text(h) for h in p.hands),
        f"stock={stock}",
        f"trick={plays}",
        f"piles={piles}",
        f"tricks={p.tricks[0]}/{p.tricks[1]}",
    ]
    if p.draw:
        parts.append(f"draw={p.draw}")
    if p.options != KozelOptions():
        parts.append(f"rules={format_options(p.options)}")
    return " ".join(parts)


def _bad(text: str, why: str) -> MalformedError:
    return MalformedError(f"{text!r} is not a Kozel position: {why}", details={"position": text})


def _invalid(why: str, text: str) -> InvalidSetupError:
    return InvalidSetupError(
        f"no Kozel deal can be in this position: {why}",
        code="INVALID_POSITION",
        details={"position": text},
    )


def _card_list(value: str) -> tuple[Card, ...]:
    return () if value == "-" else parse_kozel_cards(value.split(","))


def _seat(value: str, text: str) -> int:
    if len(value) == 1 and value in "0123":
        return int(value)
    raise _bad(text, f"{value!r} is not a seat number 0-3")


def _count(value: str, text: str) -> int:
    count = read_count(value)
    if count is None:
        raise _bad(text, f"{value!r} is not a count")
    return count


def parse_position(text: str) -> Position:
    """Read the position notation and check that a deal can be in that state (R40).

    Raises:
        MalformedError (MALFORMED): a field or card code cannot be read.
        InvalidSetupError (INVALID_POSITION): the position breaks the rules' invariants.
    """
    fields: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or key not in _FIELDS + _OPTIONAL or key in fields:
            raise _bad(text, f"unexpected field {token!r}")
        fields[key] = value
    missing = [key for key in _FIELDS if key not in fields]
    if missing:
        raise _bad(text, f"missing {', '.join(missing)}")
    options = parse_options(fields["rules"]) if "rules" in fields else KozelOptions()
    dealer = _seat(fields["dealer"], text)
    leader = _seat(fields["leader"], text)
    trump = _card_list(fields["trump"])
    if len(trump) != 1:
        raise _bad(text, "trump names one card")
    hand_fields = fields["hands"].split("/")
    if len(hand_fields) != 4:
        raise _bad(text, "hands has four groups separated by /")
    hands = tuple(sort_cards(_card_list(h)) for h in hand_fields)
    stock_text, _, unknown_text = fields["stock"].partition("?")
    stock = _card_list(stock_text or "-")
    unknown = _count(unknown_text, text) if "?" in fields["stock"] else 0
    if unknown and stock:
        raise _bad(text, "a stock is either known cards or a count of unknown ones")
    plays: list[Play] = []
    if fields["trick"] != "-":
        for item in fields["trick"].split("/"):
            if len(item) < 2 or item[1] not in _MARK_KIND:
                raise _bad(text, f"{item!r} is not a play: write 1:7S, 2+KS or 3~6D")
            plays.append(Play(_seat(item[0], text), _MARK_KIND[item[1]], _card_list(item[2:])))
    pile_fields = fields["piles"].split("/")
    if len(pile_fields) != 2:
        raise _bad(text, "piles has two groups separated by /")
    ups: list[tuple[Card, ...]] = []
    downs: list[tuple[Card, ...]] = []
    for pile in pile_fields:
        items = [] if pile == "-" else pile.split(",")
        ups.append(sort_cards(parse_kozel_cards([i for i in items if not i.startswith("~")])))
        downs.append(sort_cards(parse_kozel_cards([i[1:] for i in items if i.startswith("~")])))
    trick_counts = fields["tricks"].split("/")
    if len(trick_counts) != 2:
        raise _bad(text, "tricks is two counts separated by /")
    position = Position(
        options=options,
        dealer=dealer,
        leader=leader,
        indicator=trump[0],
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock=stock,
        unknown_stock=unknown,
        trick=tuple(plays),
        piles=(ups[0], ups[1]),
        face_down=(downs[0], downs[1]),
        tricks=(_count(trick_counts[0], text), _count(trick_counts[1], text)),
        draw=_count(fields["draw"], text) if "draw" in fields else 0,
    )
    check_position(position, text)
    return position


def check_position(p: Position, text: str = "") -> None:
    """Check the invariants of §14 that a position set up directly must keep (R40).

    Raises:
        InvalidSetupError (INVALID_POSITION): the first invariant that fails.
    """
    placed: list[Card] = [c for h in p.hands for c in h]
    placed += p.stock
    for play in p.trick:
        placed += play.cards
    for pile in (*p.piles, *p.face_down):
        placed += pile
    if len(set(placed)) != len(placed):
        raise _invalid("a card is placed twice", text)
    if p.unknown_stock:
        if len(placed) + p.unknown_stock != len(PACK):
            raise _invalid("the unknown stock must hold exactly the cards placed nowhere", text)
    elif len(placed) != len(PACK):
        raise _invalid("every one of the 36 cards must be placed once", text)
    if p.stock_size % 4:
        raise _invalid("the stock holds a multiple of four cards", text)
    indicator_unplaced = p.indicator not in set(placed)
    if indicator_unplaced and not p.unknown_stock:
        raise _invalid("the trump indicator must be placed", text)
    if p.options.trump_indicator_bottom and p.stock_size:
        in_stock = p.stock[-1:] == (p.indicator,) if p.stock else indicator_unplaced
        if not in_stock:
            raise _invalid("with bottom, the indicator lies at the bottom of the stock", text)
    _check_trick(p, text)
    _check_piles(p, text)


def _check_trick(p: Position, text: str) -> None:
    sizes = [len(h) for h in p.hands]
    trick = p.trick
    played = {play.seat: len(play.cards) for play in trick}
    if trick:
        lead = trick[0]
        k = len(lead.cards)
        if lead.kind != LEAD or not 1 <= k <= 4 or len({c.suit for c in lead.cards}) != 1:
            raise _invalid("the trick starts with a lead of 1-4 cards of one suit", text)
        if lead.seat != p.leader and k != 4:
            raise _invalid("only a four-card lead (a molodka) comes from another seat", text)
        if len(trick) >= 4:
            raise _invalid("a trick settles at its fourth play", text)
        top = lead.cards
        for i, play in enumerate(trick[1:], start=1):
            if play.seat != (lead.seat + i) % 4 or play.kind == LEAD:
                raise _invalid("answers go clockwise from the lead", text)
            if len(play.cards) != k:
                raise _invalid("every answer has as many cards as the lead", text)
            if play.kind == BEAT:
                if not set_beats(play.cards, top, p.trump):
                    raise _invalid("a beat in the trick does not top the top set", text)
                top = play.cards
    if p.draw and (trick or not p.unknown_stock):
        raise _invalid("drawn cards await naming only between tricks, from an unknown stock", text)
    start = {sizes[s] + played.get(s, 0) for s in range(4)}
    if len(start) != 1:
        raise _invalid("the hands must be equal in size at the start of a trick", text)
    size = start.pop()
    if size > 4:
        raise _invalid("a hand holds at most four cards", text)
    due = min(p.stock_size, 4 * (4 - size))
    if p.draw != (due if p.unknown_stock and not trick else 0):
        raise _invalid(f"the draw field must be {due if p.unknown_stock else 0}", text)
    if not p.unknown_stock and due and not p.draw:
        raise _invalid("with cards in the stock every hand holds four at a trick's start", text)


def _check_piles(p: Position, text: str) -> None:
    for team in (0, 1):
        size = len(p.piles[team]) + len(p.face_down[team])
        tricks = p.tricks[team]
        if size % 4 or not 4 * tricks <= size <= 16 * tricks:
            raise _invalid("each trick puts 4 to 16 cards in the winner's pile", text)
    if sum(p.tricks) > 9:
        raise _invalid("a deal has at most nine tricks", text)


__all__ = [
    "EXAMPLE",
    "Hands",
    "Piles",
    "Play",
    "Position",
    "check_position",
    "format_position",
    "new_position",
    "parse_position",
]
