"""Making a competition's rounds: round robin all at once, or the next Swiss round."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any, Literal
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError, InvalidSetupError, NotFoundError
from domain.fixtures.cutthroat import CutthroatRound, cutthroat_round
from domain.fixtures.dealers import first_dealers, tally_of
from domain.fixtures.round_robin import round_robin
from domain.game_rules import Tables
from projections.reports import player_names
from projections.standings import competition_results, recompute_standings, tally_results
from service.dealers import round_robin_dealers
from service.swiss import SwissRound, swiss_round
from service.swiss_ranking import rank_entrants
from store import accounts, entrants, fixtures
from store.accounts import ByeScore, Competition
from store.entrants import Entrant
from store.fixtures import NewRound, StoredRound, Table

System = Literal["round-robin", "swiss"]

BYE_SCORES: dict[ByeScore, Fraction] = {
    "win": Fraction(1),
    "draw": Fraction(1, 2),
    "loss": Fraction(0),
}
"""What a bye scores in Swiss rankings, by the competition's ``bye`` setting."""


def swiss_scores(
    entrant_ids: Sequence[UUID], rounds: Sequence[StoredRound], bye: ByeScore = "win"
) -> dict[UUID, Fraction]:
    """Return each entrant's Swiss score: 1 a win, 1/2 a draw, 0 a loss; a bye as ``bye``.

    A table's seats go round its entrants (seat ``s`` is entrant ``s % len(entrants)``),
    so a Kozel pair's two seats count as the pair's. A forfeited table scores a win for
    each entrant who did not forfeit (its result's ``winners``), nothing for the others.
    """
    scores = {e: Fraction(0) for e in entrant_ids}
    for r in rounds:
        for entrant in r.byes:
            scores[entrant] += BYE_SCORES[bye]
        for table in r.tables:
            if table.result is None:
                continue
            if table.result.get("draw"):
                for entrant in table.entrants:
                    scores[entrant] += Fraction(1, len(table.entrants))
                continue
            winners = {table.entrants[s % len(table.entrants)] for s in table.result["winners"]}
            for entrant in winners:
                scores[entrant] += 1
    return scores


def _next_swiss(
    competition: Competition,
    listed: list[Entrant],
    rounds: list[StoredRound],
    tables: Tables,
) -> NewRound:
    """Pair the next Swiss round (or cutthroat tables) of the entrants who have not withdrawn."""
    unfinished = [t.id for r in rounds for t in r.tables if t.result is None]
    if unfinished:
        raise ConflictError(
            f"{len(unfinished)} table(s) of the last round have no result yet: the next Swiss "
            "round is paired from the results",
            code="ROUND_UNFINISHED",
            details={"fixture_ids": [str(f) for f in unfinished]},
        )
    # Scores count every entrant's rounds; only those still in are ranked and paired.
    scores = swiss_scores([e.id for e in listed], rounds, competition.bye)
    active = [e for e in listed if e.withdrawn is None]
    ranked = rank_entrants(competition.game, competition.tiebreaks, active, scores, tables)
    byes_had = Counter(e for r in rounds for e in r.byes)
    made: SwissRound[UUID] | CutthroatRound[UUID]
    if competition.variant == "cutthroat":
        # Each earlier sharing of a table counts: a pair that sat together twice weighs two.
        shared = Counter(
            frozenset(p) for r in rounds for t in r.tables for p in combinations(t.entrants, 2)
        )
        made = cutthroat_round(ranked, scores, shared, byes_had)
    else:
        met = {frozenset(t.entrants) for r in rounds for t in r.tables}
        made = swiss_round(ranked, scores, met, byes_had)
    # A forfeited table was never dealt: it counts for nobody's first deals.
    history = tally_of(
        [
            (r.number, [(t.entrants, None if t.forfeited_by else t.first_dealer) for t in r.tables])
            for r in rounds
        ]
    )
    seats_per_entrant = len(listed[0].players)
    [dealers] = first_dealers([made.tables], seats_per_entrant, history, len(rounds) + 1)
    return NewRound([list(t) for t in made.tables], list(made.byes), made.rematches, dealers)


