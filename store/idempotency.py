"""The ``idempotent_requests`` table: a write's first answer, stored with its events.

A write that carries a key takes the key's advisory lock in its transaction before
it appends, then looks for a stored answer: a concurrent write with the same key
has by then committed (its answer is seen) or rolled back (the key is free). Its
own answer is inserted after its events, in the same transaction, so an answer
exists exactly when its events do. Many writes' keys are locked, looked up and
stored with one statement each, so keyed writes share a group-commit batch
(bench/api_load.py --idempotency-keys, alternating with the baseline, with the answer
no longer read before writing: server CPU a move 3.21 -> 1.61 ms, PostgreSQL's 2.07 ->
0.56 ms, 14.00 -> 1.47 statements a request; docs/benchmarks.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

from domain.errors import ConflictError

if TYPE_CHECKING:
    from store.recorder import Recorded


@dataclass(frozen=True, slots=True)
class OnceKey:
    """A write's ``Idempotency-Key``: whose it is, what request it names, its answer.

    ``render`` makes the answer's body, JSON text, from what the write recorded
    (called in the write's transaction).
    """

    token_id: uuid.UUID
    key: str
    request_hash: bytes
    status_code: int
    render: Callable[[Recorded], str]

    @property
    def name(self) -> tuple[uuid.UUID, str]:
        """The key's identity: one stored answer each."""
        return self.token_id, self.key


class KeyTakenError(ConflictError):
    """The key already has an answer (an earlier write, or one that committed first)."""

    def __init__(self, key: str) -> None:
        super().__init__(
            "this Idempotency-Key already has an answer",
            code="IDEMPOTENCY_KEY_TAKEN",
            details={"key": key},
        )


def _lock_text(name: tuple[uuid.UUID, str]) -> str:
    return f"{name[0]}:{name[1]}"


async def claim_keys(
    conn: psycopg.AsyncConnection[Any], keys: Sequence[OnceKey]
) -> set[tuple[uuid.UUID, str]]:
    """Lock ``keys`` until the transaction ends; return the names that are free.

    A name given twice is free for its first holder only (the caller keeps order).
    """
    names = {key.name for key in keys}
    if not names:
        return set()
    # One statement (migrations/sql/functions/claim_idempotency_keys.*.sql): the keys'
    # locks, sorted, so every transaction takes them in one order and two never wait
    # on each other; then the read, its snapshot taken after the locks were granted.
    cur = await conn.execute(
        "SELECT * FROM claim_idempotency_keys(%b::text[], %b::uuid[], %b::text[])",
        (
            sorted({_lock_text(name) for name in names}),
            [name[0] for name in names],
            [name[1] for name in names],
        ),
    )
    taken = {(row[0], row[1]) for row in await cur.fetchall()}
    return names - taken


async def store_answers(
    conn: psycopg.AsyncConnection[Any], answered: Sequence[tuple[OnceKey, Recorded]]
) -> None:
    """Insert each key's answer, rendered from what its write recorded, in one statement.

    The answers go as a binary ``text[]`` and are kept as the text sent: in text
    form psycopg quoted each answer's every ``"`` with a regular expression (374 µs
    a move's answer: bench/write_answer.py), and a ``jsonb`` column parsed each one.
    Every list goes binary: dumping a batch of 8 answers' parameters took 682 µs
    with the other lists in text form (the request hashes' ``bytea[]`` 382 of it),
    83 all binary.
    """
    if not answered:
        return
    rows = [(key, key.render(recorded)) for key, recorded in answered]
    await conn.execute(
        "INSERT INTO idempotent_requests (token_id, key, request_hash, status_code, response)"
        " SELECT * FROM unnest(%b::uuid[], %b::text[], %b::bytea[], %b::int[], %b::text[])",
        (
            [key.token_id for key, _ in rows],
            [key.key for key, _ in rows],
            [key.request_hash for key, _ in rows],
            [key.status_code for key, _ in rows],
            [body for _, body in rows],
        ),
    )


async def stored_answer(
    conn: psycopg.AsyncConnection[Any], token_id: uuid.UUID, key: str
) -> tuple[bytes, int, str] | None:
    """Return the request hash, status and body stored for ``(token_id, key)``, if any."""
    cur = await conn.execute(
        "SELECT request_hash, status_code, response FROM idempotent_requests"
        " WHERE token_id = %s AND key = %s",
        (token_id, key),
    )
    row = await cur.fetchone()
    return None if row is None else (bytes(row[0]), int(row[1]), str(row[2]))


__all__ = ["KeyTakenError", "OnceKey", "claim_keys", "store_answers", "stored_answer"]
