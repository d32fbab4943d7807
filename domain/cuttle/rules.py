"""The Cuttle rules engine: one decider for classic, standard and cutthroat.

``legal_moves`` generates the legal actions of whoever must act now from the rules,
``service_moves`` the resignations and draw offers (§25); ``read`` gives a move the
form they list it in. ``apply`` checks a move (raising ``IllegalMoveError`` with the
§17 code, first in precedence order) and returns the next position;
``decide``/``evolve`` are the event-sourced form of the same step. ``view`` says
what one seat (or a spectator) may see.

>>> from domain.cards import deck
>>> setup = RoundSetup(Variant.STANDARD, dealer=0, deck=deck())
>>> p = initial_position(setup)
>>> to_act(p)
(1,)
>>> p2 = apply(p, 'P1 points AC')
>>> to_act(p2), outcome(p2)
((0,), None)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import permutations
from math import perm
from operator import attrgetter
from typing import Any

from domain.cards import Card
from domain.cuttle.moves import MAIN_ACTIONS, MAX_SEATS, Move, card_key
from domain.cuttle.outcome import Outcome, Termination, Variant
from domain.cuttle.state import (
    Phase,
    Position,
    RoundSetup,
    Stack,
    build_position,
    deal,
    pack,
    placed_cards,
)
from domain.errors import IllegalMoveError, MalformedError
from domain.events import Event
from domain.legal import LegalMoveView
from domain.records import builder

# Enum members bound once: ``Phase.MAIN`` is an attribute look-up through the enum's
# metaclass, about ten times a global's cost, and the engine compares phases and
# variants several times a move.
_COUNTER = Phase.COUNTER
_DRAW_OFFERED = Phase.DRAW_OFFERED
_MAIN = Phase.MAIN
_NAME_CARDS = Phase.NAME_CARDS
_RESOLVE_FIVE = Phase.RESOLVE_FIVE
_RESOLVE_FOUR = Phase.RESOLVE_FOUR
_RESOLVE_SEVEN = Phase.RESOLVE_SEVEN
_RESOLVE_THREE = Phase.RESOLVE_THREE
_ROUND_OVER = Phase.ROUND_OVER
_CLASSIC = Variant.CLASSIC
_CUTTHROAT = Variant.CUTTHROAT
_STANDARD = Variant.STANDARD

RULES_VERSION = 1
"""Version of the rules this engine decides (docs/rules/cuttle.md with rulings 1-40).

The recorder stores it with a round's set-up, so that a later change of rules can
replay old rounds under their own version.
"""

GOALS = {
    _CLASSIC: (21, 14, 10, 7, 5),
    _STANDARD: (21, 14, 10, 5, 0),
    _CUTTHROAT: (14, 9, 5, 0, 0),
}
"""Point goal by number of kings controlled (§15.1)."""
HAND_LIMITS = {_CLASSIC: None, _STANDARD: 8, _CUTTHROAT: 7}
"""Hand limit per variant (§12); it only restricts drawing."""

_POINT_RANKS = frozenset("A23456789T")
_ONEOFF_RANKS = frozenset("A2345679")
_PERM_ACTIONS = {"glasses": "8", "queen": "Q", "king": "K"}
_RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
    "K": "king", "X": "joker",
}  # fmt: skip
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_VALUE = {rank: i + 1 for i, rank in enumerate("A23456789T")}
_PHASE_ACTIONS = {
    _MAIN: MAIN_ACTIONS | {"offer-draw"},
    _COUNTER: frozenset({"counter", "decline"}),
    _RESOLVE_THREE: frozenset({"take"}),
    _RESOLVE_FOUR: frozenset({"discard"}),
    _RESOLVE_FIVE: frozenset({"discard"}),
    _RESOLVE_SEVEN: frozenset(),  # seven moves are recognised by their flag
    _DRAW_OFFERED: frozenset({"accept-draw", "refuse-draw"}),
    _NAME_CARDS: frozenset({"cards"}),
    _ROUND_OVER: frozenset(),
}


def _card_name(card: Card) -> str:
    if card.is_joker:
        return f"joker {card.text()}"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]} ({card.text()})"


# --- derived facts ------------------------------------------------------------------


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


def initial_position(setup: RoundSetup) -> Position:
    """Deal a round (§4): hands by ruling 2, the player after the dealer to act.

    A set-up given as a position (ruling 25) starts from that position as it is.
    """
    if setup.position is not None:
        return Position.from_text(setup.position)
    hands, rest = deal(setup)
    players = setup.variant.players
    return Position(
        variant=setup.variant,
        dealer=setup.dealer,
        turn=(setup.dealer + 1) % players,
        phase=_MAIN,
        deck=rest,
        hands=hands,
    )


# --- move construction (interned) -------------------------------------------------------

_MOVES: dict[tuple[Any, ...], Move] = {}


def _mv(
    action: str,
    seat: int | None,
    card: Card | None = None,
    target: Card | None = None,
    player: int | None = None,
    seven: bool = False,
) -> Move:
    # Cards are interned, so their ids are stable keys and hash far faster than cards.
    key = (action, seat, id(card), id(target), player, seven)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(action, seat, card, target, player, (), seven)
    return move


_DRAWS = tuple(_mv("draw", seat) for seat in range(MAX_SEATS))
_PASSES = tuple(_mv("pass", seat) for seat in range(MAX_SEATS))
_DECLINES = tuple(_mv("decline", seat) for seat in range(MAX_SEATS))

_DISCARDS: dict[tuple[int, ...], Move] = {}


def _discard(seat: int, cards: tuple[Card, ...]) -> Move:
    key = (seat, *map(id, cards))
    move = _DISCARDS.get(key)
    if move is None:
        move = _DISCARDS[key] = Move("discard", seat, cards=cards)
    return move


# --- legal move generation ------------------------------------------------------------

_RANK_STRENGTH = {rank: i * 4 for i, rank in enumerate("A23456789TJQK")}
_RANK_STRENGTH["X"] = 100  # jokers sort last, like card_key
_SUIT_STRENGTH = {suit: i for i, suit in enumerate("CDHS12")}


_BY_CODE = attrgetter("rank", "suit")
"""A C-level sort key: a stable move order across processes, cheaper than rank order."""


def _strength(card: Card) -> int:
    return _RANK_STRENGTH[card.rank] + _SUIT_STRENGTH[card.suit]


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


_STATIC_ACTIONS = {"8": "glasses", "Q": "queen", "K": "king"}
_NO_MOVES: tuple[Move, ...] = ()


class _Plan:
    """How one seat may play one card (from hand, or revealed by a seven), built once.

    ``static`` are the plays that need nothing from the table or the position:
    points, a permanent, an ace or a six. ``aimed`` plays depend on the table only
    (scuttles, jacks, jokers, twos and nines) and are kept per ``_Table``. ``late``
    is the rank of a one-off that depends on the rest of the position (3, 4, 5, 7).
    """

    __slots__ = (
        "aims", "card", "fours", "late", "oneoff", "rank", "scuttles", "seat", "seven", "static",
        "strength",
    )  # fmt: skip

    def __init__(self, seat: int, card: Card, seven: bool) -> None:
        self.seat = seat
        self.card = card
        self.seven = seven
        rank = self.rank = card.rank
        built = []
        if rank in _POINT_RANKS:
            built.append(_mv("points", seat, card, seven=seven))
        if rank in _STATIC_ACTIONS:
            built.append(_mv(_STATIC_ACTIONS[rank], seat, card, seven=seven))
        if rank == "A" or rank == "6":
            built.append(_mv("oneoff", seat, card, seven=seven))
        self.static = tuple(built)
        self.strength = _strength(card)
        self.late = rank if rank in "3457" else ""
        self.oneoff = _mv("oneoff", seat, card, seven=seven)
        # A four's one-off naming each seat as its victim (``late`` picks the opponents).
        self.fours = (
            tuple(_mv("oneoff", seat, card, player=v, seven=seven) for v in range(MAX_SEATS))
            if rank == "4"
            else ()
        )
        # A card has one aimed action besides scuttling (jack, joker, or a 2/9 one-off).
        self.scuttles: dict[int, Move] = {}
        self.aims: dict[int, Move] = {}

    def aimed(self, t: _Table) -> tuple[Move, ...]:
        """Return the plays of this card that aim at the table ``t`` (in move order)."""
        rank = self.rank
        out: list[Move] = []
        if rank in _POINT_RANKS:
            if t.scuttle:
                # Most tables are new to the hand they are judged for: the scuttles are
                # looked up in one loop, without ``_at``'s call and list.
                strength, made = self.strength, self.scuttles
                for base_strength, base in t.scuttle:
                    if base_strength < strength:
                        move = made.get(id(base))
                        if move is None:
                            move = made[id(base)] = _mv(
                                "scuttle", self.seat, self.card, base, seven=self.seven
                            )
                        out.append(move)
            if rank == "2" or rank == "9":
                t.aim()
                out += self._at("oneoff", t.two if rank == "2" else t.nine, self.aims)
        elif rank == "J":
            t.aim()
            assert t.jack is not None
            out += self._at("jack", t.jack, self.aims)
        elif rank == "X":
            t.aim()
            out += self._at("joker", t.joker, self.aims)
        return tuple(out) if out else _NO_MOVES

    def _at(self, action: str, targets: list[Card], cache: dict[int, Move]) -> list[Move]:
        """Return this card's ``action`` aimed at each target, interned by the target's id."""
        moves = []
        for target in targets:
            move = cache.get(id(target))
            if move is None:
                move = cache[id(target)] = _mv(
                    action, self.seat, self.card, target, seven=self.seven
                )
            moves.append(move)
        return moves


_PLANS: tuple[dict[int, _Plan], ...] = tuple({} for _ in range(6))
"""Plans by ``2 * seat + seven``, then by the card's id (cards are interned)."""


