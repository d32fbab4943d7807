"""Standings per competition: tables, tiebreaks and openskill ratings (docs/standings.md).

A competition's standings are a pure function of its finished matches (the
``match_series`` rows, taken in the order the matches ended) and its ordered
tiebreak list. ``project_standings`` recomputes them in the recorder's
transaction whenever a match of the competition ends; a rebuild recomputes them
from the rebuilt series rows, so both give the same numbers.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

import psycopg
from openskill.models import PlackettLuce
from psycopg.rows import dict_row

from domain.game_rules import Tables
from domain.games import rules_for
from domain.standings import Encounter, FinishedMatch, ForfeitedTable, Line, pair_key
from store.recorder import Projection

TIEBREAKS = (
    "head-to-head",
    "sonneborn-berger",
    "round-difference",
    "loss-point-difference",
    "wins",
)
"""Every tiebreak a competition may list (its order there is the order they apply)."""


Tiebreak = Callable[[Line, frozenset[str]], float]


def _tiebreaks(lines: Mapping[str, Line], encounters: Sequence[Encounter]) -> dict[str, Tiebreak]:
    scored: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for e in encounters:
        scored[e.a].append((e.b, e.score))
        scored[e.b].append((e.a, 1.0 - e.score))

    def head_to_head(line: Line, group: frozenset[str]) -> float:
        return sum(s for opponent, s in scored[line.entity] if opponent in group)

    def sonneborn_berger(line: Line, group: frozenset[str]) -> float:
        return sum(s * lines[opponent].stats["points"] for opponent, s in scored[line.entity])

    def round_difference(line: Line, group: frozenset[str]) -> float:
        return line.stats["rounds_won"] - line.stats["rounds_lost"]

    def loss_point_difference(line: Line, group: frozenset[str]) -> float:
        return line.stats["loss_points_given"] - line.stats["loss_points_taken"]

    def wins(line: Line, group: frozenset[str]) -> float:
        return line.stats["won"]

    return {
        "head-to-head": head_to_head,
        "sonneborn-berger": sonneborn_berger,
        "round-difference": round_difference,
        "loss-point-difference": loss_point_difference,
        "wins": wins,
    }


def rank_lines(
    lines: Mapping[str, Line], encounters: Sequence[Encounter], tiebreaks: Sequence[str]
) -> list[dict[str, Any]]:
    """Order lines by points, then by each tiebreak among those still tied.

    Each tiebreak is computed for the group still tied when it applies (so a
    head-to-head mini-table holds exactly that group). Lines equal on everything
    share a rank and are listed by entity id. Every row carries the tiebreak
    values computed for its final group.
    """
    functions = _tiebreaks(lines, encounters)
    rows: list[dict[str, Any]] = []

    def place(group: list[Line], depth: int, values: dict[str, dict[str, float]]) -> None:
        if depth == len(tiebreaks) or len(group) == 1:
            rank = len(rows) + 1
            for line in sorted(group, key=lambda x: x.entity):
                rows.append(_row(line, rank, values.get(line.entity, {})))
            return
        name = tiebreaks[depth]
        members = frozenset(line.entity for line in group)
        keyed = {line.entity: functions[name](line, members) for line in group}
        for entity, value in keyed.items():
            values.setdefault(entity, {})[name] = value
        for value in sorted(set(keyed.values()), reverse=True):
            subgroup = [line for line in group if keyed[line.entity] == value]
            place(subgroup, depth + 1, values)

    by_points: dict[float, list[Line]] = defaultdict(list)
    for line in lines.values():
        by_points[line.stats["points"]].append(line)
    for points in sorted(by_points, reverse=True):
        place(by_points[points], 0, {})
    return rows


def _row(line: Line, rank: int, tiebreak_values: Mapping[str, float]) -> dict[str, Any]:
    return {
        "rank": rank,
        "entity": line.entity,
        "members": list(line.members),
        **line.stats,
        "tiebreaks": dict(tiebreak_values),
    }


def _rated(matches: Sequence[FinishedMatch]) -> Iterator[tuple[FinishedMatch, dict[str, Any]]]:
    """Yield each match with every player's openskill rating right after it."""
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for match in matches:
        for player in match.players:
            if player not in current:
                current[player] = model.rating(name=player)
        places = match.places()
        seats = rules_for(match.game).rating_teams(len(match.players))
        ranks = [float(places[team[0]]) for team in seats]
        teams = [[current[match.players[s]] for s in team] for team in seats]
        rated = model.rate(teams, ranks=ranks)
        for team, new in zip(seats, rated, strict=True):
            for seat, rating in zip(team, new, strict=True):
                current[match.players[seat]] = rating
        yield match, current


