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
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.import_phases import read_all  # noqa: E402
from cli.simulate import simulated_lines  # noqa: E402
from domain import kozel  # noqa: E402
from domain.logs.commands import Step, steps_from_events  # noqa: E402
from domain.stream import MatchState, step  # noqa: E402

Deal = tuple[dict[str, Any], list[str]]
T = TypeVar("T")


def deals_of(matches: list[list[Step]]) -> list[Deal]:
    """Return each deal's set-up data and move texts, by stepping the matches once."""
    deals: list[Deal] = []
    for match in matches:
        state = MatchState()
        for item in match:
            new, state = step(state, item.command)
            move = getattr(item.command, "move", None)
            if move is not None:
                deals[-1][1].append(move)
            deals.extend((e.data["setup"], []) for e in new if e.type == "DealStarted")
    return deals


def match_loop(matches: list[list[Step]]) -> int:
    """Decide and fold every command as the importer does; return the events recorded."""
    count = 0
    for match in matches:
        state = MatchState()
        for item in match:
            new, state = step(state, item.command)
            count += len(new)
    return count


def engine_loop(deals: list[Deal]) -> int:
    """Step the engine alone through every deal's moves; return the events it gives."""
    count = 0
    kozel_step, initial_position, from_data = (
        kozel.step,
        kozel.initial_position,
        kozel.DealSetup.from_data,
    )
    for setup, texts in deals:
        position = initial_position(from_data(setup))
        for text in texts:
            events, position = kozel_step(position, text)
            count += len(events)
    return count


def timed(loop: Callable[[T], int], work: T) -> float:
    """Run ``loop`` once over ``work``; return CPU µs per event."""
    clock = time.process_time
    started = clock()
    events = loop(work)
    return (clock() - started) / events * 1e6


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
        results["engine"].append(timed(engine_loop, deals_of(matches)))
    print(f"{args.matches} Kozel matches a repeat; CPU µs per event over {args.repeats} repeats:")
    for name, values in results.items():
        print(f"  {name:<12} best {min(values):6.2f}  median {statistics.median(values):6.2f}")


if __name__ == "__main__":
    main()
