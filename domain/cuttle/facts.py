"""What a Cuttle position means, derived from it: controllers, points, goals, targets.

Controllers and totals (§10), goals (§15.1), the winner, queens' protection (§11),
the targets a seat may aim at on a table, where a card lies on the table, how many
cards a step takes from the deck, and whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.cards import Card
from domain.cuttle.constants import (
    _CLASSIC,
    _COUNTER,
    _DRAW_OFFERED,
    _NAME_CARDS,
    _RANK_STRENGTH,
    _RESOLVE_FOUR,
    _ROUND_OVER,
    _STANDARD,
    _SUIT_STRENGTH,
    _VALUE,
    GOALS,
    HAND_LIMITS,
)
from domain.cuttle.moves import Move, card_key
from domain.cuttle.outcome import Outcome, Variant
from domain.cuttle.state import Position, Stack, pack, placed_cards
from domain.naming import CardsToName

if TYPE_CHECKING:
    from domain.cuttle.generation import _Plan


def controller(stack: Stack, variant: Variant) -> int:
    """Return the seat controlling a stack (§10): jacks/jokers decide, else the owner.

    >>> th = Card.from_text('TH')
    >>> controller(Stack(th, 0, ((Card.from_text('JS'), 0),)), Variant.CLASSIC)
    1
    """
    if not stack.attached:
        return stack.owner
    if variant is _CLASSIC:
        return stack.owner if len(stack.attached) % 2 == 0 else 1 - stack.owner
    return stack.attached[-1][1]


def totals(position: Position) -> tuple[int, ...]:
    """Return each seat's points: the point stacks it controls (§10.1)."""
    points = [0] * position.players
    for stack in position.stacks:
        points[controller(stack, position.variant)] += _VALUE[stack.base.rank]
    return tuple(points)


def goal(position: Position, seat: int) -> int:
    """Return a seat's goal given the kings it controls (§15.1)."""
    kings = sum(
        1
        for s in position.permanents
        if s.base.rank == "K" and controller(s, position.variant) == seat
    )
    return GOALS[position.variant][min(kings, 4)]


class _Facts:
    """What the point stacks and permanents of a table mean, worked out once (§10, §11, §15).

    Controllers, points, kings and queens per seat, whether each seat is at its goal,
    and each seat's targets (``_Table``). Stacks and their tuples are immutable, so the
    facts of one pair of tuples never change; ``_facts`` keeps the last pair's. Most
    moves that touch the table change one tuple only: the other's facts are taken
    from ``prev``, the facts of the table before, when that tuple is the same object.
    """

    __slots__ = (
        "at_goal", "classic", "kings", "perm_tuple", "perms", "points", "queens", "stack_tuple",
        "stacks", "tables",
    )  # fmt: skip

    stacks: list[tuple[Stack, int]]
    points: list[int]
    perms: list[tuple[Stack, int]]
    kings: list[int]
    queens: list[int]

    def __init__(
        self,
        variant: Variant,
        stacks: tuple[Stack, ...],
        perms: tuple[Stack, ...],
        prev: _Facts | None = None,
    ) -> None:
        self.classic = classic = variant is _CLASSIC
        self.stack_tuple = stacks
        self.perm_tuple = perms
        if prev is not None and prev.stack_tuple is stacks:
            rows, points = prev.stacks, prev.points
        else:
            points = [0, 0, 0]
            rows = []
            # ``controller`` inlined: the stacks change after most moves that touch the table.
            for stack in stacks:
                attached = stack.attached
                if not attached:
                    ctrl = stack.owner
                elif classic:
                    ctrl = stack.owner if len(attached) % 2 == 0 else 1 - stack.owner
                else:
                    ctrl = attached[-1][1]
                rows.append((stack, ctrl))
                points[ctrl] += _VALUE[stack.base.rank]
        self.stacks = rows
        self.points = points
        if prev is not None and prev.perm_tuple is perms:
            perm_rows, kings, queens = prev.perms, prev.kings, prev.queens
        else:
            kings = [0, 0, 0]
            queens = [0, 0, 0]
            perm_rows = []
            for stack in perms:
                ctrl = controller(stack, variant)
                perm_rows.append((stack, ctrl))
                rank = stack.base.rank
                if rank == "K":
                    kings[ctrl] += 1
                elif rank == "Q":
                    queens[ctrl] += 1
        self.perms = perm_rows
        self.kings = kings
        self.queens = queens
        goals = GOALS[variant]
        # The pack holds four kings (§3), so a seat's count indexes ``goals`` as it is.
        self.at_goal = [
            points[0] >= goals[kings[0]],
            points[1] >= goals[kings[1]],
            points[2] >= goals[kings[2]],
        ]
        self.tables: list[_Table | None] = [None, None, None]

    def table(self, seat: int) -> _Table:
        """Return the targets ``seat`` may aim at on this table."""
        table = self.tables[seat]
        if table is None:
            table = self.tables[seat] = _Table(self, seat)
        return table