def _plan(seat: int, card: Card, seven: bool) -> _Plan:
    plans = _PLANS[2 * seat + seven]
    plan = plans.get(id(card))
    if plan is None:
        plan = plans[id(card)] = _Plan(seat, card, seven)
    return plan


def _card_plays(p: Position, t: _Table, plan: _Plan, out: list[Move]) -> None:
    """Append every legal way to play the plan's card as a main action."""
    plays = t.plays.get(plan)
    if plays is None:
        plays = t.plays[plan] = plan.static + plan.aimed(t)
    out += plays
    if plan.late:
        _late_oneoffs(p, plan, out)


def _late_oneoffs(p: Position, plan: _Plan, out: list[Move]) -> None:
    """Append the one-offs of a 3, 4, 5 or 7, which depend on the scrap, deck or hands."""
    rank = plan.late
    if rank == "3":
        if _eligible_scrap(p):
            out.append(plan.oneoff)
    elif rank == "5" or rank == "7":
        if p.deck:
            out.append(plan.oneoff)
    else:
        seat, hands = plan.seat, p.hands
        for victim in range(len(hands)):
            if victim != seat and hands[victim]:
                # In 2-player the victim goes without saying: one move (``read``).
                out.append(plan.oneoff if len(hands) == 2 else plan.fours[victim])


def _main_moves(p: Position, seat: int) -> list[Move]:
    """Every legal main action except pass (§5)."""
    moves: list[Move] = []
    hand = p.hands[seat]
    if p.deck:
        limit = HAND_LIMITS[p.variant]
        if limit is None or len(hand) < limit:
            moves.append(_DRAWS[seat])
    facts = _facts(p.variant, p.stacks, p.permanents)
    table = facts.tables[seat] or facts.table(seat)
    cached = table.plays
    plans = _PLANS[2 * seat]
    frozen = p.frozen
    for card in sorted(hand, key=_BY_CODE):
        if frozen and card in frozen:
            continue
        plan = plans.get(id(card))
        if plan is None:
            plan = _plan(seat, card, False)
        plays = cached.get(plan)
        if plays is None:
            plays = cached[plan] = plan.static + plan.aimed(table)
        moves += plays
        if plan.late:
            _late_oneoffs(p, plan, moves)
    return moves


def _seven_view(p: Position, card: Card) -> Position:
    """The position a revealed card is judged in (ruling 29): seven scrapped, rest on top."""
    rest = tuple(c for c in p.revealed if c is not card)
    return Position(
        variant=p.variant,
        dealer=p.dealer,
        turn=p.turn,
        phase=_MAIN,
        deck=rest + p.deck,
        hands=p.hands,
        stacks=p.stacks,
        permanents=p.permanents,
        scrap=p.scrap | {p.chain[0][0]},
        frozen=p.frozen,
        passes=p.passes,
        shown=p.shown + len(rest),
    )


def _seven_moves(p: Position) -> list[Move]:
    seat = p.turn
    moves: list[Move] = []
    for card in p.revealed:
        judged = _seven_view(p, card)
        table = _facts(judged.variant, judged.stacks, judged.permanents).table(seat)
        _card_plays(judged, table, _plan(seat, card, True), moves)
    if not moves:
        moves = [_mv("scrap", seat, card, seven=True) for card in p.revealed]
    return moves


def _generate(p: Position) -> Iterator[Move]:
    """Yield the moves of whoever must act now; service moves are ``_service``'s."""
    phase = p.phase
    if phase is _ROUND_OVER:
        return
    seat = p.turn
    if phase is _MAIN:
        moves = _main_moves(p, seat)
        yield from moves
        if not p.deck or not moves:
            yield _PASSES[seat]
    elif phase is _COUNTER:
        yield from _counter_moves(p)
    elif phase is _RESOLVE_THREE:
        for card in sorted(_eligible_scrap(p), key=card_key):
            yield _mv("take", seat, card)
    elif phase is _RESOLVE_FOUR:
        victim = p.victim
        assert victim is not None
        hand = sorted(p.hands[victim], key=card_key)
        count = min(2, len(hand))
        for i, first in enumerate(hand):
            if count == 1:
                yield _discard(victim, (first,))
            else:
                for second in hand[i + 1 :]:
                    yield _discard(victim, (first, second))
    elif phase is _RESOLVE_FIVE:
        for card in sorted(p.hands[seat], key=card_key):
            yield _discard(seat, (card,))
    elif phase is _RESOLVE_SEVEN:
        yield from _seven_moves(p)
    elif phase is _DRAW_OFFERED:
        assert p.responder is not None
        yield _mv("accept-draw", p.responder)
        yield _mv("refuse-draw", p.responder)
    elif phase is _NAME_CARDS:
        free = sorted(_unplaced(p), key=card_key)
        for combo in permutations(free, cards_awaited(p)):
            yield Move("cards", None, cards=combo)


