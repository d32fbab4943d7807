"""Cuttle moves and their one-line text form (rules §23).

A move is a small immutable value; ``Move.from_text`` reads the notation and
``Move.text`` writes it back, so ``Move.from_text(m.text()) == m``. Parsing checks
only the shape of a line (known action, known cards, the fields that action takes,
no card named twice); whether the move is legal is the engine's business.

>>> Move.from_text('P0 scuttle 9S>7H')
Move.from_text('P0 scuttle 9S>7H')
>>> Move.from_text('p2 oneoff 4s@p0').text()
'P2 oneoff 4S@P0'
>>> Move.from_text('P0 seven jack JH>5S').seven
True
>>> Move.from_text('cards 7H 8D').seat is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from domain.cards import RANKS, SUITS, Card, deck
from domain.errors import MalformedError
from domain.records import builder

MAX_SEATS = 3
"""Seats any variant has at most (cutthroat)."""

# What each action takes: a card (required), a target (optional), a player (optional),
# a list of cards. A missing jack/scuttle/two/nine target is INVALID_TARGET, not
# MALFORMED (ruling 33), so targets are optional in the grammar.
_NO_ARGS = frozenset(
    {"draw", "pass", "decline", "resign", "offer-draw", "accept-draw", "refuse-draw"}
)
_ONE_CARD = frozenset({"points", "glasses", "queen", "king", "counter", "take", "scrap"})
_CARD_TARGET = frozenset({"scuttle", "jack", "joker"})
_CARD_ANY = frozenset({"oneoff"})
_CARD_LIST = frozenset({"discard", "cards"})
SEVEN_ACTIONS = frozenset(
    {"points", "scuttle", "glasses", "queen", "king", "jack", "joker", "oneoff", "scrap"}
)
"""What a card revealed by a seven may do (``P0 seven <action> ...``)."""
MAIN_ACTIONS = frozenset(
    {"draw", "pass", "points", "scuttle", "glasses", "queen", "king", "jack", "joker", "oneoff"}
)
"""The main actions of §5."""
ACTIONS = _NO_ARGS | _ONE_CARD | _CARD_TARGET | _CARD_ANY | _CARD_LIST
_TAKES_CARD = (_ONE_CARD - {"scrap"}) | _CARD_TARGET | _CARD_ANY
"""Actions of one card that a seat takes without a seven (``scrap`` is only a seven's)."""

_CARD_TOKEN = re.compile(r"([0-9A-Z]{2})(?:>([0-9A-Z]{2}))?(?:@(P[0-9]))?")
_SEAT = re.compile(r"P([0-9])")


def _seat(text: str, line: str) -> int:
    m = _SEAT.fullmatch(text.upper())
    if m is None or int(m.group(1)) >= MAX_SEATS:
        raise MalformedError(
            f"{text!r} is not a player in {line!r}: write P0, P1 or P2",
            details={"move": line},
        )
    return int(m.group(1))


@dataclass(frozen=True, slots=True)
class Move:
    """One Cuttle action, as written in §23.

    ``seat`` is ``None`` only for the scorer's ``cards``; ``seven`` marks an action
    taken with a card revealed by a seven (``action`` is then what it does with it).
    Discarded cards are kept in card order, so the same discard has one value.
    """

    action: str
    seat: int | None = None
    card: Card | None = None
    target: Card | None = None
    player: int | None = None
    cards: tuple[Card, ...] = ()
    seven: bool = False

    _cache: ClassVar[dict[str, Move]] = {}

    def __post_init__(self) -> None:
        _check_shape(self)
        if self.action == "discard" and self.cards != tuple(sorted(self.cards, key=card_key)):
            object.__setattr__(self, "cards", tuple(sorted(self.cards, key=card_key)))

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse one move line of §23, ignoring letter case and extra spaces.

        Raises:
            MalformedError (MALFORMED): unknown action, card or player, a field the
                action never takes, or a card named twice.

        >>> Move.from_text('P1 discard 9H 4C').text()
        'P1 discard 4C 9H'
        """
        cached = cls._cache.get(text)
        if cached is not None:
            return cached
        move = _canonical(text)
        if move is None:
            move = _parse(text)
        if len(cls._cache) < 100_000:
            cls._cache[text] = move
        return move

    def text(self) -> str:
        """Return the §23 text of this move.

        >>> Move('oneoff', 0, Card.from_text('2C'), Card.from_text('QH')).text()
        'P0 oneoff 2C>QH'
        """
        known = _TEXTS.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        parts = [] if self.seat is None else [f"P{self.seat}"]
        if self.seven:
            parts.append("seven")
        parts.append(self.action)
        if self.card is not None:
            token = self.card.text()
            if self.target is not None:
                token += ">" + self.target.text()
            if self.player is not None:
                token += f"@P{self.player}"
            parts.append(token)
        if self.cards:
            parts.extend(card.text() for card in self.cards)
        text = " ".join(parts)
        if len(_TEXTS) < 20_000:
            _TEXTS[id(self)] = (self, text)
        return text

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"


_TEXTS: dict[int, tuple[Move, str]] = {}
"""Each move's text, by the move's id; the entry holds the move, so its id stays its own.

The engine's moves are interned, and deciding a move writes its text into the event.
Bounded (20,000 entries, then texts are only computed): moves made afresh, such as
the ``cards`` permutations while naming cards, must not pile up here. Measured to
pay (issue 18): ``bench/cuttle_step.py --matches 60 --repeats 5`` side by side with a
tree without it, engine CPU per event best 7.02-7.16 µs with it, 7.23-8.16 µs without.
"""


def same_move_text(a: str, b: str) -> bool:
    """Whether two move texts are one move in any position that accepts both.

    Only a four differs in spelling: in 2-player ``P0 oneoff 4S@P1`` is read as
    ``P0 oneoff 4S`` (the engine's ``read``), which older logs recorded the long way.

    >>> same_move_text('P0 oneoff 4S@P1', 'P0 oneoff 4S')
    True
    >>> same_move_text('P0 oneoff 4S@P2', 'P0 oneoff 4S@P1')
    False
    """
    if a == b:
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    words = short.split(" ")
    return (
        len(words) >= 3
        and words[0] in _SEATS
        and words[-2] == "oneoff"
        and words[-1][:1] == "4"
        and long == f"{short}@P{1 - _SEATS[words[0]]}"
    )


def card_key(card: Card) -> int:
    """Sort key of a card: rank (A low, K high), then suit (C < D < H < S), jokers last.

    >>> sorted(['KS', 'AH', 'AC', 'X1'], key=lambda t: card_key(Card.from_text(t)))
    ['AC', 'AH', 'KS', 'X1']
    """
    key = _KEYS_BY_ID.get(id(card))
    return _KEYS[card] if key is None else key


def _build_keys() -> dict[Card, int]:
    keys = {}
    for card in deck(jokers=True):
        if card.is_joker:
            keys[card] = 100 + int(card.suit)
        else:
            keys[card] = RANKS.index(card.rank) * 4 + SUITS.index(card.suit)
    return keys


_KEYS = _build_keys()
# Cards are interned: looking a card up by its id spares its (Python-level) hash; ``_KEYS``
# holds every card, so the ids stay their own. Measured to pay (issue 18): ``PYTHONHASHSEED=0
# valgrind --tool=callgrind python bench/engine_playout.py cuttle --rounds 300 --repeats 1``
# counted 2,788.7M instructions with it, 2,801.4M without (-0.45%).
_KEYS_BY_ID = {id(card): key for card, key in _KEYS.items()}


def _malformed(message: str, move: Move | str) -> MalformedError:
    text = move if isinstance(move, str) else move.text()
    return MalformedError(message, details={"move": text})


def _check_shape(move: Move) -> None:
    action = move.action
    if action not in ACTIONS:
        raise _malformed(f"{action!r} is not a Cuttle action", action)
    if move.seven and action not in SEVEN_ACTIONS:
        raise _malformed(f"a card revealed by a seven cannot {action!r}", action)
    if action == "scrap" and not move.seven:
        raise _malformed("'scrap' is only a seven's choice: write 'seven scrap'", action)
    if (move.seat is None) != (action == "cards"):
        raise _malformed("every move starts with its seat, except the scorer's 'cards'", action)
    if move.seat is not None and not 0 <= move.seat < MAX_SEATS:
        raise _malformed(f"P{move.seat} is not a player", action)
    if move.player is not None and not 0 <= move.player < MAX_SEATS:
        raise _malformed(f"P{move.player} is not a player", action)
    takes_card = action in _ONE_CARD or action in _CARD_TARGET or action in _CARD_ANY
    if takes_card != (move.card is not None):
        raise _malformed(f"{action!r} takes {'one card' if takes_card else 'no card'}", action)
    if move.target is not None and action not in _CARD_TARGET and action not in _CARD_ANY:
        raise _malformed(f"{action!r} takes no target", action)
    if move.player is not None and action not in _CARD_ANY:
        raise _malformed(f"{action!r} names no player", action)
    if move.cards and action not in _CARD_LIST:
        raise _malformed(f"{action!r} takes no list of cards", action)
    named = [c for c in (move.card, move.target, *move.cards) if c is not None]
    if len(set(named)) != len(named):
        raise _malformed("a card is named twice in one move", action)


def _parse(text: str) -> Move:
    words = text.split()
    if not words:
        raise _malformed("an empty line is not a move", text)
    seat: int | None = None
    if words[0].lower() != "cards":
        seat = _seat(words[0], text)
        words = words[1:]
    if not words:
        raise _malformed(f"{text!r} names no action", text)
    seven = words[0].lower() == "seven"
    if seven:
        words = words[1:]
        if not words:
            raise _malformed(f"{text!r}: 'seven' needs an action", text)
    action, args = words[0].lower(), words[1:]
    if action not in ACTIONS:
        raise _malformed(f"{words[0]!r} is not a Cuttle action in {text!r}", text)
    card = target = None
    player = None
    cards: tuple[Card, ...] = ()
    if action in _CARD_LIST:
        cards = tuple(_card(a, text) for a in args)
    elif action in _NO_ARGS:
        if args:
            raise _malformed(f"{action!r} takes nothing after it in {text!r}", text)
    else:
        if len(args) != 1:
            raise _malformed(f"{action!r} takes exactly one card in {text!r}", text)
        m = _CARD_TOKEN.fullmatch(args[0].upper())
        if m is None:
            raise _malformed(f"{args[0]!r} is not a card with an optional >target or @player", text)
        card = _card(m.group(1), text)
        target = _card(m.group(2), text) if m.group(2) else None
        player = _seat(m.group(3), text) if m.group(3) else None
    try:
        return Move(action, seat, card, target, player, cards, seven)
    except MalformedError as e:
        raise _malformed(f"{text!r}: {e.message}", text) from None


_SEATS = {f"P{seat}": seat for seat in range(MAX_SEATS)}
_CODES = {card.rank + card.suit: card for card in deck(jokers=True)}
_TAKES_TARGET = _CARD_TARGET | _CARD_ANY
_build_move = builder(Move)


def _canonical(text: str) -> Move | None:
    """Parse the canonical text of a seat's move with one card, or return ``None``.

    ``Move.text`` writes most moves of a log as ``P0 points 9S``, ``P1 scuttle 9S>7H``
    or ``P0 oneoff 4S@P1``: those are read here by table look-ups, and their move
    is built without ``__post_init__``, whose checks the shapes read here pass. Any
    other text, however close (letter case, spaces, a seven, a list of cards, a
    card named twice), is ``_parse``'s.
    """
    words = text.split(" ")
    if len(words) != 3:
        return None
    seat = _SEATS.get(words[0])
    action = words[1]
    token = words[2]
    size = len(token)
    card = _CODES.get(token[:2])
    if seat is None or card is None or action not in _TAKES_CARD:
        return None
    target = player = None
    if size == 2:
        pass
    elif size == 5 and token[2] == ">" and action in _TAKES_TARGET:
        target = _CODES.get(token[3:])
        if target is None or target is card:
            return None
    elif size == 5 and token[2] == "@" and action in _CARD_ANY:
        player = _SEATS.get(token[3:])
        if player is None:
            return None
    else:
        return None
    move = _build_move(action, seat, card, target, player, (), False)
    if len(_TEXTS) < 20_000:
        _TEXTS[id(move)] = (move, text)  # the text is the move's own (Move.text)
    return move


def _card(token: str, line: str) -> Card:
    try:
        return Card.from_text(token)
    except MalformedError:
        raise _malformed(f"{token!r} is not a card in {line!r}", line) from None
