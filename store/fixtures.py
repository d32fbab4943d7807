"""A competition's rounds: tables of entrants, byes, and the match played at each table.

Plain tables and plain SQL, like ``store.accounts``; every function works on the
connection it is given and leaves the transaction to the caller.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg.rows import dict_row

from domain.errors import ConflictError, InvalidSetupError, NotFoundError
from domain.fixtures.results import forfeit_result, played_result


@dataclass(frozen=True, slots=True)
class NewRound:
    """A round to store: tables of entrant ids in seat order, byes, unavoidable rematches.

    ``first_dealers`` gives each table's first dealer seat (empty: none chosen).
    """

    tables: Sequence[Sequence[UUID]]
    byes: Sequence[UUID]
    rematches: int = 0
    first_dealers: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round; ``match_id`` and ``result`` once played or forfeited.

    ``players`` are the match's players in seat order: each entrant's first player, then
    each one's second (a Kozel pair's partners sit opposite). ``result`` is the finished
    match's (the matches projection's) with ``forfeit: false``, or a forfeit's
    (``domain.fixtures.results.forfeit_result``). ``played`` says whether a finished
    match is linked, forfeited or not.
    """

    id: UUID
    competition_id: UUID
    round: int
    number: int
    entrants: tuple[UUID, ...]
    players: tuple[UUID, ...]
    match_id: UUID | None
    result: dict[str, Any] | None
    first_dealer: int | None = None
    forfeited_by: tuple[UUID, ...] = ()
    played: bool = False
    voided: bool = False


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A stored round: its number, how it was made, its tables and byes."""

    number: int
    system: str
    rematches: int
    tables: tuple[Table, ...]
    byes: tuple[UUID, ...]


async def add_rounds(
    conn: AsyncConnection[Any], competition_id: UUID, system: str, rounds: Sequence[NewRound]
) -> int:
    """Store ``rounds`` after the competition's last one; return the first new round's number.

    Raises:
        ConflictError (ROUND_EXISTS): another writer stored a round with the same number first.
    """
    cur = await conn.execute(
        "SELECT coalesce(max(number), 0) FROM fixture_rounds WHERE competition_id = %s",
        (competition_id,),
    )
    row = await cur.fetchone()
    first = (row[0] if row else 0) + 1
    try:
        # A savepoint, so a refused write leaves the caller's transaction usable.
        async with conn.transaction():
            for number, r in enumerate(rounds, start=first):
                await conn.execute(
                    "INSERT INTO fixture_rounds (competition_id, number, system, rematches)"
                    " VALUES (%s, %s, %s, %s)",
                    (competition_id, number, system, r.rematches),
                )
                dealers: list[int | None] = [*r.first_dealers] or [None] * len(r.tables)
                for table_number, (entrants, dealer) in enumerate(
                    zip(r.tables, dealers, strict=True), start=1
                ):
                    await conn.execute(
                        "INSERT INTO fixtures"
                        " (id, competition_id, round, table_number, entrants, first_dealer)"
                        " VALUES (%s, %s, %s, %s, %s, %s)",
                        (
                            uuid.uuid4(),
                            competition_id,
                            number,
                            table_number,
                            list(entrants),
                            dealer,
                        ),
                    )
                for entrant in r.byes:
                    await conn.execute(
                        "INSERT INTO fixture_byes (competition_id, round, entrant_id)"
                        " VALUES (%s, %s, %s)",
                        (competition_id, number, entrant),
                    )
    except errors.UniqueViolation:
        raise ConflictError(
            "another request made this competition's next round first: read the fixtures again",
            code="ROUND_EXISTS",
            details={"competition_id": str(competition_id), "round": first},
        ) from None
    return first


# The match's players follow from the entrants: each entrant's first player, then each
# one's second, so a Kozel pair's partners sit at seats 0 and 2 (or 1 and 3).
_TABLES = """
    SELECT f.id, f.competition_id, f.round, f.table_number, f.entrants, f.match_id,
           f.first_dealer, f.forfeited_by, m.status AS match_status,
           CASE WHEN m.status = 'finished' THEN m.result END AS result,
           ARRAY(
               SELECT e.players[k]
               FROM generate_subscripts(f.entrants, 1) AS i
               JOIN entrants AS e ON e.id = f.entrants[i]
               CROSS JOIN generate_subscripts(e.players, 1) AS k
               ORDER BY k, i
           ) AS players
    FROM fixtures AS f
    LEFT JOIN matches AS m ON m.id = f.match_id