SERVICE_ACTIONS = frozenset({"resign", "offer-draw"})
"""Actions that end a round by agreement or resignation (§25), not by play: ``service_moves``."""


def _service(p: Position) -> list[Move]:
    """A draw offer by the seat in ``MAIN`` (once a turn), then every seat's resignation."""
    if p.phase is _ROUND_OVER:
        return []
    moves = []
    if p.phase is _MAIN and not p.offer_refused:
        moves.append(_mv("offer-draw", p.turn))
    moves.extend(_mv("resign", seat) for seat in range(p.players))
    return moves


def _counter_moves(p: Position) -> list[Move]:
    """The responder's moves in a counter chain: decline, then each two that may counter."""
    responder = p.responder
    assert responder is not None
    moves = [_DECLINES[responder]]
    twos = [card for card in p.hands[responder] if card.rank == "2"]
    if twos and not _queens(p.permanents, p.variant, p.chain[-1][1]):
        for card in sorted(twos, key=card_key):
            if card not in p.frozen:
                moves.append(_mv("counter", responder, card))
    return moves


class LegalMoves(LegalMoveView[Position, Move]):
    """A lazy view of the moves of whoever must act now (``domain.legal``).

    Iteration generates the moves from the rules; ``in`` checks one move with the
    same checks ``apply`` makes. Resignations and draw offers are ``service_moves``;
    while cards await naming, ``len`` counts the permutations without listing them.
    """

    __slots__ = ()

    def __init__(self, position: Position) -> None:
        super().__init__(position, _generate, _is_listed, _naming_count)


def _naming_count(p: Position) -> int | None:
    if p.phase is _NAME_CARDS and p.result is None:
        return perm(len(_unplaced(p)), cards_awaited(p))
    return None


def _is_listed(p: Position, move: object) -> bool:
    return is_legal(p, move) and move.action not in SERVICE_ACTIONS  # type: ignore[attr-defined]


def legal_moves(position: Position) -> LegalMoves:
    """Return the legal moves of whoever must act now (no resignations or draw offers).

    In 2-player a four is listed once, as ``P0 oneoff 4S`` (see ``read``).
    """
    return LegalMoves(position)


def service_moves(position: Position) -> tuple[Move, ...]:
    """Return the legal resignations and draw offers (§25), which any moment may allow."""
    return tuple(_service(position))


def is_legal(position: Position, move: object) -> bool:
    """Whether ``move`` is one ``legal_moves`` or ``service_moves`` lists.

    A move is taken as listed: ``P0 oneoff 4S@P1`` in 2-player is not, though
    ``apply`` reads it (``read``) as the listed ``P0 oneoff 4S``.
    """
    if not isinstance(move, Move) or read(position, move) is not move:
        return False
    try:
        _check(position, move)
    except (IllegalMoveError, MalformedError):
        return False
    return True


def read(position: Position, move: Move) -> Move:
    """Return ``move`` as this position reads it: the form ``legal_moves`` lists.

    In 2-player a four's victim can only be the opponent, so ``P0 oneoff 4S@P1``
    is the move ``P0 oneoff 4S`` (old logs name the victim); anything else is itself.
    """
    player = move.player
    if player is None or len(position.hands) != 2 or move.seat is None or player != 1 - move.seat:
        return move
    card = move.card
    if move.action != "oneoff" or card is None or card.rank != "4":
        return move
    return _mv("oneoff", move.seat, card, seven=move.seven)


def generate_moves(position: Position, *, service: bool = True) -> list[Move]:
    """Return the legal moves as a list; ``service=True`` adds ``service_moves``
    (random playouts leave them out)."""
    if position.phase is _MAIN:
        seat = position.turn
        moves = _main_moves(position, seat)
        if not position.deck or not moves:
            moves.append(_PASSES[seat])
    elif position.phase is _COUNTER:
        # A counter chain is the commonest phase after MAIN; playouts skip the generator.
        moves = _counter_moves(position)
    else:
        moves = list(_generate(position))
    if service:
        moves.extend(_service(position))
    return moves


def push(position: Position, move: Move) -> Position:
    """Apply a move known to be legal (from ``legal_moves``) without checking it again.

    Like python-chess's ``push``: an illegal move gives an undefined position.
    """
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after


# --- checking ----------------------------------------------------------------------


def _fail(code: str, message: str, move: Move) -> IllegalMoveError:
    text = move.text()
    return IllegalMoveError(f"{text!r}: {message}", code=code, details={"move": text})


def _check(p: Position, m: Move) -> None:
    """Raise the first §17 refusal for ``m`` in ``p``, or return if it is legal."""
    players = p.players
    action = m.action
    if p.phase is _NAME_CARDS and m.seat is not None and action != "resign":
        raise _fail("WRONG_PHASE", "the scorer must first name the cards that left the deck", m)
    if (m.seat is not None and m.seat >= players) or (m.player is not None and m.player >= players):
        raise MalformedError(
            f"{m.text()!r} names a seat that {p.variant.value} does not have",
            details={"move": m.text()},
        )
    if p.variant is not _CUTTHROAT and (action == "joker" or _names_joker(m)):
        raise MalformedError(
            f"{m.text()!r}: jokers are only in cutthroat", details={"move": m.text()}
        )
    _check_rules(p, m)