def _rating(rating: Any) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}


def ratings(matches: Sequence[FinishedMatch]) -> dict[str, dict[str, float]]:
    """Rate players with openskill's Plackett-Luce model, match by match in the given order.

    Each game says which seats are rated as a team (``GameRules.rating_teams``):
    Cuttle seats are one-player teams ranked by finishing place (three ranks in
    cutthroat); Kozel pairs are two-player teams. Returns mu, sigma and ordinal.
    """
    last: dict[str, Any] = {}
    for _, current in _rated(matches):
        last = current
    return {player: _rating(r) for player, r in sorted(last.items())}


def rating_history(matches: Sequence[FinishedMatch], player: str) -> list[dict[str, Any]]:
    """Return ``player``'s rating after each of their matches, rated as ``ratings`` rates.

    The last entry is the rating the standings show.
    """
    return [
        {"match_id": match.match_id, **_rating(current[player])}
        for match, current in _rated(matches)
        if player in match.players
    ]


async def player_rating_histories(
    conn: psycopg.AsyncConnection[Any], player_id: Any, readable: Collection[Any] | None
) -> list[dict[str, Any]]:
    """Return a player's rating history in each competition where they finished a match.

    ``readable``: the private competitions the caller may read besides public ones
    (``None``: every one). Competitions come newest first; each holds ``points``,
    the rating after each of the player's matches in the order the matches ended.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT c.id, c.name, c.game, c.variant FROM competitions c"
            " WHERE EXISTS (SELECT 1 FROM match_series s WHERE s.competition_id = c.id"
            " AND %(player)s = ANY (s.players) AND s.ended_position IS NOT NULL)"
            " AND (%(all)s OR c.public_reads OR c.id = ANY (%(ids)s::uuid[]))"
            " ORDER BY c.position DESC",
            {"player": player_id, "all": readable is None, "ids": list(readable or ())},
        )
        competitions = await cur.fetchall()
    histories = []
    for competition in competitions:
        matches, _, _ = await competition_results(conn, competition["id"])
        points = rating_history(matches, str(player_id))
        if points:
            histories.append({**competition, "points": points})
    return histories


_FORFEIT_STATS = ("forfeits_won", "forfeits_lost")


def tally_results(
    game: str, matches: Sequence[FinishedMatch], forfeits: Sequence[ForfeitedTable] = ()
) -> Tables:
    """Return the standings tables' lines and encounters of matches and forfeited tables.

    The game tallies its matches (``GameRules.tally``). A forfeited table then counts as
    a match played, won by each entrant who did not forfeit and lost by each who did
    (a double forfeit: lost by all), for a win's point; it counts in ``forfeits_won``
    or ``forfeits_lost`` and in nothing else: no rounds, deals or encounters, since
    none were played. A Kozel pair's forfeit counts for the pair and both partners.
    """
    rules = rules_for(game)
    tables = rules.tally(matches)
    for lines, _ in tables.values():
        for line in lines.values():
            for stat in _FORFEIT_STATS:
                line.stats.setdefault(stat, 0)
    for table in forfeits:
        for index, players in enumerate(table.entrants):
            won = index not in table.forfeited
            for name, (lines, _) in tables.items():
                if name == "pairs":
                    entities = [(pair_key(players), tuple(sorted(players)))]
                else:
                    entities = [(p, (p,)) for p in players]
                for entity, members in entities:
                    if entity not in lines:
                        stats: dict[str, int | float] = dict.fromkeys(
                            (*rules.standings_stats, *_FORFEIT_STATS), 0
                        )
                        lines[entity] = Line(entity, members, stats)
                    line = lines[entity]
                    line.add("played", 1)
                    line.add("won" if won else "lost", 1)
                    line.add("forfeits_won" if won else "forfeits_lost", 1)
                    # A win's point in either game (Cuttle: won + drawn / 2; Kozel: won).
                    line.add("points", 1 if won else 0)
    return tables


def compute_standings(
    game: str,
    tiebreaks: Sequence[str],
    matches: Sequence[FinishedMatch],
    forfeits: Sequence[ForfeitedTable] = (),
) -> dict[str, Any]:
    """Return a competition's standings: its tables (players; pairs for Kozel) and ratings.

    Forfeited tables count as ``tally_results`` says; ratings are of played matches only
    (a player with none has a null rating).
    """
    rated = ratings(matches)
    tables = {
        name: rank_lines(lines, encounters, tiebreaks)
        for name, (lines, encounters) in tally_results(game, matches, forfeits).items()
    }
    for row in tables["players"]:
        # Null for a player whose only results are forfeits: every row has the key.
        row["rating"] = rated.get(row["entity"])
    return {
        "game": game,
        "tiebreaks": list(tiebreaks),
        "matches": len(matches),
        "forfeits": len(forfeits),
        **tables,
    }


async def competition_results(
    conn: psycopg.AsyncConnection[Any], competition_id: Any
) -> tuple[list[FinishedMatch], list[ForfeitedTable], int]:
    """Return what a competition's standings count: its finished matches, in the order
    they ended, its forfeited tables, and the last match's ``ended_position`` (0: none).

    Void matches count nowhere, and neither does a match at a forfeited table: the
    forfeit is the table's result.
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT s.match_id, s.game, s.players, s.rounds, s.result, s.ended_position"
            " FROM match_series s WHERE s.competition_id = %s AND s.ended_position IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = s.match_id"
            " AND m.status = 'void')"
            " AND NOT EXISTS (SELECT 1 FROM fixtures f WHERE f.match_id = s.match_id"
            " AND f.forfeited_by IS NOT NULL)"
            " ORDER BY s.ended_position",
            (competition_id,),
        )
        rows = await cur.fetchall()
        await cur.execute(
            "SELECT f.forfeited_by, ARRAY(SELECT array_to_string(e.players, ',')"
            " FROM unnest(f.entrants) WITH ORDINALITY AS u(entrant, i)"
            " JOIN entrants AS e ON e.id = u.entrant ORDER BY u.i) AS players,"
            " f.entrants FROM fixtures AS f"
            " WHERE f.competition_id = %s AND f.forfeited_by IS NOT NULL"
            " ORDER BY f.round, f.table_number",
            (competition_id,),
        )
        forfeited = await cur.fetchall()
    forfeits = [
        ForfeitedTable(
            entrants=tuple(tuple(p.split(",")) for p in row["players"]),
            forfeited=frozenset(
                i for i, e in enumerate(row["entrants"]) if e in row["forfeited_by"]
            ),
        )
        for row in forfeited
    ]
    last = rows[-1]["ended_position"] if rows else 0
    return [FinishedMatch.from_row(row) for row in rows], forfeits, last


