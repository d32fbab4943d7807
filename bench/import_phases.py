"""Where an import's Python time goes: CPU microseconds per event for each phase.

    python bench/import_phases.py                  # 100 Cuttle + 100 Kozel matches
    python bench/import_phases.py --matches 400 --repeats 5

It simulates the same mix as ``bench/import.py`` (Cuttle standard ``short``, Kozel
with loss limit 4), then runs the importer's per-match work without a database, phase
by phase over all matches: reading the JSON lines, turning events into commands,
deciding and folding every command (``domain.stream.step``, as the recorder does),
comparing with the log, and building the append's parameters. Each phase is timed in
CPU time (``time.process_time``), so other load on the machine disturbs it less than
wall time; the best of ``--repeats`` is printed. Each repeat reads matches of its own
seed: a second pass over the same lines would find the engines' caches (Cuttle's
move texts, for one) warmer than an import of new matches ever does.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cli.simulate import simulated_lines  # noqa: E402
from domain.events import Event  # noqa: E402
from domain.logs import jsonl  # noqa: E402
from domain.logs.base import Lines, MatchBuilder, MatchLog  # noqa: E402
from domain.logs.commands import first_difference, steps_from_events  # noqa: E402
from domain.stream import MatchState, step  # noqa: E402
from service.imports import loads_line  # noqa: E402
from store.events import _append_params  # noqa: E402
from store.recorder import EventIdentity, _new_events  # noqa: E402


def read_all(lines: list[str]) -> list[MatchLog]:
    """Read every match of the canonical log ``lines``."""
    reader = Lines(lines)
    logs = []
    while (log := jsonl.read_match(reader, MatchBuilder(), loads=loads_line)) is not None:
        logs.append(log)
    return logs


def one_pass(lines: list[str]) -> tuple[int, dict[str, float]]:
    """Run every phase once over all matches; return the events and seconds per phase."""
    clock = time.process_time
    seconds: dict[str, float] = {}
    started = clock()
    logs = read_all(lines)
    seconds["read"] = clock() - started
    started = clock()
    steps = [steps_from_events(log)[0] for log in logs]
    seconds["to commands"] = clock() - started
    started = clock()
    decided: list[list[Event]] = []
    for match in steps:
        state, events = MatchState(), []
        for item in match:
            new, state = step(state, item.command)
            events.extend(new)
        decided.append(events)
    seconds["decide+fold"] = clock() - started
    started = clock()
    for log, events in zip(logs, decided, strict=True):
        assert first_difference(log.events, events) is None
    seconds["compare"] = clock() - started
    started = clock()
    for log, events in zip(logs, decided, strict=True):
        assert log.header is not None and log.header.match_id is not None
        identities = [
            EventIdentity(UUID(e.event_id), datetime.fromisoformat(e.recorded_at), e.metadata)
            for e in log.events
            if e.event_id is not None and e.recorded_at is not None
        ]
        stream = f"{log.header.game}-{log.header.match_id}"
        _append_params(stream, _new_events(events, {}, identities), 0, None)
    seconds["append params"] = clock() - started
    return sum(len(events) for events in decided), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="half Cuttle, half Kozel")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    half = args.matches // 2
    best: dict[str, float] = {}
    for repeat in range(args.repeats):
        seed = args.seed + repeat
        lines = list(
            simulated_lines("cuttle", "standard", half, seed, fmt="short", options={})
        ) + list(
            simulated_lines(
                "kozel", "default", args.matches - half, seed, fmt=None, options={"loss_limit": 4}
            )
        )
        events, seconds = one_pass(lines)
        for phase, spent in seconds.items():
            best[phase] = min(best.get(phase, float("inf")), spent / events)
    print(f"{args.matches} matches a repeat; CPU µs per event, best of {args.repeats}:")
    for phase, spent in best.items():
        print(f"  {phase:<14} {spent * 1e6:6.1f}")
    total = sum(best.values())
    print(f"  {'total':<14} {total * 1e6:6.1f}  (a ceiling of {1 / total:,.0f} events/s)")


if __name__ == "__main__":
    main()
