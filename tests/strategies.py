"""Hypothesis strategies shared by the test suites, one section per subject."""

from __future__ import annotations

from hypothesis import strategies as st

from domain.cards import Card
from domain.kozel import DealSetup, KozelOptions
from domain.kozel.pack import PACK

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
