"""What an organiser changed in a competition, and why: withdrawals, swaps, taken-back rounds,
corrected results (a void table's new match).

One row per change in ``competition_records`` (migrations 0020 and 0021): who (the token's id and
its name then), when, the reason, and the change's ``details``. Rows are never updated
or deleted. Like ``store.accounts``, every function works on the connection it is given
and leaves the transaction to the caller.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from domain.errors import ConflictError

RecordKind = Literal["withdrawal", "swap", "takeback", "correction"]


@dataclass(frozen=True, slots=True)
class By:
    """Who made a change: the API token's id and name, or ``None`` and a terminal's user."""

    token_id: UUID | None
    name: str


@dataclass(frozen=True, slots=True)
class Record:
    """One change to a competition: its kind, the round or entrant it concerns, who, when, why."""

    id: UUID
    competition_id: UUID
    kind: RecordKind
    reason: str
    by: By
    at: datetime
    round: int | None = None
    entrant_id: UUID | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


_COLUMNS = "id, competition_id, kind, round, entrant_id, reason, token_id, by_name, details, at"


def _record(row: Mapping[str, Any]) -> Record:
    return Record(
        id=row["id"],
        competition_id=row["competition_id"],
        kind=row["kind"],
        reason=row["reason"],
        by=By(row["token_id"], row["by_name"]),
        at=row["at"],
        round=row["round"],
        entrant_id=row["entrant_id"],
        details=row["details"],
    )


async def token_by(conn: AsyncConnection[Any], token_id: UUID) -> By:
    """Return the ``By`` of an API token: its id and its name (its id's start if unnamed)."""
    cur = await conn.execute("SELECT name FROM api_tokens WHERE id = %s", (token_id,))
    row = await cur.fetchone()
    name = row[0] if row and row[0] else f"token {str(token_id)[:8]}"
    return By(token_id, name)


async def add_record(
    conn: AsyncConnection[Any],
    competition_id: UUID,
    kind: RecordKind,
    reason: str,
    by: By,
    *,
    round_number: int | None = None,
    entrant_id: UUID | None = None,
    details: Mapping[str, Any] | None = None,
) -> Record:
    """Store one change and return it.

    Raises:
        ConflictError (ALREADY_WITHDRAWN): a second withdrawal of the same entrant.
    """
    try:
        # A savepoint, so a refused record leaves the caller's transaction usable.
        async with conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "INSERT INTO competition_records (id, competition_id, kind, round, entrant_id,"
                " reason, token_id, by_name, details) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                f" RETURNING {_COLUMNS}",
                (
                    uuid.uuid4(),
                    competition_id,
                    kind,
                    round_number,
                    entrant_id,
                    reason,
                    by.token_id,
                    by.name,
                    Jsonb(dict(details or {})),
                ),
            )
            row = await cur.fetchone()
    except errors.UniqueViolation:
        raise ConflictError(
            "this entrant has already withdrawn",
            code="ALREADY_WITHDRAWN",
            details={"entrant_id": str(entrant_id)},
        ) from None
    assert row is not None
    return _record(row)


async def list_records(conn: AsyncConnection[Any], competition_id: UUID) -> list[Record]:
    """Return the competition's records, newest first."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_COLUMNS} FROM competition_records WHERE competition_id = %s"
            " ORDER BY position DESC",
            (competition_id,),
        )
        return [_record(r) for r in await cur.fetchall()]


async def withdrawals(conn: AsyncConnection[Any], competition_id: UUID) -> dict[UUID, Record]:
    """Return the competition's withdrawals by entrant id."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_COLUMNS} FROM competition_records"
            " WHERE competition_id = %s AND kind = 'withdrawal'",
            (competition_id,),
        )
        return {r["entrant_id"]: _record(r) for r in await cur.fetchall()}