def _check_rules(p: Position, m: Move) -> None:
    """``_check`` after its checks of the names: the scorer's turn, seats and jokers."""
    action = m.action
    if p.result is not None:
        raise _fail("ROUND_OVER", "the round is over", m)
    if action == "resign":
        return
    if action == "cards":
        if p.phase is not _NAME_CARDS:
            raise _fail("WRONG_PHASE", "no cards are waiting to be named", m)
        free = _unplaced(p)
        for card in m.cards:
            if card not in free:
                raise _fail(
                    "CARD_NOT_AVAILABLE",
                    f"{card.text()} cannot come off the deck: it is already placed or out of play",
                    m,
                )
        wanted = cards_awaited(p)
        if len(m.cards) != wanted:
            raise _fail("WRONG_COUNT", f"name exactly {wanted} card(s), in deck order", m)
        return
    seat = m.seat
    assert seat is not None
    phase = p.phase
    # ``to_act`` inlined (the round is not over here): one seat acts, or none.
    if phase is _MAIN:
        actor: int | None = p.turn
    elif phase is _COUNTER or phase is _DRAW_OFFERED:
        actor = p.responder
    elif phase is _RESOLVE_FOUR:
        actor = p.victim
    elif phase is _NAME_CARDS or phase is _ROUND_OVER:
        actor = None
    else:
        actor = p.turn
    if seat != actor:
        raise _fail("NOT_YOUR_TURN", f"P{seat} is not the one to act now", m)
    if m.seven:
        if phase is not _RESOLVE_SEVEN:
            raise _fail("WRONG_PHASE", "no seven is waiting for its revealed card", m)
        _check_seven(p, m, seat)
        return
    if action not in _PHASE_ACTIONS[phase]:
        raise _fail("WRONG_PHASE", f"{action!r} is not accepted in phase {phase.value}", m)
    if phase is _MAIN:
        if action == "offer-draw":
            if p.offer_refused:
                raise _fail("WRONG_PHASE", "a draw was already refused this turn", m)
            return
        _check_main(p, m, seat, seven=False)
    elif phase is _COUNTER:
        if action == "counter":
            _check_counter(p, m, seat)
    elif phase is _RESOLVE_THREE:
        taken = m.card
        assert taken is not None
        if taken not in p.scrap:
            raise _fail("INVALID_TARGET", f"{taken.text()} is not in the scrap", m)
        if taken.rank == "3" and p.variant is not _CLASSIC:
            raise _fail("INVALID_TARGET", "a three cannot take a three", m)
    elif phase is _RESOLVE_FOUR or phase is _RESOLVE_FIVE:
        hand = p.hands[seat]
        wanted = min(2, len(hand)) if phase is _RESOLVE_FOUR else 1
        if len(m.cards) != wanted:
            raise _fail("WRONG_DISCARD", f"discard exactly {wanted} card(s)", m)
        for card in m.cards:
            if card not in hand:
                raise _fail("WRONG_DISCARD", f"you hold no {card.text()}", m)


def _names_joker(m: Move) -> bool:
    """Whether a move names a joker (its card, its target or one of its cards)."""
    card, target = m.card, m.target
    if (card is not None and card.rank == "X") or (target is not None and target.rank == "X"):
        return True
    return bool(m.cards) and any(c.rank == "X" for c in m.cards)


def _check_counter(p: Position, m: Move, seat: int) -> None:
    card = m.card
    assert card is not None
    if not _one(card) <= p.hands[seat]:
        raise _fail("CARD_NOT_AVAILABLE", f"you hold no {card.text()}", m)
    if p.frozen and card in p.frozen:
        raise _fail("CARD_FROZEN", f"{card.text()} is frozen until your turn ends", m)
    if card.rank != "2":
        raise _fail("WRONG_CARD_TYPE", "only a two can counter", m)
    top_seat = p.chain[-1][1]
    queens = _queens(p.permanents, p.variant, top_seat)
    if queens:
        raise _fail(
            "PROTECTED_BY_QUEEN",
            f"P{top_seat}'s {_card_name(queens[0])} stops counters against their cards",
            m,
        )


def _check_seven(p: Position, m: Move, seat: int) -> None:
    card = m.card
    assert card is not None
    if card not in p.revealed:
        raise _fail("CARD_NOT_AVAILABLE", f"{card.text()} is not a revealed card", m)
    if m.action == "scrap":
        for other in p.revealed:
            judged = _seven_view(p, other)
            playable: list[Move] = []
            table = _facts(judged.variant, judged.stacks, judged.permanents).table(seat)
            _card_plays(judged, table, _plan(seat, other, True), playable)
            if playable:
                raise _fail("MUST_PLAY_REVEALED", f"{other.text()} can be played, so it must be", m)
        return
    _check_main(_seven_view(p, card), m, seat, seven=True)


def _check_main(p: Position, m: Move, seat: int, seven: bool) -> None:
    action = m.action
    variant = p.variant
    if action == "draw":
        if not p.deck:
            raise _fail("DECK_EMPTY", "the deck is empty", m)
        room = _limit_room(p, seat)
        if room is not None and room <= 0:
            raise _fail("HAND_LIMIT", f"a hand of {len(p.hands[seat])} cards is at the limit", m)
        return
    if action == "pass":
        if p.deck and _main_moves(p, seat):
            raise _fail("DECK_NOT_EMPTY", "you may pass only when the deck is empty", m)
        return
    card = m.card
    assert card is not None
    if not seven:
        # ``_one(card) <= hand`` looks the card up by its stored hash: ``card in hand``
        # would call the dataclass's Python-level ``__hash__``.
        if not _one(card) <= p.hands[seat]:
            raise _fail("CARD_NOT_AVAILABLE", f"you hold no {card.text()}", m)
        if p.frozen and card in p.frozen:
            raise _fail("CARD_FROZEN", f"{card.text()} is frozen until your turn ends", m)
    rank = card.rank
    # A joker's rank is "X": a rank in _POINT_RANKS, _PERM_ACTIONS or _ONEOFF_RANKS is
    # never a joker's, so ``is_joker`` (a property call) is not asked below.
    if action == "points" or action == "scuttle":
        if rank not in _POINT_RANKS:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a point card", m)
        if action == "scuttle":
            _check_scuttle(p, m, seat, card)
        return
    if action in _PERM_ACTIONS:
        if rank != _PERM_ACTIONS[action]:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} cannot be played as {action}", m)
        return
    if action == "jack":
        if rank != "J":
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a jack", m)
        found = None if m.target is None else _locate(p, m.target)
        if found is None or found[0] != "base":
            raise _fail("INVALID_TARGET", "a jack goes on the base card of a point stack", m)
        stack = found[1]
        ctrl = controller(stack, variant)
        if ctrl == seat and variant is not _CLASSIC:
            raise _fail("INVALID_TARGET", "a jack only steals: that stack is already yours", m)
        _check_queens(p, m, stack.base, ctrl, seat, "jack")
        return
    if action == "joker":
        if not card.is_joker:
            raise _fail("WRONG_CARD_TYPE", f"{card.text()} is not a joker", m)
        found = None if m.target is None else _locate(p, m.target)
        if found is None or found[0] != "perm":
            raise _fail(
                "INVALID_TARGET", "a joker goes on an opponent's glasses 8, queen or king", m
            )
        stack = found[1]
        ctrl = controller(stack, variant)
        if ctrl == seat:
            raise _fail("INVALID_TARGET", "a joker only steals: that card is already yours", m)
        _check_queens(p, m, stack.base, ctrl, seat, "joker")
        return
    # one-off
    if rank not in _ONEOFF_RANKS:
        raise _fail("WRONG_CARD_TYPE", f"{card.text()} cannot be played as a one-off", m)
    if rank == "5" or rank == "7":
        if not p.deck:
            raise _fail("DECK_EMPTY", f"a {_RANK_NAMES[rank]} needs cards in the deck", m)
    elif rank == "3":
        if not _eligible_scrap(p):
            raise _fail("NO_EFFECT", "the scrap holds nothing a three may take", m)
    elif rank == "4":
        victim = m.player
        if victim is None and p.players == 2:
            victim = 1 - seat
        if victim is None or victim == seat:
            raise _fail("INVALID_TARGET", "a four names one opponent with @P<n>", m)
        if not p.hands[victim]:
            raise _fail("NO_EFFECT", f"P{victim} has no cards to discard", m)
        if m.target is not None:
            raise _fail("INVALID_TARGET", "a four names a player, not a card", m)
        return
    if rank in "2" or rank == "9":
        if m.player is not None:
            raise _fail("INVALID_TARGET", f"a {_RANK_NAMES[rank]} names a card, not a player", m)
        _check_two_nine(p, m, seat, rank)
        return
    if m.target is not None or m.player is not None:
        raise _fail("INVALID_TARGET", f"a {_RANK_NAMES[rank]} takes no target", m)


