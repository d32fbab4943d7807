"""Idempotent writes: a write's first answer, kept for the retries that carry its key.

The answer is stored in the write's own transaction (the recorder's ``once``:
``store.idempotency``), so it exists exactly when the write's events do. A key is
scoped by its token: ``(token_id, key)`` names one request, by the hash of what
was sent; the same key with another request is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError
from store.accounts import lock_usable_tokens, token_refused
from store.idempotency import OnceKey, stored_answer


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """A first answer kept for retries: its status and its body, the JSON text sent."""

    status_code: int
    body: str


async def first_answer(
    pool: AsyncConnectionPool[Any], token_id: UUID, key: str, request_hash: bytes
) -> StoredAnswer | None:
    """Return the stored answer of an earlier identical request, or ``None``.

    The token is checked in the same transaction, as a write checks it: a revoked or
    expired token gets no stored answer either.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): the token is revoked or expired.
        ConflictError (IDEMPOTENCY_KEY_REUSED): the key was used for another request.
    """
    async with pool.connection() as conn:
        if not await lock_usable_tokens(conn, {token_id}):
            raise token_refused()
        row = await stored_answer(conn, token_id, key)
    if row is None:
        return None
    stored_hash, status_code, body = row
    if stored_hash != request_hash:
        raise ConflictError(
            "this Idempotency-Key was already used for a different request",
            code="IDEMPOTENCY_KEY_REUSED",
            details={"key": key},
        )
    return StoredAnswer(status_code, body)


__all__ = ["OnceKey", "StoredAnswer", "first_answer"]