async def make_rounds(
    pool: AsyncConnectionPool[Any], competition_id: UUID, system: System, legs: int = 1
) -> list[StoredRound]:
    """Make every round (``round-robin``) or the next one (``swiss``); return all rounds.

    Entrants who have withdrawn are not paired. A cutthroat competition's Swiss rounds
    are tables of three (``cutthroat_round``).

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND): no such competition.
        InvalidSetupError (NOT_ENOUGH_ENTRANTS, UNSUPPORTED_VARIANT): nothing to pair.
        ConflictError (FIXTURES_EXIST, ROUND_UNFINISHED, ROUND_EXISTS): the rounds so far
            do not allow it.
    """
    async with pool.connection() as conn, conn.transaction():
        competition = accounts.readable(await accounts.get_competition(conn, competition_id))
        cutthroat = competition.variant == "cutthroat"
        if cutthroat and system == "round-robin":
            raise InvalidSetupError(
                "cutthroat has no round robin: rounds of tables of three in which every two "
                "entrants meet exactly once exist only for some counts (3, 9, 15, ...); "
                'make Swiss rounds instead ({"system": "swiss"})',
                code="UNSUPPORTED_VARIANT",
                details={"variant": competition.variant, "system": system},
            )
        listed = await entrants.list_entrants(conn, competition_id)
        # A withdrawn entrant is paired in no later round (docs/competitions.md).
        entrant_ids = [e.id for e in listed if e.withdrawn is None]
        least = 3 if cutthroat else 2
        if len(entrant_ids) < least:
            raise InvalidSetupError(
                f"pairing needs at least {least} entrants; the competition has "
                f"{len(entrant_ids)} still in",
                code="NOT_ENOUGH_ENTRANTS",
                details={"entrants": len(entrant_ids), "least": least},
            )
        rounds = await fixtures.list_rounds(conn, competition_id)
        if rounds and (system == "round-robin" or rounds[0].system == "round-robin"):
            raise ConflictError(
                f"the competition already has {rounds[0].system} rounds",
                code="FIXTURES_EXIST",
                details={"system": rounds[0].system, "rounds": len(rounds)},
            )
        if system == "round-robin":
            made = round_robin(entrant_ids, legs)
            seats_per_entrant = len(listed[0].players)
            dealers = round_robin_dealers([r.tables for r in made], legs, seats_per_entrant)
            new = [
                NewRound(r.tables, r.byes, first_dealers=d)
                for r, d in zip(made, dealers, strict=True)
            ]
        else:
            matches, forfeits, _ = await competition_results(conn, competition_id)
            tables = tally_results(competition.game, matches, forfeits)
            new = [_next_swiss(competition, listed, rounds, tables)]
        await fixtures.add_rounds(conn, competition_id, system, new)
        return await fixtures.list_rounds(conn, competition_id)


async def forfeit_table(
    pool: AsyncConnectionPool[Any],
    competition_id: UUID,
    fixture_id: UUID,
    forfeited_by: Sequence[UUID],
) -> Table:
    """Mark a table of the competition forfeited by ``forfeited_by``; return the table.

    The competition's standings are recomputed in the same transaction, so they count
    the forfeit as soon as it is stored (``projections.standings.tally_results``).

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such table in this competition.
        InvalidSetupError (UNKNOWN_ENTRANT): an entrant who is not at the table.
        ConflictError (FIXTURE_PLAYED, FIXTURE_FORFEITED): see ``store.fixtures.forfeit``.
    """
    async with pool.connection() as conn, conn.transaction():
        table = await fixtures.get_table(conn, fixture_id)
        if table.competition_id != competition_id:
            raise NotFoundError(
                f"competition {str(competition_id)!r} has no fixture {str(fixture_id)!r}",
                code="FIXTURE_NOT_FOUND",
                details={"id": str(fixture_id)},
            )
        table, changed = await fixtures.forfeit(conn, fixture_id, forfeited_by)
        if changed:
            await recompute_standings(conn, competition_id)
        return table


async def entrant_names(pool: AsyncConnectionPool[Any], competition_id: UUID) -> dict[str, str]:
    """Return each entrant's name: its players' display names, a pair's joined by ' & '."""
    async with pool.connection() as conn:
        listed = await entrants.list_entrants(conn, competition_id)
        players = [str(p) for e in listed for p in e.players]
        names = dict(zip(players, await player_names(conn, players), strict=True))
    return {str(e.id): " & ".join(names[str(p)] for p in e.players) for e in listed}


async def read_rounds(pool: AsyncConnectionPool[Any], competition_id: UUID) -> list[StoredRound]:
    """Return the competition's rounds with results as they have come in."""
    async with pool.connection() as conn:
        return await fixtures.list_rounds(conn, competition_id)
