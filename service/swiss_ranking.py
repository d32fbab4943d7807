"""Ranking entrants for the next Swiss round: score, the competition's tiebreaks, entry order.

The tiebreaks are the standings' own (``projections.standings.rank_lines``), applied to
the entrants' standings lines with their Swiss score in place of standings points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from uuid import UUID

from domain.game_rules import Tables
from domain.games import rules_for
from domain.standings import Line, pair_key
from projections.standings import rank_lines
from store.entrants import Entrant


def entrant_entity(entrant: Entrant) -> str:
    """Return the standings entity of an entrant: its player, or a Kozel pair's key."""
    players = [str(p) for p in entrant.players]
    return players[0] if len(players) == 1 else pair_key(players)


def rank_entrants(
    game: str,
    tiebreaks: Sequence[str],
    entrants: Sequence[Entrant],
    scores: Mapping[UUID, Fraction],
    tables: Tables,
) -> list[UUID]:
    """Return the entrants best first: by Swiss score, then each of ``tiebreaks``, then entry.

    ``tables`` are the competition's standings lines and encounters
    (``projections.standings.tally_results``). Each entrant's line (its player's, or
    its pair's in Kozel) takes the Swiss score as its points, so ``rank_lines`` ranks
    by score and applies the tiebreaks as the standings do, to the groups tied on
    score. Only entrants' lines and encounters between entrants count: a match of the
    competition against a player who is no entrant does not rank entrants. Entrants
    still tied after the last tiebreak keep their entry order.

    >>> import uuid
    >>> a, b = (Entrant(uuid.uuid4(), uuid.uuid4(), (uuid.uuid4(),)) for _ in range(2))
    >>> rank_entrants("cuttle", [], [a, b], {a.id: 0, b.id: 1}, {}) == [b.id, a.id]
    True
    """
    rules = rules_for(game)
    name = "pairs" if "pairs" in rules.standings_tables else "players"
    lines, encounters = tables.get(name, ({}, []))
    entity = {e.id: entrant_entity(e) for e in entrants}
    kept: dict[str, Line] = {}
    for e in entrants:
        line = lines.get(entity[e.id])
        stats: dict[str, int | float] = (
            dict(line.stats) if line else dict.fromkeys(rules.standings_stats, 0)
        )
        members = line.members if line else tuple(sorted(str(p) for p in e.players))
        stats["points"] = float(scores[e.id])
        kept[entity[e.id]] = Line(entity[e.id], members, stats)
    between = [m for m in encounters if m.a in kept and m.b in kept]
    rank = {row["entity"]: row["rank"] for row in rank_lines(kept, between, tiebreaks)}
    order = {e.id: i for i, e in enumerate(entrants)}
    return sorted(order, key=lambda e: (rank[entity[e]], order[e]))
