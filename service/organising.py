"""The organiser's changes to a competition: withdrawals, swaps, taken-back rounds, and
corrected results (a void table's new match) (#31).

Each is kept as a record (``store.records``: who, when, why, what) in the transaction
that makes it, and none touches a played result: a swap or a takeback is refused once
any table of the round has started (a match linked to it, or a forfeit), and a
withdrawal forfeits only the entrant's tables that have not started. The rules are
docs/competitions.md's ("Withdrawals, swaps and taken-back rounds").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from domain.errors import (
    ConflictError,
    InvalidSetupError,
    MalformedError,
    NotFoundError,
    invalid_field,
)
from domain.text import clean_text
from projections.standings import recompute_standings
from service.fixture_reports import rounds_report
from store import accounts, entrants, fixtures, records
from store.entrants import Entrant
from store.events import read_stream
from store.fixtures import StoredRound, Table
from store.records import By, Record

REASON_MAX = 500
"""The longest reason kept, in characters."""

Author = UUID | str
"""Who makes a change: an API token's id, or the name of a user at a terminal."""


def checked_reason(reason: str) -> str:
    """Return ``reason`` as it is kept (``domain.text.clean_text``, lines allowed).

    Raises:
        MalformedError (VALIDATION_FAILED): blank, a refused character, or too long.
    """
    try:
        text = clean_text(reason, lines=True)
    except MalformedError as refused:
        raise invalid_field("reason", str(refused)) from None
    if len(text) > REASON_MAX:
        raise invalid_field("reason", f"at most {REASON_MAX} characters")
    return text


async def _by(conn: AsyncConnection[Any], author: Author) -> By:
    if isinstance(author, UUID):
        return await records.token_by(conn, author)
    return By(None, author)


async def keep_correction(
    conn: AsyncConnection[Any],
    table: Table,
    void_stream: str,
    void_match_id: UUID,
    author: Author,
) -> Record:
    """Keep on record that ``table``'s void match was replaced by its new one (a correction).

    Its reason is the void's (``MatchVoided``); ``details`` names the table, the void
    match and the new one, and when and by whom the match was voided. Runs in the new
    match's write transaction, after ``store.fixtures.link_match`` linked it.
    """
    voids = [e for e in await read_stream(conn, void_stream) if e.type == "MatchVoided"]
    void = voids[-1]
    voided_by = void.metadata.get("token_id")
    by_void = await _by(conn, UUID(voided_by)) if voided_by else None
    return await records.add_record(
        conn,
        table.competition_id,
        "correction",
        str(void.data["reason"]),
        await _by(conn, author),
        round_number=table.round,
        details={
            "fixture_id": str(table.id),
            "table": table.number,
            "void_match_id": str(void_match_id),
            "match_id": str(table.match_id),
            "voided_at": void.recorded_at.isoformat(),
            "voided_by": None if by_void is None else by_void.name,
        },
    )


def _started(table: Table) -> bool:
    return table.match_id is not None or bool(table.forfeited_by)


def _round(rounds: Sequence[StoredRound], competition_id: UUID, number: int) -> StoredRound:
    for r in rounds:
        if r.number == number:
            return r
    raise NotFoundError(
        f"competition {str(competition_id)!r} has no round {number}",
        code="ROUND_NOT_FOUND",
        details={"round": number, "rounds": len(rounds)},
    )


def _refuse_started(r: StoredRound, doing: str) -> None:
    started = [t for t in r.tables if _started(t)]
    if started:
        raise ConflictError(
            f"{len(started)} table(s) of round {r.number} have started (a match or a "
            f"forfeit): {doing} only a round none of whose tables has started",
            code="ROUND_STARTED",
            details={"round": r.number, "fixture_ids": [str(t.id) for t in started]},
        )


async def _entrant(conn: AsyncConnection[Any], competition_id: UUID, entrant_id: UUID) -> Entrant:
    for e in await entrants.list_entrants(conn, competition_id):
        if e.id == entrant_id:
            return e
    raise NotFoundError(
        f"competition {str(competition_id)!r} has no entrant {str(entrant_id)!r}",
        code="ENTRANT_NOT_FOUND",
        details={"entrant_id": str(entrant_id)},
    )


