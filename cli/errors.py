"""Turn domain errors into one clear line and a non-zero exit code."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import typer

from domain.errors import DomainError

T = TypeVar("T")


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Print ``error: CODE message`` on stderr and exit 1 instead of a traceback."""
    try:
        yield
    except DomainError as e:
        typer.secho(f"error: {e.code}: {e.message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=1) from None


def run_friendly(fn: Callable[[], T]) -> T:
    """Call ``fn`` inside ``friendly_errors``."""
    with friendly_errors():
        return fn()
