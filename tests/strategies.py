"""Hypothesis strategies shared by the test suites, one clearly named section per subject."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from domain.cards import Card, deck
from domain.cuttle import Move, Position, RoundSetup, Variant, initial_position, legal_moves
from domain.cuttle.rules import apply
from domain.kozel import DealSetup, KozelOptions
from domain.kozel.pack import PACK

# --- Event store: JSON event data -------------------------------------------------

# I-JSON values (RFC 7493), which RFC 8785 canonicalises: integers within ±(2**53 - 1) and
# finite floats. Text excludes NUL, which jsonb refuses.
json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
event_data: st.SearchStrategy[dict[str, Any]] = st.dictionaries(
    st.text(max_size=8), json_values, max_size=5
)
stream_names: st.SearchStrategy[str] = st.builds(
    lambda game, rest: f"{game}-{rest}",
    st.sampled_from(["cuttle", "kozel"]),
    st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s),
)


# --- Cuttle ----------------------------------------------------------------------------

CUTTLE_MOVE_CAP = 600
"""Playouts stop here: classic rounds may loop for ever (ruling 36)."""


def cuttle_setup(variant: Variant, rng: random.Random, dealer: int | None = None) -> RoundSetup:
    """A round set-up from a deck shuffled by ``rng`` (and a random dealer unless given)."""
    cards = list(deck(jokers=variant is Variant.CUTTHROAT))
    rng.shuffle(cards)
    seat = rng.randrange(variant.players) if dealer is None else dealer
    return RoundSetup(variant, seat, deck=tuple(cards))


def cuttle_playout(
    variant: Variant, rng: random.Random, cap: int = CUTTLE_MOVE_CAP
) -> list[tuple[Position, Move | None]]:
    """Play random legal moves from a random deal (resignations and draw offers are
    service moves, never among them).

    Returns every position reached, each with the move played from it (``None`` for
    the last one).
    """
    position = initial_position(cuttle_setup(variant, rng))
    steps: list[tuple[Position, Move | None]] = []
    while position.result is None and len(steps) < cap:
        move = rng.choice(list(legal_moves(position)))
        steps.append((position, move))
        position = apply(position, move)
    steps.append((position, None))
    return steps


cuttle_variants = st.sampled_from(list(Variant))


@st.composite
def cuttle_playouts(draw: st.DrawFn) -> list[tuple[Position, Move | None]]:
    """A random playout in a random variant."""
    variant = draw(cuttle_variants)
    seed = draw(st.integers(0, 2**32 - 1))
    return cuttle_playout(variant, random.Random(seed))


@st.composite
def cuttle_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random playout."""
    steps = draw(cuttle_playouts())
    index = draw(st.integers(0, len(steps) - 1))
    return steps[index][0]


CUTTLE_TEXT_ACTIONS = (
    "draw", "pass", "decline", "resign", "offer-draw", "accept-draw", "refuse-draw", "points",
    "glasses", "queen", "king", "counter", "take", "scrap", "scuttle", "jack", "joker", "oneoff",
    "discard", "cards", "Points", "ONEOFF", "flip", "",
)  # fmt: skip
CUTTLE_CARD_CODES = tuple(c.text() for c in deck(jokers=True))


@st.composite
def cuttle_move_texts(draw: st.DrawFn) -> str:
    """A line in the §23 notation, or close to one: seat, seven, action, card tokens."""
    head = draw(st.sampled_from(["P0", "P1", "P2", "p1", "P3", "cards", "CARDS", "S0", ""]))
    seven = draw(st.sampled_from(["", "seven", "SEVEN"]))
    action = draw(st.sampled_from(CUTTLE_TEXT_ACTIONS))
    card = st.sampled_from(CUTTLE_CARD_CODES) | st.sampled_from(["10H", "ZZ", "ah", "x2"])
    tokens = []
    for _ in range(draw(st.integers(0, 2))):
        token = draw(card)
        if draw(st.booleans()):
            token += ">" + draw(card)
        if draw(st.booleans()):
            token += "@" + draw(st.sampled_from(["P0", "P1", "P2", "P5", "p1"]))
        tokens.append(token)
    parts = [part for part in (head, seven, action) if part]
    return draw(st.sampled_from([" ", "  "])).join([*parts, *tokens])


