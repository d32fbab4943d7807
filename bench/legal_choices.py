"""What a pad's choices cost GET legal-moves: CPU milliseconds per position, in-process.

    python bench/legal_choices.py                 # 30 physical matches a variant, 7 repeats

It plays random physical-deal Cuttle rounds (standard and cutthroat) and keeps two
positions: the one with the most moves while a seat acts, and the one with the most
moves while the scorer must name cards (every ordering of the unplaced cards). For
each it times, interleaved, listing the moves' texts (what GET legal-moves did
before choices) and ``domain.stream.choices`` (each move decided and described), and
prints the medians in CPU time (``time.process_time``) and their ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.stream import (  # noqa: E402
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    choices,
    step,
)
from tests.recording.play import physical_deal  # noqa: E402

NAMES = ["Ann", "Bob", "Cy"]


def positions(variant: str, seed: int) -> list[tuple[MatchState, int]]:
    """Every position of one random physical round, with its number of moves."""
    rng = random.Random(seed)
    seats = 3 if variant == "cutthroat" else 2
    config = MatchConfig("cuttle", variant, tuple("abc"[:seats]), 0, dealing="physical")
    state = step(MatchState(), CreateMatch(config))[1]
    assert state.series is not None
    deal = physical_deal("cuttle", variant, state.series.dealer, rng)
    state = step(state, StartRound(deal))[1]
    found = []
    while state.position is not None and not state.is_over:
        moves = list(state.rules.legal_moves(state.position))
        found.append((state, len(moves)))
        state = step(state, Play(rng.choice(moves).text()))[1]
    return found


def timed(work: Any) -> float:
    """CPU seconds of one call."""
    start = time.process_time()
    work()
    return time.process_time() - start


def compare(label: str, state: MatchState, repeats: int) -> None:
    """Time listing against choices on one position, interleaved; print medians."""
    rules = state.rules
    listing: list[float] = []
    chosen: list[float] = []
    for _ in range(repeats):
        listing.append(timed(lambda: [m.text() for m in rules.legal_moves(state.position)]))
        chosen.append(timed(lambda: choices(state, rules.legal_moves(state.position), NAMES)))
    a, b = statistics.median(listing) * 1e3, statistics.median(chosen) * 1e3
    count = len(list(rules.legal_moves(state.position)))
    print(f"{label}: {count} moves; list {a:.2f} ms, choices {b:.2f} ms (x{b / a:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30, help="random rounds a variant")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    for variant in ("standard", "cutthroat"):
        acting: tuple[MatchState, int] | None = None
        naming: tuple[MatchState, int] | None = None
        for seed in range(args.matches):
            for state, count in positions(variant, seed):
                naming_now = state.rules.cards_awaited(state.position) > 0
                best = naming if naming_now else acting
                if best is None or count > best[1]:
                    if naming_now:
                        naming = (state, count)
                    else:
                        acting = (state, count)
        for label, kept in (("acting", acting), ("naming", naming)):
            if kept is not None:
                compare(f"{variant} {label}", kept[0], args.repeats)


if __name__ == "__main__":
    main()