def _check_scuttle(p: Position, m: Move, seat: int, card: Card) -> None:
    found = None if m.target is None else _locate(p, m.target)
    if found is None or found[0] != "base" or controller(found[1], p.variant) == seat:
        raise _fail(
            "INVALID_TARGET", "a scuttle hits the base card of an opponent's point stack", m
        )
    base = found[1].base
    if _strength(card) < _strength(base):
        raise _fail("SCUTTLE_TOO_WEAK", f"{card.text()} does not beat {base.text()}", m)


def _check_two_nine(p: Position, m: Move, seat: int, rank: str) -> None:
    classic = p.variant is _CLASSIC
    what = "two" if rank == "2" else "nine"
    found = None if m.target is None else _locate(p, m.target)
    if found is None:
        raise _fail("INVALID_TARGET", f"a {what} needs a target card on the table", m)
    kind, stack = found
    if kind == "covered":
        raise _fail("INVALID_TARGET", "only the top jack or joker of a stack can be targeted", m)
    if kind == "base" and (rank == "2" or classic):
        raise _fail("INVALID_TARGET", f"a {what} cannot target a point card here", m)
    ctrl = controller(stack, p.variant)
    if ctrl == seat and not classic:
        raise _fail("INVALID_TARGET", f"a {what} targets an opponent's card", m)
    _check_queens(p, m, stack.base, ctrl, seat, what)


def _check_queens(p: Position, m: Move, host: Card, ctrl: int, seat: int, what: str) -> None:
    queens = _protectors(p, host, ctrl, seat)
    if queens:
        target = m.target
        assert target is not None
        raise _fail(
            "PROTECTED_BY_QUEEN",
            f"the {_card_name(queens[0])} protects {target.text()} from your {what}",
            m,
        )


# --- applying (unchecked) ---------------------------------------------------------------


_ONES = {id(card): frozenset((card,)) for card in pack(_CUTTHROAT)}


def _one(card: Card) -> frozenset[Card]:
    """Return ``{card}`` as a set built once: set operations reuse its stored hash."""
    # A card's hash is a Python-level call (a dataclass); hands gain and lose a card
    # on most moves. Cards are interned, so their ids are stable keys.
    one = _ONES.get(id(card))
    return frozenset((card,)) if one is None else one


def _stack_key(stack: Stack) -> int:
    return _strength(stack.base)


class _Work:
    """A mutable copy of a position used while one move is applied."""

    __slots__ = (
        "chain", "dealer", "deck", "facts", "frozen", "hands", "naming", "offer_refused",
        "passes", "permanents", "phase", "responder", "result", "revealed", "scrap", "shown",
        "stacks", "target", "turn", "variant", "victim",
    )  # fmt: skip

    def __init__(self, p: Position) -> None:
        (
            self.variant,
            self.dealer,
            self.turn,
            self.phase,
            self.deck,
            hands,
            self.stacks,
            self.permanents,
            self.scrap,
            self.frozen,
            self.passes,
            self.chain,
            self.target,
            self.victim,
            self.responder,
            self.revealed,
            self.naming,
            self.shown,
            self.offer_refused,
            self.result,
        ) = p
        self.hands = list(hands)
        self.facts: list[Event] = []

    def freeze(self) -> Position:
        return build_position(
            (
                self.variant,
                self.dealer,
                self.turn,
                self.phase,
                self.deck,
                tuple(self.hands),
                self.stacks,
                self.permanents,
                self.scrap,
                self.frozen,
                self.passes,
                self.chain,
                self.target,
                self.victim,
                self.responder,
                self.revealed,
                self.naming,
                self.shown,
                self.offer_refused,
                self.result,
            )
        )

    @property
    def players(self) -> int:
        return len(self.hands)

    def end_round(self, result: Outcome) -> None:
        self.result = result
        self.phase = _ROUND_OVER
        self.chain = ()
        self.target = self.victim = self.responder = self.naming = None
        self.revealed = ()
        self.facts.append(
            _event(
                "RoundEnded",
                {
                    "termination": result.termination.value,
                    "winner": result.winner,
                    "resigned": result.resigned,
                },
            )
        )

    def finish(self) -> None:
        """Run the win check (§15.2), then end the turn unless the round ended."""
        if self.win_check():
            return
        self.end_turn()

    def win_check(self) -> bool:
        winner = _winner(self.variant, len(self.hands), self.stacks, self.permanents, self.turn)
        if winner is None:
            return False
        self.end_round(Outcome(Termination.GOAL, winner))
        return True

    def end_turn(self) -> None:
        seat = self.turn
        if self.frozen:
            self.frozen = self.frozen - self.hands[seat]
        self.turn = (seat + 1) % len(self.hands)
        self.phase = _MAIN
        self.chain = ()
        self.target = self.victim = self.responder = self.naming = None
        self.revealed = ()
        self.offer_refused = False

    def take_from_hand(self, seat: int, card: Card) -> None:
        self.hands[seat] = self.hands[seat] - _one(card)

    def put_stack(self, stack: Stack) -> None:
        self.stacks = tuple(sorted((*self.stacks, stack), key=_stack_key))

    def put_perm(self, stack: Stack) -> None:
        self.permanents = tuple(sorted((*self.permanents, stack), key=_stack_key))

    def replace(self, old: Stack, new: Stack | None, perm: bool) -> None:
        stacks = self.permanents if perm else self.stacks
        if new is None:
            result = tuple(s for s in stacks if s is not old)
        else:
            result = tuple(new if s is old else s for s in stacks)
        if perm:
            self.permanents = result
        else:
            self.stacks = result

    def to_scrap(self, *cards: Card) -> None:
        try:
            # Prebuilt singletons carry their hashes: no card is hashed again.
            self.scrap = self.scrap.union(*map(_ONES.__getitem__, map(id, cards)))
        except KeyError:  # a card that is not interned
            self.scrap = self.scrap | set(cards)

    def take_top(self, n: int) -> tuple[Card, ...]:
        cards = self.deck[:n]
        self.deck = self.deck[n:]
        self.shown = max(0, self.shown - n)
        return cards  # type: ignore[return-value]