"""


def _table(row: dict[str, Any]) -> Table:
    entrants = tuple(row["entrants"])
    players = tuple(row["players"])
    forfeited = tuple(row["forfeited_by"] or ())
    result = row["result"]
    if forfeited:
        result = forfeit_result(entrants, forfeited, len(players))
    elif result is not None:
        result = played_result(result)
    return Table(
        id=row["id"],
        competition_id=row["competition_id"],
        round=row["round"],
        number=row["table_number"],
        entrants=entrants,
        players=players,
        match_id=row["match_id"],
        result=result,
        first_dealer=row["first_dealer"],
        forfeited_by=forfeited,
        played=row["result"] is not None,
        voided=row["match_status"] == "void",
    )


async def list_rounds(conn: AsyncConnection[Any], competition_id: UUID) -> list[StoredRound]:
    """Return the competition's rounds in order, with results as the matches projection has them.

    A table's ``result`` is that of a finished match or a forfeit; a live or voided
    match shows none.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT number, system, rematches FROM fixture_rounds"
            " WHERE competition_id = %s ORDER BY number",
            (competition_id,),
        )
        heads = await cur.fetchall()
        await cur.execute(
            _TABLES + " WHERE f.competition_id = %s ORDER BY f.round, f.table_number",
            (competition_id,),
        )
        tables = [_table(r) for r in await cur.fetchall()]
        await cur.execute(
            "SELECT b.round, b.entrant_id FROM fixture_byes AS b"
            " JOIN entrants AS e ON e.id = b.entrant_id"
            " WHERE b.competition_id = %s ORDER BY b.round, e.position",
            (competition_id,),
        )
        byes = await cur.fetchall()
    return [
        StoredRound(
            number=h["number"],
            system=h["system"],
            rematches=h["rematches"],
            tables=tuple(t for t in tables if t.round == h["number"]),
            byes=tuple(b["entrant_id"] for b in byes if b["round"] == h["number"]),
        )
        for h in heads
    ]