_last_facts: list[tuple[tuple[Stack, ...], tuple[Stack, ...], Variant, _Facts]] = [
    ((), (), _STANDARD, _Facts(_STANDARD, (), ()))
]
"""The last table's facts, keyed by its tuples and variant; it starts with an empty table."""


def _facts(variant: Variant, stacks: tuple[Stack, ...], perms: tuple[Stack, ...]) -> _Facts:
    """Return the facts of a table, reusing the last ones when the tuples are the same."""
    # Keyed by identity, holding the tuples themselves: consecutive positions share
    # them until a card lands on or leaves the table, and a held tuple's id cannot be
    # reused by another.
    last = _last_facts[0]
    if last[0] is stacks and last[1] is perms and last[2] is variant:
        return last[3]
    facts = _Facts(variant, stacks, perms, last[3] if last[2] is variant else None)
    _last_facts[0] = (stacks, perms, variant, facts)
    return facts


def _winner(
    variant: Variant,
    players: int,
    stacks: tuple[Stack, ...],
    perms: tuple[Stack, ...],
    active: int,
) -> int | None:
    at_goal = _facts(variant, stacks, perms).at_goal
    if True not in at_goal:
        return None
    for i in range(players):
        seat = (active + i) % players
        if at_goal[seat]:
            return seat
    return None


def _queens(perms: tuple[Stack, ...], variant: Variant, seat: int) -> list[Card]:
    return [s.base for s in perms if s.base.rank == "Q" and controller(s, variant) == seat]


def _protectors(p: Position, host: Card, host_controller: int, actor: int) -> list[Card]:
    """Return the queens that protect ``host`` (and what is attached to it) from ``actor``."""
    queens = _queens(p.permanents, p.variant, host_controller)
    counts = [0] * 3
    counts[host_controller] = len(queens)
    if not _guarded(counts, host, host_controller, actor, p.variant is _CLASSIC):
        return []
    return [q for q in queens if q is not host]


def _limit_room(p: Position, seat: int) -> int | None:
    limit = HAND_LIMITS[p.variant]
    return None if limit is None else limit - len(p.hands[seat])


def _eligible_scrap(p: Position) -> list[Card]:
    if p.variant is _CLASSIC:
        return list(p.scrap)
    return [c for c in p.scrap if c.rank != "3"]


def _locate(p: Position, card: Card) -> tuple[str, Stack] | None:
    """Find a card on the table (see ``_find``)."""
    return _find(p.stacks, p.permanents, card)


_KINDS = (("base", "top"), ("perm", "permtop"))


def _find(
    stacks: tuple[Stack, ...], perms: tuple[Stack, ...], card: Card
) -> tuple[str, Stack] | None:
    """Find a card on the table: the ``base``, ``top`` or ``covered`` jack of a point
    stack, or the ``perm``, ``permtop`` or ``covered`` joker of a permanent."""
    for group, (base_kind, top_kind) in zip((stacks, perms), _KINDS, strict=True):
        for stack in group:
            if stack.base is card:
                return base_kind, stack
            for i, (attached, _) in enumerate(stack.attached):
                if attached is card:
                    return (top_kind if i == len(stack.attached) - 1 else "covered"), stack
    return None


def _naming_span(p: Position) -> int:
    """How many top deck cards the pending NAME_CARDS step takes."""
    assert p.naming is not None
    return _span(p.naming, p.variant, len(p.deck), len(p.hands[p.turn]))


