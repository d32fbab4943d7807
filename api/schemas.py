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
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlencode
from uuid import UUID

from litestar import Request
from litestar.datastructures import ResponseHeader
from litestar.openapi import ResponseSpec
from litestar.openapi.spec import OpenAPIType
from litestar.params import Parameter, ParameterKwarg
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
)
from pydantic_core import CoreSchema, core_schema

from api.inputs import Line, Text
from api.problems import validation_failed
from domain.competitions import ByeScore
from domain.errors import DomainError
from domain.games import GAMES, rules_for
from domain.roles import Role
from service.competitions import Competition, NewCompetition
from service.players import Player
from service.tokens import MAX_LIFETIME, MIN_LIFETIME, Token

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


# -- games --------------------------------------------------------------------------


class _RegisteredGames:
    """The names in ``domain.games.GAMES`` as they are when read (a data descriptor).

    The OpenAPI document is drawn after the app is made, so a game registered before
    then (a test's) is in its enum; the dataclass's own setting of ``enum`` is ignored.
    """

    def __get__(self, instance: object, owner: type | None = None) -> list[str]:
        return list(GAMES)

    def __set__(self, instance: object, value: object) -> None:
        pass


@dataclass(frozen=True)
class RegisteredGame(ParameterKwarg):
    """A game's name, ``Annotated[str, RegisteredGame()]``: one of the registry's games.

    Pydantic checks it against ``GAMES`` when a request is read, and the schema's enum
    lists ``GAMES`` when the document is drawn: no list of games here to keep up.
    """

    enum = _RegisteredGames()

    def __hash__(self) -> int:
        return hash(RegisteredGame)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """Return pydantic's schema: a string, then ``check``."""
        return core_schema.no_info_after_validator_function(self.check, core_schema.str_schema())

    @staticmethod
    def check(value: str) -> str:
        """Return ``value`` if a game of that name is registered (pydantic's ``ValueError``)."""
        try:
            rules_for(value)
        except DomainError as e:
            raise ValueError(e.message) from None
        return value


GameName = Annotated[str, RegisteredGame()]
"""A game matchlog records (``domain.games.GAMES``)."""


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

Tiebreak = Literal[
    "head-to-head", "sonneborn-berger", "round-difference", "loss-point-difference", "wins"
]


class KozelFormat(BaseModel):
    """A Kozel match format: the loss points that make a team the goat, and eggs doubling."""

    model_config = ConfigDict(extra="forbid")

    loss_limit: StrictInt = Field(default=12, description="Loss points that end the match (>= 2).")
    eggs_double_next: StrictBool = Field(
        default=False, description="Whether eggs double the next decided deal's loss points."
    )


class _AnyFormat:
    """A competition format's shape: text (a single line), an object, or null.

    Which it must be, and what it holds, is its game's rule (``checked_settings``); the
    declared type (``str | KozelFormat | None``) is what the schema documents.
    """

    _line = Text(required=False)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """Return pydantic's schema: a cleaned line, any object, or null."""
        line = core_schema.no_info_after_validator_function(
            self._line.clean, core_schema.str_schema()
        )
        return core_schema.nullable_schema(
            core_schema.union_schema([line, core_schema.dict_schema(core_schema.str_schema())])
        )


class CompetitionIn(BaseModel):
    """A competition to create: a club season or a tournament.

    Only its shape is checked here: its settings are the game's to judge, with its
    defaults (``domain.competitions.checked_settings``, in the service).
    """

    model_config = ConfigDict(extra="forbid")

    id: UUID | None = _IdField
    name: Annotated[str, Text(max_length=200)] = Field(
        description="E.g. 'Club season 2026' or 'Spring open'."
    )
    game: Annotated[
        str,
        RegisteredGame(description="One of the games; fixes the variants, formats and tiebreaks."),
    ]
    variant: Line | None = Field(
        default=None,
        description="cuttle: classic, standard or cutthroat (required); kozel: default.",
    )
    format: Annotated[Line | KozelFormat | None, _AnyFormat()] = Field(
        default=None,
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

    def new_competition(self) -> NewCompetition:
        """Return what the service creates (its settings checked there)."""
        return NewCompetition(
            name=self.name,
            game=self.game,
            variant=self.variant,
            match_format=self.format,
            tiebreaks=tuple(self.tiebreaks),
            public_reads=self.public_reads,
            bye=self.bye,
            id=self.id,
        )


class CompetitionOut(BaseModel):
    """A competition."""

    id: UUID
    name: str
    game: GameName
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
            game=competition.game,
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
        # The bounds are the lifetime rule's (service.tokens), which the service checks.
        ge=int(MIN_LIFETIME.total_seconds()),
        le=int(MAX_LIFETIME.total_seconds()),
        description=f"Seconds until the token stops working (at most {MAX_LIFETIME.days} "
        "days); null: never.",
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
    503: "DATABASE_UNAVAILABLE: the database cannot be reached; Retry-After says when to try again",
}


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """Return OpenAPI response descriptions of the problem+json refusals a handler can give.

    400 and 401 are always listed: any request may be unreadable or carry a bad token;
    503 too: every route that lists its refusals reads the database, and answers
    ``DATABASE_UNAVAILABLE`` while it is away; 415 goes with 413: a body that may be
    too large may also not be JSON.
    """
    listed = {400, 401, 503, *statuses}
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
