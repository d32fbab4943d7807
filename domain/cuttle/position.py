"""A Cuttle round in progress (rules §4.1) and the position notation.

``Position`` is immutable and compares by value; ``Position.text()`` writes the
position notation of docs/notation.md and ``Position.from_text`` reads it back
(ruling 25: a position can be set up anywhere). How a round starts (``RoundSetup``)
is ``domain.cuttle.state``'s, which re-exports everything here.

>>> p = Position.from_text('classic; dealer P0; turn P1; phase MAIN; deck ?41; '
...                        'hands 2C 3D / 4H; points TH[JS:P1] / -; permanents - / KS; scrap -')
>>> Position.from_text(p.text()) == p
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import partial
from typing import NamedTuple

from domain.cards import Card, deck, format_cards, parse_cards
from domain.counts import read_count
from domain.cuttle.moves import card_key
from domain.cuttle.outcome import Outcome, Termination, Variant
from domain.errors import InvalidSetupError, MalformedError


class Phase(StrEnum):
    """Who must do what now (§17)."""

    MAIN = "MAIN"
    COUNTER = "COUNTER"
    RESOLVE_THREE = "RESOLVE_THREE"
    RESOLVE_FOUR = "RESOLVE_FOUR"
    RESOLVE_FIVE = "RESOLVE_FIVE"
    RESOLVE_SEVEN = "RESOLVE_SEVEN"
    NAME_CARDS = "NAME_CARDS"
    DRAW_OFFERED = "DRAW_OFFERED"
    ROUND_OVER = "ROUND_OVER"


NAMING_KINDS = ("draw", "five", "seven")
"""What a ``NAME_CARDS`` phase waits to finish: a draw, a five's draws, a seven's reveal."""


def pack(variant: Variant) -> frozenset[Card]:
    """Return every card of the variant's deck (§3: 52, or 54 with jokers in cutthroat)."""
    return _PACK54 if variant is Variant.CUTTHROAT else _PACK52


_PACK52 = frozenset(deck())
_PACK54 = frozenset(deck(jokers=True))
_PACK_IDS = {len(full): frozenset(map(id, full)) for full in (_PACK52, _PACK54)}


def _is_pack(cards: tuple[Card, ...], full: frozenset[Card]) -> bool:
    """Whether ``cards`` hold each card of ``full`` once."""
    if len(cards) != len(full):
        return False
    # Cards are interned, so their ids answer at once; hashing a card is a Python call.
    return frozenset(map(id, cards)) == _PACK_IDS[len(full)] or set(cards) == full


class Stack(NamedTuple):
    """A card on a field with the cards attached to it (§10).

    A point stack has a base point card and jacks; a glasses 8, queen or king has
    (cutthroat) jokers. ``owner`` put the base there; ``attached`` lists
    ``(card, seat that played it)`` bottom to top. The controller is derived.
    """

    base: Card
    owner: int
    attached: tuple[tuple[Card, int], ...] = ()

    def text(self) -> str:
        """Write the stack as in §20: ``TH[JS:P1,JC:P0]``.

        >>> Stack(Card.from_text('TH'), 0, ((Card.from_text('JS'), 1),)).text()
        'TH[JS:P1]'
        """
        if not self.attached:
            return self.base.text()
        inner = ",".join(f"{card.text()}:P{seat}" for card, seat in self.attached)
        return f"{self.base.text()}[{inner}]"


