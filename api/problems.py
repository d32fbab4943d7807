"""One map from the DomainError family (and HTTP errors) to RFC 9457 problem+json.

Every refusal carries a stable CAPS ``code``. Litestar's own errors get one too:
a body that is not JSON is ``MALFORMED`` (400); a body or query whose fields fail
validation is ``VALIDATION_FAILED`` (422) with ``details.errors``, a list of
``{"field", "message", "source"}``; an oversized body is ``BODY_TOO_LARGE`` (413);
other HTTP errors are named after their status (``NOT_FOUND``,
``METHOD_NOT_ALLOWED``); a database that cannot be reached is ``DATABASE_UNAVAILABLE``
(503, with ``Retry-After``); an unexpected failure is ``INTERNAL_ERROR`` (500), logged,
never with a traceback in the response.

A problem is written in the request's language (``api.language``): its ``title`` and,
for the refusals a page can meet, its ``detail`` (``api.problem_words``); its ``code``
and ``details`` never change.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import psycopg
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from api.language import request_language
from api.problem_words import DETAILS, TITLES
from domain.errors import (
    ConflictError,
    DomainError,
    ForbiddenError,
    IllegalMoveError,
    InvalidSetupError,
    MalformedError,
    NotFoundError,
    PreconditionFailedError,
    PreconditionRequiredError,
    UnauthenticatedError,
)
from service.i18n import DEFAULT, translations
from service.wiring import is_connection_error

_log = logging.getLogger("matchlog.api")

_STATUS_BY_KIND: tuple[tuple[type[DomainError], int], ...] = (
    (UnauthenticatedError, 401),
    (NotFoundError, 404),
    (PreconditionFailedError, 412),
    (PreconditionRequiredError, 428),
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
    headers = None
    if isinstance(error, UnauthenticatedError):
        # RFC 6750 §3: a 401 names the scheme; a presented but bad token says so.
        challenge = 'Bearer realm="matchlog"'
        if error.details.get("reason") == "invalid_token":
            challenge += ', error="invalid_token"'
        headers = {"WWW-Authenticate": challenge}
    return _problem(status, error.code, error.message, extra, headers)


class LocalizedProblem(ProblemDetailsException):
    """A problem whose title and detail are written when answered, in the request's language."""

    def __init__(self, *, code: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code = code

    def to_response(self, request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
        """Translate the title and the detail, then answer as Litestar does."""
        lang = request_language(request)
        self.title, self.detail = localized(lang, self.code, self.title or "", self.detail)
        return super().to_response(request)


def localized(lang: str, code: str, title: str, detail: str) -> tuple[str, str]:
    """Return a problem's title and detail in ``lang`` (see ``api.problem_words``).

    >>> localized("en", "MATCH_OVER", "Match over", "the match is over: Ann won")
    ('Match over', 'the match is over: Ann won')
    >>> localized("x-pseudo", "MATCH_OVER", "Match over", "the match is over: Ann won")
    ('⟦Match over⟧', '⟦the match is over: Ann won⟧')
    """
    pages = translations(lang, "pages")
    title = pages.gettext(TITLES.get(code, title))
    if lang == DEFAULT:
        return title, detail
    exact = pages.gettext(detail)
    if exact != detail or code not in DETAILS:
        return title, exact
    return title, pages.gettext(DETAILS[code])


def _problem(
    status: int,
    code: str,
    detail: str,
    extra: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> ProblemDetailsException:
    return LocalizedProblem(
        code=code,
        status_code=status,
        detail=detail,
        title=code.replace("_", " ").capitalize(),
        type_=PROBLEM_TYPE_BASE + code.lower().replace("_", "-"),
        extra=extra,
        headers=headers,
    )


def validation_failed(field: str, message: str, source: str = "body") -> MalformedError:
    """Return the ``VALIDATION_FAILED`` error (422) for one named field, shaped like Litestar's."""
    return MalformedError(
        f"{field}: {message}",
        code="VALIDATION_FAILED",
        details={"errors": [{"field": field, "message": message, "source": source}]},
    )


_CODE_BY_STATUS = {
    400: "MALFORMED",
    401: "UNAUTHENTICATED",
    413: "BODY_TOO_LARGE",
    500: "INTERNAL_ERROR",
}
_VALUE_ERROR_PREFIX = "Value error, "


def http_to_problem(exc: HTTPException) -> ProblemDetailsException:
    """Turn a Litestar HTTP error into problem+json with a CAPS ``code``."""
    if isinstance(exc, ValidationException):
        return _validation_to_problem(exc)
    status = exc.status_code
    code = _CODE_BY_STATUS.get(status) or _status_name(status)
    return _problem(status, code, exc.detail, {"code": code}, exc.headers)


def _status_name(status: int) -> str:
    try:
        return HTTPStatus(status).name
    except ValueError:
        return f"HTTP_{status}"


def _validation_to_problem(exc: ValidationException) -> ProblemDetailsException:
    errors: list[dict[str, str]] = []
    for item in exc.extra if isinstance(exc.extra, list) else []:
        if not isinstance(item, dict):
            continue
        key = item.get("key")
        source = str(getattr(item.get("source"), "value", item.get("source") or "body"))
        if not key or (key == "data" and source == "body"):
            # No field to name: the body is missing or is not a JSON object.
            message = "the request body must be a JSON object"
            return _problem(400, "MALFORMED", message, {"code": "MALFORMED"})
        message = str(item.get("message", "invalid"))
        message = message.removeprefix(_VALUE_ERROR_PREFIX)
        errors.append({"field": str(key), "message": message, "source": source})
    if not errors:
        return _problem(400, "MALFORMED", exc.detail, {"code": "MALFORMED"})
    fields = ", ".join(e["field"] for e in errors)
    return _problem(
        422,
        "VALIDATION_FAILED",
        f"invalid {fields}",
        {"code": "VALIDATION_FAILED", "details": {"errors": errors}},
    )


def internal_to_problem(exc: Exception) -> ProblemDetailsException:
    """Log an unexpected failure and answer a bare ``INTERNAL_ERROR`` (500)."""
    _log.error("unhandled error", exc_info=exc)
    return _problem(500, "INTERNAL_ERROR", "internal error", {"code": "INTERNAL_ERROR"})


DATABASE_RETRY_AFTER = 2
"""Seconds a 503 ``DATABASE_UNAVAILABLE`` asks the client to wait before trying again."""


def database_unavailable() -> ProblemDetailsException:
    """The 503 ``DATABASE_UNAVAILABLE`` answer, with ``Retry-After``."""
    return _problem(
        503,
        "DATABASE_UNAVAILABLE",
        "the database is unavailable; try again shortly",
        {"code": "DATABASE_UNAVAILABLE"},
        {"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


def database_to_problem(exc: psycopg.OperationalError) -> ProblemDetailsException:
    """A lost database is 503 ``DATABASE_UNAVAILABLE``, unlogged (the watch logs the loss
    once); any other operational error is an unexpected failure."""
    if is_connection_error(exc):
        return database_unavailable()
    return internal_to_problem(exc)


def problem_details_plugin() -> ProblemDetailsPlugin:
    """Return the plugin that renders every DomainError (and HTTP error) as problem+json."""
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            exception_to_problem_detail_map={
                DomainError: to_problem,
                HTTPException: http_to_problem,
                psycopg.OperationalError: database_to_problem,
                Exception: internal_to_problem,
            },
        )
    )
