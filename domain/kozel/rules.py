"""The Kozel rules engine: legal moves, refusals, and the deal as a decider.

``legal_moves`` lists the deal's actions, ``service_moves`` the concessions (R47),
which end the match and so are the match layer's to record; ``read`` gives a move
the form they list it in (the due leader's molodka is its lead, R36).

``decide(position, command) -> events`` checks an action against §13 in its
documented order (R31, R41) and returns the events it causes, derived ones
included (the trick taken, the draws from a known stock, the deal played out);
``evolve(position, event) -> position`` folds one stored event and never raises.
``apply`` is ``decide`` then ``evolve`` without building events; ``play`` applies a
move known to be legal without checking it (python-chess's ``push``).

Checks 1 (``MATCH_OVER``) and 2 (``DEAL_NOT_STARTED``) belong to the match layer
and run before the engine is asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from domain.cards import Card, format_cards
from domain.errors import DomainError, IllegalMoveError, MalformedError
from domain.events import Event
from domain.kozel.moves import (
    BEAT,
    CARDS,
    CONCEDE,
    LEAD,
    MOLODKA,
    PLAYER_ACTIONS,
    THROW,
    Move,
    build_move,
    canonical_cards,
    make_move,
)
from domain.kozel.outcome import DealOutcome, team_of
from domain.kozel.pack import (
    PACK,
    PACK_SET,
    RANK_INDEX,
    SUIT_NAMES,
    beat_masks,
    card_points,
    covers,
    interned,
    is_interned,
    parse_kozel_cards,
    set_beats,
    sort_cards,
)
from domain.kozel.state import DealSetup, Hands, Piles, Play, Position, new_position
from domain.legal import LegalMoveView
from domain.naming import CardsToName

# --- setting up a deal --------------------------------------------------------------


def initial_position(setup: DealSetup) -> Position:
    """Deal the cards of ``setup`` (R4, R5) and return the position before the first lead.

    >>> from domain.kozel.pack import PACK
    >>> from domain.kozel.outcome import KozelOptions
    >>> p = initial_position(DealSetup(KozelOptions(), 3, 0, deck=PACK, indicator_position=2))
    >>> format_cards(p.hands[0]), p.indicator.text(), p.stock_size
    ('6C JC AC 9D', '6H', 20)
    """
    if setup.position is not None:
        return setup.start()[1]
    dealer = setup.dealer
    if setup.deck is not None:
        deck = tuple(setup.deck) if is_interned(setup.deck) else interned(setup.deck)
        dealt: list[list[Card]] = [[], [], [], []]
        for i in range(16):
            dealt[(dealer + 1 + i) % 4].append(deck[i])
        stock = deck[16:]
        ip = setup.indicator_position
        assert ip is not None
        indicator = stock[ip]
        if setup.options.trump_indicator_bottom:
            stock = (*stock[:ip], *stock[ip + 1 :], indicator)
        hands = tuple(sort_cards(h) for h in dealt)
        unknown = 0
    else:
        assert setup.hands is not None and setup.indicator is not None
        hands = tuple(sort_cards(interned(h)) for h in setup.hands)
        indicator = interned((setup.indicator,))[0]
        stock = ()
        unknown = 20
    return Position(
        options=setup.options,
        dealer=dealer,
        leader=setup.leader,
        indicator=indicator,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock=stock,
        unknown_stock=unknown,
        trick=(),
        piles=((), ()),
        face_down=((), ()),
        tricks=(0, 0),
    )


def deal_started(setup: DealSetup) -> Event:
    """Return the event that starts a deal; ``evolve`` folds it into ``initial_position``."""
    return Event("DealStarted", {"setup": setup.to_data()})


# --- facts about a position ---------------------------------------------------------


def _is_molodka(hand: tuple[Card, ...]) -> bool:
    # Hands are sorted by suit, so the first and last card decide it.
    return len(hand) == 4 and hand[0].suit == hand[3].suit


def _distance(position: Position, seat: int) -> int:
    return (seat - position.leader) % 4


def _top(trick: tuple[Play, ...]) -> Play:
    """The play that holds the trick: the last beat, else the lead (R12)."""
    for play in reversed(trick):
        if play.kind != THROW:
            return play
    raise AssertionError("a trick always starts with a lead")


def _declare_limit(position: Position) -> int:
    """Declarations must come from a distance below this (R21)."""
    trick = position.trick
    if trick and len(trick[0].cards) == 4:
        return _distance(position, trick[0].seat)
    return 4


def is_terminal(position: Position) -> bool:
    """Whether the deal is played out: hands, stock and table all empty (R16)."""
    return (
        not position.trick
        and not position.draw
        and not position.stock_size
        and not any(position.hands)
    )


def outcome(position: Position) -> DealOutcome | None:
    """Return the deal's card points, tricks and last trick's taker once it is played out."""
    if not is_terminal(position):
        return None
    a = card_points(position.piles[0]) + card_points(position.face_down[0])
    b = card_points(position.piles[1]) + card_points(position.face_down[1])
    return DealOutcome((a, b), position.tricks, position.leader)


def can_declare(position: Position, seat: int) -> bool:
    """Whether ``seat`` may declare a molodka now, out of turn (R19, R21).

    The seat due to lead before anyone has led is excluded: its molodka is its
    lead (R22, R36).
    """
    if position.draw or not _is_molodka(position.hands[seat]):
        return False
    if not position.trick:
        return seat != position.leader
    return _distance(position, seat) < _declare_limit(position)


def to_act(position: Position) -> tuple[int, ...]:
    """Return the seats that may act now, molodka holders included; empty while naming."""
    seats = {s for s in range(4) if can_declare(position, s)}
    turn = position.to_play
    if turn is not None:
        seats.add(turn)
    return tuple(sorted(seats))


def cards_awaited(position: Position) -> int:
    """Return how many drawn cards the scorer must name now (R46); 0 if none."""
    return position.draw


def cards_to_name(position: Position) -> CardsToName | None:
    """Return the drawn cards the scorer must name now (R46): how many, and which.

    Any card in no hand, on no table and in no pile may be named (R43), except the
    indicator under the stock with ``trump_indicator_bottom``: it is named last when
    the naming reaches the stock's bottom, and never before (R32).
    """
    awaited = position.draw
    if not awaited:
        return None
    candidates = unplaced_cards(position)
    if not position.options.trump_indicator_bottom:
        return CardsToName(awaited, candidates)
    indicator = position.indicator
    rest = tuple(c for c in candidates if c != indicator)
    bottom = awaited == position.unknown_stock and len(rest) < len(candidates)
    return CardsToName(awaited, rest, indicator if bottom else None)


# --- legal moves ----------------------------------------------------------------------


def generate_legal_moves(position: Position) -> Iterator[Move]:
    """Yield every legal player action, from the rules, without trying any (R7-R13, R19-R22).

    Cards in each move are in canonical order; a molodka of the seat due to lead
    before the lead is listed once, as its four-card lead (R36). While drawn cards
    await naming, the scorer's ``cards`` namings are yielded, lazily, every ordering
    (``cards_to_name`` says which without listing them).
    """
    if position.draw:
        ask = cards_to_name(position)
        assert ask is not None
        for names in ask.generate_namings():
            yield make_move(CARDS, None, names)
        return
    # ``build_move``, not ``make_move``: one Python call less per listed move.
    trick = position.trick
    hands = position.hands
    leader = position.leader
    if not trick:
        hand = hands[leader]
        n = len(hand)
        i = 0
        while i < n:  # hands are sorted by suit: each run of one suit gives the leads
            suit = hand[i].suit
            j = i + 1
            while j < n and hand[j].suit == suit:
                j += 1
            group = hand[i:j]
            for size in range(1, j - i + 1):
                for cards in combinations(group, size):
                    yield build_move(LEAD, leader, cards)
            i = j
        limit = 4
    else:
        lead = trick[0]
        k = len(lead.cards)
        seat = (lead.seat + len(trick)) % 4
        top = _top(trick).cards
        trump = position.indicator.suit
        if k == 1:
            target = top[0]
            t_suit = target.suit
            t_rank = RANK_INDEX[target.rank]
            for card in hands[seat]:
                cards = (card,)
                suit = card.suit
                if (suit == t_suit and RANK_INDEX[card.rank] > t_rank) or (
                    suit == trump and t_suit != trump
                ):
                    yield build_move(BEAT, seat, cards)
                yield build_move(THROW, seat, cards)
        else:
            hand = hands[seat]
            masks = beat_masks(hand, top, trump)
            full = (1 << k) - 1
            for cards, chosen in zip(combinations(hand, k), combinations(masks, k), strict=True):
                union = 0
                for mask in chosen:
                    union |= mask
                if union == full and covers(chosen):
                    yield build_move(BEAT, seat, cards)
                yield build_move(THROW, seat, cards)
        limit = (lead.seat - leader) % 4 if k == 4 else 4
    for s in range(4):
        hand = hands[s]
        if (
            len(hand) == 4
            and hand[0].suit == hand[3].suit
            and ((s != leader) if not trick else (s - leader) % 4 < limit)
        ):
            yield build_move(MOLODKA, s, ())


class LegalMoves(LegalMoveView[Position, Move]):
    """A lazy view of the legal player actions of a position (``domain.legal``).

    Iterating generates the moves from the rules; ``in`` runs the §13 checks on one
    move; ``bool`` and ``len`` agree with the iteration. While cards await naming
    ``len`` counts the namings and iteration walks them lazily, never keeping them.
    Concessions are ``service_moves``.
    """

    __slots__ = ()

    def __init__(self, position: Position) -> None:
        # The base named, not ``super()``: a view per playout step, and the super
        # object cost 0.8% of a Kozel playout's instructions (see ``build_move``).
        LegalMoveView.__init__(self, position, generate_legal_moves, _is_listed, _naming_count)


def _naming_count(position: Position) -> int | None:
    """Count the namings (up to 20!/4! of them) instead of keeping them."""
    if not position.draw:
        return None
    ask = cards_to_name(position)
    return None if ask is None else ask.orderings()


def _is_listed(position: Position, move: object) -> bool:
    return isinstance(move, Move) and move.kind != CONCEDE and is_legal(position, move)


def legal_moves(position: Position) -> LegalMoves:
    """Return the lazy view of the legal player actions (no concessions)."""
    return LegalMoves(position)


def service_moves(position: Position) -> tuple[Move, ...]:
    """Return the concessions (R47): any seat, for its team, while the deal is live.

    A concession ends the match, not the deal: the match layer records it
    (``domain.stream``), between deals too; ``apply`` refuses it.
    """
    if is_terminal(position):
        return ()
    return _CONCESSIONS


_CONCESSIONS = tuple(make_move(CONCEDE, seat) for seat in range(4))


def is_legal(position: Position, move: Move) -> bool:
    """Whether ``move`` is one that ``legal_moves`` or ``service_moves`` lists.

    A move is taken as listed: the due leader's ``S0 molodka`` before the lead is
    not, though ``apply`` reads it (``read``) as the listed four-card lead (R36).
    """
    if move.kind == CONCEDE:
        return move in service_moves(position)
    if read(position, move) is not move:
        return False
    try:
        check(position, move)
    except DomainError:
        return False
    return True


def read(position: Position, move: Move) -> Move:
    """Return ``move`` as this position reads it: the form ``legal_moves`` lists.

    The seat due to lead that declares a molodka before leading leads its four
    cards (R22, R36); any other move is itself.
    """
    seat = move.seat
    if (
        move.kind != MOLODKA
        or seat is None
        or position.trick
        or position.draw
        or seat != position.leader
        or not _is_molodka(position.hands[seat])
    ):
        return move
    return make_move(LEAD, seat, position.hands[seat])


# --- refusals (§13) -----------------------------------------------------------------


def _refuse(code: str, message: str, **details: Any) -> IllegalMoveError:
    return IllegalMoveError(message, code=code, details=details)


def _seat_name(seat: int) -> str:
    return f"S{seat}"


def check(position: Position, move: Move) -> None:
    """Check an action against §13 in its documented order (R31, R41).

    Raises:
        IllegalMoveError (CARDS_PENDING): a player action while drawn cards await naming.
        MalformedError (MALFORMED): unknown action, seat or card.
        IllegalMoveError (NOT_YOUR_TURN, DUPLICATE_CARD, BAD_LEAD_SIZE, WRONG_COUNT,
            CARD_NOT_IN_HAND, CARD_NOT_AVAILABLE, LEAD_MIXED_SUITS, BEAT_FAILS,
            MOLODKA_NOT_HELD, MOLODKA_NO_PRIORITY): the first check that fails.
    """
    _checked(position, move)


def _checked(position: Position, move: Move) -> Move:
    """Run ``check`` and return the move with the shared card objects."""
    kind, seat, cards = move.kind, move.seat, move.cards
    if kind != CARDS and position.draw:  # 2a
        raise _refuse(
            "CARDS_PENDING",
            f"the scorer must first name the {position.draw} cards drawn from the stock",
            awaited=position.draw,
        )
    cards = _check_malformed(move)  # 3
    if cards is not move.cards:
        move = make_move(kind, seat, cards if kind == CARDS else canonical_cards(cards))
    return _checked_rules(position, read(position, move) if kind == MOLODKA else move)


def _checked_rules(position: Position, move: Move) -> Move:
    """Run checks 4-12 on a well-formed move of shared cards (checks 2a and 3 passed)."""
    kind, seat, cards = move.kind, move.seat, move.cards
    if kind == CARDS:
        _check_cards(position, cards)
        return move
    assert seat is not None
    if kind == MOLODKA:
        _check_molodka(position, seat)
        return move
    trick = position.trick
    if kind == LEAD:  # 4
        if trick:
            raise _refuse("NOT_YOUR_TURN", f"S{seat} cannot lead: this trick has been led")
        if seat != position.leader or not position.hands[seat]:
            raise _refuse("NOT_YOUR_TURN", _turn_message(position, seat, "lead"))
    else:
        if not trick:
            raise _refuse("NOT_YOUR_TURN", f"S{seat} cannot {kind}: nothing has been led yet")
        # ``position.to_play`` with a trick on the table and no draw pending (2a).
        if seat != (trick[0].seat + len(trick)) % 4:
            raise _refuse("NOT_YOUR_TURN", _turn_message(position, seat, kind))
    n = len(cards)
    if n > 1 and len({id(c) for c in cards}) != n:  # 5 (interned: identity is equality)
        raise _refuse("DUPLICATE_CARD", f"{format_cards(cards)!r} names a card twice")
    if kind == LEAD:  # 6
        if not 1 <= n <= 4:
            raise _refuse("BAD_LEAD_SIZE", f"a lead is one to four cards, not {n}", count=n)
    else:  # 7
        k = len(trick[0].cards)
        if n != k:
            raise _refuse(
                "WRONG_COUNT",
                f"{n} cards cannot answer a lead of {k}: "
                f"{kind} exactly {k} card{'s' if k > 1 else ''}",
                count=n,
                expected=k,
            )
    hand = position.hands[seat]  # 8
    if n == 1:
        card = cards[0]
        held = False
        for c in hand:
            if c is card:
                held = True
                break
        missing = [] if held else [card]
    else:
        ids = {id(c) for c in hand}
        missing = [c for c in cards if id(c) not in ids]
    if missing:
        raise _refuse(
            "CARD_NOT_IN_HAND",
            f"S{seat} does not hold {format_cards(missing)!r}",
            cards=[c.text() for c in missing],
        )
    if kind == LEAD:  # 9
        if n > 1 and len({c.suit for c in cards}) != 1:
            raise _refuse(
                "LEAD_MIXED_SUITS",
                f"the lead {format_cards(cards)!r} mixes suits: lead cards of one suit",
            )
        return move
    if kind == BEAT:  # 10
        top = _top(trick)
        trump = position.indicator.suit
        if not set_beats(cards, top.cards, trump):
            raise _refuse("BEAT_FAILS", _beat_fails_message(position, cards, top))
    return move


def _turn_message(position: Position, seat: int, kind: str) -> str:
    who = _seat_name(seat)
    turn = position.to_play
    if turn is None:
        return f"{who} cannot {kind}: the deal is played out"
    if any(play.seat == seat for play in position.trick):
        return f"{who} has already played to this trick; it is S{turn}'s turn"
    return f"{who} cannot {kind} now: it is S{turn}'s turn"


def _beat_fails_message(position: Position, cards: Sequence[Card], top: Play) -> str:
    trumps = SUIT_NAMES[position.indicator.suit]
    verb = "does" if len(cards) == 1 else "do"
    against = format_cards(top.cards)
    whose = "the lead" if top.kind == LEAD else f"S{top.seat}'s beat"
    message = f"{format_cards(cards)} {verb} not beat {against} ({whose}): trumps are {trumps}"
    if len(cards) > 1:
        message += "; every card of the top set must be topped by its own card"
    return message


def _check_malformed(move: Move) -> tuple[Card, ...]:
    """Check 3; return the move's cards as the shared card objects."""
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        ok = seat is None
    else:
        ok = kind in PLAYER_ACTIONS and seat in (0, 1, 2, 3) and type(seat) is int
        ok = ok and not (kind == MOLODKA and move.cards)
    if not ok:
        raise MalformedError(f"{move.text()!r} is not a Kozel action", details={"move": kind})
    cards = move.cards
    if is_interned(cards):
        return cards
    for card in cards:
        if card not in PACK_SET:
            raise MalformedError(
                f"{card.text()!r} is not a Kozel card", details={"card": card.text()}
            )
    return interned(cards)


