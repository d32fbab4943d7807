"""Random legal playouts per game: prints rounds (deals) per second on one core.

    python bench/engine_playout.py cuttle --variant standard --seconds 5
    python bench/engine_playout.py kozel --seconds 5
    python bench/engine_playout.py kozel --variant default --rounds 2000 --repeats 1

Each round is set up from a random deck order, then random legal moves are played
(legal-move generation included) until the round ends. With ``--rounds`` every repeat
plays that many rounds instead of playing for ``--seconds``: with a fixed seed the work
is then the same on every run, for instruction counts (valgrind --tool=callgrind) to
compare two trees exactly; ``--rounds 0`` gives the start-up cost to subtract.
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
    module: ModuleType,
    variant: str,
    seconds: float,
    seed: int,
    repeats: int,
    fixed_rounds: int | None = None,
) -> None:
    """Play rounds for ``seconds`` (or ``fixed_rounds``) per repeat; print the rates.

    Rates are per wall-clock second; the median per CPU second of this process is
    printed too, since a shared machine's load moves wall-clock figures a lot.
    """
    rng = random.Random(seed)
    rates: list[float] = []
    cpu_rates: list[float] = []
    moves_per_round: list[float] = []
    for _ in range(repeats):
        rounds = moves = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        if fixed_rounds is None:
            deadline = start + seconds
            while time.perf_counter() < deadline:
                moves += module.play_round(rng, variant)
                rounds += 1
        else:
            for _ in range(fixed_rounds):
                moves += module.play_round(rng, variant)
            rounds = fixed_rounds
        elapsed = time.perf_counter() - start
        rates.append(rounds / max(elapsed, 1e-9))
        cpu_rates.append(rounds / max(time.process_time() - cpu_start, 1e-9))
        moves_per_round.append(moves / max(rounds, 1))
    print(
        f"{module.__name__.rsplit('.', 1)[-1]} {variant}: "
        f"median {statistics.median(rates):,.0f} rounds/s "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; "
        f"per CPU second {statistics.median(cpu_rates):,.0f}; "
        f"{statistics.mean(moves_per_round):.1f} moves/round; seed {seed})"
        + ("" if fixed_rounds is None else f" [{fixed_rounds} rounds a repeat, {moves} moves]")
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
        "--rounds", type=int, help="play this many rounds a repeat instead of --seconds"
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