@st.composite
def cuttle_one_card_texts(draw: st.DrawFn) -> str:
    """A seat's move of one card as ``Move.text`` writes it, or nearly (some illegal)."""
    seat = draw(st.sampled_from(["P0", "P1", "P2", "P3", "p1"]))
    action = draw(st.sampled_from(CUTTLE_TEXT_ACTIONS))
    card = draw(st.sampled_from(CUTTLE_CARD_CODES))
    token = card
    if draw(st.booleans()):
        token += ">" + draw(st.just(card) | st.sampled_from(CUTTLE_CARD_CODES))
    if draw(st.booleans()):
        token += "@" + draw(st.sampled_from(["P0", "P1", "P2", "P3"]))
    return f"{seat} {action} {token}"


# --- Match streams (projections) ------------------------------------------------------


def match_events(game: str, variant: str, rng: random.Random) -> list[Any]:
    """Every event of a whole scorer-dealt match of random legal moves, in stream order.

    Cuttle plays a ``short`` match, Kozel one to 2 loss points; no resignations or
    draw offers. Rounds that reach ``CUTTLE_MOVE_CAP`` moves end the match early.
    """
    from domain.stream import CreateMatch, MatchConfig, Play, StartRound, decide, fold

    seats = 4 if game == "kozel" else Variant(variant).players
    fmt, options = ("short", {}) if game == "cuttle" else (None, {"loss_limit": 2})
    config = MatchConfig(
        game, variant, tuple(f"p{i}" for i in range(seats)), 0, "scorer", fmt, options
    )
    events = decide(fold([]), CreateMatch(config))
    state = fold(events)
    rules = state.rules
    while not state.is_over:
        spec = rules.deal_spec(state.config)  # type: ignore[arg-type]
        cards = list(spec.pack)
        rng.shuffle(cards)
        deal: dict[str, Any] = {"deck": [c.text() for c in cards]}
        if spec.indicator_positions is not None:
            deal["indicator_position"] = rng.choice(spec.indicator_positions)
        new = decide(state, StartRound(deal))
        for _ in range(CUTTLE_MOVE_CAP):
            events.extend(new)
            state = fold(new, state)
            if state.position is None or state.is_over:
                break
            legal = [m.text() for m in rules.legal_moves(state.position)]
            new = decide(state, Play(rng.choice(legal)))
        else:
            break
    return events


match_games = st.sampled_from(
    [("cuttle", "standard"), ("cuttle", "cutthroat"), ("cuttle", "classic"), ("kozel", "default")]
)


@st.composite
def match_streams(draw: st.DrawFn) -> tuple[str, list[Any]]:
    """A whole match's events, in a random game and variant: (game, events)."""
    game, variant = draw(match_games)
    return game, match_events(game, variant, random.Random(draw(st.integers(0, 2**32 - 1))))


# --- Typed moves: live match states and mutated move texts (#29) --------------------------


typed_match_kinds = st.sampled_from(
    [
        ("cuttle", "classic", "scorer"),
        ("cuttle", "standard", "scorer"),
        ("cuttle", "cutthroat", "scorer"),
        ("cuttle", "standard", "physical"),
        ("cuttle", "cutthroat", "physical"),
        ("kozel", "default", "scorer"),
        ("kozel", "default", "physical"),
    ]
)


def named_cards_text(rules: Any, position: Any, rng: random.Random) -> str:
    """The scorer's ``cards`` naming what left an unknown deck: any unplaced cards."""
    unplaced = [c.text() for c in rules.unplaced_cards(position)]
    return " ".join(["cards", *rng.sample(unplaced, rules.cards_awaited(position))])