def _check_molodka(position: Position, seat: int) -> None:
    who = _seat_name(seat)
    if not _is_molodka(position.hands[seat]):  # 11
        raise _refuse("MOLODKA_NOT_HELD", f"{who} does not hold a molodka: four cards of one suit")
    trick = position.trick
    if trick and _distance(position, seat) >= _declare_limit(position):  # 12
        lead = trick[0]
        raise _refuse(
            "MOLODKA_NO_PRIORITY",
            f"S{lead.seat}'s four-card lead stands: {who} is not nearer to "
            f"S{position.leader}, who opened the trick",
        )


def _draw_seats(start: int, count: int) -> list[int]:
    """Seats that draw ``count`` cards, in order: round robin from the trick's winner (R15)."""
    return [(start + i) % 4 for i in range(count)]


def _check_cards(position: Position, cards: tuple[Card, ...]) -> None:
    awaited = position.draw
    if not awaited:  # 4
        why = "" if position.unknown_stock else ": a known deck order draws by itself"
        raise _refuse("NOT_YOUR_TURN", f"no drawn cards await naming{why}")
    if len({id(c) for c in cards}) != len(cards):  # 5
        raise _refuse("DUPLICATE_CARD", f"{format_cards(cards)!r} names a card twice")
    if len(cards) != awaited:  # 7
        raise _refuse(
            "WRONG_COUNT",
            f"{awaited} cards were drawn; name them all, in draw order, not {len(cards)}",
            count=len(cards),
            expected=awaited,
        )
    placed = {id(c) for c in _placed(position)}  # 8a
    bottom = position.options.trump_indicator_bottom
    last = position.unknown_stock - 1
    for i, card in enumerate(cards):
        if id(card) in placed:
            raise _refuse(
                "CARD_NOT_AVAILABLE",
                f"{card.text()!r} cannot have been drawn: it is in a hand, on the table "
                "or in a pile",
                card=card.text(),
            )
        if bottom and (card == position.indicator) != (i == last):
            raise _refuse(
                "CARD_NOT_AVAILABLE",
                f"{card.text()!r} cannot have been drawn there: the indicator "
                f"{position.indicator.text()} lies face up under the stock and is drawn last",
                card=card.text(),
            )


