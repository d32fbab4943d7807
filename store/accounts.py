"""Players, competitions and API tokens: reference data in plain tables (plain SQL).

Every function works on the connection it is given and leaves the transaction to
the caller, like the event store's ``append``.

Listings are newest first and paged by ``position`` (an identity column): a page
holds up to ``limit`` rows below ``before`` and says where the next page starts.

Creating with a client-given id is idempotent: the same id with the same content
returns the stored row (``created`` is false); different content is refused with
``ALREADY_EXISTS``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar
from uuid import UUID

from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from domain.competitions import ByeScore as ByeScore  # re-exported: the store's rows name it
from domain.competitions import checked_settings
from domain.errors import (
    ConflictError,
    DomainError,
    MalformedError,
    NotFoundError,
    UnauthenticatedError,
)
from domain.roles import Role as Role  # re-exported: callers read a token's role here

T = TypeVar("T")

_log = logging.getLogger(__name__)

TOKEN_PREFIX = "mlt_"
"""Every token starts with this, so a leaked one is easy to recognise in logs and scanners."""


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a newest-first listing; ``next_before`` is ``None`` on the last page."""

    items: tuple[T, ...]
    next_before: int | None


@dataclass(frozen=True, slots=True)
class Player:
    """A person who plays; only the display name is kept."""

    id: UUID
    display_name: str
    created_at: datetime
    position: int


@dataclass(frozen=True, slots=True)
class Competition:
    """A club season or a tournament whose matches share a game, variant and format.

    ``match_format`` is JSON: the canonical Cuttle format text (``'normal'``), or the
    Kozel options object (``{'loss_limit': 12, 'eggs_double_next': False}``). ``bye``
    is what a bye scores in its Swiss rounds: ``win``, ``draw`` or ``loss``.
    """

    id: UUID
    name: str
    game: str
    variant: str
    match_format: Any
    tiebreaks: tuple[str, ...]
    public_reads: bool
    created_at: datetime
    position: int
    bye: ByeScore = "win"


@dataclass(frozen=True, slots=True)
class Token:
    """A stored API token (never the secret): its role and the competitions it may act on.

    ``competitions`` is ``None`` when the token may act on every competition.
    """

    id: UUID
    name: str
    role: Role
    competitions: frozenset[UUID] | None
    created_at: datetime
    revoked_at: datetime | None
    expires_at: datetime | None = None

    @property
    def is_active(self) -> bool:
        """Whether the token has not been revoked (``expires_at`` says until when it works)."""
        return self.revoked_at is None


_PLAYER_COLUMNS = "id, display_name, created_at, position"
_COMPETITION_COLUMNS = (
    "id, name, game, variant, match_format, tiebreaks, public_reads, created_at, position, bye"
)
_TOKEN_COLUMNS = "id, name, role, competitions, created_at, revoked_at, expires_at"
# A token that may still be used: neither revoked nor past its expiry.
_USABLE = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())"


def _player(row: dict[str, Any]) -> Player:
    return Player(row["id"], row["display_name"], row["created_at"], row["position"])


def _competition(row: dict[str, Any]) -> Competition:
    return Competition(
        id=row["id"],
        name=row["name"],
        game=row["game"],
        variant=row["variant"],
        match_format=row["match_format"],
        tiebreaks=tuple(row["tiebreaks"]),
        public_reads=row["public_reads"],
        created_at=row["created_at"],
        position=row["position"],
        bye=row["bye"],
    )


def _token(row: dict[str, Any]) -> Token:
    scope = row["competitions"]
    return Token(
        id=row["id"],
        name=row["name"],
        role=Role(row["role"]),
        competitions=None if scope is None else frozenset(scope),
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        expires_at=row["expires_at"],
    )


def _page(items: Sequence[T], positions: Sequence[int], limit: int) -> Page[T]:
    if len(items) > limit:
        return Page(tuple(items[:limit]), positions[limit - 1])
    return Page(tuple(items), None)


def _already_exists(kind: str, id_: UUID) -> ConflictError:
    return ConflictError(
        f"a {kind} with id {str(id_)!r} already exists with different content",
        code="ALREADY_EXISTS",
        details={"id": str(id_)},
    )


