"""How ``matchlog`` and its commands read: ``-h`` beside ``--help``, plain value names.

Typer labels every value with its Python type (``<str>``, ``<list[str]>``, ``<bool>``
even on a flag, which takes no value). Here an option's value is named as click
names it (``TEXT``, ``INTEGER``, a metavar, the choices), a flag's not at all, and an
argument only by its name (``MATCH``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT = {"help_option_names": ["-h", "--help"]}

_NAMES = {str: "TEXT", int: "INTEGER", float: "NUMBER"}


class _Option(TyperOption):
    """An option whose value is named plainly, and a flag's not at all."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag:
            return None
        if self.metavar is not None:
            return self.metavar
        desc = self.type_descriptor
        if desc.is_choice:
            return "|".join(str(getattr(c, "value", c)) for c in desc.choices or ())
        if desc.is_datetime:
            return "DATETIME"
        if desc.is_path:
            return "PATH"
        annotation = desc.annotation
        if desc.is_list:
            (annotation,) = getattr(annotation, "__args__", (str,))
        return _NAMES.get(annotation, getattr(annotation, "__name__", "VALUE").upper())


class _Argument(TyperArgument):
    """An argument, named by its metavar alone."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def _plain(params: list[Any]) -> None:
    # The subclasses only change how help reads, so the built objects are re-classed.
    for param in params:
        if isinstance(param, TyperOption):
            param.__class__ = _Option
        elif isinstance(param, TyperArgument):
            param.__class__ = _Argument


class Command(TyperCommand):
    """A command whose help names values plainly."""

    def get_params(self, ctx: Any) -> list[Any]:
        """Return the parameters, ``--help`` among them, re-classed to read plainly."""
        params: list[Any] = super().get_params(ctx)
        _plain(params)
        return params


class Group(TyperGroup):
    """A group of commands whose help names values plainly."""

    def get_params(self, ctx: Any) -> list[Any]:
        """Return the parameters, ``--help`` among them, re-classed to read plainly."""
        params: list[Any] = super().get_params(ctx)
        _plain(params)
        return params


class App(typer.Typer):
    """A Typer app taking ``-h``, whose commands' help names values plainly."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cls=Group, context_settings=CONTEXT, **kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        """Register a command (see ``typer.Typer.command``), with plain value names."""
        return super().command(*args, cls=Command, **kwargs)


__all__ = ["App", "Command", "Group"]