async def get_table(conn: AsyncConnection[Any], fixture_id: UUID) -> Table:
    """Return the fixture (one table of a round) with this id.

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such fixture.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(_TABLES + " WHERE f.id = %s", (fixture_id,))
        row = await cur.fetchone()
    if row is None:
        raise NotFoundError(
            f"no fixture has id {str(fixture_id)!r}",
            code="FIXTURE_NOT_FOUND",
            details={"id": str(fixture_id)},
        )
    return _table(row)


async def link_match(conn: AsyncConnection[Any], fixture_id: UUID, match_id: UUID) -> UUID | None:
    """Record that ``match_id`` is the match played at this fixture's table.

    A table whose match was voided takes a new one (a corrected result): the void match
    keeps its record and is returned, so the caller can keep the replacement on record;
    otherwise ``None``. The table's row stays locked to commit.

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such fixture (its round was taken back).
        ConflictError (FIXTURE_TAKEN): the table already has another match, not void.
    """
    # Two statements: the lock first, then, with a snapshot taken after it, the status
    # of whatever match a concurrent writer linked meanwhile.
    cur = await conn.execute(
        "SELECT match_id FROM fixtures WHERE id = %s FOR UPDATE", (fixture_id,)
    )
    row = await cur.fetchone()
    if row is None:
        raise NotFoundError(
            f"no fixture has id {str(fixture_id)!r}",
            code="FIXTURE_NOT_FOUND",
            details={"id": str(fixture_id)},
        )
    current: UUID | None = row[0]
    if current == match_id:
        return None
    if current is not None:
        cur = await conn.execute("SELECT status FROM matches WHERE id = %s", (current,))
        status = await cur.fetchone()
        if status is None or status[0] != "void":
            raise ConflictError(
                "this fixture's table already has a match",
                code="FIXTURE_TAKEN",
                details={"fixture_id": str(fixture_id), "match_id": str(current)},
            )
    await conn.execute("UPDATE fixtures SET match_id = %s WHERE id = %s", (match_id, fixture_id))
    return current


async def forfeit(
    conn: AsyncConnection[Any], fixture_id: UUID, forfeited_by: Sequence[UUID]
) -> tuple[Table, bool]:
    """Mark the table forfeited by ``forfeited_by``; return it and whether this changed it.

    Marking it again by the same entrants changes nothing. The fixture's row is locked,
    so a forfeit and a match's link or end are decided one after the other.

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such fixture.
        InvalidSetupError (UNKNOWN_ENTRANT): an entrant who is not at the table.
        ConflictError (FIXTURE_PLAYED, FIXTURE_FORFEITED): the table has a finished
            match, or was forfeited by other entrants.
    """
    await conn.execute("SELECT 1 FROM fixtures WHERE id = %s FOR UPDATE", (fixture_id,))
    table = await get_table(conn, fixture_id)
    strangers = [str(e) for e in forfeited_by if e not in table.entrants]
    if strangers or not forfeited_by:
        raise InvalidSetupError(
            "forfeited_by must name one or more of the table's entrants",
            code="UNKNOWN_ENTRANT",
            details={"entrants": [str(e) for e in table.entrants], "unknown": strangers},
        )
    wanted = tuple(e for e in table.entrants if e in forfeited_by)
    if table.forfeited_by:
        if table.forfeited_by == wanted:
            return table, False
        raise ConflictError(
            "this table was already forfeited by other entrants",
            code="FIXTURE_FORFEITED",
            details={
                "fixture_id": str(fixture_id),
                "forfeited_by": [str(e) for e in table.forfeited_by],
            },
        )
    if table.played:
        raise ConflictError(
            "this table's match is finished: its result stands",
            code="FIXTURE_PLAYED",
            details={"fixture_id": str(fixture_id), "match_id": str(table.match_id)},
        )
    await conn.execute(
        "UPDATE fixtures SET forfeited_by = %s WHERE id = %s", (list(wanted), fixture_id)
    )
    return await get_table(conn, fixture_id), True


async def lock_rounds(conn: AsyncConnection[Any], competition_id: UUID) -> list[StoredRound]:
    """Lock the competition's round rows and tables to commit; return its rounds.

    A match linked to a table (``link_match``) or a forfeit (``forfeit``) updates the
    table's row, so either commits before and is seen here, or waits for this
    transaction and then finds the table as it left it.
    """
    await conn.execute(
        "SELECT 1 FROM fixture_rounds WHERE competition_id = %s ORDER BY number FOR UPDATE",
        (competition_id,),
    )
    await conn.execute(
        "SELECT 1 FROM fixtures WHERE competition_id = %s ORDER BY round, table_number FOR UPDATE",
        (competition_id,),
    )
    return await list_rounds(conn, competition_id)


async def reseat_round(
    conn: AsyncConnection[Any],
    competition_id: UUID,
    number: int,
    tables: Mapping[UUID, Sequence[UUID]],
    byes: Sequence[UUID],
    rematches: int,
) -> None:
    """Seat round ``number``'s tables (by fixture id) and byes anew; its rematches too.

    Only for a round none of whose tables has started (the caller checks, under
    ``lock_rounds``): the first dealer stays with its seat.
    """
    for fixture_id, entrants in tables.items():
        await conn.execute(
            "UPDATE fixtures SET entrants = %s WHERE id = %s AND competition_id = %s",
            (list(entrants), fixture_id, competition_id),
        )
    await conn.execute(
        "DELETE FROM fixture_byes WHERE competition_id = %s AND round = %s",
        (competition_id, number),
    )
    for entrant in byes:
        await conn.execute(
            "INSERT INTO fixture_byes (competition_id, round, entrant_id) VALUES (%s, %s, %s)",
            (competition_id, number, entrant),
        )
    await conn.execute(
        "UPDATE fixture_rounds SET rematches = %s WHERE competition_id = %s AND number = %s",
        (rematches, competition_id, number),
    )


async def remove_rounds(conn: AsyncConnection[Any], competition_id: UUID, first: int) -> None:
    """Remove round ``first`` and every later one: only rounds none of whose tables started.

    The caller keeps a copy in a takeback record (``store.records``) and checks, under
    ``lock_rounds``, that no table of them has a match or a forfeit.
    """
    for table in ("fixture_byes", "fixtures"):
        await conn.execute(
            f"DELETE FROM {table} WHERE competition_id = %s AND round >= %s",
            (competition_id, first),
        )
    await conn.execute(
        "DELETE FROM fixture_rounds WHERE competition_id = %s AND number >= %s",
        (competition_id, first),
    )