def live_match_state(game: str, variant: str, dealing: str, rng: random.Random, plies: int) -> Any:
    """A scorer-recorded match after ``plies`` random legal moves, a round in progress.

    Physically dealt rounds stop where cards must be named too. The match is never
    over: a move that would end it is not played (the state before it is returned).
    """
    from domain.stream import CreateMatch, MatchConfig, MatchState, Play, StartRound, step
    from tests.recording.play import physical_deal, shuffled_deal

    seats = 4 if game == "kozel" else Variant(variant).players
    fmt, options = ("normal", {}) if game == "cuttle" else (None, {"loss_limit": 6})
    players = tuple(f"p{i}" for i in range(seats))
    config = MatchConfig(game, variant, players, 0, dealing, fmt, options)  # type: ignore[arg-type]
    state = step(MatchState(), CreateMatch(config))[1]
    rules = state.rules
    for ply in range(plies + 1):
        if state.position is None:
            dealer = state.series.dealer
            deal = (
                physical_deal(game, variant, dealer, rng)
                if dealing == "physical"
                else shuffled_deal(game, variant, rng)
            )
            state = step(state, StartRound(deal))[1]
        if ply == plies:
            break
        if rules.cards_awaited(state.position):
            text = named_cards_text(rules, state.position, rng)
        else:
            text = rng.choice([m.text() for m in rules.legal_moves(state.position)])
        after = step(state, Play(text))[1]
        if after.is_over:
            break
        state = after
    return state


@st.composite
def live_match_states(draw: st.DrawFn) -> Any:
    """A live match of any game, variant and dealing of ``typed_match_kinds``
    (``live_match_state`` after 0-150 random legal moves)."""
    game, variant, dealing = draw(typed_match_kinds)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return live_match_state(game, variant, dealing, rng, draw(st.integers(0, 150)))


MUTATIONS = (
    "add target", "add player", "remove target", "remove player", "swap target",
    "swap player", "swap seat", "swap card", "add card", "remove card", "swap action",
    "toggle seven", "reorder cards", "respell", "add suffix", "player before target",
    "repeat word", "set fields", "set fields", "set fields",
)  # fmt: skip
"""What ``mutate_move_text`` may do to a move text, one or two of them at a time.

``set fields`` (the commonest) rewrites a card's word with or without a target and
a player: the slips that change a move's meaning rather than its spelling.
"""


def mutate_move_text(text: str, game: str, rng: random.Random) -> str:
    """Change a move text the way a scorer's slip might: a field added, removed or swapped.

    Cuttle texts are ``P0 [seven] action card[>target][@P1] | cards...``; Kozel texts
    ``S0 action cards...``. The result may be the same move in another spelling, another
    move, or no move at all.
    """
    seat_letter = "S" if game == "kozel" else "P"
    codes = [c.text() for c in (PACK if game == "kozel" else deck(jokers=True))]
    for _ in range(rng.choice((1, 1, 2))):
        text = _mutated(text, rng.choice(MUTATIONS), seat_letter, codes, rng)
    return text


def field_variants(text: str, game: str, rng: random.Random) -> list[str]:
    """A move text with its first card's word given every target and player combination.

    The target is none, the card itself or one of three random cards; the player none
    or any of four seats; a player and a target in both orders. These slips change
    what a move means, so each must be refused or stay the move it names.
    """
    words = text.split(" ")
    seat_letter = "S" if game == "kozel" else "P"
    codes = [c.text() for c in (PACK if game == "kozel" else deck(jokers=True))]
    index = next((i for i, w in enumerate(words) if i > 0 and w[:2] in codes), None)
    if index is None:
        return [f"{text}>{rng.choice(codes)}", f"{text}@{seat_letter}{rng.randrange(4)}"]
    card = words[index][:2]
    targets = ["", ">" + card, *(">" + code for code in rng.sample(codes, 3))]
    players = ["", *(f"@{seat_letter}{seat}" for seat in range(4))]
    variants = []
    for target in targets:
        for player in players:
            for token in {card + target + player, card + player + target}:
                variants.append(" ".join([*words[:index], token, *words[index + 1 :]]))
    return variants


