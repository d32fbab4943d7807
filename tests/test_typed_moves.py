"""A typed move is refused, or recorded as a text docs/notation.md calls the same move (#29).

Random live matches of every game and variant (``live_match_states``); the legal move
texts of the moment changed as a scorer's slip might change them (``mutate_move_text``:
targets, seats, cards, suffixes added, removed or swapped; ``field_variants``: every
target and player on a move's card), each stepped through the match decider, as the
API's and the CLI's writes are. A changed text that is accepted
must be recorded as ``notation_form`` of what was typed, and be a listed move.
``pytest -s`` prints the counts once (positions, texts, refused by code, accepted).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import Card, format_cards
from domain.cuttle.moves import ACTIONS as CUTTLE_ACTIONS
from domain.cuttle.moves import card_key
from domain.errors import DomainError
from domain.kozel.moves import canonical_cards
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, step
from tests.strategies import (
    field_variants,
    live_match_states,
    mutate_move_text,
    named_cards_text,
)

FIGURES: Counter[str] = Counter()
"""What the property met, summed over its examples: printed once by ``figures``."""

_KEYWORDS = CUTTLE_ACTIONS | {"seven", "cards", "lead", "beat", "throw", "molodka", "concede"}
_KOZEL_PLAYS = frozenset({"lead", "beat", "throw"})
_CAPS = re.compile(r"[A-Z][A-Z_]*")


def notation_form(game: str, position: Any, text: str) -> str:
    """The text docs/notation.md records for ``text``: its normalisations and no others.

    Both games: letter case and extra spaces are ignored; the scorer's ``cards`` keep
    their order. Cuttle: discarded cards are a set (card order); in 2-player a four
    naming the opponent, and nothing else (``P0 oneoff 4S@P1``), is the four
    (ruling 33). Kozel: a play's cards are a set (canonical order); the seat due to
    lead that declares a molodka before the lead leads its four cards (R36).
    """
    words = [w.lower() if w.lower() in _KEYWORDS else w.upper() for w in text.split()]
    if len(words) < 2 or words[0] == "cards":
        return " ".join(words)
    seat = int(words[0][1:]) if re.fullmatch(r"[PS][0-9]", words[0]) else None
    if game == "cuttle":
        if words[1] == "discard" and all(len(w) == 2 for w in words[2:]):
            words[2:] = sorted(words[2:], key=lambda w: card_key(Card.from_text(w)))
        four = re.fullmatch(r"4[CDHS]@P([0-9])", words[-1])
        if (
            four is not None
            and words[-2] == "oneoff"
            and len(position.hands) == 2
            and seat is not None
            and int(four.group(1)) == 1 - seat
        ):
            words[-1] = words[-1][:2]
    elif words[1] in _KOZEL_PLAYS and all(len(w) == 2 for w in words[2:]):
        cards = canonical_cards(tuple(Card.from_text(w) for w in words[2:]))
        words[2:] = format_cards(cards).split()
    elif (
        words == [words[0], "molodka"]
        and not position.trick
        and not position.draw
        and seat == position.leader
    ):
        words = [words[0], "lead", format_cards(position.hands[seat])]
    return " ".join(words)


@pytest.fixture(name="figures", scope="module")
def _figures() -> Iterator[Counter[str]]:
    """The counts, printed once the module's tests are done (``pytest -s`` shows them)."""
    yield FIGURES
    counts = ", ".join(f"{key} {FIGURES[key]:,}" for key in ("positions", "texts", "refused"))
    codes = ", ".join(f"{code} {n:,}" for code, n in FIGURES.most_common() if code.isupper())
    print(
        f"\ntyped moves: {counts} ({codes}), accepted {FIGURES['accepted']:,}"
        f" (respelled {FIGURES['respelled']:,})"
    )


def recorded_text(state: MatchState, text: str) -> str:
    """The move text the match records for ``text`` (its first event's), or raise."""
    events = step(state, Play(text))[0]
    return state.rules.move_text(events[0].type, events[0].data)


