"""``matchlog replay``: step through a recorded match, or print one position.

Ply N is the match after its first N moves, as the replay projection follows it
(service/replay.py): a move a takeback undid keeps its ply, and the plies after
the takeback show the match as it then was. Positions are shown through the
engines' views: the public view, a seat's view with ``--seat``, or every hand once
the match is over.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import click
import psycopg
import typer
from rich.console import Console

from cli.database import use_database
from cli.errors import friendly_errors
from domain.errors import MalformedError
from domain.match import series_score
from domain.stream import rules_for
from service.ids import resolve_id
from service.replay import Ply, match_plies

NEXT_KEYS = frozenset({"\x1b[C", "l", "j", "n", " ", "\r", "\n"})
BACK_KEYS = frozenset({"\x1b[D", "h", "k", "p", "\x7f"})
QUIT_KEYS = frozenset({"q", "Q", "\x1b", "\x03", "\x04"})
HELP = "→/l/j next · ←/h/k back · g start · G end · q quit"


def render(ply: Ply, last: int, seat: int | None) -> str:
    """Return the text of one ply: header, last move, series score, the chosen view."""
    state = ply.state
    assert state.config is not None and state.series is not None
    config = state.config
    lines = [
        f"{config.game} {config.variant} · ply {ply.number}/{last}"
        + ("" if ply.move is None else f" · last move: {ply.move}"),
        "score: " + _compact(series_score(state.series)),
    ]
    if state.result is not None:
        winners = " ".join(map(str, state.result.winners)) or "none (draw)"
        lines.append(f"result: seats {winners} win ({state.result.reason})")
    if ply.position is None:
        lines.append("(no round dealt yet)")
        return "\n".join(lines)
    rules = state.rules
    view = rules.view(ply.position, seat)
    lines.append(f"view: {'public' if seat is None else f'seat {seat}'}")
    lines += [f"  {key}: {_compact(value)}" for key, value in view.items() if key != "seat"]
    if seat is None and state.is_over:
        for each in range(rules.seats(config)):
            lines.append(
                f"  seat {each} hand: {' '.join(_hand(rules.view(ply.position, each), each))}"
            )
    return "\n".join(lines)


def _hand(view: dict[str, Any], seat: int) -> list[str]:
    if "hand" in view:
        return list(view["hand"])
    for entry in view.get("hands", []):
        if entry.get("seat") == seat:
            return list(entry.get("cards", []))
    return []


def _compact(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) or "-"
    return json.dumps(value, separators=(", ", ": "))


def step_through(
    frames: list[Ply],
    keys: Iterator[str],
    show: Callable[[str], None],
    *,
    seat: int | None = None,
    start: int = 0,
) -> int:
    """Show plies as keys arrive (next, back, start, end, quit); return the last ply shown.

    It takes any key iterator, so tests feed keys without a terminal.
    """
    last = len(frames) - 1
    current = max(0, min(start, last))
    show(render(frames[current], last, seat) + "\n\n" + HELP)
    for key in keys:
        if key in QUIT_KEYS:
            break
        if key in NEXT_KEYS:
            current = min(current + 1, last)
        elif key in BACK_KEYS:
            current = max(current - 1, 0)
        elif key == "g":
            current = 0
        elif key == "G":
            current = last
        else:
            continue
        show(render(frames[current], last, seat) + "\n\n" + HELP)
    return current


async def _plies(url: str, match: str) -> list[Ply]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        return await match_plies(conn, str(await resolve_id(conn, "match", match)))


def _keys() -> Iterator[str]:
    while True:
        yield click.getchar()


def replay(
    match: Annotated[str, typer.Argument(help="The match id, or its start.")],
    ply: Annotated[
        int | None, typer.Option(help="Print the position after this many moves and exit.")
    ] = None,
    seat: Annotated[
        int | None, typer.Option(help="Show what this seat sees (default: the public view).")
    ] = None,
) -> None:
    """Step through a recorded match (→/← or j/k, q quits), or print one ply with --ply.

    Without a terminal (piped), the last ply is printed. Views are public unless
    --seat is given; a finished match also shows every hand.
    """
    with friendly_errors():
        frames = asyncio.run(_plies(use_database(existing=True), match))
        last = len(frames) - 1
        config = frames[-1].state.config
        assert config is not None
        seats = rules_for(config.game).seats(config)
        if seat is not None and not 0 <= seat < seats:
            raise MalformedError(f"seat {seat!r} is not a seat of this match (0-{seats - 1})")
        if ply is not None:
            if not 0 <= ply <= last:
                raise MalformedError(f"ply {ply!r} is not in this match (0-{last})")
            typer.echo(render(frames[ply], last, seat))
            return
    if not sys.stdin.isatty():
        # No keys to read: show where the match stands, as --ply would.
        typer.echo(render(frames[last], last, seat))
        return
    console = Console()

    def show(text: str) -> None:
        console.clear()
        console.print(text, markup=False, highlight=False)

    step_through(frames, _keys(), show, seat=seat)
