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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from openskill.models import PlackettLuce
from psycopg.rows import dict_row

from store.recorder import Projection

TIEBREAKS = (
    "head-to-head",
    "sonneborn-berger",
    "round-difference",
    "loss-point-difference",
    "wins",
)
"""Every tiebreak a competition may list (its order there is the order they apply)."""


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """What standings need of one finished match (a ``match_series`` row)."""

    match_id: str
    game: str
    players: tuple[str, ...]
    rounds: tuple[Mapping[str, Any], ...]
    result: Mapping[str, Any]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> FinishedMatch:
        """Read a ``match_series`` row (uuid columns as ``UUID`` or text)."""
        return cls(
            match_id=str(row["match_id"]),
            game=row["game"],
            players=tuple(str(p) for p in row["players"]),
            rounds=tuple(row["rounds"]),
            result=row["result"],
        )

    @property
    def is_draw(self) -> bool:
        """Whether nobody won the match."""
        return not self.result["winners"]

    def cuttle_round_wins(self) -> list[int]:
        """Counted round wins per seat at the end of the match."""
        if not self.rounds:
            return [0] * len(self.players)
        return list(self.rounds[-1]["wins"])

    def places(self) -> list[int]:
        """Each seat's finishing place (1 is best; equal places share a number).

        Cuttle: the match winner is first; the others follow by counted round wins
        (equal wins share a place); a drawn match puts everyone first. Kozel: the
        winning pair is first and the goat pair second.
        """
        seats = range(len(self.players))
        if self.is_draw:
            return [1 for _ in seats]
        winners = set(self.result["winners"])
        if self.game == "kozel":
            return [1 if s in winners else 2 for s in seats]
        wins = self.cuttle_round_wins()
        places = []
        for s in seats:
            if s in winners:
                places.append(1)
                continue
            ahead = sum(1 for o in seats if o not in winners and wins[o] > wins[s])
            places.append(2 + ahead)
        return places


@dataclass(slots=True)
class Line:
    """One entity's line in a table (a player, or a Kozel pair)."""

    entity: str
    members: tuple[str, ...]
    stats: dict[str, int | float] = field(default_factory=dict)

    def add(self, key: str, amount: int | float) -> None:
        """Add ``amount`` to a statistic."""
        self.stats[key] = self.stats.get(key, 0) + amount


@dataclass(frozen=True, slots=True)
class Encounter:
    """One opponent-against-opponent result inside a match: ``score`` is 1, 0.5 or 0 for ``a``."""

    a: str
    b: str
    score: float


def _pair_key(members: Iterable[str]) -> str:
    return "+".join(sorted(members))


def _encounters(entities: Sequence[str], places: Sequence[int]) -> list[Encounter]:
    out = []
    for i, a in enumerate(entities):
        for j in range(i + 1, len(entities)):
            pa, pb = places[i], places[j]
            score = 1.0 if pa < pb else 0.0 if pa > pb else 0.5
            out.append(Encounter(a, entities[j], score))
    return out


def cuttle_lines(matches: Sequence[FinishedMatch]) -> tuple[dict[str, Line], list[Encounter]]:
    """Tally Cuttle players' lines and every encounter between opponents."""
    lines: dict[str, Line] = {}
    encounters: list[Encounter] = []
    for match in matches:
        wins = match.cuttle_round_wins()
        counted = sum(wins)
        winners = set(match.result["winners"])
        for seat, player in enumerate(match.players):
            line = lines.setdefault(player, Line(player, (player,), _zero_cuttle()))
            line.add("played", 1)
            if match.is_draw:
                line.add("drawn", 1)
            elif seat in winners:
                line.add("won", 1)
            else:
                line.add("lost", 1)
            line.add("rounds_won", wins[seat])
            line.add("rounds_lost", counted - wins[seat])
        encounters.extend(_encounters(match.players, match.places()))
    for line in lines.values():
        line.stats["points"] = line.stats["won"] + line.stats["drawn"] / 2
    return lines, encounters


CUTTLE_STATS = ("played", "won", "drawn", "lost", "points", "rounds_won", "rounds_lost")
"""The columns of a Cuttle line (docs/standings.md)."""
KOZEL_STATS = (
    "played",
    "won",
    "lost",
    "deals_won",
    "deals_lost",
    "loss_points_taken",
    "loss_points_given",
    "eggs",
    "goat",
)
"""The columns of a Kozel line, for players and pairs (docs/standings.md); points = won."""


def _zero_cuttle() -> dict[str, int | float]:
    return dict.fromkeys((s for s in CUTTLE_STATS if s != "points"), 0)


def _zero_kozel() -> dict[str, int | float]:
    return dict.fromkeys(KOZEL_STATS, 0)


