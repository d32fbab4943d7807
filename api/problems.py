"""One map from the DomainError family to RFC 9457 problem+json."""

from __future__ import annotations

from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from domain.errors import (
    ConflictError,
    DomainError,
    ForbiddenError,
    IllegalMoveError,
    InvalidSetupError,
    MalformedError,
    NotFoundError,
)

_STATUS_BY_KIND: tuple[tuple[type[DomainError], int], ...] = (
    (NotFoundError, 404),
    (ConflictError, 409),
    (ForbiddenError, 403),
    (MalformedError, 422),
    (IllegalMoveError, 422),
    (InvalidSetupError, 422),
)

PROBLEM_TYPE_BASE = "https://matchlog.dev/problems/"


def status_for(error: DomainError) -> int:
    """Return the HTTP status for a domain error by its kind (500 for an unknown kind)."""
    for kind, status in _STATUS_BY_KIND:
        if isinstance(error, kind):
            return status
    return 500


def to_problem(error: DomainError) -> ProblemDetailsException:
    """Turn a domain error into problem+json carrying its stable ``code`` and details."""
    status = status_for(error)
    extra = {"code": error.code}
    if error.details:
        extra["details"] = error.details  # type: ignore[assignment]
    return ProblemDetailsException(
        status_code=status,
        detail=error.message,
        title=error.code.replace("_", " ").capitalize(),
        type_=PROBLEM_TYPE_BASE + error.code.lower().replace("_", "-"),
        extra=extra,
    )


def problem_details_plugin() -> ProblemDetailsPlugin:
    """Return the plugin that renders every DomainError (and HTTP error) as problem+json."""
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            enable_for_all_http_exceptions=True,
            exception_to_problem_detail_map={DomainError: to_problem},
        )
    )
