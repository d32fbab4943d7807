"""Bearer tokens: who is calling, and what they may do.

A caller sends ``Authorization: Bearer mlt_...``. The token's record gives a role
(``admin`` may do everything, ``scorer`` may record matches and create players) and,
for a scorer, optionally the competitions it is limited to. This module reads the
caller from the request; the rules on what a principal may read or do are
``service.access``'s (``Principal``, ``require_*``, re-exported here).

How to use it in a controller:

- Writes: put ``opt=requires(Role.SCORER)`` (or ``Role.ADMIN``) on the handler (or
  its controller). The app-wide ``before_request`` hook ``authorize`` checks it before
  the body is read, so 401/403 come before 413 and 400/422, the order the design asks
  for. Then take the ``principal`` dependency and, once the
  target competition is known (``None`` for a match outside any competition),
  check the token's competition limit::

      @post(operation_id="CreateMatch", opt=requires(Role.SCORER))
      async def create(
          self, data: JSONBody[MatchIn], principal: NamedDependency[Principal]
      ) -> ...:
          require_scope(principal, data.competition_id)  # never None after ``authorize``

- Reads: take ``principal: NamedDependency[Principal | None]`` (``None`` for an
  anonymous caller). For anything belonging to a competition call
  ``require_read(principal, competition)``: competitions with public reads are open
  to all, the others need a token that may act on them. To list across
  competitions, filter with ``readable_private(principal)``.

A presented token that is malformed, unknown, revoked or expired is refused with 401 on
every route, reads included (``authorize``); an expired
token is refused exactly as a revoked one.

Match writes (handlers with ``opt={WRITE_CHECKS_TOKEN: True}``) take their principal
from ``KnownTokens``, this process's memory of what tokens stand for, and pass its
``token_id`` to the recorder, whose transaction checks that the token is still usable
before anything is decided (the recorder's ``token_id``). Such a write
costs no connection of its own for the token; a revoked or expired token is refused
by the write's transaction, in every process, once the revocation has committed.

Refusals are ``UnauthenticatedError`` (401, ``UNAUTHENTICATED``, with
``WWW-Authenticate: Bearer``) and ``ForbiddenError`` (403, ``FORBIDDEN``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final
from uuid import UUID

from litestar import Request
from litestar.connection import ASGIConnection
from psycopg_pool import AsyncConnectionPool

from api.lru import Lru
from domain.errors import UnauthenticatedError
from service.access import (
    Principal,
    Role,
    Token,
    active_token,
    hash_token,
    principal_of,
    readable_private,
    require_read,
    require_read_of,
    require_role,
    require_scope,
    token_refused,
)

__all__ = [
    "REQUIRED_ROLE",
    "WRITE_CHECKS_TOKEN",
    "KnownTokens",
    "Principal",
    "Role",
    "authenticate",
    "authorize",
    "current_principal",
    "provide_principal",
    "readable_private",
    "require_read",
    "require_read_of",
    "require_role",
    "require_scope",
    "requires",
]

_SCOPE_KEY = "matchlog.principal"

WRITE_CHECKS_TOKEN: Final = "matchlog.write_checks_token"
"""Route ``opt`` key of handlers whose write checks the token in its own transaction
(it passes ``principal.token_id`` to the recorder): ``authorize`` uses ``KnownTokens``."""


class KnownTokens:
    """What the tokens this process has seen stand for, by the digest of their secret.

    A token's role and competitions never change, so an entry is never wrong about
    them. Whether the token is still usable is not taken from here: the writes that
    use an entry check it in their own transaction, and drop it (``forget``) when
    that check refuses it; an entry past its expiry is not returned.
    """

    def __init__(self, size: int = 1024) -> None:
        self._entries: Lru[bytes, tuple[Principal, datetime | None]] = Lru(size)

    def get(self, digest: bytes) -> Principal | None:
        """Return the principal of the token with this digest, if known and not expired."""
        entry = self._entries.get(digest)
        if entry is None:
            return None
        principal, expires_at = entry
        if expires_at is not None and expires_at <= datetime.now(UTC):
            return None
        return principal

    def put(self, digest: bytes, token: Token) -> Principal:
        """Remember a usable token; return its principal."""
        principal = Principal.from_token(token)
        self._entries.put(digest, (principal, token.expires_at))
        return principal

    def forget(self, token_id: UUID) -> None:
        """Drop the token with this id (a write found it revoked or expired)."""
        self._entries.forget_where(lambda entry: entry[0].token_id == token_id)


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal | None:
    """Return the caller's principal, or ``None`` when no Authorization header was sent.

    The result is kept on the connection, so ``authorize`` and dependencies look it up once.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): not a Bearer header, or an unknown,
            revoked or expired token.
    """
    scope_state: dict[str, Any] = connection.scope.setdefault("state", {})
    if _SCOPE_KEY in scope_state:
        cached: Principal | None = scope_state[_SCOPE_KEY]
        return cached
    header = connection.headers.get("authorization")
    principal = None if header is None else await _principal_for(connection, header)
    scope_state[_SCOPE_KEY] = principal
    return principal


async def _principal_for(connection: ASGIConnection[Any, Any, Any, Any], header: str) -> Principal:
    if connection.route_handler.opt.get(WRITE_CHECKS_TOKEN):
        known: KnownTokens = connection.app.state.tokens
        secret = _secret_of(header)
        digest = hash_token(secret)
        principal = known.get(digest)
        if principal is not None:
            return principal
        token = await active_token(connection.app.state.pool, secret)
        if token is not None:
            return known.put(digest, token)
    else:
        principal = await current_principal(connection.app.state.pool, header)
        if principal is not None:
            return principal
    raise token_refused()


def _secret_of(header: str) -> str:
    """Return the secret of a Bearer ``Authorization`` header.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): not a Bearer header.
    """
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        raise UnauthenticatedError(
            "the Authorization header must read 'Bearer <token>'",
            details={"reason": "invalid_request"},
        )
    return secret


async def current_principal(pool: AsyncConnectionPool, header: str) -> Principal | None:
    """Return the principal behind an ``Authorization`` header now, or ``None``.

    ``None``: the token is unknown, revoked or expired. Every request's check, and
    a live feed's repeated one while it runs.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): not a Bearer header.
    """
    return await principal_of(pool, _secret_of(header))


async def provide_principal(request: Request[Any, Any, Any]) -> Principal | None:
    """Dependency ``principal``: the caller, or ``None`` when anonymous.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): a presented token is bad.
    """
    return await authenticate(request)


REQUIRED_ROLE: Final = "matchlog.required_role"
"""The handler ``opt`` key naming the role a route needs (set by ``requires``)."""


async def authorize(connection: ASGIConnection[Any, Any, Any, Any]) -> None:
    """Refuse a presented token that is bad, and a caller without the route's role.

    Runs as the app's ``before_request`` hook, not as Litestar guards: Litestar hands
    each guard its own ``copy`` of the route handler, which py-spy put at 8.5% of a
    write's server CPU with two guards. Against those guards, paired rounds of
    ``bench/api_load.py --seconds 15 --rounds 3 --compare``: 1.11x moves/s, 0.88x
    server CPU a move (medians).

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): the token is bad, or missing where needed.
        ForbiddenError (FORBIDDEN): the token's role is not enough.
    """
    principal = await authenticate(connection)
    role: Role | None = connection.route_handler.opt.get(REQUIRED_ROLE)
    if role is not None:
        require_role(principal, role)


def requires(role: Role) -> dict[str, Any]:
    """Return a route's ``opt`` letting only callers with ``role`` through (admins always pass)."""
    return {REQUIRED_ROLE: role}