class Position(NamedTuple):
    """A round in progress: every zone, the phase and what is pending (§4.1, §17).

    ``deck`` is top first; ``None`` marks a card the engine does not know yet (a
    physical deck, §24). ``stacks`` are point stacks and ``permanents`` glasses 8s,
    queens and kings, each kept in card order. ``chain`` is the open counter chain
    (root one-off first, then the twos, each with its player) or, during a
    resolution, the pending one-off alone; ``target`` and ``victim`` are the
    root's target card and named player. ``responder`` answers a chain or a draw
    offer. ``revealed`` holds a seven's cards; ``shown`` counts cards on top of the
    deck that everyone has seen (a seven put one back). ``naming`` says what a
    ``NAME_CARDS`` phase finishes. A frozen card thaws when its holder's turn ends.
    A named tuple, so that copies and comparisons stay cheap in playouts.
    """

    variant: Variant
    dealer: int
    turn: int
    phase: Phase
    deck: tuple[Card | None, ...]
    hands: tuple[frozenset[Card], ...]
    stacks: tuple[Stack, ...] = ()
    permanents: tuple[Stack, ...] = ()
    scrap: frozenset[Card] = frozenset()
    frozen: frozenset[Card] = frozenset()
    passes: int = 0
    chain: tuple[tuple[Card, int], ...] = ()
    target: Card | None = None
    victim: int | None = None
    responder: int | None = None
    revealed: tuple[Card, ...] = ()
    naming: str | None = None
    shown: int = 0
    offer_refused: bool = False
    result: Outcome | None = None

    @property
    def players(self) -> int:
        """How many seats play."""
        return len(self.hands)

    def text(self) -> str:
        """Write the position notation (docs/notation.md); it is a fixed point of ``from_text``."""
        return format_position(self)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read the position notation.

        Raises:
            InvalidSetupError (INVALID_POSITION): unreadable or inconsistent text.
        """
        return parse_position(text)

    def __repr__(self) -> str:
        return f"Position.from_text({self.text()!r})"


PositionFields = tuple[
    Variant, int, int, Phase, tuple[Card | None, ...], tuple[frozenset[Card], ...],
    tuple[Stack, ...], tuple[Stack, ...], frozenset[Card], frozenset[Card], int,
    tuple[tuple[Card, int], ...], Card | None, int | None, int | None, tuple[Card, ...],
    str | None, int, bool, Outcome | None,
]  # fmt: skip
"""Every field of a ``Position``, in order: what ``build_position`` takes.

A field added to ``Position`` is added here too; mypy then finds every place that
builds a position and lacks it.
"""

build_position: Callable[[PositionFields], Position] = partial(tuple.__new__, Position)
"""Build a ``Position`` from all its fields, typed, without the named tuple's ``__new__``.

