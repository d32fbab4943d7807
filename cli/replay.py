"""``matchlog replay``: step through a recorded match, or print one position.

Ply N is the match after its first N moves, as the replay projection follows it
(service/replay.py): a move a takeback undid keeps its ply, and the plies after
the takeback show the match as it then was. Positions are drawn (cli/boards.py)
through the engines' views: the public view, a seat's view with ``--seat N``, or
every hand with ``--seat full`` once the match is over.
"""

from __future__ import annotations

import asyncio
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from typing import Annotated, Any

import click
import psycopg
import typer
from rich.console import Console

from cli.boards import Seen, draw
from cli.database import use_database
from cli.errors import friendly_errors
from domain.errors import MalformedError
from domain.match import series_score
from projections.reports import player_names
from service.ids import resolve_id
from service.replay import Ply, match_plies

NEXT_KEYS = frozenset({"\x1b[C", "l", "j", "n", " ", "\r", "\n"})
BACK_KEYS = frozenset({"\x1b[D", "h", "k", "p", "\x7f"})
QUIT_KEYS = frozenset({"q", "Q", "\x1b", "\x03", "\x04"})
HELP = "→/l/j next · ←/h/k back · g start · G end · q quit"


FULL = "full"
"""``--seat full``: every hand, for a match that is over."""

Seat = int | str | None
"""Whose view: ``None`` the public one, a seat number, or ``FULL``."""


def render(
    ply: Ply, last: int, seat: Seat = None, names: Sequence[str] = (), width: int = 80
) -> str:
    """Return the text of one ply: header, last move, score, result, and the table.

    The last move is its sentence, cards written as the table draws them (the
    notation is the log's, ``matchlog export``); the table is as ``seat`` sees it.
    """
    state = ply.state
    assert state.config is not None and state.series is not None
    config = state.config
    rules = state.rules
    seats = rules.seats(config)
    names = list(names) or [""] * seats
    lines = [f"{config.game} {config.variant} · ply {ply.number}/{last}"]
    if ply.event is not None:
        seated = [name or f"seat {s}" for s, name in enumerate(names)]
        sentence = rules.describe_step(ply.event.type, ply.event.data, seated)[1]
        lines += textwrap.wrap(f"last move: {sentence or ply.move}", width, subsequent_indent="  ")
    lines.append("score: " + rules.score_text(series_score(state.series)))
    if state.result is not None:
        winners = [names[s] or f"seat {s}" for s in state.result.winners]
        won = f"{', '.join(winners)} won" if winners else "drawn"
        lines.append(f"result: {won} ({state.result.reason})")
    if ply.position is None:
        lines.append("(no round dealt yet)")
        return "\n".join(lines)
    if seat == FULL:
        # The whole record of a finished match, face-down throws face up (Kozel R44).
        view = rules.record_view(ply.position)
    else:
        view = rules.view(ply.position, seat if isinstance(seat, int) else None)
    if seat == FULL:
        hands = {s: _hand(rules.view(ply.position, s), s) for s in range(seats)}
        lines.append("view: full (every hand)")
    elif isinstance(seat, int):
        hands = {seat: _hand(view, seat)}
        lines.append(f"view: seat {seat}" + (f" ({names[seat]})" if names[seat] else ""))
    else:
        hands = {}
        lines.append("view: public")
    lines += draw(config.game, Seen(view, hands, names, width))
    return "\n".join(lines)


def _hand(view: dict[str, Any], seat: int) -> list[str]:
    if "hand" in view:
        return list(view["hand"])
    for entry in view.get("hands", []):
        if entry.get("seat") == seat:
            return list(entry.get("cards", []))
    return []


def chosen_seat(text: str | None, frames: list[Ply]) -> Seat:
    """Return the view ``--seat`` names: a seat of the match, or ``full`` once it is over.

    Raises:
        MalformedError (MALFORMED): not a seat of the match, or ``full`` for a live match.
    """
    if text is None:
        return None
    state = frames[-1].state
    assert state.config is not None
    seats = state.rules.seats(state.config)
    if text == FULL:
        if not state.is_over:
            raise MalformedError(
                "--seat full shows every hand, so only for a match that is over; "
                "this one is live: use --seat N for a seat's view"
            )
        return FULL
    if not text.isdigit() or not 0 <= int(text) < seats:
        raise MalformedError(f"seat {text!r} is not a seat of this match (0-{seats - 1}) or full")
    return int(text)


def step_through(
    frames: list[Ply],
    keys: Iterator[str],
    show: Callable[[str], None],
    *,
    seat: Seat = None,
    names: Sequence[str] = (),
    width: int = 80,
    start: int = 0,
) -> int:
    """Show plies as keys arrive (next, back, start, end, quit); return the last ply shown.

    It takes any key iterator, so tests feed keys without a terminal.
    """
    last = len(frames) - 1
    current = max(0, min(start, last))

    def screen() -> str:
        return render(frames[current], last, seat, names, width) + "\n\n" + HELP

    show(screen())
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
        show(screen())
    return current


async def _plies(url: str, match: str) -> tuple[list[Ply], list[str]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        frames = await match_plies(conn, str(await resolve_id(conn, "match", match)))
        config = frames[-1].state.config
        assert config is not None
        return frames, await player_names(conn, list(config.players))


def _keys() -> Iterator[str]:
    while True:
        yield click.getchar()


def replay(
    match: Annotated[str, typer.Argument(help="The match id, or its start.")],
    ply: Annotated[
        int | None, typer.Option(help="Print the position after this many moves and exit.")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            metavar="N|full",
            show_default="the public view",
            help="Show what seat N sees, or every hand (full) once the match is over.",
        ),
    ] = None,
) -> None:
    """Step through a recorded match (→/← or j/k, q quits), or print one ply with --ply.

    Draws the table: players, hands, the cards in play, scrap or piles, score.
    Without a terminal (piped), the last ply is printed.
    """
    with friendly_errors():
        frames, names = asyncio.run(_plies(use_database(existing=True), match))
        last = len(frames) - 1
        view = chosen_seat(seat, frames)
        if ply is not None and not 0 <= ply <= last:
            raise MalformedError(f"ply {ply!r} is not in this match (0-{last})")
    console = Console()
    if ply is not None or not sys.stdin.isatty():
        # No keys to read: show where the match stands, as --ply would.
        shown = last if ply is None else ply
        typer.echo(render(frames[shown], last, view, names, console.width))
        return

    def show(text: str) -> None:
        console.clear()
        console.print(text, markup=False, highlight=False)

    step_through(frames, _keys(), show, seat=view, names=names, width=console.width)