def unplaced_cards(position: Position) -> tuple[Card, ...]:
    """Return the cards a scorer may name as drawn from an unknown stock (R43, R46).

    They are the cards in no hand, on no table and in no pile, in pack order; with a
    known stock it is the stock's own cards.
    """
    placed = {id(c) for c in _placed(position)}
    return tuple(c for c in PACK if id(c) not in placed)


def _placed(position: Position) -> Iterator[Card]:
    for hand in position.hands:
        yield from hand
    for play in position.trick:
        yield from play.cards
    for pile in (*position.piles, *position.face_down):
        yield from pile


# --- transitions (shared by apply, play and evolve) ----------------------------------


def _do_play(p: Position, seat: int, kind: str, cards: Sequence[Card]) -> Position:
    hand = p.hands[seat]
    # Filtering the sorted hand keeps both parts in canonical order without sorting;
    # cards are interned, so identity is equality.
    if len(cards) == 1:
        card = cards[0]
        played: tuple[Card, ...] = (card,)
        rest = tuple([c for c in hand if c is not card])
    else:
        ids = {id(c) for c in cards}
        played = tuple([c for c in hand if id(c) in ids])
        rest = tuple([c for c in hand if id(c) not in ids])
    h = p.hands
    hands: Hands = (
        rest if seat == 0 else h[0],
        rest if seat == 1 else h[1],
        rest if seat == 2 else h[2],
        rest if seat == 3 else h[3],
    )
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        hands,
        p.stock,
        p.unknown_stock,
        (*p.trick, _new_play(Play, (seat, kind, played))),
        p.piles,
        p.face_down,
        p.tricks,
        p.draw,
    )


