"""Instructions per command of ``domain.stream.step``, for callgrind (exact, unlike timings).

    valgrind --tool=callgrind --callgrind-out-file=cg.0 python bench/step_instructions.py 0
    valgrind --tool=callgrind --callgrind-out-file=cg.40 python bench/step_instructions.py 40

Simulates 3 Cuttle ``short`` and 3 Kozel (loss limit 4) matches, then decides and folds
every command ``LOOPS`` times (``bench.step_loops.match_loop``). The difference of the two
runs' ``summary:`` lines, divided by ``LOOPS`` times the command count printed, is the
match layer and engines' instructions per command, set-up and start-up left out. To
compare two trees, run each tree's copy of this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.import_phases import read_all  # noqa: E402
from bench.step_loops import match_loop  # noqa: E402
from cli.simulate import simulated_lines  # noqa: E402
from domain.logs.commands import Step, steps_from_events  # noqa: E402

_KINDS = (("cuttle", "standard", "short", {}), ("kozel", "default", None, {"loss_limit": 4}))


def main() -> None:
    """Step the simulated matches' commands ``LOOPS`` times; print how many there are."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("loops", type=int, help="times every command is stepped (0: set-up only)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    matches: list[list[Step]] = []
    for game, variant, fmt, options in _KINDS:
        for log in read_all(
            list(simulated_lines(game, variant, 3, args.seed, fmt=fmt, options=options))
        ):
            steps, errors = steps_from_events(log)
            assert not errors, errors
            matches.append(steps)
    for _ in range(args.loops):
        match_loop(matches)
    print(f"{sum(len(m) for m in matches)} commands, stepped {args.loops} times")


if __name__ == "__main__":
    main()
