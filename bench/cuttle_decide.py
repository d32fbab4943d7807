"""Deciding and folding recorded Cuttle moves, as ``matchlog import`` does: moves per second.

    python bench/cuttle_decide.py                          # 200 matches per variant
    python bench/cuttle_decide.py --matches 100 --variant classic --repeats 5

It writes simulated server-dealt matches with ``matchlog simulate`` (seed 7 unless
told), reads them back, and times two loops over every recorded move, per variant:

- ``engine``: ``decide(position, move)`` then ``evolve`` of each of its events,
  round by round (the Cuttle engine alone);
- ``replay``: ``domain.logs.commands.replay`` of each match's steps, the decider
  ``matchlog import`` runs (match stream, series scoring and the engine).

Each loop runs over and over for ``--seconds`` per repeat, ``--repeats`` times; the
median rate per wall-clock second and per CPU second of this process is printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain import cuttle  # noqa: E402
from domain.logs.base import Lines, MatchBuilder, MatchLog  # noqa: E402
from domain.logs.commands import Step, replay, steps_from_events  # noqa: E402
from domain.logs.jsonl import read_match  # noqa: E402

VARIANTS = tuple(v.value for v in cuttle.Variant)

Round = tuple[cuttle.RoundSetup, list[str]]


def simulate(variant: str, matches: int, seed: int) -> list[MatchLog]:
    """Write ``matches`` simulated matches of ``variant`` and read them back."""
    with tempfile.TemporaryDirectory(prefix="matchlog-bench-") as tmp:
        out = Path(tmp) / "matches.jsonl"
        subprocess.run(
            [sys.executable, "-m", "cli.main", "simulate", "--game", "cuttle", "--variant",
             variant, "--matches", str(matches), "--seed", str(seed), "--out", str(out)],
            cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        lines = Lines(out.read_text().splitlines())
    logs = []
    while (log := read_match(lines, MatchBuilder())) is not None:
        if log.errors:
            raise SystemExit(f"simulated log does not read back: {log.errors[0]}")
        logs.append(log)
    return logs


def rounds_of(log: MatchLog) -> list[Round]:
    """Return each round's set-up and recorded moves."""
    rounds: list[Round] = []
    for event in log.events:
        if event.type == "RoundStarted":
            rounds.append((cuttle.RoundSetup.from_data(event.data["setup"]), []))
        elif event.type == "MovePlayed":
            rounds[-1][1].append(str(event.data["move"]))
    return rounds


def engine_loop(rounds: list[Round]) -> int:
    """Decide each move and fold its events; return the number of moves."""
    decide, evolve = cuttle.decide, cuttle.evolve
    moves = 0
    for setup, texts in rounds:
        position = cuttle.initial_position(setup)
        for text in texts:
            for event in decide(position, text):
                position = evolve(position, event)
        moves += len(texts)
    return moves


def replay_loop(matches: list[list[Step]]) -> int:
    """Replay each match's steps through the match decider; return the number of steps."""
    steps = 0
    for match in matches:
        replayed = replay(match)
        if replayed.error is not None:
            raise SystemExit(f"a simulated match does not replay: {replayed.error}")
        steps += len(match)
    return steps


def measure(
    name: str, variant: str, logs: int, loop: Callable[[], int], seconds: float, repeats: int
) -> None:
    """Run ``loop`` for ``seconds``, ``repeats`` times, and print the median rates."""
    rates: list[float] = []
    cpu_rates: list[float] = []
    for _ in range(repeats):
        count = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        while time.perf_counter() < start + seconds:
            count += loop()
        rates.append(count / (time.perf_counter() - start))
        cpu_rates.append(count / max(time.process_time() - cpu_start, 1e-9))
    unit = "moves" if name == "engine" else "steps"
    print(
        f"cuttle {variant} {name}: median {statistics.median(rates):,.0f} {unit}/s "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; "
        f"per CPU second {statistics.median(cpu_rates):,.0f}; {logs} matches)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=VARIANTS, help="default: every variant")
    parser.add_argument("--matches", type=int, default=200, help="simulated matches per variant")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per repeat")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; the median is quoted")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    for variant in [args.variant] if args.variant else VARIANTS:
        logs = simulate(variant, args.matches, args.seed)
        rounds = [r for log in logs for r in rounds_of(log)]
        matches = []
        for log in logs:
            steps, errors = steps_from_events(log)
            if errors:
                raise SystemExit(f"a simulated match gives no steps: {errors[0]}")
            matches.append(steps)
        measure(
            "engine", variant, len(logs), partial(engine_loop, rounds), args.seconds, args.repeats
        )
        measure(
            "replay", variant, len(logs), partial(replay_loop, matches), args.seconds, args.repeats
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