_new_play = tuple.__new__
"""Builds a ``Play`` from its three fields without the named tuple's Python ``__new__``."""


def _do_declare(p: Position, seat: int) -> Position:
    hands = list(p.hands)
    for play in p.trick:
        hands[play.seat] = sort_cards((*hands[play.seat], *play.cards))
    lead = Play(seat, LEAD, hands[seat])
    hands[seat] = ()
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        (hands[0], hands[1], hands[2], hands[3]),
        p.stock,
        p.unknown_stock,
        (lead,),
        p.piles,
        p.face_down,
        p.tricks,
        p.draw,
    )


Settled = tuple[int, Piles, Piles, tuple[int, int], int]
"""What settling a trick changes: the winner, piles, face-down piles, tricks, draw."""


def _settled(p: Position) -> Settled:
    """Settle the full trick of ``p`` (R12-R15): its winner leads next."""
    trick = p.trick
    winner = _top(trick).seat
    team = team_of(winner)
    up: list[Card] = []
    down: list[Card] = []
    for play in trick:
        (down if play.kind == THROW else up).extend(play.cards)
    piles = p.piles
    face_down = p.face_down
    if team == 0:
        piles = (sort_cards((*piles[0], *up)), piles[1])
        if down:
            face_down = (sort_cards((*face_down[0], *down)), face_down[1])
        tricks = (p.tricks[0] + 1, p.tricks[1])
    else:
        piles = (piles[0], sort_cards((*piles[1], *up)))
        if down:
            face_down = (face_down[0], sort_cards((*face_down[1], *down)))
        tricks = (p.tricks[0], p.tricks[1] + 1)
    draw = 0
    if p.unknown_stock:
        draw = min(p.unknown_stock, 4 * (4 - len(p.hands[winner])))
    return winner, piles, face_down, tricks, draw


