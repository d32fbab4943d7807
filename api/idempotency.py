"""``Idempotency-Key``: a retried write gets the first answer, to the same token only.

The first answer is stored in the same transaction as the events it reports (the
recorder's ``once``; looked up again by ``service.idempotency``), so an answer exists
exactly when its events do, and keyed writes share group-commit batches like the rest.
Keys are scoped by token: ``(token_id, key)`` names one request (method, path and
body); the same key with a different request is refused (``IDEMPOTENCY_KEY_REUSED``).

Two requests with one key at the same moment: the second to write waits for the
first on the key's lock, which its transaction takes before appending (in one
batch, the first of the two holds it). Then its own write is refused (the key has
an answer, or the match moved on), and it answers as if it had come after: the
first answer, or ``IDEMPOTENCY_KEY_REUSED``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from psycopg_pool import AsyncConnectionPool
from pydantic import BaseModel

from api.auth import Principal
from api.inputs import has_control
from api.problems import validation_failed
from domain.errors import DomainError
from service.idempotency import OnceKey, StoredAnswer, first_answer
from service.matches import Recorded

MAX_KEY_LENGTH = 200
KEY_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
"""An ``Idempotency-Key`` as the schema declares it: not blank, no control character."""


@dataclass(frozen=True, slots=True)
class IdempotentRequest:
    """A write that carried an ``Idempotency-Key``."""

    principal: Principal
    key: str
    request_hash: bytes

    @classmethod
    def from_request(
        cls, principal: Principal, key: str | None, method: str, path: str, body: bytes
    ) -> IdempotentRequest | None:
        """Return the idempotent request, or ``None`` without a key.

        Raises:
            MalformedError (VALIDATION_FAILED): an empty or over-long key.
        """
        if key is None:
            return None
        if not key.strip() or len(key) > MAX_KEY_LENGTH or has_control(key):
            raise validation_failed(
                "Idempotency-Key",
                f"must be 1-{MAX_KEY_LENGTH} characters, no control characters",
                "header",
            )
        digest = hashlib.sha256(f"{method} {path}\n".encode() + body).digest()
        return cls(principal, key, digest)

    async def first_answer(self, pool: AsyncConnectionPool[Any]) -> StoredAnswer | None:
        """Return the stored answer of an earlier identical request, or ``None``.

        The token is checked in the same transaction, as a write checks it: a
        revoked or expired token gets no stored answer either.

        Raises:
            UnauthenticatedError (UNAUTHENTICATED): the token is revoked or expired.
            ConflictError (IDEMPOTENCY_KEY_REUSED): the key was used for another request.
        """
        return await first_answer(pool, self.principal.token_id, self.key, self.request_hash)

    def once(self, status_code: int, render: Render) -> OnceKey:
        """Return the key the write carries, storing the answer ``render(recorded)`` gives."""
        return OnceKey(self.principal.token_id, self.key, self.request_hash, status_code, render)


Render = Callable[[Recorded], str]
"""Makes a write's answer body (JSON text) from what it recorded."""


class Answer:
    """A write's answer, made once: the body stored for its Idempotency-Key (rendered
    in the write's transaction) is the body sent back, not a second rendering of it.

    The body is pydantic's own JSON (``model_dump_json``), sent as bytes, byte for
    byte what Litestar's encoder made of the model by dumping it to a dict first; a
    stored answer took that dict through ``json.dumps`` too. A move's answer, built
    and rendered (bench/write_answer.py: 9 interleaved runs, CPU medians): 120 -> 97
    µs unkeyed (0.81x), 189 -> 97 µs keyed (0.52x).
    """

    def __init__(self, make: Callable[[Recorded], BaseModel]) -> None:
        self._make = make
        self._rendered: tuple[Recorded, str] | None = None

    def render(self, recorded: Recorded) -> str:
        """Return the JSON body for ``recorded`` (the ``Render`` a keyed write stores)."""
        body = self._make(recorded).model_dump_json()
        self._rendered = (recorded, body)
        return body

    def content(self, recorded: Recorded) -> Any:
        """Return the body to send for ``recorded`` (JSON bytes): the stored one if it
        was rendered. ``Any``: the handlers' ``Response[...]`` name the model, for the
        OpenAPI schema, that these bytes are the JSON of."""
        # A batch that failed and was recorded again rendered an earlier Recorded:
        # only the one this write returned counts.
        if self._rendered is not None and self._rendered[0] is recorded:
            return self._rendered[1].encode()
        return self.render(recorded).encode()


async def record_once(
    idem: IdempotentRequest | None,
    pool: AsyncConnectionPool[Any],
    status_code: int,
    render: Render,
    write: Callable[[OnceKey | None], Awaitable[Recorded]],
) -> Recorded | StoredAnswer:
    """Run ``write`` (given the key that stores its answer) at most once per key.

    Returns the stored answer of an identical request with the key, if one was
    recorded before or got there first while ``write`` ran; else what ``write``
    recorded.

    Raises:
        ConflictError (IDEMPOTENCY_KEY_REUSED): the key belongs to another request.
        DomainError: ``write`` was refused, and no request with the key was recorded.
    """
    if idem is None:
        return await write(None)
    try:
        return await write(idem.once(status_code, render))
    except DomainError:
        # Not looked up before writing: the write's transaction looks under the key's
        # lock, and a key with an answer refuses it (KeyTakenError), as a retry's stale
        # version does. One statement-laden round trip fewer for every first request.
        if (answer := await idem.first_answer(pool)) is None:
            raise
        return answer
