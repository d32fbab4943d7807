"""CPU time to make one cutthroat Swiss round (domain/fixtures/cutthroat.py) by entrant count.

    python bench/cutthroat_round.py                 # 6 to 99 entrants, 5 runs each
    python bench/cutthroat_round.py --counts 12 15 --runs 9

Each run is a round for random scores (0-3 points) and 3 x count random pairs that
already shared a table, ranked by score; the figures are process CPU seconds (min,
median, max over the runs) and the rematches the round could not avoid. Up to
``EXACT_TABLES`` tables (12 playing) every split is tried; above, greedy and swaps.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction

from domain.fixtures.cutthroat import EXACT_TABLES, cutthroat_round


def main() -> None:
    """Print the CPU time of one round per entrant count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[6, 9, 12, 14, 15, 30, 60, 99])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"exact up to {EXACT_TABLES} tables; CPU seconds per round (min / median / max)")
    for count in args.counts:
        times, rematches = [], []
        for run in range(args.runs):
            rng = random.Random(count * 1000 + run)
            entrants = list(range(count))
            scores = {e: Fraction(rng.randint(0, 3)) for e in entrants}
            met = {frozenset(rng.sample(entrants, 2)): 1 for _ in range(3 * count)}
            ranked = sorted(entrants, key=lambda e: (-scores[e], e))
            start = time.process_time()
            made = cutthroat_round(ranked, scores, met, {})
            times.append(time.process_time() - start)
            rematches.append(made.rematches)
        print(
            f"{count:3d} entrants: {min(times):.3f} / {statistics.median(times):.3f} / "
            f"{max(times):.3f} s, rematches {rematches}"
        )


if __name__ == "__main__":
    main()