def _mutated(text: str, how: str, seat_letter: str, codes: list[str], rng: random.Random) -> str:
    words = text.split(" ")
    cards = [i for i, w in enumerate(words) if w[:2] in codes and i > 0 and w != "cards"]
    code = rng.choice(codes)
    seat = f"{seat_letter}{rng.choice((0, 1, 2, 3))}"
    last = len(words) - 1
    if how == "add target":
        words[last] += ">" + code
    elif how == "add player":
        words[last] += "@" + seat
    elif how == "remove target":
        words = [re.sub(r">[0-9A-Z]{2}", "", w) for w in words]
    elif how == "remove player":
        words = [re.sub(r"@[A-Z][0-9]", "", w) for w in words]
    elif how == "swap target":
        words = [re.sub(r">[0-9A-Z]{2}", ">" + code, w) for w in words]
    elif how == "swap player":
        words = [re.sub(r"@[A-Z][0-9]", "@" + seat, w) for w in words]
    elif how == "swap seat":
        words[0] = seat if words[0] != "cards" else words[0]
    elif how == "swap card" and cards:
        i = rng.choice(cards)
        words[i] = code + words[i][2:]
    elif how == "add card":
        words.insert(rng.randint(1, len(words)), code)
    elif how == "remove card" and cards:
        del words[rng.choice(cards)]
    elif how == "swap action" and len(words) > 1:
        actions = KOZEL_ACTIONS if seat_letter == "S" else CUTTLE_TEXT_ACTIONS[:-4]
        i = 2 if words[1] == "seven" and len(words) > 2 else 1
        words[i] = rng.choice(actions)
    elif how == "toggle seven" and seat_letter == "P" and len(words) > 1:
        if words[1] == "seven":
            del words[1]
        else:
            words.insert(1, "seven")
    elif how == "reorder cards" and len(cards) > 1:
        picked = [words[i] for i in cards]
        rng.shuffle(picked)
        for i, word in zip(cards, picked, strict=True):
            words[i] = word
    elif how == "respell":
        spaced = rng.choice((" ", "  "))
        return spaced + spaced.join(rng.choice((w, w.lower(), w.upper())) for w in words)
    elif how == "add suffix":
        words[last] += rng.choice((">", "@", "!", "+", ",", "?", "@" + seat_letter, ">X"))
    elif how == "set fields" and cards:
        i = cards[0]
        words[i] = (
            words[i][:2]
            + (">" + code if rng.random() < 0.5 else "")
            + ("@" + seat if rng.random() < 0.5 else "")
        )
    elif how == "player before target":
        words = [re.sub(r"(>[0-9A-Z]{2})(@[A-Z][0-9])", r"\2\1", w) for w in words]
    elif how == "repeat word":
        i = rng.randrange(len(words))
        words.insert(i, words[i])
    return " ".join(words)


KOZEL_ACTIONS = ("lead", "beat", "throw", "molodka", "concede", "cards", "pass")
"""Action words a Kozel text may be given: the five of R45/R47, ``cards`` in a seat's
place, and none at all."""


# --- Kozel ---------------------------------------------------------------------------


@st.composite
def kozel_options(draw: st.DrawFn, max_loss_limit: int = 12) -> KozelOptions:
    """Option flags of Kozel §11, the loss limit kept small enough for whole matches."""
    return KozelOptions(
        loss_limit=draw(st.integers(2, max_loss_limit)),
        eggs_double_next=draw(st.booleans()),
        trump_indicator_bottom=draw(st.booleans()),
        open_throws=draw(st.booleans()),
    )