def _quick(p: Position, m: Move) -> Position | None:
    """Return the position after a common move that derives no event, or ``None``.

    A draw, points, a glasses 8, queen or king, a scuttle, a jack, a joker, the start
    of a one-off, and a decline that passes a chain on are most moves of a round;
    they are built here in one step instead of through ``_Work``'s copy. ``_play``
    stays the rule: any other move, or one of these that ends the round, returns
    ``None`` and goes there (tests/cuttle/test_fast_path.py checks that both give the
    same).
    """
    if m.seven:
        return None
    action = m.action
    seat = m.seat
    if action == "decline":
        assert seat is not None
        nxt = (seat + 1) % len(p.hands)
        if nxt == p.chain[-1][1]:
            return None  # the chain closes: the one-off resolves or fizzles
        v, d, t, ph, dk, h, st, pm, sc, fz, ps, ch, tg, vc, _, rv, nm, sh, off, rs = p
        return build_position(
            (v, d, t, ph, dk, h, st, pm, sc, fz, ps, ch, tg, vc, nxt, rv, nm, sh, off, rs)
        )
    if p.phase is not _MAIN or seat is None:
        return None
    hands = p.hands
    if action == "draw":
        deck = p.deck
        drawn = deck[0]
        if drawn is None:
            return None  # the scorer names it first
        hands = (*hands[:seat], hands[seat] | _one(drawn), *hands[seat + 1 :])
        return _quick_finish(p, hands, p.stacks, p.permanents, deck[1:], max(0, p.shown - 1))
    card = m.card
    if card is None or action not in _QUICK_CARD_ACTIONS:
        return None  # a pass, an offer of a draw, a resignation
    rest = hands[seat] - _one(card)
    hands = (*hands[:seat], rest, *hands[seat + 1 :])
    if action == "points":
        stacks = _inserted(p.stacks, _new_stack(Stack, (card, seat, ())))
        return _quick_finish(p, hands, stacks, p.permanents, p.deck, p.shown)
    if action in _PERM_ACTIONS:
        perms = _inserted(p.permanents, _new_stack(Stack, (card, seat, ())))
        return _quick_finish(p, hands, p.stacks, perms, p.deck, p.shown)
    if action != "oneoff":
        return _quick_table(p, m, seat, card, hands)
    victim = m.player
    if victim is None and card.rank == "4":
        victim = 1 - seat
    return build_position(
        (
            p.variant, p.dealer, p.turn, _COUNTER, p.deck, hands, p.stacks, p.permanents,
            p.scrap, p.frozen, 0, ((card, seat),), m.target, victim, (seat + 1) % len(hands),
            p.revealed, p.naming, p.shown, p.offer_refused, p.result,
        )
    )  # fmt: skip


_QUICK_CARD_ACTIONS = frozenset({"points", "oneoff", "scuttle", "jack", "joker", *_PERM_ACTIONS})


def _quick_table(
    p: Position, m: Move, seat: int, card: Card, hands: tuple[frozenset[Card], ...]
) -> Position | None:
    """``_quick`` of a scuttle, jack or joker: its target stack leaves or gains a card."""
    action = m.action
    target = m.target
    group = p.permanents if action == "joker" else p.stacks
    for i, stack in enumerate(group):
        if stack.base is not target:
            continue
        if action == "scuttle":
            scrap = p.scrap.union(
                _one(card), _one(stack.base), *[_one(c) for c, _ in stack.attached]
            )
            stacks = (*group[:i], *group[i + 1 :])
            return _quick_finish(p, hands, stacks, p.permanents, p.deck, p.shown, scrap)
        # A stack keeps its base, so it keeps its place in card order.
        new = _new_stack(Stack, (stack.base, stack.owner, (*stack.attached, (card, seat))))
        changed = (*group[:i], new, *group[i + 1 :])
        if action == "joker":
            return _quick_finish(p, hands, p.stacks, changed, p.deck, p.shown)
        return _quick_finish(p, hands, changed, p.permanents, p.deck, p.shown)
    return None  # the target is not there (``_find``'s answer), for an unchecked move


_new_stack = tuple.__new__
"""``Stack(base, owner, attached)`` without the named tuple's Python-level ``__new__``."""


def _inserted(stacks: tuple[Stack, ...], stack: Stack) -> tuple[Stack, ...]:
    """Return ``stacks`` (in card order) with ``stack`` put in its place."""
    ranks, suits = _RANK_STRENGTH, _SUIT_STRENGTH
    base = stack.base
    key = ranks[base.rank] + suits[base.suit]
    for i, other in enumerate(stacks):
        base = other.base
        if ranks[base.rank] + suits[base.suit] > key:
            return (*stacks[:i], stack, *stacks[i:])
    return (*stacks, stack)


def _quick_finish(
    p: Position,
    hands: tuple[frozenset[Card], ...],
    stacks: tuple[Stack, ...],
    perms: tuple[Stack, ...],
    deck: tuple[Card | None, ...],
    shown: int,
    scrap: frozenset[Card] | None = None,
) -> Position | None:
    """End the turn after a main action, as ``_Work.finish`` does; ``None`` if a seat won."""
    turn = p.turn
    # ``_winner`` finds a seat exactly when one is at its goal (a third seat of two
    # players never is).
    if True in _facts(p.variant, stacks, perms).at_goal:
        return None
    frozen = p.frozen
    if frozen:
        frozen = frozen - hands[turn]
    return build_position(
        (
            p.variant, p.dealer, (turn + 1) % len(hands), _MAIN, deck, hands, stacks, perms,
            p.scrap if scrap is None else scrap, frozen, 0, (), None, None, None, (), None,
            shown, False, None,
        )
    )  # fmt: skip


def _play(p: Position, m: Move) -> _Work:
    """Apply a checked move and return the work copy with its derived facts."""
    w = _Work(p)
    action = m.action
    if action == "resign":
        seat = m.seat
        assert seat is not None
        winner = 1 - seat if w.players == 2 else None
        w.end_round(Outcome(Termination.RESIGNATION, winner, seat))
        return w
    if action == "cards":
        deck_list = list(w.deck)
        names = iter(m.cards)
        for i in range(_naming_span(p)):
            if deck_list[i] is None:
                deck_list[i] = next(names)
        w.deck = tuple(deck_list)
        _after_naming(w)
        return w
    if m.seven:
        _play_seven(w, m)
        return w
    seat = m.seat
    assert seat is not None
    if action == "offer-draw":
        w.phase = _DRAW_OFFERED
        w.responder = (seat + 1) % w.players
    elif action == "accept-draw":
        nxt = (seat + 1) % w.players
        if nxt == w.turn:
            w.end_round(Outcome(Termination.AGREED_DRAW, None))
        else:
            w.responder = nxt
    elif action == "refuse-draw":
        w.phase = _MAIN
        w.responder = None
        w.offer_refused = True
    elif action == "counter":
        card = m.card
        assert card is not None
        w.take_from_hand(seat, card)
        w.chain = (*w.chain, (card, seat))
        w.responder = (seat + 1) % w.players
    elif action == "decline":
        nxt = (seat + 1) % w.players
        if nxt == w.chain[-1][1]:
            _close_chain(w)
        else:
            w.responder = nxt
    elif action == "take":
        card = m.card
        assert card is not None
        w.scrap = w.scrap - {card}
        w.hands[seat] = w.hands[seat] | {card}
        w.to_scrap(w.chain[0][0])
        w.finish()
    elif action == "discard":
        cards = frozenset(m.cards)
        w.hands[seat] = w.hands[seat] - cards
        w.scrap = w.scrap | cards
        if w.frozen:
            w.frozen = w.frozen - cards
        if w.phase is _RESOLVE_FOUR:
            w.to_scrap(w.chain[0][0])
            w.finish()
        else:
            _five_draw(w)
    elif action == "pass":
        w.passes += 1
        if w.win_check():
            return w
        if w.passes >= 3:
            w.end_round(Outcome(Termination.THREE_PASSES, None))
        else:
            w.end_turn()
    else:
        card = m.card
        if card is not None:
            w.take_from_hand(seat, card)
        _main_action(w, m, seat)
    return w


