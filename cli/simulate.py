"""``matchlog simulate``: random legal matches in the canonical log format.

For demos, benchmarks and tests. Everything comes from one seeded generator (decks,
moves, ids, times), so the same arguments always write the same bytes.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from cli.errors import friendly_errors
from domain.events import Event
from domain.logs.base import LogEvent, LogHeader, LogPlayer
from domain.logs.jsonl import event_line, format_time, header_line
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, decide, fold, rules_for
from store.recorder import shuffled_deal

_SKIPPED = frozenset({"resign", "offer-draw", "accept-draw", "decline-draw"})
_START = datetime(2026, 1, 1, tzinfo=UTC)
MOVE_CAP = 3_000
"""A Cuttle classic round may loop without end; a simulated match stops trying here."""


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def simulate_match(
    rng: random.Random, game: str, variant: str, *, fmt: str | None, options: dict[str, Any]
) -> list[Event] | None:
    """Play one random legal server-dealt match; ``None`` if it ran past ``MOVE_CAP``."""
    seats = rules_for(game).seats(MatchConfig(game, variant, (), 0))
    config = MatchConfig(
        game,
        variant,
        tuple(_uuid(rng) for _ in range(seats)),
        rng.randrange(seats),
        format=fmt,
        options=options,
        first_dealer_drawn=True,
    )
    state = MatchState()
    events = decide(state, CreateMatch(config, shuffled_deal(config, rng)))
    state = fold(events, state)
    for _ in range(MOVE_CAP):
        if state.is_over:
            return events
        assert state.config is not None
        moves = [m.text() for m in state.rules.legal_moves(state.position)]
        choices = [m for m in moves if m.split()[1:2] and m.split()[1] not in _SKIPPED] or moves
        new = decide(state, Play(rng.choice(choices), next_deal=shuffled_deal(state.config, rng)))
        state = fold(new, state)
        events.extend(new)
    return None


def simulated_lines(
    game: str, variant: str, matches: int, seed: int, *, fmt: str | None, options: dict[str, Any]
) -> Iterator[str]:
    """Yield the canonical log lines of ``matches`` random matches."""
    # Game and variant are part of the seed, so files simulated for different games
    # with one seed never share an id.
    rng = random.Random(f"{game}:{variant}:{seed}")
    moment = _START
    written = 0
    while written < matches:
        events = simulate_match(rng, game, variant, fmt=fmt, options=options)
        if events is None:
            continue
        match_id = _uuid(rng)
        logged: list[LogEvent] = []
        for version, event in enumerate(events, start=1):
            moment += timedelta(milliseconds=rng.randrange(500, 20_000))
            logged.append(
                LogEvent(0, version, event.type, event.data, _uuid(rng), format_time(moment), {})
            )
        config = MatchConfig.from_data(events[0].data)
        ended = logged[-1].recorded_at if events[-1].type == "MatchEnded" else None
        header = LogHeader(
            match_id=match_id,
            game=config.game,
            variant=config.variant,
            players=tuple(
                LogPlayer(seat, pid, f"Player {pid[:8]}") for seat, pid in enumerate(config.players)
            ),
            first_dealer=config.first_dealer,
            first_dealer_drawn=config.first_dealer_drawn,
            dealing=config.dealing,
            format=config.format,
            options=dict(config.options),
            rules_version=config.rules_version,
            created_at=logged[0].recorded_at,
            ended_at=ended,
            events=len(logged),
        )
        yield header_line(header)
        for entry in logged:
            yield event_line(entry)
        written += 1
        moment += timedelta(minutes=rng.randrange(1, 30))


def write_simulated(out: TextIO, lines: Iterator[str]) -> int:
    """Write lines to ``out``; return how many were written."""
    count = 0
    for line in lines:
        out.write(line + "\n")
        count += 1
    return count


def simulate(
    game: Annotated[str, typer.Option(help="cuttle or kozel.")],
    variant: Annotated[
        str, typer.Option(help="Cuttle: classic, standard or cutthroat; Kozel: default.")
    ] = "",
    matches: Annotated[int, typer.Option(min=1, help="How many matches to write.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed writes the same file.")] = 0,
    out: Annotated[Path | None, typer.Option(help="File to write; stdout when left out.")] = None,
    format: Annotated[
        str, typer.Option("--format", help="Cuttle series format (quick, short, normal ...).")
    ] = "short",
    loss_limit: Annotated[int, typer.Option(help="Kozel: loss points that end the match.")] = 4,
) -> None:
    """Write random legal server-dealt matches in the canonical JSON Lines format."""
    with friendly_errors():
        rules = rules_for(game)
        chosen = variant or rules.default_variant
        fmt, options = rules.cli_settings(format, loss_limit)
        rules.validate(MatchConfig(game, chosen, (), 0, format=fmt, options=options))
        lines = simulated_lines(game, chosen, matches, seed, fmt=fmt, options=options)
        if out is None:
            write_simulated(typer.get_text_stream("stdout"), lines)
        else:
            with out.open("w", encoding="utf-8") as handle:
                count = write_simulated(handle, lines)
            typer.echo(f"{matches} matches, {count - matches} events written to {out}", err=True)
