"""How the pages draw draw high: two seats, each with the card it drew, and the deck."""

from __future__ import annotations

from domain import presentation as ui

PRESENTATION = ui.Presentation(
    game="drawhigh",
    label="Draw high",
    round_word="hand",
    seat_letter="H",
    variants=(ui.Variant("duel", 2, ui.Pack(ranks="23456789TJQKA")),),
    zones=(
        ui.Zone("drawn", "Drawn", "cards", place="seat", cards="shown.{seat}"),
        ui.Zone("deck", "Deck ({count})", "stock", count="deck"),
    ),
    score=ui.Score(template="Hands won: {values} (first to {target})", values="wins", by="seat"),
    sheet=(
        ui.Column("Winner", (ui.Case("{winner|name}"),)),
        ui.Column("{name}", (ui.Case("{wins.{seat}}"),), by="seat"),
    ),
    settings=(ui.Setting("format", "Format", "format", "text", "first-to-3"),),
    examples=ui.Examples(moves=("H1 draw",), results=()),
    acting="turn",
    acting_word="to draw",
)
"""Draw high's presentation descriptor."""
