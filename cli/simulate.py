"""``matchlog simulate``: random legal matches in the canonical log format.

For demos, benchmarks and tests. Everything comes from one seeded generator (decks,
moves, ids, times), so the same arguments always write the same bytes.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from cli.errors import friendly_errors
from domain.errors import MalformedError
from domain.events import Event
from domain.logs.base import LogEvent, LogHeader, LogPlayer
from domain.logs.jsonl import event_line, format_time, header_line
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, decide, fold, rules_for
from service.dealers import shuffled_deal

_START = datetime(2026, 1, 1, tzinfo=UTC)
MOVE_CAP = 3_000
"""A Cuttle classic round may loop without end; a simulated match stops trying here."""


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


NAMES = (
    *("Ada", "Bell", "Cy", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jade", "Kit", "Lev"),
    *("Mia", "Ned", "Ola", "Pim", "Quin", "Rosa", "Sol", "Tam", "Uma", "Vik", "Wren", "Xia"),
    *("Yuri", "Zoe"),
)
"""First names of a simulated player pool; past the last, the names repeat numbered."""


@dataclass(frozen=True, slots=True)
class Season:
    """Who a season's matches are between, and the competition they count in."""

    players: tuple[tuple[str, str], ...] = ()
    """The pool (id, name) each match's seats are drawn from; empty: new players each match."""
    competition_id: str | None = None
    competition_name: str | None = None


def player_pool(rng: random.Random, size: int) -> tuple[tuple[str, str], ...]:
    """Return ``size`` players (id, name), their ids drawn from ``rng``."""
    names = [
        NAMES[n % len(NAMES)] + ("" if n < len(NAMES) else f" {n // len(NAMES) + 1}")
        for n in range(size)
    ]
    return tuple((_uuid(rng), name) for name in names)


def season_of(game: str, variant: str, seed: int, players: int, competition: str | None) -> Season:
    """Return the season that ``simulated_lines`` with these settings writes (or none)."""
    if not players and competition is None:
        return Season()
    setup = random.Random(f"{game}:{variant}:{seed}:{players}:{competition}:season")
    return Season(
        player_pool(setup, players),
        None if competition is None else _uuid(setup),
        competition,
    )


def simulate_match(
    rng: random.Random,
    game: str,
    variant: str,
    *,
    fmt: str | None,
    options: dict[str, Any],
    season: Season = Season(),
) -> list[Event] | None:
    """Play one random legal server-dealt match; ``None`` if it ran past ``MOVE_CAP``."""
    seats = rules_for(game).seats(MatchConfig(game, variant, (), 0))
    if season.players:
        players = tuple(pid for pid, _ in rng.sample(season.players, seats))
    else:
        players = tuple(_uuid(rng) for _ in range(seats))
    config = MatchConfig(
        game,
        variant,
        players,
        rng.randrange(seats),
        format=fmt,
        options=options,
        first_dealer_drawn=True,
        competition_id=season.competition_id,
    )
    state = MatchState()
    events = decide(state, CreateMatch(config, shuffled_deal(config, rng)))
    state = fold(events, state)
    for _ in range(MOVE_CAP):
        if state.is_over:
            return events
        assert state.config is not None
        moves = [m.text() for m in state.rules.legal_moves(state.position)]
        # Resignations and draw offers are service moves, never among legal_moves.
        new = decide(state, Play(rng.choice(moves), next_deal=shuffled_deal(state.config, rng)))
        state = fold(new, state)
        events.extend(new)
    return None