@st.composite
def kozel_deck_orders(draw: st.DrawFn, dealer: int = 0) -> tuple[Card, ...]:
    """A deck order, top first; in about a third of them a seat is dealt a molodka."""
    deck = list(draw(st.permutations(PACK)))
    if draw(st.integers(0, 2)) == 0:
        seat = draw(st.integers(0, 3))
        suit = draw(st.sampled_from("CDHS"))
        molodka = [c for c in deck if c.suit == suit][:4]
        # Card i of the deal goes to seat (dealer + 1 + i) mod 4 (R4).
        slots = [i for i in range(16) if (dealer + 1 + i) % 4 == seat]
        for slot, card in zip(slots, molodka, strict=True):
            j = deck.index(card)
            deck[slot], deck[j] = deck[j], deck[slot]
    return tuple(deck)


@st.composite
def kozel_setups(draw: st.DrawFn, options: KozelOptions | None = None) -> DealSetup:
    """A deal setup from a known deck order: any dealer, leader and indicator position."""
    dealer = draw(st.integers(0, 3))
    return DealSetup(
        options if options is not None else draw(kozel_options()),
        dealer,
        draw(st.integers(0, 3)),
        deck=draw(kozel_deck_orders(dealer)),
        indicator_position=draw(st.integers(0, 19)),
    )


# Card tokens as a log or a scorer may write them: mostly canonical Kozel codes, some in
# other letter cases or with space around, some no Kozel card at all.
kozel_card_tokens: st.SearchStrategy[str] = st.one_of(
    st.sampled_from([card.text() for card in PACK]),
    st.sampled_from([card.text().lower() for card in PACK]),
    st.sampled_from([f" {card.text()}" for card in PACK]),
    st.sampled_from(["2H", "5d", "X1", "10H", "TX", "", "S"]),
    st.text(alphabet="6789TJQKACDHSX1cdhs ", max_size=3),
)


@st.composite
def kozel_move_texts(draw: st.DrawFn) -> str:
    """A line in the R45 notation, or close to one: seat, action, then card tokens."""
    head = draw(
        st.sampled_from(["S0", "S1", "S2", "S3", "s2", "S4", "P0", "cards", "CARDS", "S0 S1", ""])
    )
    action = draw(st.sampled_from(["lead", "beat", "throw", "molodka", "Lead", "pass", ""]))
    cards = draw(
        st.lists(st.sampled_from([c.text() for c in PACK]) | kozel_card_tokens, max_size=4)
    )
    parts = [head] if head.startswith(("c", "C")) else [head, action]
    return draw(st.sampled_from([" ", "  "])).join([*parts, *cards])


# --- Game logs: simulated matches as canonical log lines ---------------------------------


@st.composite
def simulated_match_lines(draw: st.DrawFn) -> list[str]:
    """The canonical log lines of one random small match of any game and variant."""
    from cli.simulate import simulated_lines

    game, variant = draw(
        st.sampled_from(
            [
                ("cuttle", "classic"),
                ("cuttle", "standard"),
                ("cuttle", "cutthroat"),
                ("kozel", "default"),
            ]
        )
    )
    seed = draw(st.integers(min_value=0, max_value=2**32))
    fmt = "quick" if game == "cuttle" else None
    options: dict[str, Any] = {} if game == "cuttle" else {"loss_limit": 2}
    return list(simulated_lines(game, variant, 1, seed, fmt=fmt, options=options))


# --- Text notation: matches with notes, takebacks and voids (#8) --------------------------