def _span(kind: str, variant: Variant, deck_size: int, hand_size: int) -> int:
    """How many top deck cards a draw, a five's draws or a seven's reveal takes (§8.5, §8.7)."""
    if kind == "draw":
        return 1
    if kind == "seven":
        return 1 if variant is _CLASSIC else min(2, deck_size)
    limit = HAND_LIMITS[variant]
    if limit is None:
        return min(2, deck_size)
    return min(3, deck_size, max(0, limit - hand_size))


def cards_awaited(position: Position) -> int:
    """Return how many cards the scorer must name now (0 unless phase ``NAME_CARDS``)."""
    if position.phase is not _NAME_CARDS:
        return 0
    return position.deck[: _naming_span(position)].count(None)


def cards_to_name(position: Position) -> CardsToName | None:
    """Return the cards the scorer must name now (§24): how many, and which (``None``: none).

    Any cards placed nowhere may be named (ruling 25), in any order.
    """
    count = cards_awaited(position)
    if not count:
        return None
    return CardsToName(count, tuple(sorted(_unplaced(position), key=card_key)))


def _unplaced(p: Position) -> frozenset[Card]:
    return pack(p.variant) - frozenset(placed_cards(p))


def to_act(position: Position) -> tuple[int, ...]:
    """Return the seats expected to act now (any seat may also resign).

    Empty while the scorer must name cards, and once the round is over.
    """
    phase = position.phase
    if phase is _COUNTER or phase is _DRAW_OFFERED:
        assert position.responder is not None
        return (position.responder,)
    if phase is _RESOLVE_FOUR:
        assert position.victim is not None
        return (position.victim,)
    if phase is _NAME_CARDS or phase is _ROUND_OVER:
        return ()
    return (position.turn,)


def outcome(position: Position) -> Outcome | None:
    """Return how the round ended, or ``None`` while it goes on."""
    return position.result


def is_terminal(position: Position) -> bool:
    """Whether the round is over."""
    return position.result is not None


class _Table:
    """The targets a seat may aim at on one table (§6, §8, §11), kept with its ``_Facts``.

    Scuttle targets are computed at once; jack, joker, two and nine targets only
    when a card that needs them is played (``aim``). ``plays`` keeps each plan's
    static and aimed plays together, in move order.
    """

    __slots__ = ("facts", "jack", "joker", "nine", "plays", "scuttle", "seat", "two")

    def __init__(self, facts: _Facts, seat: int) -> None:
        self.facts = facts
        self.seat = seat
        self.scuttle = [
            (_RANK_STRENGTH[s.base.rank] + _SUIT_STRENGTH[s.base.suit], s.base)
            for s, ctrl in facts.stacks
            if ctrl != seat
        ]
        self.jack: list[Card] | None = None
        self.two: list[Card] = []
        self.nine: list[Card] = []
        self.joker: list[Card] = []
        self.plays: dict[_Plan, tuple[Move, ...]] = {}

    def aim(self) -> None:
        """Compute the jack, joker, two and nine targets (once)."""
        if self.jack is not None:
            return
        facts, seat = self.facts, self.seat
        classic, queens = facts.classic, facts.queens
        jack: list[Card] = []
        two: list[Card] = []
        nine: list[Card] = []
        joker: list[Card] = []
        for s, ctrl in facts.stacks:
            if (ctrl == seat and not classic) or _guarded(queens, s.base, ctrl, seat, classic):
                continue
            jack.append(s.base)
            if s.attached:
                top = s.attached[-1][0]
                two.append(top)
                nine.append(top)
            if not classic:
                nine.append(s.base)
        for s, ctrl in facts.perms:
            if (ctrl == seat and not classic) or _guarded(queens, s.base, ctrl, seat, classic):
                continue
            hits = [s.base, s.attached[-1][0]] if s.attached else [s.base]
            two.extend(hits)
            nine.extend(hits)
            if ctrl != seat:
                joker.append(s.base)
        # Tables are shared between positions: publish complete lists, ``jack`` last.
        self.two, self.nine, self.joker = two, nine, joker
        self.jack = jack


def _guarded(queens: list[int], host: Card, ctrl: int, actor: int, classic: bool) -> bool:
    """Whether a queen protects ``host`` and what is attached to it from ``actor`` (§11)."""
    if ctrl == actor:
        return False
    if host.rank == "Q":
        return not classic and queens[ctrl] >= 2
    return queens[ctrl] >= 1