def simulated_lines(
    game: str,
    variant: str,
    matches: int,
    seed: int,
    *,
    fmt: str | None,
    options: dict[str, Any],
    players: int = 0,
    competition: str | None = None,
) -> Iterator[str]:
    """Yield the canonical log lines of ``matches`` random matches.

    ``players``: seat every match from one pool of that many named players (0: new
    players each match); ``competition``: the name of one competition they all count in.
    """
    # Game, variant and season are part of the seed, so files simulated with one seed
    # but other settings never share an id.
    seeded = f"{game}:{variant}:{seed}"
    season = season_of(game, variant, seed, players, competition)
    if players or competition is not None:
        seeded += f":{players}:{competition}"
    names = dict(season.players)
    rng = random.Random(seeded)
    moment = _START
    written = 0
    while written < matches:
        events = simulate_match(rng, game, variant, fmt=fmt, options=options, season=season)
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
                LogPlayer(seat, pid, names.get(pid, f"Player {pid[:8]}"))
                for seat, pid in enumerate(config.players)
            ),
            first_dealer=config.first_dealer,
            first_dealer_drawn=config.first_dealer_drawn,
            dealing=config.dealing,
            format=config.format,
            options=dict(config.options),
            rules_version=config.rules_version,
            competition_id=season.competition_id,
            competition_name=season.competition_name,
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
        str | None,
        typer.Option(
            show_default="the game's: standard, default",
            help="Cuttle: classic, standard or cutthroat; Kozel: default.",
        ),
    ] = None,
    matches: Annotated[int, typer.Option(min=1, help="How many matches to write.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed writes the same file.")] = 0,
    players: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="Seat every match from one pool of N named players (0: new players "
            "for every match).",
        ),
    ] = 0,
    competition: Annotated[
        str | None,
        typer.Option(
            metavar="NAME", help="Put every match in one competition of this name (a season)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="File to write; stdout when left out.")
    ] = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            show_default="normal, as the API's",
            help="Cuttle series format (quick, short, normal, best-of-N ...).",
        ),
    ] = None,
    loss_limit: Annotated[
        int | None,
        typer.Option(
            min=2,
            show_default="12, as the API's",
            help="Kozel: loss points that end the match.",
        ),
    ] = None,
) -> None:
    """Write random legal server-dealt matches in the canonical JSON Lines format.

    With --players and --competition the matches make a season: import the file
    and matchlog standings shows the table.
    Example: matchlog simulate --game kozel --matches 20 --players 6 --competition Cup
    """
    with friendly_errors():
        rules = rules_for(game)
        config = season_config(game, variant, format, loss_limit)
        seats = rules.seats(config)
        if 0 < players < seats:
            raise MalformedError(
                f"a {game} {config.variant} match seats {seats}: --players must be at least that"
            )
        lines = simulated_lines(
            game,
            config.variant,
            matches,
            seed,
            fmt=config.format,
            options=dict(config.options),
            players=players,
            competition=competition,
        )
        season = season_of(game, config.variant, seed, players, competition)
        if season.competition_id is not None:
            # On stderr, as stdout may be the log itself: the id to pass once imported.
            typer.echo(f"competition {season.competition_id} ({competition})", err=True)
        if out is None:
            write_simulated(typer.get_text_stream("stdout"), lines)
        else:
            with out.open("w", encoding="utf-8") as handle:
                count = write_simulated(handle, lines)
            typer.echo(f"{matches} matches, {count - matches} events written to {out}", err=True)


def season_config(
    game: str, variant: str | None, format: str | None, loss_limit: int | None
) -> MatchConfig:
    """Return the settings of simulated matches: the API's defaults, unless given.

    Raises:
        InvalidSetupError (INVALID_FORMAT): the game refuses the variant or settings.
    """
    rules = rules_for(game)
    chosen = rules.default_variant if variant is None else variant
    # What the API makes of a match that names no format or options.
    defaults = rules.validate(MatchConfig(game, chosen, (), 0))
    if format is None and loss_limit is None:
        return defaults
    # Each game reads what it knows of them (Cuttle the format, Kozel the loss limit).
    options = {} if loss_limit is None else {"loss_limit": loss_limit}
    return rules.validate(MatchConfig(game, chosen, (), 0, format=format, options=options))
