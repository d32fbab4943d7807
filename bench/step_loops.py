"""The loops ``bench/cuttle_step.py`` and ``bench/kozel_step.py`` time, shared.

Both step an engine's recorded moves as an import does: ``match_loop`` decides and
folds whole matches through ``domain.stream.step``; ``rounds_of`` cuts them into
rounds (deals) of set-up data and move texts for an engine-alone loop; ``timed``
gives CPU µs per event.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar

from domain.logs.commands import Step
from domain.stream import MatchState, step

Round = tuple[dict[str, Any], list[str]]
"""A round's (or deal's) set-up data and its move texts in order."""
T = TypeVar("T")


def rounds_of(matches: list[list[Step]], started: str) -> list[Round]:
    """Return each round's set-up data and move texts, by stepping the matches once.

    ``started`` is the event type that opens a round: ``RoundStarted`` or ``DealStarted``.
    """
    rounds: list[Round] = []
    for match in matches:
        state = MatchState()
        for item in match:
            new, state = step(state, item.command)
            move = getattr(item.command, "move", None)
            if move is not None:
                rounds[-1][1].append(move)
            rounds.extend((e.data["setup"], []) for e in new if e.type == started)
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


def engine_loop(
    engine: Any,
    setup_from_data: Callable[[dict[str, Any]], Any],
) -> Callable[[list[Round]], int]:
    """Return a loop that steps ``engine`` alone through every round's moves.

    ``engine`` is the game's module (``step`` and ``initial_position``); the loop
    returns the events the engine gives.
    """

    def loop(rounds: list[Round]) -> int:
        count = 0
        engine_step, initial_position = engine.step, engine.initial_position
        for setup, texts in rounds:
            position = initial_position(setup_from_data(setup))
            for text in texts:
                events, position = engine_step(position, text)
                count += len(events)
        return count

    return loop


def timed(loop: Callable[[T], int], work: T) -> float:
    """Run ``loop`` once over ``work``; return CPU µs per event."""
    clock = time.process_time
    started = clock()
    events = loop(work)
    return (clock() - started) / events * 1e6


def print_results(title: str, results: dict[str, list[float]]) -> None:
    """Print the best and median µs per event of each loop under ``title``."""
    print(title)
    for name, values in results.items():
        print(f"  {name:<12} best {min(values):6.2f}  median {statistics.median(values):6.2f}")
