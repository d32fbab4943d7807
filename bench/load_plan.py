"""Planned matches for bench/api_load.py: legal move scripts and wrk plan files.

A script is a whole scorer-dealt match chosen beforehand with the rules engine (a
seeded random playout): its creation body, then each round's deal and moves as text.
The same script can be recorded again as a new match, so a few dozen scripts feed any
number of matches. ``write_plans`` creates the matches through the API and writes one
plan file per wrk connection in the format bench/wrk_moves.lua reads.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from domain.stream import CreateMatch, MatchConfig, Play, StartRound, decide, fold, rules_for


@dataclass
class MatchScript:
    """A whole match chosen in advance: its creation body, then rounds of moves."""

    body: dict[str, Any]
    rounds: list[tuple[dict[str, Any], list[str]]] = field(default_factory=list)

    @property
    def moves(self) -> int:
        """Return how many moves the script plays."""
        return sum(len(moves) for _, moves in self.rounds)


def plan_match(
    game: str, players: list[str], rng: random.Random, loss_limit: int = 12
) -> MatchScript:
    """Play a scorer-dealt match with random legal moves locally and keep its script.

    Cuttle is ``standard`` in the ``extended`` format; Kozel is ``default`` to
    ``loss_limit`` points.
    """
    variant = "standard" if game == "cuttle" else "default"
    fmt = "extended" if game == "cuttle" else None
    options = {} if game == "cuttle" else {"loss_limit": loss_limit}
    body = {
        "game": game,
        "variant": variant,
        "players": players,
        "dealing": "scorer",
        "first_dealer": 0,
        "format": fmt,
        "options": options or None,
    }
    config = MatchConfig(game, variant, tuple(players), 0, "scorer", fmt, options)
    rules = rules_for(game)
    state = fold(decide(fold([]), CreateMatch(config)))
    script = MatchScript(body)
    while not state.is_over:
        spec = rules.deal_spec(config)
        deck = list(spec.pack)
        rng.shuffle(deck)
        deal: dict[str, Any] = {"deck": " ".join(c.text() for c in deck)}
        if spec.indicator_positions is not None:
            deal["indicator_position"] = rng.choice(spec.indicator_positions)
        state = fold(decide(state, StartRound(deal)), state)
        moves: list[str] = []
        while state.position is not None and not state.is_over:
            move = rng.choice([m.text() for m in rules.legal_moves(state.position)])
            moves.append(move)
            state = fold(decide(state, Play(move)), state)
        script.rounds.append((deal, moves))
    return script


def plan_scripts(count: int, players: list[str], seed: int) -> list[MatchScript]:
    """Return ``count`` scripts, Kozel (four players) and Cuttle (the first two) alternating."""
    rng = random.Random(seed)
    return [
        plan_match("kozel", players, rng) if n % 2 == 0 else plan_match("cuttle", players[:2], rng)
        for n in range(count)
    ]


def script_lines(match_path: str, version: int, script: MatchScript) -> list[str]:
    """Return a script's plan lines for the match at ``match_path``, created at ``version``."""
    lines = []
    first = str(version)
    for deal, moves in script.rounds:
        lines.append(f"R\t{match_path}/rounds\t{first}\t{json.dumps(deal)}")
        first = "-"
        lines.extend(f"M\t{match_path}/moves\t-\t{json.dumps({'moves': [m]})}" for m in moves)
    return lines


def create_match(client: httpx.Client, script: MatchScript) -> tuple[str, int]:
    """Create a match for ``script`` through the API; return its path and version."""
    answer = client.post("/matches", json=script.body)
    answer.raise_for_status()
    return f"/matches/{answer.json()['id']}", int(answer.json()["version"])


def write_plans(
    directory: Path,
    scripts: list[MatchScript],
    connections: int,
    moves_each: int,
    client: httpx.Client | None,
) -> int:
    """Write ``connections`` plan files of at least ``moves_each`` moves; return the matches.

    With ``client`` every planned match is created through the API first; without one
    (the baseline, which checks nothing) the match ids are made up.
    """
    directory.mkdir(parents=True, exist_ok=True)
    made = 0
    for connection in range(connections):
        lines: list[str] = []
        planned = 0
        while planned < moves_each:
            script = scripts[made % len(scripts)]
            if client is None:
                path, version = f"/matches/baseline-{connection}-{made}", 1
            else:
                path, version = create_match(client, script)
            lines.extend(script_lines(path, version, script))
            planned += script.moves
            made += 1
        (directory / f"{connection}.plan").write_text("\n".join(lines) + "\n")
    return made