def kozel_lines(
    matches: Sequence[FinishedMatch], *, pairs: bool
) -> tuple[dict[str, Line], list[Encounter]]:
    """Tally Kozel lines per player (``pairs=False``) or per pair, and their encounters."""
    lines: dict[str, Line] = {}
    encounters: list[Encounter] = []
    for match in matches:
        teams = [(match.players[0], match.players[2]), (match.players[1], match.players[3])]
        winners = set(match.result["winners"])
        for team, members in enumerate(teams):
            won = team in {s % 2 for s in winners}
            entities = [_pair_key(members)] if pairs else list(members)
            for entity in entities:
                line = lines.setdefault(
                    entity,
                    Line(entity, tuple(sorted(members)) if pairs else (entity,), _zero_kozel()),
                )
                line.add("played", 1)
                line.add("won" if won else "lost", 1)
                line.add("goat", 0 if won else 1)
                for deal in match.rounds:
                    loser = deal["losing_team"]
                    line.add("eggs", 1 if deal["eggs"] else 0)
                    if loser == team:
                        line.add("deals_lost", 1)
                        line.add("loss_points_taken", deal["loss_points"])
                    elif loser is not None:
                        line.add("deals_won", 1)
                        line.add("loss_points_given", deal["loss_points"])
        places = match.places()
        if pairs:
            encounters.extend(_encounters([_pair_key(t) for t in teams], [places[0], places[1]]))
        else:
            for a, b in ((0, 1), (0, 3), (2, 1), (2, 3)):
                encounters.extend(
                    _encounters([match.players[a], match.players[b]], [places[a], places[b]])
                )
    for line in lines.values():
        line.stats["points"] = line.stats["won"]
    return lines, encounters


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


def ratings(matches: Sequence[FinishedMatch]) -> dict[str, dict[str, float]]:
    """Rate players with openskill's Plackett-Luce model, match by match in the given order.

    Cuttle seats are one-player teams ranked by finishing place (three ranks in
    cutthroat); Kozel pairs are two-player teams. Returns mu, sigma and ordinal.
    """
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for match in matches:
        for player in match.players:
            if player not in current:
                current[player] = model.rating(name=player)
        places = match.places()
        if match.game == "kozel":
            seats = [[0, 2], [1, 3]]
            ranks = [float(places[0]), float(places[1])]
        else:
            seats = [[s] for s in range(len(match.players))]
            ranks = [float(p) for p in places]
        teams = [[current[match.players[s]] for s in team] for team in seats]
        rated = model.rate(teams, ranks=ranks)
        for team, new in zip(seats, rated, strict=True):
            for seat, rating in zip(team, new, strict=True):
                current[match.players[seat]] = rating
    return {
        player: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for player, r in sorted(current.items())
    }


def compute_standings(
    game: str, tiebreaks: Sequence[str], matches: Sequence[FinishedMatch]
) -> dict[str, Any]:
    """Return a competition's standings: its tables (players; pairs for Kozel) and ratings."""
    rated = ratings(matches)
    if game == "kozel":
        players, player_encounters = kozel_lines(matches, pairs=False)
        pairs, pair_encounters = kozel_lines(matches, pairs=True)
        tables = {
            "players": rank_lines(players, player_encounters, tiebreaks),
            "pairs": rank_lines(pairs, pair_encounters, tiebreaks),
        }
    else:
        players, encounters = cuttle_lines(matches)
        tables = {"players": rank_lines(players, encounters, tiebreaks)}
    for row in tables["players"]:
        row["rating"] = rated[row["entity"]]
    return {"game": game, "tiebreaks": list(tiebreaks), "matches": len(matches), **tables}


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
        await cur.execute(
            "SELECT s.match_id, s.game, s.players, s.rounds, s.result, s.ended_position"
            " FROM match_series s WHERE s.competition_id = %s AND s.ended_position IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = s.match_id"
            " AND m.status = 'void') ORDER BY s.ended_position",
            (competition_id,),
        )
        rows = await cur.fetchall()
    if competition is None:
        return
    if not rows:
        await conn.execute(
            "DELETE FROM competition_standings WHERE competition_id = %s", (competition_id,)
        )
        return
    matches = [FinishedMatch.from_row(row) for row in rows]
    body = compute_standings(competition["game"], competition["tiebreaks"], matches)
    await conn.execute(
        "INSERT INTO competition_standings (competition_id, game, matches, last_position,"
        " standings) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (competition_id) DO UPDATE SET"
        " matches = EXCLUDED.matches, last_position = EXCLUDED.last_position,"
        " standings = EXCLUDED.standings",
        (
            competition_id,
            competition["game"],
            len(matches),
            rows[-1]["ended_position"],
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
    "CUTTLE_STATS",
    "KOZEL_STATS",
    "TIEBREAKS",
    "FinishedMatch",
    "compute_standings",
    "find_standings",
    "project_standings",
    "ratings",
    "recompute_standings",
]