def _do_settle(p: Position) -> Position:
    winner, piles, face_down, tricks, draw = _settled(p)
    return new_position(
        p.options,
        p.dealer,
        winner,
        p.indicator,
        p.hands,
        p.stock,
        p.unknown_stock,
        (),
        piles,
        face_down,
        tricks,
        draw,
    )


def _due_draws(p: Position) -> list[tuple[int, Card]]:
    """The draws a known stock gives after a trick (R15)."""
    return _known_draws(p.leader, p.hands, p.stock)


def _known_draws(leader: int, hands: Hands, stock: tuple[Card, ...]) -> list[tuple[int, Card]]:
    count = min(len(stock), 4 * (4 - len(hands[leader])))
    return list(zip(_draw_seats(leader, count), stock[:count], strict=True))


def _drawn_hands(hands: Hands, draws: Sequence[tuple[int, Card]]) -> Hands:
    """The hands after ``draws``, each in canonical order again."""
    drawn: list[list[Card]] = [[], [], [], []]
    for seat, card in draws:
        drawn[seat].append(card)
    h0, h1, h2, h3 = hands
    d0, d1, d2, d3 = drawn
    return (
        sort_cards((*h0, *d0)) if d0 else h0,
        sort_cards((*h1, *d1)) if d1 else h1,
        sort_cards((*h2, *d2)) if d2 else h2,
        sort_cards((*h3, *d3)) if d3 else h3,
    )


