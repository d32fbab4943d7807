"""Forfeited tables in standings: a won or lost match for a win's point, nothing played."""

from __future__ import annotations

from domain.standings import ForfeitedTable
from projections.standings import compute_standings, tally_results


def test_a_kozel_pairs_forfeit_counts_for_the_pair_and_both_partners() -> None:
    table = ForfeitedTable(entrants=(("a1", "a2"), ("b2", "b1")), forfeited=frozenset({1}))
    tables = tally_results("kozel", [], [table])
    pairs, encounters = tables["pairs"]
    assert [] == encounters
    won, lost = pairs["a1+a2"], pairs["b1+b2"]
    assert ("b1", "b2") == lost.members
    assert (1, 1, 0, 1, 1, 0) == tuple(
        won.stats[k] for k in ("played", "won", "lost", "points", "forfeits_won", "goat")
    )
    assert (1, 0, 1, 0, 1) == tuple(
        lost.stats[k] for k in ("played", "won", "lost", "points", "forfeits_lost")
    )
    players, _ = tables["players"]
    assert {"a1": 1, "a2": 1, "b1": 0, "b2": 0} == {
        p: ln.stats["points"] for p, ln in players.items()
    }


def test_cuttle_standings_rank_a_forfeit_win_as_a_win() -> None:
    tables = [
        ForfeitedTable(entrants=(("a",), ("b",)), forfeited=frozenset({1})),
        ForfeitedTable(entrants=(("c",), ("a",)), forfeited=frozenset({0, 1})),
    ]
    standings = compute_standings("cuttle", ["wins"], [], tables)
    assert (0, 2) == (standings["matches"], standings["forfeits"])
    ranked = [(r["rank"], r["entity"], r["played"], r["points"]) for r in standings["players"]]
    assert [(1, "a", 2, 1), (2, "b", 1, 0), (2, "c", 1, 0)] == ranked
    assert all(r["rating"] is None for r in standings["players"])
