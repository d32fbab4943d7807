"""What a bearer token may do: its role."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """What a token may do: ``admin`` everything, ``scorer`` record matches."""

    ADMIN = "admin"
    SCORER = "scorer"


__all__ = ["Role"]
