"""Dealing: the first dealers of a whole round robin (each entrant deals first half its
tables), and a shuffled deck for a server-dealt round (``shuffled_deal``, the
recorder's, which ``matchlog simulate`` deals with too).

In ``service/`` rather than ``domain/`` only because it orients the tables with
networkx's Eulerian circuits, and ``domain/`` imports nothing outside the standard
library. Swiss rounds, made one at a time, use the greedy ``DealerTally.choose``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

import networkx as nx

from domain.fixtures.dealers import DealerTally
from store.recorder import shuffled_deal as shuffled_deal  # re-exported for simulations

T = TypeVar("T", bound=Hashable)

_SPARE = object()
"""The extra vertex every odd-degree entrant is joined to, so an Eulerian circuit exists."""


def round_robin_dealers(
    rounds: Sequence[Sequence[tuple[T, T]]], legs: int, seats_per_entrant: int
) -> list[list[int]]:
    """Return the first dealer's seat at each table of a round robin of ``legs`` legs.

    The first leg's tables are the edges of a multigraph; walking an Eulerian circuit
    (after joining odd-degree entrants to one spare vertex) orients each table towards
    its dealer so every entrant deals at most one table more or fewer than half of its
    tables. Each later leg swaps the dealer of the leg before, so a pair that meets
    twice deals once each and over two legs every entrant deals exactly half.
    """
    per_leg = len(rounds) // legs
    graph: nx.MultiGraph = nx.MultiGraph()
    for r, tables in enumerate(rounds[:per_leg]):
        for t, (a, b) in enumerate(tables):
            graph.add_edge(a, b, key=(r, t))
    odd = [v for v in graph.nodes if graph.degree(v) % 2]
    for v in odd:
        graph.add_edge(_SPARE, v, key=None)
    dealer: dict[tuple[int, int], object] = {}
    for component in nx.connected_components(graph):
        start = min(component, key=lambda v: 0 if v is _SPARE else 1)
        for u, _, key in nx.eulerian_circuit(graph.subgraph(component), source=start, keys=True):
            if key is not None:
                dealer[key] = u
    tally: DealerTally[T] = DealerTally()
    out = []
    for number, tables in enumerate(rounds, start=1):
        leg, r = divmod(number - 1, per_leg)
        seats = []
        for t, table in enumerate(tables):
            first = table.index(dealer[(r, t)])
            index = 1 - first if leg % 2 else first
            seats.append(tally.seat_of(table, index, 2 * seats_per_entrant, number))
        out.append(seats)
    return out
