"""Tables that fit the terminal: ids whole, names wrapped, lesser columns shortened or dropped.

Rich squeezes a table that is too wide by cutting every column down to ``…``; a
listing then shows neither a whole id nor a readable name. Here each column says
what it may give up (wrap, a shorter form, or go), and the table gives up the least
it must to fit the console's width (the terminal's, or ``COLUMNS`` when piped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

GAP = 2
"""Blank cells between two columns."""


@dataclass(frozen=True, slots=True)
class Column:
    """A column's header and cells, and what it may give up to fit.

    ``wrap``: the cells may wrap down to ``min_width`` (names). ``short``: shorter
    cells to use before dropping the column. ``drop``: the order columns are dropped
    in (lower goes first); ``None`` keeps the column whatever the width (ids).
    """

    header: str
    cells: Sequence[str]
    wrap: bool = False
    min_width: int = 8
    short: Sequence[str] | None = None
    drop: int | None = None
    justify: Literal["left", "right"] = "left"

    def natural(self) -> int:
        """Return the width the column takes without wrapping."""
        lines = [line for cell in self.cells for line in cell.splitlines()]
        return max([cell_len(self.header), *map(cell_len, lines)])

    def needed(self) -> int:
        """Return the least width the column can take."""
        if not self.wrap:
            return self.natural()
        return max(min(self.natural(), self.min_width), cell_len(self.header))


def least_width(columns: Sequence[Column]) -> int:
    """Return the least width ``columns`` take side by side, gaps included."""
    return sum(c.needed() for c in columns) + GAP * (len(columns) - 1)


def fit(columns: Sequence[Column], width: int) -> list[Column]:
    """Return the columns that fit ``width``: shortened, then dropped, in ``drop`` order.

    A droppable column with every cell empty goes before any other.
    """
    shown = list(columns)

    def total() -> int:
        return least_width(shown)

    droppable = [c for c in columns if c.drop is not None]
    for victim in sorted(droppable, key=lambda c: (any(c.cells), c.drop)):
        if total() <= width:
            break
        at = shown.index(victim)
        if victim.short is not None:
            shown[at] = replace(victim, cells=victim.short, short=None)
            if total() <= width:
                break
        del shown[at]
    return shown


def fitted_table(columns: Sequence[Column], console: Console, title: str | None = None) -> Table:
    """Return a borderless table of ``columns`` fitted to ``console``'s width.

    Cells that wrap break at spaces; a word wider than its column ends in ``…``
    rather than going on, cut, on the next line ("Featherstonehau", "gh").
    """
    shown = fit(columns, console.width)
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, GAP - 1, 0, 0),
    )
    for column in shown:
        table.add_column(
            column.header,
            justify=column.justify,
            no_wrap=not column.wrap,
            overflow="ellipsis" if column.wrap else "fold",
            min_width=column.needed(),
        )
    for row in zip(*(c.cells for c in shown), strict=True):
        table.add_row(*row)
    return table


def packed(items: Sequence[str], separator: str, width: int) -> list[str]:
    """Return ``items`` joined by ``separator`` into lines of at most ``width``, none split.

    >>> packed(["pl played", "w won", "l lost"], " · ", 17)
    ['pl played · w won', 'l lost']
    """
    lines: list[str] = []
    for item in items:
        joined = f"{lines[-1]}{separator}{item}" if lines else item
        if lines and cell_len(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(item)
    return lines


__all__ = ["Column", "fit", "fitted_table", "least_width", "packed"]