def _main_action(w: _Work, m: Move, seat: int) -> None:
    """Carry out a main action whose card already left the hand (or the seven's reveal)."""
    action = m.action
    w.passes = 0
    card = m.card
    if action == "draw":
        if w.deck[0] is None:
            w.phase = _NAME_CARDS
            w.naming = "draw"
            return
        (drawn,) = w.take_top(1)
        w.hands[seat] = w.hands[seat] | _one(drawn)
        w.finish()
        return
    assert card is not None
    if action == "points":
        w.put_stack(Stack(card, seat))
    elif action == "scuttle":
        found = _locate_w(w, m.target)
        stack = found[1]
        w.replace(stack, None, perm=False)
        w.to_scrap(card, stack.base, *(c for c, _ in stack.attached))
    elif action in _PERM_ACTIONS:
        w.put_perm(Stack(card, seat))
    elif action == "jack" or action == "joker":
        _, stack = _locate_w(w, m.target)
        new = Stack(stack.base, stack.owner, (*stack.attached, (card, seat)))
        w.replace(stack, new, perm=action == "joker")
    else:
        victim = m.player
        if card.rank == "4" and victim is None:
            victim = 1 - seat
        w.chain = ((card, seat),)
        w.target = m.target
        w.victim = victim
        w.phase = _COUNTER
        w.responder = (seat + 1) % w.players
        return
    w.finish()


def _locate_w(w: _Work, card: Card | None) -> tuple[str, Stack]:
    assert card is not None
    found = _find(w.stacks, w.permanents, card)
    assert found is not None, f"{card.text()} is not on the table"
    return found


def _close_chain(w: _Work) -> None:
    root, seat = w.chain[0]
    twos = [card for card, _ in w.chain[1:]]
    if twos:
        w.to_scrap(*twos)
    w.chain = ((root, seat),)
    w.responder = None
    data = {"card": root.text(), "seat": seat}
    if len(twos) % 2:
        w.facts.append(_event("OneOffFizzled", data))
        w.to_scrap(root)
        w.finish()
        return
    w.facts.append(_event("OneOffResolved", data))
    _resolve(w, root, seat)


def _resolve(w: _Work, root: Card, seat: int) -> None:
    rank = root.rank
    variant = w.variant
    if rank == "A":
        scrapped: list[Card] = []
        for stack in w.stacks:
            scrapped.append(stack.base)
            scrapped.extend(c for c, _ in stack.attached)
        w.stacks = ()
        w.to_scrap(root, *scrapped)
    elif rank == "6":
        scrapped = []
        for stack in w.permanents:
            scrapped.append(stack.base)
            scrapped.extend(c for c, _ in stack.attached)
        stacks = []
        for stack in w.stacks:
            scrapped.extend(c for c, _ in stack.attached)
            stacks.append(Stack(stack.base, stack.owner) if stack.attached else stack)
        w.stacks = tuple(stacks)
        w.permanents = ()
        w.to_scrap(root, *scrapped)
    elif rank == "2":
        kind, stack = _locate_w(w, w.target)
        if kind == "perm":
            w.replace(stack, None, perm=True)
            w.to_scrap(stack.base, *(c for c, _ in stack.attached))
        else:
            w.replace(stack, Stack(stack.base, stack.owner, stack.attached[:-1]), kind == "permtop")
            w.to_scrap(stack.attached[-1][0])
        w.to_scrap(root)
    elif rank == "9":
        kind, stack = _locate_w(w, w.target)
        if kind == "base" or kind == "perm":
            holder = controller(stack, variant)
            returned = stack.base
            w.replace(stack, None, perm=kind == "perm")
            attached = [c for c, _ in stack.attached]
            if attached:
                w.to_scrap(*attached)
        else:
            returned, holder = stack.attached[-1]
            w.replace(stack, Stack(stack.base, stack.owner, stack.attached[:-1]), kind == "permtop")
        w.hands[holder] = w.hands[holder] | {returned}
        if variant is not _CLASSIC:
            w.frozen = w.frozen | {returned}
        w.to_scrap(root)
    elif rank == "3":
        w.phase = _RESOLVE_THREE
        return
    elif rank == "4":
        victim = w.victim
        assert victim is not None
        if w.hands[victim]:
            w.phase = _RESOLVE_FOUR
            return
        w.to_scrap(root)
    elif rank == "5":
        if variant is not _CLASSIC and w.hands[seat]:
            w.phase = _RESOLVE_FIVE
            return
        _five_draw(w)
        return
    elif rank == "7":
        _seven_reveal(w)
        return
    w.finish()


def _five_draw(w: _Work) -> None:
    n = _span("five", w.variant, len(w.deck), len(w.hands[w.turn]))
    if None in w.deck[:n]:
        w.phase = _NAME_CARDS
        w.naming = "five"
        return
    drawn = w.take_top(n)
    w.hands[w.turn] = w.hands[w.turn] | set(drawn)
    w.to_scrap(w.chain[0][0])
    w.finish()


def _seven_reveal(w: _Work) -> None:
    n = _span("seven", w.variant, len(w.deck), len(w.hands[w.turn]))
    if None in w.deck[:n]:
        w.phase = _NAME_CARDS
        w.naming = "seven"
        return
    w.revealed = w.take_top(n)
    w.phase = _RESOLVE_SEVEN
    w.facts.append(_event("CardsRevealed", {"cards": [c.text() for c in w.revealed]}))


def _after_naming(w: _Work) -> None:
    kind = w.naming
    w.naming = None
    if kind == "draw":
        (drawn,) = w.take_top(1)
        w.hands[w.turn] = w.hands[w.turn] | _one(drawn)
        w.finish()
    elif kind == "five":
        _five_draw(w)
    else:
        _seven_reveal(w)


def _play_seven(w: _Work, m: Move) -> None:
    card = m.card
    assert card is not None
    seat = w.turn
    rest = tuple(c for c in w.revealed if c is not card)
    w.to_scrap(w.chain[0][0])
    w.deck = rest + w.deck
    w.shown += len(rest)
    w.revealed = ()
    w.chain = ()
    w.phase = _MAIN
    if m.action == "scrap":
        w.to_scrap(card)
        w.finish()
        return
    _main_action(w, m, seat)


# --- the public step functions ----------------------------------------------------------