async def withdraw_entrant(
    pool: AsyncConnectionPool[Any],
    competition_id: UUID,
    entrant_id: UUID,
    reason: str,
    author: Author,
) -> Entrant:
    """Withdraw an entrant (a player or a Kozel pair); return it with its ``withdrawn`` record.

    It is paired in no later round; results played stand; each of its tables that has
    not started (no match, no forfeit) is forfeited by it, so its opponents win them.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND, ENTRANT_NOT_FOUND): no such competition or
            no such entrant in it.
        MalformedError (VALIDATION_FAILED): a blank or refused reason.
        ConflictError (ALREADY_WITHDRAWN): it has withdrawn already.
    """
    reason = checked_reason(reason)
    async with pool.connection() as conn, conn.transaction():
        await accounts.get_competition(conn, competition_id)
        rounds = await fixtures.lock_rounds(conn, competition_id)
        entrant = await _entrant(conn, competition_id, entrant_id)
        if entrant.withdrawn is not None:
            raise ConflictError(
                "this entrant has already withdrawn",
                code="ALREADY_WITHDRAWN",
                details={"entrant_id": str(entrant_id)},
            )
        waiting = [
            t for r in rounds for t in r.tables if entrant_id in t.entrants and not _started(t)
        ]
        for table in waiting:
            await fixtures.forfeit(conn, table.id, [entrant_id])
        await records.add_record(
            conn,
            competition_id,
            "withdrawal",
            reason,
            await _by(conn, author),
            entrant_id=entrant_id,
            details={"forfeited": [str(t.id) for t in waiting]},
        )
        if waiting:
            await recompute_standings(conn, competition_id)
        return await _entrant(conn, competition_id, entrant_id)


def _rematches(seated: Sequence[Sequence[UUID]], earlier: Sequence[StoredRound]) -> int:
    # As the pairings count them: each pair at a table that met at a table before.
    met = {frozenset(p) for r in earlier for t in r.tables for p in combinations(t.entrants, 2)}
    return sum(frozenset(p) in met for t in seated for p in combinations(t, 2))


async def swap_entrants(
    pool: AsyncConnectionPool[Any],
    competition_id: UUID,
    number: int,
    swapped: tuple[UUID, UUID],
    reason: str,
    author: Author,
) -> StoredRound:
    """Swap two entrants of round ``number`` between tables (or a table and the byes).

    Each takes the other's seat; a table's first dealer stays with its seat. Only in a
    round none of whose tables has started. Returns the round.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND, ROUND_NOT_FOUND): no such competition or round.
        MalformedError (VALIDATION_FAILED): a blank or refused reason.
        InvalidSetupError (UNKNOWN_ENTRANT, SAME_TABLE): an entrant not in the round, or
            two at the same table (or both byes).
        ConflictError (ROUND_STARTED, ENTRANT_WITHDRAWN): a table of the round has a match
            or a forfeit, or one of the two has withdrawn.
    """
    reason = checked_reason(reason)
    a, b = swapped
    async with pool.connection() as conn, conn.transaction():
        await accounts.get_competition(conn, competition_id)
        rounds = await fixtures.lock_rounds(conn, competition_id)
        the_round = _round(rounds, competition_id, number)
        where: dict[UUID, tuple[UUID | None, int]] = {}
        for t in the_round.tables:
            for seat, e in enumerate(t.entrants):
                where[e] = (t.id, seat)
        for i, e in enumerate(the_round.byes):
            where[e] = (None, i)
        missing = [str(e) for e in swapped if e not in where]
        if missing:
            raise InvalidSetupError(
                f"round {number} has no entrant {', '.join(missing)}",
                code="UNKNOWN_ENTRANT",
                details={"round": number, "unknown": missing},
            )
        if a == b or where[a][0] == where[b][0]:
            raise InvalidSetupError(
                "swap two entrants of different tables (or a table's and a bye)",
                code="SAME_TABLE",
                details={"round": number, "a": str(a), "b": str(b)},
            )
        _refuse_started(the_round, "swap entrants in")
        withdrawn = await records.withdrawals(conn, competition_id)
        if gone := [str(e) for e in swapped if e in withdrawn]:
            # A withdrawn entrant keeps a bye it had, but takes no seat.
            raise ConflictError(
                f"entrant {', '.join(gone)} has withdrawn: it is seated at no table",
                code="ENTRANT_WITHDRAWN",
                details={"round": number, "withdrawn": gone},
            )
        tables = {t.id: list(t.entrants) for t in the_round.tables}
        byes = list(the_round.byes)
        for mover, into in ((a, where[b]), (b, where[a])):
            fixture_id, at = into
            (tables[fixture_id] if fixture_id is not None else byes)[at] = mover
        changed = {f: tables[f] for f in (where[a][0], where[b][0]) if f is not None}
        earlier = [r for r in rounds if r.number < number]
        rematches = _rematches(list(tables.values()), earlier)
        await fixtures.reseat_round(conn, competition_id, number, changed, byes, rematches)
        await records.add_record(
            conn,
            competition_id,
            "swap",
            reason,
            await _by(conn, author),
            round_number=number,
            details={
                "a": str(a),
                "b": str(b),
                "fixture_ids": [str(f) for f in changed],
            },
        )
        return _round(await fixtures.list_rounds(conn, competition_id), competition_id, number)