async def recompute_standings(conn: psycopg.AsyncConnection[Any], competition_id: Any) -> None:
    """Recompute one competition's standings row from its finished ``match_series`` rows.

    Void matches count nowhere; when none is left the row is deleted.

    Two matches of a competition may end in concurrent transactions; a lock per
    competition, held to commit, makes the second recompute wait and then read the
    first one's row, so neither overwrites the other's result.
    """
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('standings:' || %s::text, 0))",
        (str(competition_id),),
    )
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT game, tiebreaks FROM competitions WHERE id = %s", (competition_id,)
        )
        competition = await cur.fetchone()
    if competition is None:
        return
    matches, forfeits, last_position = await competition_results(conn, competition_id)
    if not matches and not forfeits:
        await conn.execute(
            "DELETE FROM competition_standings WHERE competition_id = %s", (competition_id,)
        )
        return
    body = compute_standings(competition["game"], competition["tiebreaks"], matches, forfeits)
    await conn.execute(
        "INSERT INTO competition_standings (competition_id, game, matches, last_position,"
        " standings) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (competition_id) DO UPDATE SET"
        " matches = EXCLUDED.matches, last_position = EXCLUDED.last_position,"
        " standings = EXCLUDED.standings",
        (
            competition_id,
            competition["game"],
            len(matches),
            last_position,
            json.dumps(body),
        ),
    )


async def project_standings(
    conn: psycopg.AsyncConnection[Any], projections: Sequence[Projection]
) -> None:
    """Recompute the standings of each competition one of whose matches ended or was voided.

    Once per competition, however many of its matches the transaction wrote: an
    import of a season recomputes each batch's competitions once, not every match's.
    """
    touched = {
        p.state.config.competition_id
        for p in projections
        if p.state.config is not None
        and p.state.config.competition_id is not None
        and any(e.type in ("MatchEnded", "MatchVoided") for e in p.events)
    }
    for competition_id in sorted(touched):
        await recompute_standings(conn, competition_id)


async def find_standings(
    conn: psycopg.AsyncConnection[Any], competition_id: Any
) -> dict[str, Any] | None:
    """Return the stored standings of a competition, or ``None`` before any match ended."""
    cur = await conn.execute(
        "SELECT standings FROM competition_standings WHERE competition_id = %s",
        (competition_id,),
    )
    row = await cur.fetchone()
    return None if row is None else dict(row[0])


__all__ = [
    "TIEBREAKS",
    "FinishedMatch",
    "competition_results",
    "compute_standings",
    "find_standings",
    "player_rating_histories",
    "project_standings",
    "rating_history",
    "ratings",
    "recompute_standings",
    "tally_results",
]
