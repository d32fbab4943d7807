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
from domain import cuttle  # noqa: E402
from domain.logs.commands import Step, steps_from_events  # noqa: E402
from domain.stream import MatchState, step  # noqa: E402

Round = tuple[dict[str, Any], list[str]]
T = TypeVar("T")


def rounds_of(matches: list[list[Step]]) -> list[Round]:
    """Return each round's set-up data and move texts, by stepping the matches once."""
    rounds: list[Round] = []
    for match in matches:
        state = MatchState()
        for item in match:
            new, state = step(state, item.command)
            move = getattr(item.command, "move", None)
            if move is not None:
                rounds[-1][1].append(move)
            rounds.extend((e.data["setup"], []) for e in new if e.type == "RoundStarted")
    return rounds


def match_loop(matches: list[list[Step]]) -> int:
    """Decide and fold every command as the importer does; return the events recorded."""
    count = 0
    for match in matches:
        state = MatchState()
        for item in match:
            new, state = step(state, item.command)
            count += len(new)
    return count


def engine_loop(rounds: list[Round]) -> int:
    """Step the engine alone through every round's moves; return the events it gives."""
    count = 0
    cuttle_step, initial_position, from_data = (
        cuttle.step,
        cuttle.initial_position,
        cuttle.RoundSetup.from_data,
    )
    for setup, texts in rounds:
        position = initial_position(from_data(setup))
        for text in texts:
            events, position = cuttle_step(position, text)
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
        results["engine"].append(timed(engine_loop, rounds_of(matches)))
    print(
        f"{args.matches} Cuttle {args.variant} matches a repeat; "
        f"CPU µs per event over {args.repeats} repeats:"
    )
    for name, values in results.items():
        print(f"  {name:<12} best {min(values):6.2f}  median {statistics.median(values):6.2f}")


if __name__ == "__main__":
    main()
