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
from domain.words import N_, Nn_

_PACK = Pack(ranks="A23456789TJQK")

_FORMAT = Setting(
    "format",
    N_("Format"),
    "format",
    "text",
    "normal",
    choices=("quick", "short", "normal", "extended", "best-of-3"),
)

PRESENTATION = Presentation(
    game="cuttle",
    label=N_("Cuttle"),
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
            N_("Hand ({count})"),
            "hand",
            place="seat",
            count="hands.{seat}.count",
            cards="hands.{seat}.cards",
            own="hands.{seat}.cards",
            flagged="frozen",
            flag="frozen",
        ),
        Zone("points", N_("Points"), "stacks", place="seat", items="points", owner="controller"),
        Zone(
            "permanents",
            N_("Permanents"),
            "stacks",
            place="seat",
            items="permanents",
            owner="controller",
        ),
        Zone("deck", N_("Deck"), "stock", count="deck.count", top="deck.top"),
        Zone("scrap", N_("Scrap ({count})"), "cards", cards="scrap", small=True),
        Zone(
            "chain",
            N_("On the table"),
            "plays",
            items="chain",
            caption="{seat|tag}",
            caption_below=True,
            optional=True,
        ),
        Zone("revealed", N_("Revealed by the seven"), "cards", cards="revealed", optional=True),
    ),
    score=Score(
        template=N_("Rounds won: {values}{extras} (first to {wins_needed})"),
        values="wins",
        by="seat",
        extras=(Extra("drawn_rounds", N_("drawn {drawn_rounds}"), minimum=1),),
    ),
    sheet=(
        Column(N_("Result"), (Case(N_("drawn"), when="draw"), Case(N_("{winner|name} won")))),
        Column("{name}", (Case("{wins.{seat}}"),), by="seat"),
    ),
    settings=(_FORMAT,),
    competition_settings=(_FORMAT,),
    examples=Examples(
        moves=("P0 points 7H", "P1 scuttle 9S>7H", "cards 7H"),
        results=("result P1", "result draw"),
    ),
    acting="to_act",
    acting_word=N_("to act"),
    tally=Tally("totals.{seat}", "goals.{seat}", *Nn_("point", "points")),
    caption=Caption(
        over="result",
        result=(
            Case(
                N_("Round over: drawn ({result.termination|word})"),
                when="result.winner",
                null=True,
            ),
            Case(N_("Round over: {result.winner|name} wins the round ({result.termination|word})")),
        ),
        phase="phase",
        sentences={"NAME_CARDS": N_("The scorer names the cards drawn.")},
        doings={
            "MAIN": N_("to play"),
            "COUNTER": N_("may counter"),
            "RESOLVE_THREE": N_("takes a card from the scrap (three)"),
            "RESOLVE_FOUR": N_("discards two cards (four)"),
            "RESOLVE_FIVE": N_("resolves the five"),
            "RESOLVE_SEVEN": N_("plays a revealed card (seven)"),
            "DRAW_OFFERED": N_("answers the draw offer"),
        },
        doing=N_("to act"),
        extras=(Extra("target", N_(", targeting {target|card}")),),
        words={
            "goal": N_("reached the goal"),
            "three-passes": N_("three passes in a row"),
            "agreed-draw": N_("a draw agreed"),
            "resignation": N_("a resignation"),
        },
    ),
    reasons={
        "rounds": N_("on rounds won"),
        "resignation": N_("by resignation"),
        "drawn-round": N_("a drawn round ends the match"),
    },
    dealer="dealer",
    round_title=N_("Round"),
    round_number=N_("Round {number}"),
    words={
        "standard": N_("standard"),
        "classic": N_("classic"),
        "cutthroat": N_("cutthroat"),
        "quick": N_("quick"),
        "short": N_("short"),
        "normal": N_("normal"),
        "extended": N_("extended"),
        "best-of-3": N_("best of 3"),
    },
)
"""Cuttle's presentation descriptor."""

__all__ = ["PRESENTATION"]
