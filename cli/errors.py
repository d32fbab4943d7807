"""Turn domain and database errors into one clear line and a non-zero exit code."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn, TypeVar

import psycopg
import typer

from domain.errors import DomainError

T = TypeVar("T")


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Print ``error: CODE message`` on stderr and exit 1 instead of a traceback.

    A database that cannot be reached (a wrong ``MATCHLOG_DATABASE_URL``, a server
    that is down or went away) is ``DATABASE_UNAVAILABLE``, with the driver's reason.
    """
    try:
        yield
    except DomainError as e:
        _fail(e.code, e.message)
    except psycopg.OperationalError as e:
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        _fail("DATABASE_UNAVAILABLE", f"cannot reach the database: {reason}")


def _fail(code: str, message: str) -> NoReturn:
    typer.secho(f"error: {code}: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code=1) from None


def run_friendly(fn: Callable[[], T]) -> T:
    """Call ``fn`` inside ``friendly_errors``."""
    with friendly_errors():
        return fn()
