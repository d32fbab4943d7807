"""Request and response bodies (pydantic), and the cursor pagination shared by listings.

Listings are newest first: ``?limit=`` (1-100, default 50) and ``?cursor=`` (opaque,
from the previous page). A page answers ``{"items": [...], "next_cursor": ...}`` and,
unless it is the last, a ``Link: <...>; rel="next"`` header.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlencode
from uuid import UUID

from litestar import Request
from litestar.datastructures import ResponseHeader
from litestar.openapi import ResponseSpec
from litestar.openapi.spec import OpenAPIType
from litestar.params import Parameter
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from api.inputs import Line, Text
from api.problems import validation_failed
from domain.errors import DomainError, InvalidSetupError
from domain.games import GAMES, rules_for
from domain.kozel.outcome import KozelOptions
from store.accounts import ByeScore, Competition, Player, Role, Token

T = TypeVar("T")

# -- pagination ---------------------------------------------------------------------

QUERY_TEXT = r"^[^\x00-\x1f\x7f]*$"
"""What a query value may hold: no control character (``api.inputs.check_request``)."""


def sent_as(pattern: str | None = QUERY_TEXT, **schema: Any) -> dict[str, Any]:
    """Return ``schema_extra`` declaring an optional query or header parameter as what it is
    when sent: a string matching ``pattern`` (with ``schema``'s other keys), never null.

    Litestar declares an optional parameter as string-or-null, which a client can only
    send as the text "null": absent is how a parameter is left out.
    """
    return {"type": OpenAPIType.STRING, "one_of": None, "pattern": pattern, **schema}


CURSOR_PATTERN = (
    "^cD[AEIMQUYcgk](?:[w-z0-5]"
    "(?:(?:[MN][DTjz]|O[DT])[AEIMQUYcgk][w-z0-5]){0,5}"
    "(?:(?:[MN][DTjz]|O[DT])[AEIMQUYcgk]|[MN][AQgw]|O[AQ])?)?$"
)
"""The cursors ``encode_cursor`` makes: base64url (unpadded) of ``p`` and 1-19 digits."""

Limit = Annotated[
    int,
    Parameter(ge=1, le=100, description="Most items to return (1-100).", title="Page size"),
]
Cursor = Annotated[
    str | None,
    Parameter(
        description="Opaque cursor from the previous page's `next_cursor` or `Link` header.",
        title="Page cursor",
        schema_extra=sent_as(CURSOR_PATTERN),
    ),
]
DEFAULT_LIMIT = 50
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?")


def instant_parameter(description: str) -> Any:
    """Return the declaration of an optional date-time query parameter (read by ``parse_instant``).

    It is declared as text: read as a ``datetime``, Litestar would also take a number
    (Unix time), which the schema cannot say.
    """
    return Parameter(description=description, schema_extra=sent_as(format="date-time"))


def parse_instant(value: str | None, field: str) -> datetime | None:
    """Read an RFC 3339 date-time query parameter (``None``: absent).

    >>> parse_instant("2026-11-22T10:00:00Z", "created_from").isoformat()
    '2026-11-22T10:00:00+00:00'

    Raises:
        MalformedError (VALIDATION_FAILED): not a date-time such as 2026-11-22T10:00:00Z.
    """
    if value is None:
        return None
    text = value.strip().upper()
    if _DATE_TIME.fullmatch(text):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    message = f"{value!r} is not a date-time such as 2026-11-22T10:00:00Z"
    raise validation_failed(field, message, "query")


LINK_HEADER = ResponseHeader(
    name="Link",
    description='`<url>; rel="next"` pointing at the next page; absent on the last page.',
    required=False,
    documentation_only=True,
)


def encode_cursor(position: int) -> str:
    """Return the opaque cursor for listing below ``position``.

    >>> decode_cursor(encode_cursor(42))
    42
    """
    return base64.urlsafe_b64encode(f"p{position}".encode()).rstrip(b"=").decode("ascii")


def choice_schema(choices: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``schema_extra`` describing an optional query value as one of ``choices``.

    The value is read as text and checked by ``query_choice``, whose 422 names the
    allowed values (Litestar's enum check does not); this keeps the schema an enum.
    """
    return {"type": OpenAPIType.STRING, "one_of": None, "enum": list(choices)}


def query_choice(field: str, value: str | None, choices: Mapping[str, T]) -> T | None:
    """Return what a query value names among ``choices`` (``None`` when it is absent).

    Raises:
        MalformedError (VALIDATION_FAILED): another value; the message lists the allowed ones.
    """
    if value is None:
        return None
    if value not in choices:
        allowed = ", ".join(choices)
        raise validation_failed(field, f"{value!r} is not one of: {allowed}", "query")
    return choices[value]


def query_uuid(field: str, value: str | None) -> UUID | None:
    """Return the id a query value names (``None`` when it is absent).

    Read here, not by Litestar, which takes the text ``null`` for an absent value.

    Raises:
        MalformedError (VALIDATION_FAILED): not a UUID.
    """
    if value is None:
        return None
    try:
        return UUID(value)
    except ValueError:
        raise validation_failed(field, f"{value!r} is not a UUID", "query") from None


def decode_cursor(cursor: str | None) -> int | None:
    """Return the position a cursor points below (``None`` for the first page).

    Raises:
        MalformedError (VALIDATION_FAILED): the cursor was not made by ``encode_cursor``.
    """
    if cursor is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        text = raw.decode("ascii")
        # Only what encode_cursor makes (CURSOR_PATTERN): b64decode overlooks stray
        # characters and trailing bits, which the schema's pattern does not.
        canonical = base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") == cursor
        if canonical and text.startswith("p") and text[1:].isdigit() and len(text) <= 20:
            return int(text[1:])
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise validation_failed("cursor", f"{cursor!r} is not a cursor from this API", "query")


def next_page(
    request: Request[Any, Any, Any], next_before: int | None
) -> tuple[str | None, dict[str, str]]:
    """Return the next page's cursor and the response headers (``Link: rel="next"``, if any).

    ``next_before`` is ``store.accounts.Page.next_before``: ``None`` on the last page.
    """
    if next_before is None:
        return None, {}
    cursor = encode_cursor(next_before)
    return cursor, link_to_next(request, cursor)


def link_to_next(request: Request[Any, Any, Any], cursor: str) -> dict[str, str]:
    """Return the ``Link: rel="next"`` header: this request's URL with ``cursor`` in place."""
    params = {k: v for k, v in request.query_params.items() if k != "cursor"}
    params["cursor"] = cursor
    url = request.url.with_replacements(query=urlencode(params))
    return {"Link": f'<{url}>; rel="next"'}


# -- shared -------------------------------------------------------------------------

_IdField = Field(
    default=None,
    description="Optional client-chosen id (for imports). Creating the same id with the "
    "same content again is idempotent; with other content it is 409 ALREADY_EXISTS.",
)


class Problem(BaseModel):
    """An RFC 9457 problem; ``code`` is the stable machine-readable reason."""

    type: str
    title: str
    status: int
    detail: str
    code: str = Field(description="Stable CAPS code, e.g. PLAYER_NOT_FOUND.")
    details: dict[str, Any] | None = None


# -- players ------------------------------------------------------------------------

DisplayName = Annotated[str, Text(max_length=100)]


class PlayerIn(BaseModel):
    """A player to create."""

    model_config = ConfigDict(extra="forbid")

    id: UUID | None = _IdField
    display_name: DisplayName = Field(description="Name shown in tables and replays.")


class PlayerOut(BaseModel):
    """A player."""

    id: UUID
    display_name: str
    created_at: datetime

    @classmethod
    def from_record(cls, player: Player) -> PlayerOut:
        """Return the body for a stored player."""
        return cls(id=player.id, display_name=player.display_name, created_at=player.created_at)


class PlayerPage(BaseModel):
    """One page of players, newest first."""

    items: list[PlayerOut]
    next_cursor: str | None = Field(description="Cursor of the next page; null on the last.")


# -- competitions -------------------------------------------------------------------

Game = Literal["cuttle", "kozel"]
Tiebreak = Literal[
    "head-to-head", "sonneborn-berger", "round-difference", "loss-point-difference", "wins"
]
_TIEBREAKS: dict[str, frozenset[str]] = {g: r.tiebreaks for g, r in GAMES.items()}
_VARIANTS: dict[str, tuple[str, ...]] = {g: r.variants for g, r in GAMES.items()}


class KozelFormat(BaseModel):
    """A Kozel match format: the loss points that make a team the goat, and eggs doubling."""

    model_config = ConfigDict(extra="forbid")

    loss_limit: StrictInt = Field(default=12, description="Loss points that end the match (>= 2).")
    eggs_double_next: StrictBool = Field(
        default=False, description="Whether eggs double the next decided deal's loss points."
    )

    @model_validator(mode="after")
    def _check(self) -> KozelFormat:
        try:
            KozelOptions(loss_limit=self.loss_limit, eggs_double_next=self.eggs_double_next)
        except InvalidSetupError as e:
            raise ValueError(e.message) from None
        return self


class CompetitionIn(BaseModel):
    """A competition to create: a club season or a tournament."""

    model_config = ConfigDict(extra="forbid")

    id: UUID | None = _IdField
    name: Annotated[str, Text(max_length=200)] = Field(
        description="E.g. 'Club season 2026' or 'Spring open'."
    )
    game: Game = Field(description="cuttle or kozel; fixes the variants, formats and tiebreaks.")
    variant: Line | None = Field(
        default=None,
        validate_default=True,
        description="cuttle: classic, standard or cutthroat (required); kozel: default.",
    )
    format: Line | KozelFormat | None = Field(
        default=None,
        validate_default=True,
        description="Default match format. cuttle: quick, short, normal (default), extended "
        "or best-of-N with N odd; kozel: {loss_limit, eggs_double_next}.",
    )
    tiebreaks: list[Tiebreak] = Field(
        default_factory=list,
        description="Ordered standings tiebreaks: head-to-head, sonneborn-berger, wins, and "
        "round-difference (cuttle) or loss-point-difference (kozel).",
    )
    public_reads: bool = Field(
        default=True, description="Whether anyone may read its matches and standings."
    )
    bye: ByeScore = Field(
        default="win",
        description="What a bye scores in its Swiss rounds: win (1), draw (1/2) or loss (0).",
    )

    @field_validator("variant", mode="before")
    @classmethod
    def _variant(cls, value: Any, info: ValidationInfo) -> Any:
        game = info.data.get("game")
        if game not in _VARIANTS:
            return value
        allowed = _VARIANTS[game]
        if value is None:
            if (default := rules_for(game).competition_variant) is not None:
                return default
            raise ValueError(f"a {game} competition needs a variant: {', '.join(allowed)}")
        if value not in allowed:
            raise ValueError(f"{value!r} is not a {game} variant: use {', '.join(allowed)}")
        return value

    @field_validator("format", mode="before")
    @classmethod
    def _format(cls, value: Any, info: ValidationInfo) -> Any:
        game = info.data.get("game")
        if game not in GAMES:
            return value
        try:
            value = rules_for(game).canonical_format(value)
        except DomainError as e:
            raise ValueError(e.message) from None
        return KozelFormat.model_validate(value) if isinstance(value, dict) else value

    @field_validator("tiebreaks")
    @classmethod
    def _tiebreaks(cls, value: list[str], info: ValidationInfo) -> list[str]:
        game = info.data.get("game")
        if game in _TIEBREAKS:
            wrong = [t for t in value if t not in _TIEBREAKS[game]]
            if wrong:
                raise ValueError(f"{wrong[0]!r} is not a {game} tiebreak")
        if len(set(value)) != len(value):
            raise ValueError("each tiebreak may appear once")
        return value

    def match_format(self) -> Any:
        """Return the format as stored: the canonical Cuttle text or the Kozel options object."""
        if isinstance(self.format, KozelFormat):
            return self.format.model_dump()
        return self.format


class CompetitionOut(BaseModel):
    """A competition."""

    id: UUID
    name: str
    game: Game
    variant: str
    format: str | KozelFormat
    tiebreaks: list[Tiebreak]
    public_reads: bool
    bye: ByeScore
    created_at: datetime

    @classmethod
    def from_record(cls, competition: Competition) -> CompetitionOut:
        """Return the body for a stored competition."""
        fmt = competition.match_format
        return cls(
            id=competition.id,
            name=competition.name,
            game=competition.game,  # type: ignore[arg-type]
            variant=competition.variant,
            format=KozelFormat.model_validate(fmt) if isinstance(fmt, dict) else fmt,
            tiebreaks=list(competition.tiebreaks),  # type: ignore[arg-type]
            public_reads=competition.public_reads,
            bye=competition.bye,
            created_at=competition.created_at,
        )


class CompetitionPage(BaseModel):
    """One page of competitions, newest first."""

    items: list[CompetitionOut]
    next_cursor: str | None = Field(description="Cursor of the next page; null on the last.")


# -- tokens -------------------------------------------------------------------------


class TokenIn(BaseModel):
    """A token to create."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    competitions: list[UUID] | None = Field(
        default=None, description="Limit a scorer to these competitions; null means all."
    )
    name: Annotated[str, Text(max_length=200, required=False)] = Field(
        default="", description="A label to recognise the token by."
    )
    expires_in: int | None = Field(
        default=None,
        ge=1,
        le=36500 * 86400,
        description="Seconds until the token stops working (at most 36500 days); null: never.",
    )

    @field_validator("competitions")
    @classmethod
    def _competitions(cls, value: list[UUID] | None, info: ValidationInfo) -> list[UUID] | None:
        if value is not None:
            if info.data.get("role") is Role.ADMIN:
                raise ValueError("an admin token acts on every competition; leave this null")
            if not value:
                raise ValueError("a scorer limited to no competition could record nothing")
        return value


class TokenOut(BaseModel):
    """A token's record; the secret itself is never shown again."""

    id: UUID
    name: str
    role: Role
    competitions: list[UUID] | None
    created_at: datetime
    revoked_at: datetime | None
    expires_at: datetime | None = Field(description="When it stops working; null: never.")

    @classmethod
    def from_record(cls, token: Token) -> TokenOut:
        """Return the body for a stored token."""
        scope = None if token.competitions is None else sorted(token.competitions)
        return cls(
            id=token.id,
            name=token.name,
            role=token.role,
            competitions=scope,
            created_at=token.created_at,
            revoked_at=token.revoked_at,
            expires_at=token.expires_at,
        )


class TokenCreated(TokenOut):
    """A new token's record and its secret, shown this once."""

    token: str = Field(description="The bearer token; store it now, it cannot be shown again.")


# -- OpenAPI ------------------------------------------------------------------------

_PROBLEM_TEXT = {
    400: "MALFORMED: the request cannot be read (e.g. a body that is not a JSON object)",
    401: "UNAUTHENTICATED: no token where one is needed, or a malformed, unknown, revoked or "
    "expired one",
    403: "FORBIDDEN: the token's role or competitions do not allow this",
    404: "The id names nothing: PLAYER_NOT_FOUND, COMPETITION_NOT_FOUND, MATCH_NOT_FOUND ...",
    409: "ALREADY_EXISTS or VERSION_CONFLICT: clashes with what is recorded",
    412: "VERSION_CONFLICT: If-Match names an old version; details.current_version says which",
    413: "BODY_TOO_LARGE: the body exceeds the configured limit",
    415: "UNSUPPORTED_MEDIA_TYPE: the body's Content-Type is not application/json",
    422: "VALIDATION_FAILED (details.errors names each field), or the rules' refusal code",
    428: "VERSION_REQUIRED: send If-Match or expected_version",
    429: "TOO_MANY_REQUESTS: too many live feeds open; Retry-After says when to try again",
}


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """Return OpenAPI response descriptions of the problem+json refusals a handler can give.

    400 and 401 are always listed: any request may be unreadable or carry a bad token;
    415 goes with 413: a body that may be too large may also not be JSON.
    """
    listed = {400, 401, *statuses}
    if 413 in listed:
        listed.add(415)
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=_PROBLEM_TEXT[status],
            generate_examples=False,
            media_type="application/problem+json",
        )
        for status in sorted(listed)
    }
