"""Random legal playouts per game: prints rounds (deals) per second on one core.

    python bench/engine_playout.py cuttle --variant standard --seconds 5
    python bench/engine_playout.py kozel --seconds 5
    PYTHONHASHSEED=0 valgrind --tool=callgrind \
        python bench/engine_playout.py cuttle --rounds 300 --repeats 1

Each round is set up from a random deck order, then random legal moves are played
(legal-move generation included) until the round ends. ``--rounds`` plays a fixed
number of rounds per repeat instead of a time: the same rounds every run, so
callgrind's instruction count (``Collected``) compares two trees exactly, whatever
else the machine is doing.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAMES = ("cuttle", "kozel")


def load(game: str) -> ModuleType:
    """Import ``bench.playouts.<game>``."""
    return importlib.import_module(f"bench.playouts.{game}")


def measure(
    module: ModuleType, variant: str, seconds: float, seed: int, repeats: int, rounds: int | None
) -> None:
    """Play rounds for ``seconds`` (or ``rounds`` of them) per repeat; print each
    repeat's rate and the median.

    Rates are per wall-clock second; the median per CPU second of this process is
    printed too, since a shared machine's load moves wall-clock figures a lot.
    """
    rng = random.Random(seed)
    rates: list[float] = []
    cpu_rates: list[float] = []
    moves_per_round: list[float] = []
    for _ in range(repeats):
        played = moves = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        deadline = start + seconds
        while time.perf_counter() < deadline if rounds is None else played < rounds:
            moves += module.play_round(rng, variant)
            played += 1
        elapsed = time.perf_counter() - start
        rates.append(played / elapsed)
        cpu_rates.append(played / max(time.process_time() - cpu_start, 1e-9))
        moves_per_round.append(moves / played)
    print(
        f"{module.__name__.rsplit('.', 1)[-1]} {variant}: "
        f"median {statistics.median(rates):,.0f} rounds/s "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; "
        f"per CPU second {statistics.median(cpu_rates):,.0f}; "
        f"{statistics.mean(moves_per_round):.1f} moves/round; seed {seed})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--variant", help="variant to play (default: every variant of the game)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per repeat")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; the median is quoted")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--rounds", type=int, help="rounds per repeat instead of --seconds (same rounds each run)"
    )
    args = parser.parse_args(argv)
    module = load(args.game)
    variants = [args.variant] if args.variant else list(module.VARIANTS)
    for variant in variants:
        if variant not in module.VARIANTS:
            parser.error(
                f"unknown variant {variant!r} for {args.game}: {', '.join(module.VARIANTS)}"
            )
        measure(module, variant, args.seconds, args.seed, args.repeats, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