class TestTypedMoves:
    @given(live_match_states(), st.randoms(use_true_random=False))
    def test_a_changed_text_is_refused_or_recorded_as_typed(
        self, figures: Counter[str], state: MatchState, rng: random.Random
    ) -> None:
        rules, position = state.rules, state.position
        game = state.config.game if state.config is not None else ""
        listed = {m.text() for m in rules.service_moves(position)}
        if rules.cards_awaited(position):
            sources = [named_cards_text(rules, position, rng)]
        else:
            listed |= {m.text() for m in rules.legal_moves(position)}
            sources = []
        sources += rng.sample(sorted(listed), min(12, len(listed)))
        texts = {mutate_move_text(text, game, rng) for text in sources for _ in range(8)}
        texts.update(variant for text in sources for variant in field_variants(text, game, rng))
        figures["positions"] += 1
        for typed in texts - set(sources):
            figures["texts"] += 1
            try:
                recorded = recorded_text(state, typed)
            except DomainError as e:
                assert _CAPS.fullmatch(e.code), (typed, e.code)
                figures["refused"] += 1
                figures[e.code] += 1
                continue
            figures["accepted"] += 1
            figures["respelled"] += recorded != typed
            assert notation_form(game, position, typed) == recorded, typed
            assert recorded.startswith("cards") or recorded in listed, typed


class TestNotationForm:
    """The test's own yardstick, on the normalisations docs/notation.md lists."""

    @pytest.mark.parametrize(
        ("typed", "form"),
        [
            ("p0  Points 7h", "P0 points 7H"),
            ("P1 discard 9H 4C", "P1 discard 4C 9H"),
            ("P1 oneoff 4H@P0", "P1 oneoff 4H"),
            ("P0 seven oneoff 4D@P1", "P0 seven oneoff 4D"),
            ("P1 oneoff 4H>3H@P0", "P1 oneoff 4H>3H@P0"),
            ("P1 oneoff 4H@P1", "P1 oneoff 4H@P1"),
            ("cards 9S 7H", "cards 9S 7H"),
        ],
    )
    def test_cuttle(self, typed: str, form: str) -> None:
        from domain.cuttle import Position

        position = Position.from_text(
            "standard; dealer P0; turn P1; phase MAIN; deck ?20; hands 4H / 9C; "
            "points - / -; permanents - / -; scrap -"
        )
        assert form == notation_form("cuttle", position, typed)

    @pytest.mark.parametrize(
        ("typed", "form"),
        [
            ("s2 THROW 6d 8c", "S2 throw 8C 6D"),
            ("S0 molodka", "S0 lead 6C 7C 8C 9C"),
            ("S1 molodka", "S1 molodka"),
            ("cards 9D 6S", "cards 9D 6S"),
        ],
    )
    def test_kozel(self, typed: str, form: str) -> None:
        from domain.kozel import Position

        position = Position.from_text(
            "dealer=3 leader=0 trump=9H hands=6C,7C,8C,9C/JC,QC,KC,AC/6D,7D,8D,TD/9D,JD,QD,KD"
            " stock=?20 trick=- piles=-/- tricks=0/0"
        )
        assert form == notation_form("kozel", position, typed)


class TestCuttleResults:
    """A score-sheet result is a move of a match recorded by results (§27)."""

    @pytest.mark.parametrize(
        "text", ["result P01", "result P001", "result P\u0661", "result P\u00b2"]
    )
    def test_a_seat_not_written_as_moves_write_it_is_malformed(self, text: str) -> None:
        config = MatchConfig("cuttle", "standard", ("a", "b"), 0, recording="results")
        state = step(MatchState(), CreateMatch(config))[1]
        with pytest.raises(DomainError) as e:
            step(state, Play(text))
        assert "MALFORMED" == e.value.code
        assert "result P1" == recorded_text(state, " Result  p1")