def _do_draws(p: Position, draws: Sequence[tuple[int, Card]]) -> Position:
    n = len(draws)
    if p.unknown_stock:
        stock, unknown = p.stock, p.unknown_stock - n
    else:
        stock, unknown = p.stock[n:], 0
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        _drawn_hands(p.hands, draws),
        stock,
        unknown,
        p.trick,
        p.piles,
        p.face_down,
        p.tricks,
        0,
    )


def play(position: Position, move: Move) -> Position:
    """Apply a move known to be legal, without checking it (python-chess's ``push``).

    Trick settlement and the draws from a known stock follow at once.
    """
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        return _do_draws(
            position,
            list(zip(_draw_seats(position.leader, position.draw), move.cards, strict=True)),
        )
    assert seat is not None
    if kind == MOLODKA:
        if position.trick or seat != position.leader:
            return _do_declare(position, seat)
        kind = LEAD
        cards = position.hands[seat]
    else:
        cards = move.cards
    p = _do_play(position, seat, kind, cards)
    if len(p.trick) == 4:
        p = _do_settle(p)
        if p.stock:
            p = _do_draws(p, _due_draws(p))
    return p


def apply(position: Position, command: Move | str) -> Position:
    """Check an action (§13) and return the position after it and all that follows.

    Raises:
        MalformedError, IllegalMoveError: as ``decide``.
    """
    return play(position, _command(position, command))


