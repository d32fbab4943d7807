"""The Kozel engine's cost per event on the import path: CPU microseconds per event.

    python bench/kozel_step.py                     # 100 matches a repeat, 5 repeats
    python bench/kozel_step.py --matches 200 --repeats 7

It simulates Kozel matches in-process (``cli.simulate.simulated_lines``, loss limit
4, as ``bench/import_phases.py`` does), reads them back, turns their events into
commands, and times two loops in CPU time (``time.process_time``):

- ``decide+fold``: ``domain.stream.step`` of every command, as the importer runs it
  (match stream, series scoring and the engine);
- ``engine``: ``domain.kozel.step`` of every recorded move, deal by deal, from the
  deal's ``initial_position`` (the engine alone).

Both are divided by the number of events the match commands record. Each repeat
reads matches of its own seed, so caches are no warmer than for a fresh import;
best and median over ``--repeats`` are printed. To compare two trees, run this same
script from each (``python <tree>/bench/kozel_step.py``) alternately.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.import_phases import read_all  # noqa: E402
from bench.step_loops import engine_loop, match_loop, print_results, rounds_of, timed  # noqa: E402
from cli.simulate import simulated_lines  # noqa: E402
from domain import kozel  # noqa: E402
from domain.logs.commands import steps_from_events  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="Kozel matches a repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    results: dict[str, list[float]] = {"decide+fold": [], "engine": []}
    for repeat in range(args.repeats):
        lines = list(
            simulated_lines(
                "kozel",
                "default",
                args.matches,
                args.seed + repeat,
                fmt=None,
                options={"loss_limit": 4},
            )
        )
        matches = [steps_from_events(log)[0] for log in read_all(lines)]
        results["decide+fold"].append(timed(match_loop, matches))
        results["engine"].append(
            timed(engine_loop(kozel, kozel.DealSetup.from_data), rounds_of(matches, "DealStarted"))
        )
    print_results(
        f"{args.matches} Kozel matches a repeat; CPU µs per event over {args.repeats} repeats:",
        results,
    )


if __name__ == "__main__":
    main()
