"""The one family of errors the domain raises, each with a stable CAPS code.

The code is the contract: the API puts it in problem+json, the CLI prints it, tests
assert on it. Messages are for people; they quote the input with ``!r`` and never
name a card the acting seat may not see. Released codes never change.

Kinds split like python-chess's move errors:

- ``MalformedError``: the input cannot be read (``MALFORMED``).
- ``IllegalMoveError``: a well-formed action the rules refuse here
  (``NOT_YOUR_TURN``, ``BEAT_FAILS``, ``MATCH_OVER`` ...).
- ``InvalidSetupError``: a match, round or position that cannot be set up
  (``INVALID_FORMAT``, ``INVALID_POSITION``, ``INVALID_DECK``).
- ``NotFoundError``, ``ConflictError``, ``ForbiddenError``, ``UnauthenticatedError``:
  service-level refusals (``MATCH_NOT_FOUND``, ``VERSION_CONFLICT``, ``FORBIDDEN``,
  ``UNAUTHENTICATED`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DomainError(Exception):
    """Base of every refusal matchlog reports to a person or a program."""

    default_code = "DOMAIN_ERROR"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.message: str = message
        self.details: dict[str, Any] = dict(details or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r})"


class MalformedError(DomainError):
    """Input that cannot be read: an unknown card, action or seat, or bad syntax."""

    default_code = "MALFORMED"


class IllegalMoveError(DomainError):
    """A readable action that the rules refuse in the current position."""

    default_code = "ILLEGAL_MOVE"


class InvalidSetupError(DomainError):
    """A match, round or position that cannot be set up as given."""

    default_code = "INVALID_FORMAT"


class NotFoundError(DomainError):
    """Something named by the request does not exist."""

    default_code = "NOT_FOUND"


class ConflictError(DomainError):
    """The request clashes with what is already recorded (a stale version, a reused id)."""

    default_code = "CONFLICT"


class ForbiddenError(DomainError):
    """The caller may not do this."""

    default_code = "FORBIDDEN"


class UnauthenticatedError(DomainError):
    """The caller did not say who they are, or their credential is unknown or revoked."""

    default_code = "UNAUTHENTICATED"


class PreconditionFailedError(ConflictError):
    """A conditional request (``If-Match``) named a version the resource is no longer at."""

    default_code = "VERSION_CONFLICT"


class PreconditionRequiredError(DomainError):
    """A write that must name the version it was based on did not."""

    default_code = "VERSION_REQUIRED"


def invalid_field(field: str, message: str, source: str = "body") -> MalformedError:
    """Return the refusal (``VALIDATION_FAILED``) of one named field of a request.

    ``details.errors`` holds ``{"field", "message", "source"}`` as the API's validation
    answers do (``source``: ``body``, ``query`` or ``header``), so a rule checked in the
    service names its field as a schema's check would.

    >>> invalid_field('variant', "'x' is not a cuttle variant").details['errors'][0]['field']
    'variant'
    """
    return MalformedError(
        f"{field}: {message}",
        code="VALIDATION_FAILED",
        details={"errors": [{"field": field, "message": message, "source": source}]},
    )