# --- the decider --------------------------------------------------------------------


def _not_a_deal_move(move: Move) -> IllegalMoveError:
    return _refuse(
        "WRONG_PHASE",
        f"{move.text()!r} ends the match, not the deal: the match records it (R47)",
    )


def _command(position: Position, command: Move | str) -> Move:
    if isinstance(command, str):
        if position.draw:
            tokens = command.split()
            if not tokens or tokens[0].lower() != CARDS:  # 2a comes before parsing (3)
                raise _refuse(
                    "CARDS_PENDING",
                    f"the scorer must first name the {position.draw} cards drawn from the stock",
                    awaited=position.draw,
                )
        # A parsed text passed 2a just now (only ``cards`` gets here while cards are
        # awaited) and 3 by construction: a seat S0-S3, a known action, the shared
        # Kozel cards, none after ``molodka``.
        move = Move.from_text(command)
        if move.kind == MOLODKA:
            move = read(position, move)
        elif move.kind == CONCEDE:
            raise _not_a_deal_move(move)
        return _checked_rules(position, move)
    if command.kind == CONCEDE:
        raise _not_a_deal_move(command)
    return _checked(position, command)


_PLAYED = {LEAD: "CardsLed", BEAT: "CardsBeaten", THROW: "CardsThrown"}
"""The event type of each kind of play."""


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.rank + c.suit for c in cards]


def decide(position: Position, command: Move | str) -> list[Event]:
    """Check an action and return the events it causes, derived ones included.

    Events: ``CardsLed``, ``CardsBeaten``, ``CardsThrown``, ``MolodkaDeclared``, then,
    after the fourth play, ``TrickTaken``, ``CardsDrawn`` (known stock) and, when the
    deal is played out, ``DealPlayed`` with the ``DealOutcome`` data. The scorer's
    ``cards`` gives ``CardsDrawn``.

    Raises:
        IllegalMoveError (CARDS_PENDING): a player action while drawn cards await naming.
        MalformedError (MALFORMED): the text or move cannot be read.
        IllegalMoveError: the §13 code of the first failing check.
    """
    return step(position, command)[0]


