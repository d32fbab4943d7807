"""The next Swiss round: pairs within score groups, fewest rematches, byes to the lowest.

Pure functions. They live in ``service/`` rather than ``domain/`` only because the
pairing is networkx's maximum-weight matching, and ``domain/`` imports nothing
outside the standard library.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Generic, TypeVar

import networkx as nx

from domain.fixtures.byes import bye_for

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SwissRound(Generic[T]):
    """A Swiss round: its tables (higher-ranked entrant first), its bye, its rematches."""

    tables: tuple[tuple[T, T], ...]
    byes: tuple[T, ...]
    rematches: int


def gap_cost(a: Fraction, b: Fraction) -> int:
    """Return what pairing scores ``a`` and ``b`` costs: the squared gap in half-points.

    Squared, so two gaps of one cost less than one gap of two: the pairing keeps every
    gap as small as it can rather than sacrificing one table to spare another.

    >>> gap_cost(Fraction(2), Fraction(1, 2))
    9
    """
    return int((2 * (a - b)) ** 2)


def pairing_cost(
    tables: Sequence[tuple[T, T]], scores: Mapping[T, Fraction], met: Collection[frozenset[T]]
) -> tuple[int, int]:
    """Return a pairing's (rematches, summed gap cost): the Swiss pairing minimises it in order."""
    rematches = sum(1 for a, b in tables if frozenset((a, b)) in met)
    gaps = sum(gap_cost(scores[a], scores[b]) for a, b in tables)
    return rematches, gaps


def swiss_round(
    ranked: Sequence[T],
    scores: Mapping[T, Fraction],
    met: Collection[frozenset[T]],
    byes_had: Mapping[T, int],
) -> SwissRound[T]:
    """Return the next round for entrants ``ranked`` best first (``byes_had``: byes so far).

    The pairing is a maximum-weight perfect matching on the complete graph of the
    entrants in play, each edge weighing ``big - rematch * penalty - gap cost``, where
    ``penalty`` exceeds any pairing's summed gap cost: so it has the fewest rematches
    there can be and, among those, the smallest summed squared score gaps.
    """
    if len(ranked) < 2:
        raise ValueError("a round needs at least two entrants")
    byes: tuple[T, ...] = ()
    playing = list(ranked)
    if len(playing) % 2:
        bye = bye_for(ranked, byes_had)
        byes = (bye,)
        playing.remove(bye)
    rank = {entrant: i for i, entrant in enumerate(playing)}
    pairs = list(combinations(playing, 2))
    costs = {(a, b): gap_cost(scores[a], scores[b]) for a, b in pairs}
    # Above any pairing's summed gap cost: one rematch more never buys smaller gaps.
    penalty = 1 + (len(playing) // 2) * max(costs.values())
    big = 1 + penalty + max(costs.values())
    graph: nx.Graph = nx.Graph()
    for a, b in pairs:
        rematch = frozenset((a, b)) in met
        graph.add_edge(rank[a], rank[b], weight=big - rematch * penalty - costs[(a, b)])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables = sorted((min(i, j), max(i, j)) for i, j in matching)
    paired = tuple((playing[i], playing[j]) for i, j in tables)
    rematches, _ = pairing_cost(paired, scores, met)
    return SwissRound(paired, byes, rematches)
