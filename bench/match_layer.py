"""The match layer's cost per event on the import path: CPU µs of decide+fold less the engine.

    python bench/match_layer.py                    # 100 matches a game a repeat, 5 repeats
    python bench/match_layer.py --matches 200 --repeats 7

For each game it simulates matches in-process as ``bench/import_phases.py`` does
(Cuttle standard ``short``, Kozel with loss limit 4), turns their events into
commands, and times two loops in CPU time (``time.process_time``):

- ``decide+fold``: ``domain.stream.step`` of every command, as the importer runs it;
- ``engine``: the game engine's ``step`` of every logged move, round by round, from
  the round's ``initial_position`` (the engine alone), over other matches of the
  same kind (a second seed), so neither loop finds the other's caches warm.

Both are divided by their matches' logged events; ``match layer`` is their
difference, repeat by repeat. Each repeat reads matches of its own seeds, so caches
are no warmer than for a fresh import; medians over ``--repeats`` are printed. To
compare two trees, run this same script from each (``python <tree>/bench/match_layer.py``)
alternately.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.import_phases import read_all  # noqa: E402
from bench.kozel_step import match_loop  # noqa: E402
from cli.simulate import simulated_lines  # noqa: E402
from domain import cuttle, kozel  # noqa: E402
from domain.logs.base import MatchLog  # noqa: E402
from domain.logs.commands import steps_from_events  # noqa: E402
from domain.stream import MatchConfig, move_text, rules_for  # noqa: E402

Round = tuple[dict[str, Any], list[str]]
Engine = tuple[Callable[[Any, str], Any], Callable[[dict[str, Any]], Any]]

ENGINES: dict[str, Engine] = {
    "cuttle": (cuttle.step, lambda s: cuttle.initial_position(cuttle.RoundSetup.from_data(s))),
    "kozel": (kozel.step, lambda s: kozel.initial_position(kozel.DealSetup.from_data(s))),
}


def simulated(game: str, matches: int, seed: int) -> list[MatchLog]:
    """Return ``matches`` simulated matches of ``game``, read back from their log lines."""
    if game == "cuttle":
        lines = simulated_lines("cuttle", "standard", matches, seed, fmt="short", options={})
    else:
        options = {"loss_limit": 4}
        lines = simulated_lines("kozel", "default", matches, seed, fmt=None, options=options)
    return read_all(list(lines))


def rounds_of(logs: list[MatchLog]) -> list[Round]:
    """Return each round's set-up data and move texts, read from the logged events."""
    rounds: list[Round] = []
    for log in logs:
        config = MatchConfig.from_data(log.events[0].data)
        started = rules_for(config.game).round_started
        for event in log.events:
            if event.type == started:
                rounds.append((dict(event.data["setup"]), []))
            elif (text := move_text(config, event)) is not None:
                rounds[-1][1].append(text)
    return rounds


def engine_loop(engine: Engine, rounds: list[Round]) -> None:
    """Step the engine alone through every round's moves."""
    engine_step, initial = engine
    for setup, texts in rounds:
        position = initial(setup)
        for text in texts:
            _, position = engine_step(position, text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="matches of each game a repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    clock = time.process_time
    print(f"{args.matches} matches a game a repeat; CPU µs per event, median of {args.repeats}:")
    for game in ENGINES:
        results: dict[str, list[float]] = {"decide+fold": [], "engine": [], "match layer": []}
        for repeat in range(args.repeats):
            # Each loop gets matches of its own seed: neither finds the other's caches warm.
            logs = simulated(game, args.matches, args.seed + repeat)
            matches = [steps_from_events(log)[0] for log in logs]
            started = clock()
            events = match_loop(matches)
            both = (clock() - started) / events * 1e6
            logs = simulated(game, args.matches, args.seed + repeat + 1000)
            rounds = rounds_of(logs)
            started = clock()
            engine_loop(ENGINES[game], rounds)
            alone = (clock() - started) / sum(len(log.events) for log in logs) * 1e6
            results["decide+fold"].append(both)
            results["engine"].append(alone)
            results["match layer"].append(both - alone)
        row = "  ".join(f"{k} {statistics.median(v):6.2f}" for k, v in results.items())
        print(f"  {game:<7} {row}")


if __name__ == "__main__":
    main()
