"""Cuttle's legal move generation: the moves of whoever must act now, from the rules.

Moves are built once and shared (``_mv``); ``_Plan`` holds how one seat may play one
card, ``generate_moves`` lists a position's moves, ``read`` gives a move the form
they are listed in.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from operator import attrgetter
from typing import Any

from domain.cards import Card
from domain.cuttle.constants import (
    _COUNTER,
    _DRAW_OFFERED,
    _MAIN,
    _NAME_CARDS,
    _POINT_RANKS,
    _RESOLVE_FIVE,
    _RESOLVE_FOUR,
    _RESOLVE_SEVEN,
    _RESOLVE_THREE,
    _ROUND_OVER,
    HAND_LIMITS,
    _strength,
)
from domain.cuttle.facts import _eligible_scrap, _facts, _queens, _Table, _unplaced, cards_awaited
from domain.cuttle.moves import MAX_SEATS, Move, card_key
from domain.cuttle.state import Position

_MOVES: dict[tuple[Any, ...], Move] = {}
"""The engine's moves, built once, by what they are (cards by their id).

A move holds its cards, so their ids stay their own while it is here; cards are
interned, so there are as many entries as moves can be told apart. Interning lets
``Move.text`` find a move's text by its id (``moves._TEXTS``) and spares each move
``Move``'s checks of its shape. Measured to pay (issue 18): ``PYTHONHASHSEED=0 valgrind
--tool=callgrind python bench/engine_playout.py cuttle --rounds 300 --repeats 1``
counts 2,956.8M instructions with it, 3,057.5M building each move afresh (+3.4%;
both trees without bytecode files, so their compiling is in both figures).
"""


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
"""Discards, built once, by seat and the cards' ids (the move holds its cards).

Measured to pay (issue 18), by the command of ``_MOVES`` on compiled trees: 2,787.0M
instructions with it, 2,801.4M building each discard afresh (-0.5%).
"""


def _discard(seat: int, cards: tuple[Card, ...]) -> Move:
    key = (seat, *map(id, cards))
    move = _DISCARDS.get(key)
    if move is None:
        move = _DISCARDS[key] = Move("discard", seat, cards=cards)
    return move


_BY_CODE = attrgetter("rank", "suit")
"""A C-level sort key: a stable move order across processes, cheaper than rank order."""


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
        # Both by the target's id: the move holds its target, so the id stays its own.
        # Measured to pay (issue 18), on the same 900 rounds of bench/playouts/cuttle.py
        # under callgrind: 2,902.0M instructions with them, 2,949.9M asking ``_mv``
        # for each aimed move (+1.6%).
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
"""Plans by ``2 * seat + seven``, then by the card's id (cards are interned).

A plan holds its card, so the id stays its own; a table's plays are kept by plan
(``_Table.plays``), so the plays of a card met again are not worked out again.
Measured to pay (issue 18), on the same 900 rounds of ``bench/playouts/cuttle.py``
under callgrind: 2,902.0M instructions with it, 3,894.0M building each plan afresh
(+34%).
"""


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


def read(position: Position, move: Move) -> Move:
    """Return ``move`` as this position reads it: the form ``legal_moves`` lists.

    In 2-player a four's victim can only be the opponent, so ``P0 oneoff 4S@P1``
    is the move ``P0 oneoff 4S`` (old logs name the victim); anything else is itself,
    a four that also names a card (``4S>3H@P1``) too: the checks refuse its target
    (``INVALID_TARGET``, ruling 33) rather than it being recorded as another move.
    """
    player = move.player
    if player is None or len(position.hands) != 2 or move.seat is None or player != 1 - move.seat:
        return move
    card = move.card
    if move.action != "oneoff" or card is None or card.rank != "4" or move.target is not None:
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