async def take_back_round(
    pool: AsyncConnectionPool[Any],
    competition_id: UUID,
    number: int,
    reason: str,
    author: Author,
) -> list[StoredRound]:
    """Take back the last round, none of whose tables has started; return the rounds left.

    A round robin's rounds were made together and are taken back together (``number``
    names its last round). The taken-back rounds are kept in the record's ``details``
    (as ``GET /competitions/{id}/fixtures`` gave them); the round can then be made again.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND, ROUND_NOT_FOUND): no such competition or round.
        MalformedError (VALIDATION_FAILED): a blank or refused reason.
        ConflictError (NOT_LAST_ROUND, ROUND_STARTED): a later round exists, or a table
            of the round (of any round of a round robin) has a match or a forfeit.
    """
    reason = checked_reason(reason)
    async with pool.connection() as conn, conn.transaction():
        await accounts.get_competition(conn, competition_id)
        rounds = await fixtures.lock_rounds(conn, competition_id)
        the_round = _round(rounds, competition_id, number)
        if number != rounds[-1].number:
            raise ConflictError(
                f"only the last round (round {rounds[-1].number}) can be taken back",
                code="NOT_LAST_ROUND",
                details={"round": number, "last": rounds[-1].number},
            )
        taken = rounds if the_round.system == "round-robin" else [the_round]
        for r in taken:
            _refuse_started(r, "take back")
        first = taken[0].number
        await records.add_record(
            conn,
            competition_id,
            "takeback",
            reason,
            await _by(conn, author),
            round_number=first,
            details=rounds_report(taken),
        )
        await fixtures.remove_rounds(conn, competition_id, first)
        return await fixtures.list_rounds(conn, competition_id)


async def read_records(pool: AsyncConnectionPool[Any], competition_id: UUID) -> list[Record]:
    """Return the competition's records (withdrawals, swaps, takebacks, corrections), newest
    first.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND): no such competition.
    """
    async with pool.connection() as conn:
        await accounts.get_competition(conn, competition_id)
        return await records.list_records(conn, competition_id)


def record_report(record: Record) -> dict[str, Any]:
    """Return a record as ``GET /competitions/{id}/records`` gives it (JSON-ready)."""
    return {
        "id": str(record.id),
        "kind": record.kind,
        "at": record.at.isoformat(),
        "by": by_report(record.by),
        "reason": record.reason,
        "round": record.round,
        "entrant_id": None if record.entrant_id is None else str(record.entrant_id),
        "details": dict(record.details),
    }


def by_report(by: By) -> dict[str, Any]:
    """Return who made a change, JSON-ready: ``{token_id, name}``."""
    return {"token_id": None if by.token_id is None else str(by.token_id), "name": by.name}


def withdrawn_report(entrant: Entrant) -> dict[str, Any] | None:
    """Return an entrant's ``withdrawn`` (``{at, by, reason}``), or ``None``."""
    w = entrant.withdrawn
    if w is None:
        return None
    return {"at": w.at.isoformat(), "by": by_report(w.by), "reason": w.reason}


__all__ = [
    "REASON_MAX",
    "Author",
    "By",
    "Record",
    "checked_reason",
    "keep_correction",
    "read_records",
    "record_report",
    "swap_entrants",
    "take_back_round",
    "withdraw_entrant",
    "withdrawn_report",
]
