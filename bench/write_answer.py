"""Client CPU of a write's answer: rendering it, and sending a batch's answers to store.

    python bench/write_answer.py              # 9 interleaved runs of 2,000 answers each
    python bench/write_answer.py --runs 5 --answers 500

No server, no database: the answers are built from real match states (a Kozel and a
Cuttle match played half a round by the load plans' seeded playouts), so the figures
are this process's CPU time alone, each way measured in turn within every run.

Rendering a move's answer (``RecordedOut``, whose ``match`` is the whole public view):
- ``former``: the model dumped to a dict and the dict encoded by msgspec (what
  Litestar's pydantic plugin does with a returned model); ``former keyed`` also
  ``json.dumps`` the dict, as the stored answer was made;
- ``now``: ``model_dump_json`` once (api.idempotency.Answer), sent and stored as is.
The two are checked byte for byte equal first.

Sending a group-commit batch's answers (``--batch``, 7: the mean keyed batch seen) as
the INSERT's parameter, per answer: a list of JSON texts in text form (psycopg quotes
every element with a regular expression), one JSON array text (the way before
answers were kept as text), and the list in binary form (store.idempotency.store_answers,
a ``text[]`` kept as sent).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from psycopg.adapt import PyFormat, Transformer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.matches import recorded_out
from bench.load_plan import plan_match
from domain.events import RecordedEvent
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, StartRound, step
from store.recorder import Recorded


def half_played(game: str, players: list[str], rng: random.Random) -> Recorded:
    """Return what recording a move half way through a planned first round gave."""
    script = plan_match(game, players, rng)
    body = script.body
    config = MatchConfig(
        game=game,
        variant=body.get("variant") or ("standard" if game == "cuttle" else "to12"),
        players=tuple(players),
        first_dealer=body.get("first_dealer") or 0,
        dealing=body.get("dealing", "scorer"),
        format=body.get("format"),
        options=body.get("options") or {},
    )
    events, state = step(MatchState(), CreateMatch(config))
    version = len(events)
    deal, moves = script.rounds[0]
    events, state = step(state, StartRound(deal))
    version += len(events)
    for move in moves[: len(moves) // 2]:
        events, state = step(state, Play(move))
        version += len(events)
    now = datetime.now(UTC)
    recorded = tuple(
        RecordedEvent(
            1000 + i,
            "bench",
            version - len(events) + 1 + i,
            uuid.uuid4(),
            event.type,
            dict(event.data),
            {"token_id": str(uuid.uuid4()), "role": "scorer"},
            now,
            "ab" * 32,
        )
        for i, event in enumerate(events)
    )
    return Recorded("bench", version, recorded, state)


def medians(ways: dict[str, Callable[[], object]], runs: int, per_run: int) -> dict[str, float]:
    """Return each way's median CPU µs a call over ``runs`` interleaved runs."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(runs):
        for name, way in ways.items():
            started = time.process_time()
            for _ in range(per_run):
                way()
            times[name].append((time.process_time() - started) / per_run * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    """Print both side-by-side figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--answers", type=int, default=2000, help="answers rendered a run")
    parser.add_argument("--batch", type=int, default=7, help="answers a stored batch")
    args = parser.parse_args()

    rng = random.Random(7)
    players = [str(uuid.uuid4()) for _ in range(4)]
    answers = [half_played("kozel", players, rng), half_played("cuttle", players[:2], rng)]
    match_id = uuid.uuid4()

    def former(recorded: Recorded) -> bytes:
        return msgspec.json.encode(recorded_out(match_id, recorded, None).model_dump(mode="json"))

    def former_keyed(recorded: Recorded) -> bytes:
        body = recorded_out(match_id, recorded, None).model_dump(mode="json")
        json.dumps(body)
        return msgspec.json.encode(body)

    def now(recorded: Recorded) -> bytes:
        return recorded_out(match_id, recorded, None).model_dump_json().encode()

    for recorded in answers:
        assert former(recorded) == now(recorded), "the rendering changed"
    turn = iter(range(1 << 62))

    def each(render: Callable[[Recorded], bytes]) -> Callable[[], object]:
        return lambda: render(answers[next(turn) % len(answers)])

    rendered = medians(
        {"former": each(former), "former keyed": each(former_keyed), "now": each(now)},
        args.runs,
        args.answers,
    )
    print(f"rendering a move's answer ({[len(now(r)) for r in answers]} bytes), CPU a call:")
    for name, value in rendered.items():
        print(f"  {name:13s} {value:7.1f} µs")
    print(
        f"  now/former {rendered['now'] / rendered['former']:.2f}x, "
        f"now/former keyed {rendered['now'] / rendered['former keyed']:.2f}x"
    )

    bodies = [now(answers[i % len(answers)]).decode() for i in range(args.batch)]

    def as_list() -> object:
        return Transformer().dump_sequence([bodies], [PyFormat.AUTO])

    def as_array() -> object:
        return Transformer().dump_sequence(["[" + ",".join(bodies) + "]"], [PyFormat.AUTO])

    def as_binary() -> object:
        return Transformer().dump_sequence([bodies], [PyFormat.BINARY])

    dumped = medians(
        {"text list": as_list, "one JSON array": as_array, "binary list": as_binary},
        args.runs,
        args.answers // 10,
    )
    print(f"sending a batch of {args.batch} answers to store, CPU an answer:")
    for name, value in dumped.items():
        print(f"  {name:15s} {value / args.batch:7.1f} µs")
    print(f"  binary list / text list {dumped['binary list'] / dumped['text list']:.4f}x")


if __name__ == "__main__":
    main()