def _to_move(position: Position, command: Move | str) -> Move:
    if isinstance(command, Move):
        return read(position, command)
    if position.phase is _NAME_CARDS and position.result is None:
        words = command.split()
        is_cards = bool(words) and words[0].lower() == "cards"
        is_resign = len(words) == 2 and words[1].lower() == "resign"
        if not is_cards and not is_resign:
            raise IllegalMoveError(
                "the scorer must first name the cards that left the deck",
                code="WRONG_PHASE",
                details={"move": command},
            )
    return read(position, Move.from_text(command))


def apply(position: Position, command: Move | str) -> Position:
    """Check a move and return the position after it.

    Raises:
        MalformedError (MALFORMED): the move cannot be read or names what the
            variant lacks (a third seat, a joker outside cutthroat).
        IllegalMoveError: the first §17 code that applies, in precedence order
            (ROUND_OVER, NOT_YOUR_TURN, WRONG_PHASE, CARD_NOT_AVAILABLE, ...).
    """
    move = _to_move(position, command)
    _check(position, move)
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after


def decide(position: Position, command: Move | str) -> list[Event]:
    """Check a move and return its events: the move, then derived facts.

    ``MovePlayed`` carries the move text; ``OneOffResolved``/``OneOffFizzled``,
    ``CardsRevealed`` and ``RoundEnded`` (termination, winner, resigned) are derived
    by the engine. Folding them with ``evolve`` gives ``apply``'s position.

    Raises:
        MalformedError (MALFORMED), IllegalMoveError: as ``apply``.
    """
    return step(position, command)[0]


def step(position: Position, command: Move | str) -> tuple[list[Event], Position]:
    """Check a move and return its events and the position after it, the move played once.

    The same as ``decide`` followed by ``evolve`` of each event, for a caller that
    wants both.

    Raises:
        MalformedError (MALFORMED), IllegalMoveError: as ``apply``.
    """
    known = None
    if command.__class__ is str and position.phase is not _NAME_CARDS:
        known = _known.get(command)
        if known is None:
            known = _know(command)
    if known is None:
        move = _to_move(position, command)
        _check(position, move)
        text = move.text()
    else:
        move, text, top_seat, joker = known
        if top_seat >= len(position.hands) or (joker and position.variant is not _CUTTHROAT):
            _check(position, move)  # raises MALFORMED as it does for any move
        if move.player is not None:
            canonical = read(position, move)
            if canonical is not move:
                move, text = canonical, canonical.text()
        _check_rules(position, move)
    after = _quick(position, move)
    if after is not None:
        return [_event("MovePlayed", {"move": text})], after
    work = _play(position, move)
    return [_event("MovePlayed", {"move": text}), *work.facts], work.freeze()


_event = builder(Event)
"""``Event(type, data)`` through its slots: the engine builds one or more per move."""

_known: dict[str, tuple[Move, str, int, bool]] = {}
"""What ``step`` needs of a move text outside ``NAME_CARDS``, by the text as given.

The move, its canonical text, the highest seat it names (-1 for none) and whether
it names a joker: ``_check``'s checks of the names need only these two, and a
parse (``Move.from_text``) cannot change them. Bounded like ``Move.from_text``'s
parses (100,000 texts, then texts are only parsed).
"""


def _know(command: str) -> tuple[Move, str, int, bool]:
    """Parse a move text for ``step`` and keep what it needs (see ``_known``).

    Raises:
        MalformedError (MALFORMED): as ``Move.from_text``.
    """
    move = Move.from_text(command)
    seats = [-1 if move.seat is None else move.seat, -1 if move.player is None else move.player]
    known = (move, move.text(), max(seats), move.action == "joker" or _names_joker(move))
    if len(_known) < 100_000:
        _known[command] = known
    return known


def outcome_of(event: Event) -> Outcome | None:
    """Return the round's outcome carried by a ``RoundEnded`` event, else ``None``.

    >>> outcome_of(Event("RoundEnded", {"termination": "goal", "winner": 1, "resigned": None}))
    Outcome(termination=<Termination.GOAL: 'goal'>, winner=1, resigned=None)
    """
    if event.type != "RoundEnded":
        return None
    data = event.data
    return Outcome(Termination(data["termination"]), data["winner"], data.get("resigned"))


def evolve(position: Position, event: Event) -> Position:
    """Fold one event into the position; derived facts change nothing, unknown types are ignored."""
    if event.type != "MovePlayed":
        return position
    move = Move.from_text(str(event.data["move"]))
    after = _quick(position, move)
    return _play(position, move).freeze() if after is None else after


# --- visibility -------------------------------------------------------------------------


def visible_hands(position: Position, seat: int | None) -> frozenset[int]:
    """Return the seats whose hands ``seat`` may see (§9, §16, rulings 31-32).

    ``None`` is a spectator: only a classic glasses-exposed hand.
    """
    variant = position.variant
    seen = set() if seat is None else {seat}
    for stack in position.permanents:
        if stack.base.rank != "8":
            continue
        owner = controller(stack, variant)
        if variant is _CLASSIC:
            seen.add(1 - owner)
        elif owner == seat:
            seen.update(s for s in range(position.players) if s != seat)
    return frozenset(seen)


def _cards(cards: Iterable[Card]) -> list[str]:
    return [c.text() for c in sorted(cards, key=card_key)]


def view(position: Position, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may see, JSON-ready (``None``: the public spectator view).

    Own hand, hands shown by glasses, every hand's size, frozen cards, the table,
    the scrap, the deck size and the cards everyone saw on top of it, the open
    chain, a seven's revealed cards, and the result.
    """
    p = position
    variant = p.variant
    shown_hands = visible_hands(p, seat)
    hands = []
    for s, hand in enumerate(p.hands):
        entry: dict[str, Any] = {"seat": s, "count": len(hand)}
        if s in shown_hands:
            entry["cards"] = _cards(hand)
        hands.append(entry)
    result = p.result
    return {
        "variant": variant.value,
        "seat": seat,
        "dealer": p.dealer,
        "turn": p.turn,
        "phase": p.phase.value,
        "to_act": list(to_act(p)),
        "cards_awaited": cards_awaited(p),
        "deck": {
            "count": len(p.deck),
            "top": [c.text() for c in p.deck[: p.shown] if c is not None],
        },
        "hands": hands,
        "frozen": _cards(p.frozen),
        "points": [
            {"stack": s.text(), "owner": s.owner, "controller": controller(s, variant)}
            for s in p.stacks
        ],
        "permanents": [
            {"stack": s.text(), "owner": s.owner, "controller": controller(s, variant)}
            for s in p.permanents
        ],
        "scrap": _cards(p.scrap),
        "totals": list(totals(p)),
        "goals": [goal(p, s) for s in range(p.players)],
        "chain": [{"card": c.text(), "seat": s} for c, s in p.chain],
        "target": None if p.target is None else p.target.text(),
        "victim": p.victim,
        "responder": p.responder,
        "revealed": [c.text() for c in p.revealed],
        "passes": p.passes,
        "draw_refused": p.offer_refused,
        "result": None
        if result is None
        else {
            "termination": result.termination.value,
            "winner": result.winner,
            "resigned": result.resigned,
        },
    }
