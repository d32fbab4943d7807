"""The Cuttle engine's cost per event on the import path: CPU microseconds per event.

    python bench/cuttle_step.py                     # 100 standard matches a repeat, 5 repeats
    python bench/cuttle_step.py --variant cutthroat --matches 200 --repeats 7

It simulates Cuttle matches in-process (``cli.simulate.simulated_lines``, format
``short``, as ``bench/import_phases.py`` does for standard), reads them back, turns
their events into commands, and times two loops in CPU time (``time.process_time``):

- ``decide+fold``: ``domain.stream.step`` of every command, as the importer runs it
  (match stream, series scoring and the engine);
- ``engine``: ``domain.cuttle.step`` of every recorded move, round by round, from the
  round's ``initial_position`` (the engine alone).

Both are divided by the number of events the match commands record. Each repeat
reads matches of its own seed, so caches are no warmer than for a fresh import;
best and median over ``--repeats`` are printed. To compare two trees, run this same
script from each (``python <tree>/bench/cuttle_step.py``) alternately.
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
from domain import cuttle  # noqa: E402
from domain.logs.commands import steps_from_events  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="Cuttle matches a repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--variant", choices=("classic", "standard", "cutthroat"), default="standard"
    )
    args = parser.parse_args()
    results: dict[str, list[float]] = {"decide+fold": [], "engine": []}
    for repeat in range(args.repeats):
        lines = list(
            simulated_lines(
                "cuttle", args.variant, args.matches, args.seed + repeat, fmt="short", options={}
            )
        )
        matches = [steps_from_events(log)[0] for log in read_all(lines)]
        results["decide+fold"].append(timed(match_loop, matches))
        results["engine"].append(
            timed(
                engine_loop(cuttle, cuttle.RoundSetup.from_data), rounds_of(matches, "RoundStarted")
            )
        )
    title = (
        f"{args.matches} Cuttle {args.variant} matches a repeat; "
        f"CPU µs per event over {args.repeats} repeats:"
    )
    print_results(title, results)


if __name__ == "__main__":
    main()
