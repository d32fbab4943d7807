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

# Its own name space, apart from the tokens' locks (store/accounts.py).
_KEY_LOCK = "hashtextextended('idempotency:' || {}, 0)"


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
    # Sorted: every transaction takes its keys' locks in one order, so two never
    # wait on each other.
    texts = sorted({_lock_text(name) for name in names})
    await conn.execute(
        "SELECT pg_advisory_xact_lock(" + _KEY_LOCK.format("k") + ") FROM unnest(%s::text[]) k",
        (texts,),
    )
    # A statement of its own: its snapshot is taken after the locks were granted.
    cur = await conn.execute(
        "SELECT token_id, key FROM idempotent_requests"
        " WHERE (token_id, key) IN (SELECT * FROM unnest(%s::uuid[], %s::text[]))",
        ([name[0] for name in names], [name[1] for name in names]),
    )
    taken = {(row[0], row[1]) for row in await cur.fetchall()}
    return names - taken


async def store_answers(
    conn: psycopg.AsyncConnection[Any], answered: Sequence[tuple[OnceKey, Recorded]]
) -> None:
    """Insert each key's answer, rendered from what its write recorded, in one statement.

    The answers travel as one JSON array, text joined here: as a ``jsonb[]`` psycopg
    quoted each answer's every ``"`` with a regular expression, a quarter of a
    worker's CPU under keyed load (py-spy). Dumping a batch's answers (7 of a 1.9 kB
    move answer): 374 -> 0.6 µs CPU an answer (bench/write_answer.py); keyed load
    (bench/api_load.py --idempotency-keys --compare, 4 rounds): server CPU a move
    0.87x, moves/s 1.06x.
    """
    if not answered:
        return
    rows = [(key, key.render(recorded)) for key, recorded in answered]
    await conn.execute(
        "INSERT INTO idempotent_requests (token_id, key, request_hash, status_code, response)"
        " SELECT * FROM unnest(%s::uuid[], %s::text[], %s::bytea[], %s::int[], ARRAY("
        "SELECT a.e FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS a(e, n)"
        " ORDER BY a.n))",
        (
            [key.token_id for key, _ in rows],
            [key.key for key, _ in rows],
            [key.request_hash for key, _ in rows],
            [key.status_code for key, _ in rows],
            "[" + ",".join(body for _, body in rows) + "]",
        ),
    )


__all__ = ["KeyTakenError", "OnceKey", "claim_keys", "store_answers"]