def step(position: Position, command: Move | str) -> tuple[list[Event], Position]:
    """Return ``decide``'s events and the position they lead to (their fold), in one pass.

    Raises:
        IllegalMoveError, MalformedError: as ``decide``.
    """
    move = _command(position, command)
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        draws = list(zip(_draw_seats(position.leader, position.draw), move.cards, strict=True))
        return [_drawn_event(draws)], _do_draws(position, draws)
    assert seat is not None
    if kind == MOLODKA and (position.trick or seat != position.leader):
        returned = [[play.seat, _codes(play.cards)] for play in position.trick]
        data = {"seat": seat, "cards": _codes(position.hands[seat]), "returned": returned}
        return [Event("MolodkaDeclared", data)], _do_declare(position, seat)
    if kind == MOLODKA:
        kind = LEAD
        cards = position.hands[seat]
    else:
        cards = move.cards
    p = _do_play(position, seat, kind, cards)
    trick = p.trick
    # ``_do_play`` took the cards out of the sorted hand: they are in canonical order.
    data = {"seat": seat, "cards": _codes(trick[-1].cards)}
    events = [Event(_PLAYED[kind], data)]
    if len(trick) < 4:
        return events, p
    # Settling and the draws from a known stock build one position, not two.
    winner, piles, face_down, tricks, draw = _settled(p)
    all_cards = [c for play in trick for c in play.cards]
    events.append(
        Event(
            "TrickTaken",
            {
                "winner": winner,
                "team": team_of(winner),
                "cards": _codes(all_cards),
                "points": card_points(all_cards),
            },
        )
    )
    hands, stock = p.hands, p.stock
    if stock:  # a known stock: the unknown one waits for the scorer's ``cards``
        draws = _known_draws(winner, hands, stock)
        events.append(_drawn_event(draws))
        hands, stock = _drawn_hands(hands, draws), stock[len(draws) :]
    p = new_position(
        p.options,
        p.dealer,
        winner,
        p.indicator,
        hands,
        stock,
        p.unknown_stock,
        (),
        piles,
        face_down,
        tricks,
        draw,
    )
    result = outcome(p)
    if result is not None:
        events.append(
            Event(
                "DealPlayed",
                {
                    "card_points": list(result.card_points),
                    "tricks": list(result.tricks),
                    "last_trick_seat": result.last_trick_seat,
                },
            )
        )
    return events, p


def _drawn_event(draws: Sequence[tuple[int, Card]]) -> Event:
    return Event("CardsDrawn", {"draws": [[seat, card.text()] for seat, card in draws]})


def _cards_of(data: Mapping[str, Any], key: str = "cards") -> tuple[Card, ...]:
    return parse_kozel_cards(data[key])


def evolve(position: Position | None, event: Event) -> Position:
    """Fold one stored event into the position; events of other types change nothing.

    ``DealStarted`` (with the setup's data under ``setup``) starts a new position
    whatever ``position`` is. Events are trusted: checking is ``decide``'s job.
    """
    kind, data = event.type, event.data
    if kind == "DealStarted":
        return initial_position(DealSetup.from_data(data["setup"]))
    assert position is not None
    if kind == "CardsLed":
        return _do_play(position, data["seat"], LEAD, _cards_of(data))
    if kind == "CardsBeaten":
        return _do_play(position, data["seat"], BEAT, _cards_of(data))
    if kind == "CardsThrown":
        return _do_play(position, data["seat"], THROW, _cards_of(data))
    if kind == "MolodkaDeclared":
        return _do_declare(position, data["seat"])
    if kind == "TrickTaken":
        return _do_settle(position)
    if kind == "CardsDrawn":
        draws = [(seat, Card.from_text(code)) for seat, code in data["draws"]]
        return _do_draws(position, draws)
    return position


# The seat views are part of the engine's surface; they live in their own module
# (which needs the helpers above) and are offered here too.
from domain.kozel.views import view  # noqa: E402

__all__ = [
    "LegalMoves",
    "apply",
    "can_declare",
    "cards_awaited",
    "cards_to_name",
    "check",
    "deal_started",
    "decide",
    "evolve",
    "generate_legal_moves",
    "initial_position",
    "is_legal",
    "is_terminal",
    "legal_moves",
    "outcome",
    "play",
    "read",
    "service_moves",
    "step",
    "to_act",
    "unplaced_cards",
    "view",
]