async def _row_by_id(
    conn: AsyncConnection[Any], table: str, columns: str, kind: str, id_: UUID
) -> dict[str, Any]:
    """Return the row of ``table`` with this id, or raise ``<KIND>_NOT_FOUND``."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(f"SELECT {columns} FROM {table} WHERE id = %s", (id_,))
        row = await cur.fetchone()
    if row is None:
        raise NotFoundError(
            f"no {kind} has id {str(id_)!r}",
            code=f"{kind.upper()}_NOT_FOUND",
            details={"id": str(id_)},
        )
    return row


# -- players ------------------------------------------------------------------------


async def create_player(
    conn: AsyncConnection[Any], display_name: str, *, player_id: UUID | None = None
) -> tuple[Player, bool]:
    """Create a player; return it and whether it was created now.

    Raises:
        ConflictError (ALREADY_EXISTS): ``player_id`` exists with another display name.
    """
    new_id = player_id or uuid.uuid4()
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"INSERT INTO players (id, display_name) VALUES (%s, %s) "
            f"ON CONFLICT (id) DO NOTHING RETURNING {_PLAYER_COLUMNS}",
            (new_id, display_name),
        )
        row = await cur.fetchone()
    if row is not None:
        return _player(row), True
    existing = await get_player(conn, new_id)
    if existing.display_name != display_name:
        raise _already_exists("player", new_id)
    return existing, False


async def ensure_players(conn: AsyncConnection[Any], players: Sequence[tuple[UUID, str]]) -> None:
    """Create each ``(id, display name)`` player that does not exist yet, in one statement.

    An existing id keeps its stored name: the id is the player (log import).
    """
    if not players:
        return
    await conn.execute(
        "INSERT INTO players (id, display_name)"
        " SELECT * FROM unnest(%s::uuid[], %s::text[]) ON CONFLICT (id) DO NOTHING",
        ([pid for pid, _ in players], [name for _, name in players]),
    )


async def get_player(conn: AsyncConnection[Any], player_id: UUID) -> Player:
    """Return the player with this id.

    Raises:
        NotFoundError (PLAYER_NOT_FOUND): no such player.
    """
    return _player(await _row_by_id(conn, "players", _PLAYER_COLUMNS, "player", player_id))


async def list_players(
    conn: AsyncConnection[Any], *, limit: int, before: int | None = None
) -> Page[Player]:
    """Return up to ``limit`` players, newest first, created before position ``before``."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_PLAYER_COLUMNS} FROM players "
            "WHERE %(before)s::bigint IS NULL OR position < %(before)s "
            "ORDER BY position DESC LIMIT %(limit)s",
            {"before": before, "limit": limit + 1},
        )
        rows = await cur.fetchall()
    return _page([_player(r) for r in rows], [r["position"] for r in rows], limit)


