"""How the pages draw Cuttle (``domain.presentation``): two or three seats, no teams.

Each seat's panel holds its hand, its point stacks and its permanents (by the seat
that controls them) and its points towards its goal; the centre the deck with the
cards seen on top of it, the scrap, the chain of one-offs and counters, a seven's
revealed cards and a line saying what the table waits for (§17's phases).
"""

from __future__ import annotations

from domain.cuttle.outcome import Variant as Rules
from domain.cuttle.state import hand_sizes
from domain.presentation import (
    Caption,
    Case,
    Column,
    Examples,
    Extra,
    Pack,
    Presentation,
    Score,
    Setting,
    Tally,
    Variant,
    Zone,
)

_PACK = Pack(ranks="A23456789TJQK")

_FORMAT = Setting(
    "format",
    "Format",
    "format",
    "text",
    "normal",
    choices=("quick", "short", "normal", "extended", "best-of-3"),
)

PRESENTATION = Presentation(
    game="cuttle",
    label="Cuttle",
    round_word="round",
    seat_letter="P",
    variants=(
        Variant("standard", 2, _PACK, dealt=hand_sizes(Rules.STANDARD, 0)),
        Variant("classic", 2, _PACK, dealt=hand_sizes(Rules.CLASSIC, 0)),
        Variant(
            "cutthroat",
            3,
            Pack(ranks=_PACK.ranks, jokers=("X1", "X2")),
            dealt=hand_sizes(Rules.CUTTHROAT, 0),
        ),
    ),
    zones=(
        Zone(
            "hand",
            "Hand ({count})",
            "hand",
            place="seat",
            count="hands.{seat}.count",
            cards="hands.{seat}.cards",
            own="hands.{seat}.cards",
            flagged="frozen",
            flag="frozen",
        ),
        Zone("points", "Points", "stacks", place="seat", items="points", owner="controller"),
        Zone(
            "permanents",
            "Permanents",
            "stacks",
            place="seat",
            items="permanents",
            owner="controller",
        ),
        Zone("deck", "Deck", "stock", count="deck.count", top="deck.top"),
        Zone("scrap", "Scrap ({count})", "cards", cards="scrap", small=True),
        Zone(
            "chain",
            "On the table",
            "plays",
            items="chain",
            caption="{seat|tag}",
            caption_below=True,
            optional=True,
        ),
        Zone("revealed", "Revealed by the seven", "cards", cards="revealed", optional=True),
    ),
    score=Score(
        template="Rounds won: {values}{extras} (first to {wins_needed})",
        values="wins",
        by="seat",
        extras=(Extra("drawn_rounds", "drawn {drawn_rounds}", minimum=1),),
    ),
    sheet=(
        Column("Result", (Case("drawn", when="draw"), Case("{winner|name} won"))),
        Column("{name}", (Case("{wins.{seat}}"),), by="seat"),
    ),
    settings=(_FORMAT,),
    competition_settings=(_FORMAT,),
    examples=Examples(
        moves=("P0 points 7H", "P1 scuttle 9S>7H", "cards 7H"),
        results=("result P1", "result draw"),
    ),
    acting="to_act",
    acting_word="to act",
    tally=Tally("totals.{seat}", "goals.{seat}", "point", "points"),
    caption=Caption(
        over="result",
        result=(
            Case("Round over: drawn ({result.termination|word})", when="result.winner", null=True),
            Case("Round over: {result.winner|name} wins the round ({result.termination|word})"),
        ),
        phase="phase",
        sentences={"NAME_CARDS": "The scorer names the cards drawn."},
        doings={
            "MAIN": "to play",
            "COUNTER": "may counter",
            "RESOLVE_THREE": "takes a card from the scrap (three)",
            "RESOLVE_FOUR": "discards two cards (four)",
            "RESOLVE_FIVE": "resolves the five",
            "RESOLVE_SEVEN": "plays a revealed card (seven)",
            "DRAW_OFFERED": "answers the draw offer",
        },
        doing="to act",
        extras=(Extra("target", ", targeting {target|card}"),),
        words={
            "goal": "reached the goal",
            "three-passes": "three passes in a row",
            "agreed-draw": "a draw agreed",
            "resignation": "a resignation",
        },
    ),
    reasons={
        "rounds": "on rounds won",
        "resignation": "by resignation",
        "drawn-round": "a drawn round ends the match",
    },
    dealer="dealer",
)
"""Cuttle's presentation descriptor."""

__all__ = ["PRESENTATION"]