The engine builds one or more positions per move: the named tuple's own ``__new__``
(a Python function that fills defaults) would cost several per cent of a playout.
"""


def placed_cards(position: Position) -> list[Card]:
    """Return every card the position places somewhere, with repeats if any (for checks)."""
    cards: list[Card] = [c for c in position.deck if c is not None]
    for hand in position.hands:
        cards.extend(hand)
    for stack in (*position.stacks, *position.permanents):
        cards.append(stack.base)
        cards.extend(card for card, _ in stack.attached)
    cards.extend(position.scrap)
    cards.extend(card for card, _ in position.chain)
    cards.extend(position.revealed)
    return cards


# --- position notation --------------------------------------------------------------


def _cards_text(cards: Iterable[Card]) -> str:
    ordered = sorted(cards, key=card_key)
    return format_cards(ordered) if ordered else "-"


def _deck_text(cards: tuple[Card | None, ...]) -> str:
    parts: list[str] = []
    unknown = 0
    for card in cards:
        if card is None:
            unknown += 1
            continue
        if unknown:
            parts.append(f"?{unknown}")
            unknown = 0
        parts.append(card.text())
    if unknown:
        parts.append(f"?{unknown}")
    return " ".join(parts) if parts else "-"


def _by_owner(stacks: tuple[Stack, ...], players: int) -> str:
    groups = []
    for seat in range(players):
        mine = [s.text() for s in stacks if s.owner == seat]
        groups.append(" ".join(mine) if mine else "-")
    return " / ".join(groups)


def format_position(p: Position) -> str:
    """Write the position notation described in docs/notation.md."""
    parts = [
        p.variant.value,
        f"dealer P{p.dealer}",
        f"turn P{p.turn}",
        f"phase {p.phase.value}",
        f"deck {_deck_text(p.deck)}",
        "hands " + " / ".join(_cards_text(h) for h in p.hands),
        "points " + _by_owner(p.stacks, p.players),
        "permanents " + _by_owner(p.permanents, p.players),
        f"scrap {_cards_text(p.scrap)}",
    ]
    if p.frozen:
        parts.append(f"frozen {_cards_text(p.frozen)}")
    if p.passes:
        parts.append(f"passes {p.passes}")
    if p.chain:
        parts.append("chain " + " ".join(f"{c.text()}:P{s}" for c, s in p.chain))
    if p.target is not None:
        parts.append(f"target {p.target.text()}")
    if p.victim is not None:
        parts.append(f"victim P{p.victim}")
    if p.responder is not None:
        parts.append(f"responder P{p.responder}")
    if p.revealed:
        parts.append("revealed " + format_cards(p.revealed))
    if p.naming is not None:
        parts.append(f"naming {p.naming}")
    if p.shown:
        parts.append(f"shown {p.shown}")
    if p.offer_refused:
        parts.append("refused")
    if p.result is not None:
        r = p.result
        winner = "-" if r.winner is None else f"P{r.winner}"
        text = f"result {r.termination.value} {winner}"
        if r.resigned is not None:
            text += f" P{r.resigned}"
        parts.append(text)
    return "; ".join(parts)


_STACK = re.compile(r"([0-9A-Z]{2})(?:\[([^\]]*)\])?")
_REQUIRED = ("dealer", "turn", "phase", "deck", "hands", "points", "permanents", "scrap")
_OPTIONAL = (
    "frozen",
    "passes",
    "chain",
    "target",
    "victim",
    "responder",
    "revealed",
    "naming",
    "shown",
    "refused",
    "result",
)


def _invalid(message: str) -> InvalidSetupError:
    return InvalidSetupError(message, code="INVALID_POSITION")


def _p_seat(token: str, players: int) -> int:
    m = re.fullmatch(r"P([0-9])", token)
    if m is None or int(m.group(1)) >= players:
        raise _invalid(f"{token!r} is not a seat")
    return int(m.group(1))


def _p_cards(text: str) -> tuple[Card, ...]:
    if text.strip() == "-":
        return ()
    try:
        return parse_cards(text)
    except MalformedError as e:
        raise _invalid(e.message) from None


def _p_groups(text: str, players: int) -> list[str]:
    groups = [g.strip() for g in text.split("/")]
    if len(groups) != players:
        raise _invalid(f"{text!r} must have one group per seat, separated by '/'")
    return groups


def _p_stacks(text: str, players: int) -> list[Stack]:
    stacks = []
    for owner, group in enumerate(_p_groups(text, players)):
        if group == "-":
            continue
        for token in group.split():
            m = _STACK.fullmatch(token)
            if m is None:
                raise _invalid(f"{token!r} is not a stack like TH[JS:P1]")
            attached: list[tuple[Card, int]] = []
            if m.group(2) is not None:
                for item in m.group(2).split(","):
                    card_text, _, seat_text = item.partition(":")
                    attached.append((_p_cards(card_text)[0], _p_seat(seat_text, players)))
            stacks.append(Stack(_p_cards(m.group(1))[0], owner, tuple(attached)))
    return stacks


def parse_position(text: str) -> Position:
    """Read the position notation (see ``Position.from_text``).

    Raises:
        InvalidSetupError (INVALID_POSITION): unreadable or inconsistent text.
    """
    sections = [s.strip() for s in text.split(";")]
    try:
        variant = Variant(sections[0])
    except ValueError:
        raise _invalid(f"{sections[0]!r} is not a Cuttle variant") from None
    players = variant.players
    fields: dict[str, str] = {}
    for section in sections[1:]:
        key, _, value = section.partition(" ")
        if key not in _REQUIRED and key not in _OPTIONAL:
            raise _invalid(f"{key!r} is not a section of the position notation")
        if key in fields:
            raise _invalid(f"section {key!r} is given twice")
        fields[key] = value.strip()
    missing = [k for k in _REQUIRED if k not in fields]
    if missing:
        raise _invalid(f"the position lacks {', '.join(missing)}")
    try:
        phase = Phase(fields["phase"])
    except ValueError:
        raise _invalid(f"{fields['phase']!r} is not a phase") from None
    deck_cards: list[Card | None] = []
    if fields["deck"] != "-":
        for token in fields["deck"].split():
            if token.startswith("?"):
                unknown = read_count(token[1:])
                if unknown is None or unknown < 1:
                    raise _invalid(f"{token!r} is not a count of unknown cards like ?30")
                deck_cards.extend([None] * unknown)
            else:
                deck_cards.append(_p_cards(token)[0])
    hands = tuple(frozenset(_p_cards(g)) for g in _p_groups(fields["hands"], players))
    stacks = _p_stacks(fields["points"], players)
    perms = _p_stacks(fields["permanents"], players)
    chain: list[tuple[Card, int]] = []
    for item in fields.get("chain", "").split():
        card_text, _, seat_text = item.partition(":")
        chain.append((_p_cards(card_text)[0], _p_seat(seat_text, players)))
    result = None
    if "result" in fields:
        words = fields["result"].split()
        try:
            termination = Termination(words[0])
        except (ValueError, IndexError):
            raise _invalid(f"{fields['result']!r} is not a result") from None
        winner = None if len(words) < 2 or words[1] == "-" else _p_seat(words[1], players)
        resigned = _p_seat(words[2], players) if len(words) > 2 else None
        result = Outcome(termination, winner, resigned)
    naming = fields.get("naming")
    if naming is not None and naming not in NAMING_KINDS:
        raise _invalid(f"{naming!r} is not a naming kind ({', '.join(NAMING_KINDS)})")
    for key in ("passes", "shown"):
        if key in fields and read_count(fields[key]) is None:
            raise _invalid(f"{key} must be a number, not {fields[key]!r}")
    target_cards = _p_cards(fields["target"]) if "target" in fields else ()
    position = Position(
        variant=variant,
        dealer=_p_seat(fields["dealer"], players),
        turn=_p_seat(fields["turn"], players),
        phase=phase,
        deck=tuple(deck_cards),
        hands=hands,
        stacks=tuple(sorted(stacks, key=lambda s: card_key(s.base))),
        permanents=tuple(sorted(perms, key=lambda s: card_key(s.base))),
        scrap=frozenset(_p_cards(fields["scrap"])),
        frozen=frozenset(_p_cards(fields.get("frozen", "-"))),
        passes=int(fields.get("passes", "0")),
        chain=tuple(chain),
        target=target_cards[0] if target_cards else None,
        victim=_p_seat(fields["victim"], players) if "victim" in fields else None,
        responder=_p_seat(fields["responder"], players) if "responder" in fields else None,
        revealed=_p_cards(fields.get("revealed", "-")),
        naming=naming,
        shown=int(fields.get("shown", "0")),
        offer_refused="refused" in fields,
        result=result,
    )
    _validate(position)
    return position


def _validate(p: Position) -> None:
    cards = placed_cards(p)
    if len(set(cards)) != len(cards):
        raise _invalid("a card is placed twice")
    full = pack(p.variant)
    if not set(cards) <= full:
        raise _invalid(f"a card is not in the {p.variant.value} pack")
    if len(cards) + p.deck.count(None) > len(full):
        raise _invalid("the position holds more cards than the pack")
    for stack in p.stacks:
        if stack.base.rank not in "A23456789T" or stack.base.is_joker:
            raise _invalid(f"{stack.base.text()} is not a point card")
        if any(card.rank != "J" for card, _ in stack.attached):
            raise _invalid(f"only jacks attach to a point card ({stack.text()})")
    for stack in p.permanents:
        if stack.base.rank not in "8QK" or stack.base.is_joker:
            raise _invalid(f"{stack.base.text()} is not a glasses 8, queen or king")
        if any(not card.is_joker for card, _ in stack.attached):
            raise _invalid(f"only jokers attach to a permanent ({stack.text()})")
    if not p.frozen <= frozenset().union(*p.hands):
        raise _invalid("a frozen card must be in a hand")
    if p.shown > len(p.deck):
        raise _invalid("more shown cards than the deck holds")
    if (p.result is None) == (p.phase is Phase.ROUND_OVER):
        raise _invalid("a finished round has phase ROUND_OVER and a result, and only it")
    needs_chain = p.phase in (
        Phase.COUNTER,
        Phase.RESOLVE_THREE,
        Phase.RESOLVE_FOUR,
        Phase.RESOLVE_FIVE,
        Phase.RESOLVE_SEVEN,
    ) or p.naming in ("five", "seven")
    if needs_chain != bool(p.chain):
        raise _invalid(f"phase {p.phase.value} and the chain do not agree")
    if (p.phase in (Phase.COUNTER, Phase.DRAW_OFFERED)) != (p.responder is not None):
        raise _invalid("a responder is given exactly in COUNTER and DRAW_OFFERED")
    if (p.phase is Phase.NAME_CARDS) != (p.naming is not None):
        raise _invalid("naming is given exactly in NAME_CARDS")
    if (p.phase is Phase.RESOLVE_SEVEN) != bool(p.revealed):
        raise _invalid("revealed cards are given exactly in RESOLVE_SEVEN")
    if p.phase is Phase.RESOLVE_FOUR and p.victim is None:
        raise _invalid("RESOLVE_FOUR needs the victim")


__all__ = [
    "NAMING_KINDS",
    "Phase",
    "Position",
    "PositionFields",
    "Stack",
    "build_position",
    "format_position",
    "pack",
    "parse_position",
    "placed_cards",
]