async def players_named(conn: AsyncConnection[Any], name: str) -> list[Player]:
    """Return the players whose display name is ``name``, letter case aside, oldest first."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE lower(display_name) = lower(%s)"
            " ORDER BY position LIMIT 11",
            (name,),
        )
        return [_player(r) for r in await cur.fetchall()]


# -- competitions -------------------------------------------------------------------


def unreadable(competition: Competition) -> str | None:
    """Return why a stored competition cannot be read as a competition, or ``None``.

    Rows written before ``checked_settings`` (``domain.competitions``) guarded every
    write may hold, say, a Kozel format with match options in it; they are reported,
    not trusted.
    """
    try:
        canonical = checked_settings(
            competition.game,
            competition.variant,
            competition.match_format,
            competition.tiebreaks,
            competition.bye,
        ).match_format
    except DomainError as e:
        return e.message
    if canonical != competition.match_format:
        return f"its format {competition.match_format!r} is not canonical ({canonical!r})"
    return None


def readable(competition: Competition) -> Competition:
    """Return ``competition`` if a reader can trust its row.

    Raises:
        ConflictError (COMPETITION_UNREADABLE): the stored row does not check out.
    """
    problem = unreadable(competition)
    if problem is not None:
        raise ConflictError(
            f"competition {str(competition.id)!r} is stored in a form matchlog cannot read: "
            f"{problem}; an admin must repair its row",
            code="COMPETITION_UNREADABLE",
            details={"id": str(competition.id)},
        )
    return competition


async def create_competition(
    conn: AsyncConnection[Any],
    *,
    name: str,
    game: str,
    variant: str,
    match_format: Any,
    tiebreaks: Sequence[str] = (),
    public_reads: bool = True,
    competition_id: UUID | None = None,
    bye: ByeScore = "win",
) -> tuple[Competition, bool]:
    """Create a competition; return it and whether it is new.

    The format is stored canonically (``domain.competitions.checked_settings``),
    whoever writes it: the store is the last writer, so it holds the rule too.

    Raises:
        MalformedError (VALIDATION_FAILED): game, variant, format, tiebreaks or bye do
            not check out.
        ConflictError (ALREADY_EXISTS): ``competition_id`` exists with other content.
    """
    match_format = checked_settings(game, variant, match_format, tiebreaks, bye).match_format
    new_id = competition_id or uuid.uuid4()
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "INSERT INTO competitions "
            "(id, name, game, variant, match_format, tiebreaks, public_reads, bye) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
            f"ON CONFLICT (id) DO NOTHING RETURNING {_COMPETITION_COLUMNS}",
            (new_id, name, game, variant, Jsonb(match_format), list(tiebreaks), public_reads, bye),
        )
        row = await cur.fetchone()
    if row is not None:
        return _competition(row), True
    existing = await get_competition(conn, new_id)
    wanted = (name, game, variant, _json_value(match_format), tuple(tiebreaks), public_reads, bye)
    stored = (
        existing.name,
        existing.game,
        existing.variant,
        existing.match_format,
        existing.tiebreaks,
        existing.public_reads,
        existing.bye,
    )
    if wanted != stored:
        raise _already_exists("competition", new_id)
    return existing, False


def _json_value(value: Any) -> Any:
    """Return ``value`` as it comes back from a jsonb column (tuples become lists)."""
    return json.loads(json.dumps(value))


async def get_competition(conn: AsyncConnection[Any], competition_id: UUID) -> Competition:
    """Return the competition with this id.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND): no such competition.
    """
    row = await _row_by_id(
        conn, "competitions", _COMPETITION_COLUMNS, "competition", competition_id
    )
    return _competition(row)


async def list_competitions(
    conn: AsyncConnection[Any],
    *,
    limit: int,
    before: int | None = None,
    public_or: Collection[UUID] | None = None,
    writable: Collection[UUID] | None = None,
) -> Page[Competition]:
    """Return up to ``limit`` competitions, newest first, created before position ``before``.

    With ``public_or`` only competitions with public reads, or whose id is in it, are listed;
    with ``writable`` only those whose id is in it (a limited scorer's own).
    A row that is not ``readable`` is left out of its page (which may then hold fewer than
    ``limit``) and logged, so one bad row never takes the listing down.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_COMPETITION_COLUMNS} FROM competitions "
            "WHERE (%(before)s::bigint IS NULL OR position < %(before)s) "
            "AND (%(filter)s::boolean IS FALSE OR public_reads OR id = ANY(%(ids)s::uuid[])) "
            "AND (%(only)s::boolean IS FALSE OR id = ANY(%(writable)s::uuid[])) "
            "ORDER BY position DESC LIMIT %(limit)s",
            {
                "before": before,
                "filter": public_or is not None,
                "ids": list(public_or or ()),
                "only": writable is not None,
                "writable": list(writable or ()),
                "limit": limit + 1,
            },
        )
        rows = await cur.fetchall()
    page = _page([_competition(r) for r in rows], [r["position"] for r in rows], limit)
    kept = []
    for competition in page.items:
        problem = unreadable(competition)
        if problem is None:
            kept.append(competition)
        else:
            _log.warning("competition %s left out of a listing: %s", competition.id, problem)
    return Page(tuple(kept), page.next_before)


# -- tokens -------------------------------------------------------------------------


def generate_token() -> str:
    """Return a new secret: ``mlt_`` and 32 random bytes in unpadded base64url.

    >>> token = generate_token()
    >>> (token[:4], len(token), token == generate_token())
    ('mlt_', 47, False)
    """
    raw = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode("ascii")
    return TOKEN_PREFIX + raw


def hash_token(token: str) -> bytes:
    """Return the sha256 digest under which a token is stored.

    >>> len(hash_token('mlt_abc'))
    32
    """
    return hashlib.sha256(token.encode("utf-8")).digest()


async def create_token(
    conn: AsyncConnection[Any],
    *,
    role: Role,
    competitions: Collection[UUID] | None = None,
    name: str = "",
    expires_in: timedelta | None = None,
) -> tuple[Token, str]:
    """Create a token; return its record and the secret, which is never stored or shown again.

    ``competitions`` limits a scorer to those competitions; ``None`` means all.
    ``expires_in`` (from now, by the database's clock) ends it; ``None`` means never.

    Raises:
        MalformedError (MALFORMED): an admin token limited to competitions, or an empty limit.
        NotFoundError (COMPETITION_NOT_FOUND): a listed competition does not exist.
    """
    scope: list[UUID] | None = None
    if competitions is not None:
        if role is Role.ADMIN:
            raise MalformedError(
                "an admin token acts on every competition; only scorer tokens take competitions",
                code="MALFORMED",
                details={"role": role.value},
            )
        if not competitions:
            raise MalformedError(
                "a scorer token limited to no competition could record nothing",
                code="MALFORMED",
                details={"competitions": []},
            )
        scope = sorted(set(competitions))
        for competition_id in scope:
            await get_competition(conn, competition_id)
    secret = generate_token()
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "INSERT INTO api_tokens (id, name, role, competitions, token_hash, expires_at) "
            f"VALUES (%s, %s, %s, %s, %s, now() + %s::interval) RETURNING {_TOKEN_COLUMNS}",
            (uuid.uuid4(), name, role.value, scope, hash_token(secret), expires_in),
        )
        row = await cur.fetchone()
    assert row is not None, "INSERT ... RETURNING returns the row"
    return _token(row), secret


