"""What a takeback costs the recorder: refolding a whole match, against one more event.

    python bench/takeback_fold.py --repeats 7

Builds one whole scorer-dealt match per game from random legal moves, then prints
the median time of ``fold_stream`` over its events (the recorder's refold after a
``TakenBack``) and of folding one event onto a state (its normal, incremental path).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.stream import (
    CreateMatch,
    MatchConfig,
    Play,
    StartRound,
    VersionedEvent,
    decide,
    evolve,
    fold_stream,
    fold_versioned,
    rules_for,
)

CONFIGS = {
    "cuttle": MatchConfig("cuttle", "standard", ("a", "b"), 0, "scorer", "normal"),
    "kozel": MatchConfig("kozel", "default", ("a", "b", "c", "d"), 0, "scorer", None, {}),
}


def whole_match(config: MatchConfig, rng: random.Random) -> list[VersionedEvent]:
    """Return every event of a match of random legal moves, numbered from 1."""
    pairs: list[VersionedEvent] = []
    state = fold_versioned([])

    def record(command: object) -> None:
        nonlocal state
        new = list(enumerate(decide(state, command), start=len(pairs) + 1))  # type: ignore[arg-type]
        pairs.extend(new)
        state = fold_versioned(new, state)

    record(CreateMatch(config))
    rules = rules_for(config.game)
    while not state.is_over and len(pairs) < 20_000:
        if state.position is None:
            deck = list(rules.deal_spec(config).pack)
            rng.shuffle(deck)
            deal: dict[str, object] = {"deck": [c.text() for c in deck]}
            if config.game == "kozel":
                deal["indicator_position"] = 10
            record(StartRound(deal))
            continue
        legal = [m.text() for m in rules.legal_moves(state.position)]
        record(Play(rng.choice(legal)))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game, config in CONFIGS.items():
        pairs = whole_match(config, random.Random(args.seed))
        refolds, steps = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            state = fold_stream(pairs)
            refolds.append(time.perf_counter() - start)
            before = fold_stream(pairs[:-1])
            start = time.perf_counter()
            evolve(before, pairs[-1][1], pairs[-1][0])
            steps.append(time.perf_counter() - start)
        assert state.is_over
        print(
            f"{game}: {len(pairs)} events; refold median {statistics.median(refolds) * 1e3:.1f} ms"
            f" (runs {', '.join(f'{r * 1e3:.1f}' for r in refolds)});"
            f" one event median {statistics.median(steps) * 1e6:.0f} µs; seed {args.seed}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