def _play_corrected(log: Any, rng: random.Random) -> None:
    """Record one random legal move, dealing or naming drawn cards as the dealing needs."""
    from domain.stream import Play, StartRound
    from tests.recording.play import physical_deal
    from tests.takebacks.log import shuffled

    state = log.state
    config, rules = state.config, state.rules
    if state.position is None:
        if config.dealing == "physical":
            deal = physical_deal(config.game, config.variant, state.series.dealer, rng)
        else:
            deal = shuffled(config, rng)
        log.record(StartRound(deal))
        return
    awaited = rules.cards_awaited(state.position)
    if awaited:
        unplaced = [c.text() for c in rules.unplaced_cards(state.position)]
        log.record(Play("cards " + " ".join(rng.sample(unplaced, awaited))))
        return
    legal = [m.text() for m in rules.legal_moves(state.position)]
    server = config.dealing == "server"
    log.record(Play(rng.choice(legal), shuffled(config, rng) if server else None))


@st.composite
def corrected_streams(
    draw: st.DrawFn, make_log: Callable[[], Any] | None = None
) -> tuple[Any, list[tuple[int, Any]]]:
    """A random match's config and raw stream, with notes, takebacks and maybe a void.

    Moves are random legal ones; between them come notes on any earlier event and
    takebacks to any version the decider accepts (inside a round or across its end).
    ``make_log`` builds the ``tests.takebacks.log.Log`` that records the commands (a
    subclass may check each one as it goes).
    """
    from domain.errors import DomainError
    from domain.stream import (
        AddNote,
        CreateMatch,
        MatchConfig,
        TakeBack,
        VoidMatch,
        effective_events,
    )
    from tests.takebacks.log import Log, shuffled

    game, variant, dealing = draw(
        st.sampled_from(
            [
                ("cuttle", "standard", "scorer"),
                ("cuttle", "cutthroat", "server"),
                ("cuttle", "classic", "physical"),
                ("kozel", "default", "server"),
                ("kozel", "default", "scorer"),
                ("kozel", "default", "physical"),
            ]
        )
    )
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    seats = 3 if variant == "cutthroat" else 2 if game == "cuttle" else 4
    players = tuple("abcd"[:seats])
    if game == "cuttle":
        config = MatchConfig(game, variant, players, 0, dealing, "normal")  # type: ignore[arg-type]
    else:
        config = MatchConfig(game, variant, players, 0, dealing, None, {"loss_limit": 3})  # type: ignore[arg-type]
    log = Log() if make_log is None else make_log()
    log.record(CreateMatch(config, shuffled(config, rng) if dealing == "server" else None))
    for _ in range(rng.randint(10, 160)):
        if log.state.is_over:
            break
        roll = rng.random()
        try:
            if roll < 0.08:
                log.record(AddNote(rng.randint(1, log.version), f"note {log.version}"))
            elif roll < 0.14:
                window = log.state.window
                # A takeback that undoes only notes has no text form (see docs/log-format.md).
                kinds = dict(effective_events(log.pairs))
                last_play = max(v for v, e in kinds.items() if e.type != "NoteAdded")
                targets = [
                    v
                    for (v, _), (_, opens) in itertools.pairwise(window)
                    if opens and v < last_play
                ]
                if targets:
                    log.record(TakeBack(rng.choice(targets), f"back at {log.version}"))
            else:
                _play_corrected(log, rng)
        except DomainError:
            continue
    if log.state.is_over and rng.random() < 0.5:
        log.record(VoidMatch("void"))
        log.record(AddNote(log.version, "after the void"))
    return config, log.pairs


# --- Event store: append_batch plans -----------------------------------------------------

# One batch item, abstractly: which of three streams, how many new events, what it
# expects of the stream's version ("head": the version sequential appends reached,
# "any": None, "stale": one below that), and which earlier item it repeats (an
# idempotent retry of its events, to the same stream), if any.
append_batch_items: st.SearchStrategy[tuple[int, int, str, int | None]] = st.tuples(
    st.integers(0, 2),
    st.integers(1, 4),
    st.sampled_from(["head", "any", "stale"]),
    st.none() | st.integers(0, 5),
)
append_batch_plans: st.SearchStrategy[list[tuple[int, int, str, int | None]]] = st.lists(
    append_batch_items, min_size=1, max_size=6
)