async def list_tokens(conn: AsyncConnection[Any], *, include_revoked: bool = True) -> list[Token]:
    """Return every token record, newest first; without ``include_revoked``, usable ones only.

    A token past its expiry is left out with the revoked ones.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_TOKEN_COLUMNS} FROM api_tokens "
            f"WHERE %s OR ({_USABLE}) ORDER BY created_at DESC, id",
            (include_revoked,),
        )
        rows = await cur.fetchall()
    return [_token(r) for r in rows]


async def get_token(conn: AsyncConnection[Any], token_id: UUID) -> Token:
    """Return the token record with this id.

    Raises:
        NotFoundError (TOKEN_NOT_FOUND): no such token.
    """
    return _token(await _row_by_id(conn, "api_tokens", _TOKEN_COLUMNS, "token", token_id))


async def revoke_token(conn: AsyncConnection[Any], token_id: UUID) -> Token:
    """Revoke a token; revoking it again keeps the first revocation time.

    It waits for the writes in flight with the token to commit; once it has
    committed, no write with the token is recorded (``lock_usable_tokens``).

    Raises:
        NotFoundError (TOKEN_NOT_FOUND): no such token.
    """
    # Waits for the writes in flight with the token (lock_usable_tokens).
    await conn.execute(f"SELECT pg_advisory_xact_lock({_TOKEN_LOCK.format('%s')})", (token_id,))
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) "
            f"WHERE id = %s RETURNING {_TOKEN_COLUMNS}",
            (token_id,),
        )
        row = await cur.fetchone()
    if row is None:
        return await get_token(conn, token_id)
    return _token(row)


def token_refused() -> UnauthenticatedError:
    """Return the refusal of a token that is unknown, revoked or expired (the same for all)."""
    return UnauthenticatedError(
        "the token is unknown, revoked or expired", details={"reason": "invalid_token"}
    )


# A token's advisory lock: writes with the token hold it shared, a revocation exclusive.
# The SQL function lock_usable_tokens names it the same way (its migration's file);
# tests/api/test_write_token_check.py fails if the two differ.
_TOKEN_LOCK = "hashtextextended('api_token:' || {}::text, 0)"


async def lock_usable_tokens(conn: AsyncConnection[Any], token_ids: Collection[UUID]) -> set[UUID]:
    """Return which of ``token_ids`` are usable now, and hold them so until the transaction ends.

    For a write made with a token, in the write's own transaction. It takes each
    token's advisory lock shared, which ``revoke_token`` takes exclusive: a
    revocation that starts while the write is in flight waits for its commit, and
    a write that comes during a revocation waits for it and then, reading after the
    wait, sees it. Either way no write made with a token commits after the token's
    revocation did. (A row lock ``FOR SHARE`` would order them too, but every
    concurrent locker of a hot token's row writes a new multixact of all the
    others, and a stream of them can hold a revocation off for good; the lock
    manager queues a shared request behind a waiting exclusive one.) Expiry is
    judged by the clock at the read, which the commit follows by milliseconds.
    """
    if not token_ids:
        return set()
    # One statement (migrations/sql/functions/lock_usable_tokens.*.sql): the locks,
    # then the read under a snapshot taken after them. Sorted: one order for all.
    cur = await conn.execute("SELECT lock_usable_tokens(%b::uuid[])", (sorted(token_ids),))
    return {row[0] for row in await cur.fetchall()}


async def find_active_token(conn: AsyncConnection[Any], secret: str) -> Token | None:
    """Return the unrevoked, unexpired token whose secret this is, or ``None``.

    The lookup is by the secret's sha256, so no constant-time comparison is needed:
    what the query's timing could leak is how much of the stored digest a guess
    matched, and that neither reveals the secret (sha256 is preimage-resistant) nor
    helps build one that hashes to it.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = %s AND {_USABLE}",
            (hash_token(secret),),
        )
        row = await cur.fetchone()
    return None if row is None else _token(row)
