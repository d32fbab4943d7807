"""What any request may carry, checked before its handler reads it.

PostgreSQL stores no NUL in text or ``jsonb``, Python's JSON decoders recurse, and a
body must be UTF-8 to be JSON at all; each of these once made a request a 500. The
app-wide ``check_request`` refuses them first, on every route (after ``api.auth.authorize``,
so 401/403 still come before 400/422):

- a write's body whose ``Content-Type`` is not ``application/json`` (nor
  ``application/*+json``): 415 ``UNSUPPORTED_MEDIA_TYPE``, before the body is read;
- a query parameter (name or value) with a control character: 422 ``VALIDATION_FAILED``;
- a body that is not UTF-8, or JSON nested deeper than ``MAX_DEPTH``: 400 ``MALFORMED``;
- a string anywhere in a JSON body (keys too) with a control character other than
  tab, LF and CR, or a whole number beyond JSON's safe integers (events are hashed
  as RFC 8785 JSON, which has none larger): 422 ``VALIDATION_FAILED`` naming where.

Text fields are ``Annotated[str, Text(...)]`` (``Line`` for one line): the rule of
``domain.text``, which single-line fields (names, moves, cards) also refuse tab and line
ends by, and their schema's pattern.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, HTTPException
from litestar.params import ParameterKwarg
from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from api.problems import validation_failed
from domain.errors import MalformedError
from domain.text import clean_text, text_pattern

MAX_DEPTH = 32
"""Deepest JSON nesting a body may have; the deepest a real request needs is 3."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
"""C0 controls, DEL and lone surrogates (which no UTF-8 text can hold)."""
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
"""What ``_CONTROL`` holds but tab, LF and CR (text fields store CR LF and CR as LF)."""
MAX_SAFE_INTEGER = 2**53 - 1
"""Largest whole number JSON carries exactly (RFC 8785 hashes nothing larger)."""
_NO_CONTROL = "must not contain control characters other than tab and line ends"
_SAFE_INTEGER = f"must be a whole number within ±{MAX_SAFE_INTEGER}"
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (tab and newline included).

    >>> has_control("Ada"), has_control("A\\x00da"), has_control("A\\tda")
    (False, True, True)
    """
    return _CONTROL.search(text) is not None


@dataclass(frozen=True)
class Text(ParameterKwarg):
    """A text field, ``Annotated[str, Text(...)]``: the one rule of ``domain.text.clean_text``.

    Pydantic checks and cleans the value (NFC, trimmed, line ends LF, at most
    ``max_length`` characters as sent); the OpenAPI schema gets the rule's pattern.
    ``lines``: tab and line ends allowed; ``required``: blank refused; ``braces``: ``{}``
    allowed.
    """

    lines: bool = False
    required: bool = True
    braces: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        pattern = text_pattern(lines=self.lines, required=self.required, braces=self.braces)
        object.__setattr__(self, "pattern", pattern)

    def __hash__(self) -> int:
        return hash((self.lines, self.required, self.braces, self.max_length))

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """Return pydantic's schema: a string of at most ``max_length``, then ``clean``."""
        text = core_schema.str_schema(max_length=self.max_length)
        return core_schema.no_info_after_validator_function(self.clean, text)

    def clean(self, value: str) -> str:
        """Return ``value`` as stored; a refusal is pydantic's ``ValueError`` (422)."""
        try:
            return clean_text(value, lines=self.lines, required=self.required, braces=self.braces)
        except MalformedError as e:
            raise ValueError(e.message) from None


Line = Annotated[str, Text(required=False)]
"""A single-line text field (a move, a card, a variant): no tab nor line end; may be blank."""


def json_depth(body: bytes) -> int:
    """Return how deeply the JSON text ``body`` nests arrays and objects.

    Counted over the brackets outside strings, without parsing (a parser recurses).

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b'"x"')
    (3, 0)
    """
    outside = _JSON_STRING.sub(b"", body)
    steps = (1 if b in b"[{" else -1 for b in _BRACKET.findall(outside))
    return max(itertools.accumulate(steps, initial=0))


async def check_request(request: Request[Any, Any, Any]) -> None:
    """App-wide ``before_request``: refuse what no handler could store or parse.

    Raises:
        HTTPException (415, UNSUPPORTED_MEDIA_TYPE): a write's body is not JSON by its
            ``Content-Type`` (checked before the body is read).
        MalformedError (VALIDATION_FAILED): a control character in a query parameter
            or in a string of the JSON body, or a whole number beyond ±(2**53 - 1).
        ClientException (400, MALFORMED): a body that is not UTF-8 or nests too deep.
    """
    if request.method in _BODY_METHODS and _has_body(request):
        _refuse_unless_json(request.headers.get("content-type"))
    for name, value in request.query_params.multi_items():
        if has_control(name) or has_control(value):
            raise validation_failed(name, "must not contain control characters", "query")
    if request.method not in _BODY_METHODS:
        return
    body = await request.body()
    if not body:
        return
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise ClientException("the request body is not UTF-8") from None
    if json_depth(body) > MAX_DEPTH:
        raise ClientException(f"the request body nests deeper than {MAX_DEPTH} levels")
    try:
        value = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return  # not JSON: the handler's own reading says so (400 MALFORMED)
    if (refusal := _refused_value(value)) is not None:
        raise validation_failed(*refusal)


def _has_body(request: Request[Any, Any, Any]) -> bool:
    """Whether the request says it carries a body (by its headers: nothing is read)."""
    headers = request.headers
    return "transfer-encoding" in headers or headers.get("content-length", "0").strip() != "0"


def is_json_media_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON: ``application/json`` or ``application/*+json``.

    >>> [is_json_media_type(t) for t in ("application/json; charset=utf-8",
    ...     "application/merge-patch+json", "text/plain", None)]
    [True, True, False, False]
    """
    media = (content_type or "").partition(";")[0].strip().lower()
    kind, _, subtype = media.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


def _refuse_unless_json(content_type: str | None) -> None:
    """Refuse a write's body that is not JSON by its ``Content-Type`` (415).

    A form or ``text/plain`` body holding JSON would otherwise be read as JSON: the
    kinds of request a browser sends to another site without asking it first.

    Raises:
        HTTPException (415, UNSUPPORTED_MEDIA_TYPE): another media type, or none.
    """
    if not is_json_media_type(content_type):
        raise HTTPException(
            status_code=415,
            detail=f"the request body must be application/json, not {content_type or 'untyped'}",
        )


def _refused_value(value: Any) -> tuple[str, str] | None:
    """Return the dotted path of the first refused value in ``value``, and why."""
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            if _CONTROL_BUT_LINES.search(item):
                return path or "body", _NO_CONTROL
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return path or "body", _SAFE_INTEGER
        elif isinstance(item, dict):
            for key, child in item.items():
                if _CONTROL_BUT_LINES.search(key):
                    return path or "body", _NO_CONTROL
                pending.append((f"{path}.{key}" if path else str(key), child))
        elif isinstance(item, list):
            pending.extend((f"{path}.{i}" if path else str(i), c) for i, c in enumerate(item))
    return None


__all__ = [
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER",
    "Line",
    "Text",
    "check_request",
    "has_control",
    "is_json_media_type",
    "json_depth",
]
