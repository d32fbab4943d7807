"""How the pages draw Kozel (``domain.presentation``): four seats in two teams round the table.

Each seat's panel holds its hand; the centre the trump indicator beside the stock,
the trick (face-down throws as backs, R27), and each team's taken cards with its
tricks and, once the deal is played out, its card points (R39).
"""

from __future__ import annotations

from domain.presentation import (
    Case,
    Column,
    Count,
    Examples,
    Extra,
    Indicator,
    Pack,
    Presentation,
    ResultForm,
    Score,
    Setting,
    Team,
    Variant,
    Zone,
)
from domain.words import N_, Nn_

_LOSS_LIMIT = Setting("loss_limit", N_("Loss limit"), "options", "number", 12, minimum=2)

PRESENTATION = Presentation(
    game="kozel",
    label=N_("Kozel"),
    round_word="deal",
    seat_letter="S",
    variants=(Variant("default", 4, Pack(ranks="6789TJQKA")),),
    teams=(Team("A", (0, 2)), Team("B", (1, 3))),
    layout="around",
    zones=(
        Zone(
            "hand",
            N_("Hand ({count})"),
            "hand",
            place="seat",
            count="hand_sizes.{seat}",
            own="hand",
        ),
        Zone("indicator", N_("Trump {trump|suit}"), "cards", cards="indicator", row="trump"),
        Zone("stock", N_("Stock"), "stock", count="stock", row="trump"),
        Zone(
            "trick",
            N_("Trick"),
            "plays",
            items="trick",
            caption=N_("{seat|name} {kind|word}"),
            hidden_kind="throw",
            open_flag="options.open_throws",
        ),
        Zone(
            "pile",
            "{team|Team} ({team|players})",
            "pile",
            place="team",
            cards="piles.{team}.face_up",
            count="piles.{team}.face_down",
            opened="piles.{team}.face_down_cards",
            counts=(
                Count("tricks.{team}", *Nn_("trick", "tricks")),
                Count("card_points.{team}", *Nn_("card point", "card points")),
            ),
            small=True,
            up_label=N_("Face up"),
            down_label=N_("Face down"),
        ),
    ),
    score=Score(
        template=N_("Loss points: {values} (out at {loss_limit}){extras}"),
        values="loss_points",
        by="team",
        extras=(
            Extra("eggs", N_("eggs {eggs}"), minimum=1),
            Extra("multiplier", N_("next deal \u00d7{multiplier}"), minimum=2),
        ),
    ),
    sheet=(
        Column(
            "{team|Team}",
            (
                Case(
                    "{card_points.{team}}",
                    extras=(Extra("tricks.{team}", N_(" (no trick)"), maximum=0),),
                ),
            ),
            by="team",
        ),
        Column(
            N_("Loss points"),
            (
                Case(N_("eggs"), when="eggs"),
                Case("\u2014", when="losing_team", null=True),
                Case(
                    "{losing_team|team} +{loss_points}",
                    extras=(Extra("multiplier", " (\u00d7{multiplier})", minimum=2),),
                ),
            ),
        ),
        Column("{team|players}", (Case("{totals.{team}}"),), by="team"),
    ),
    settings=(_LOSS_LIMIT,),
    competition_settings=(
        _LOSS_LIMIT,
        Setting("eggs_double_next", N_("Eggs double the next deal"), "options", "flag", False),
    ),
    examples=Examples(
        moves=("S0 lead 7S KS", "S1 beat TS AS", "cards 7H"),
        results=("deal 75 45", "deal 120 0 blank B"),
    ),
    acting="to_play",
    acting_word=N_("to play"),
    indicator=Indicator(N_("Trump indicator"), N_("Indicator's place in the stock"), 20),
    result_form=ResultForm(
        verb="deal",
        total=120,
        points=N_("card points"),
        blank="blank",
        blank_text=N_("took no trick"),
    ),
    reasons={
        "goat": N_("the losers reached the loss limit: goats"),
        "goat-with-eggs": N_("the losers reached the loss limit: goats with eggs"),
        "concession": N_("by concession"),
    },
    dealer="dealer",
    team_word=N_("team"),
    round_title=N_("Deal"),
    round_number=N_("Deal {number}"),
    words={
        "lead": N_("lead"),
        "beat": N_("beat"),
        "throw": N_("throw"),
        "default": N_("default"),
    },
)
"""Kozel's presentation descriptor."""

__all__ = ["PRESENTATION"]
