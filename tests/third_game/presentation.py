"""How the pages draw draw high: two seats, each with the card it drew, and the deck."""

from __future__ import annotations

from domain.presentation import (
    Case,
    Column,
    Examples,
    Pack,
    Presentation,
    Score,
    Setting,
    Variant,
    Zone,
)

PRESENTATION = Presentation(
    game="drawhigh",
    label="Draw high",
    round_word="hand",
    seat_letter="H",
    variants=(Variant("duel", 2, Pack(ranks="23456789TJQKA")),),
    zones=(
        Zone("drawn", "Drawn", "cards", place="seat", cards="shown.{seat}"),
        Zone("deck", "Deck ({count})", "stock", count="deck"),
    ),
    score=Score(template="Hands won: {values} (first to {target})", values="wins", by="seat"),
    sheet=(
        Column("Winner", (Case("{winner|name}"),)),
        Column("{name}", (Case("{wins.{seat}}"),), by="seat"),
    ),
    settings=(Setting("format", "Format", "format", "text", "first-to-3"),),
    examples=Examples(moves=("H1 draw",), results=("result H0",)),
    acting="turn",
    acting_word="to draw",
)
"""Draw high's presentation descriptor."""

__all__ = ["PRESENTATION"]
