"""Standings and tiebreaks against tables worked out by hand (docs/standings.md).

Each expected table was computed on paper from the matches listed in the test;
the working is written next to it. Nothing here was produced by running the code.
"""

from __future__ import annotations

import uuid
from typing import Any

from projections.standings import FinishedMatch, compute_standings, rating_history, ratings
from service.players import head_to_head


def cuttle(match_id: str, players: list[str], winners: list[int], wins: list[int]) -> FinishedMatch:
    """A finished Cuttle match: ``wins`` are the counted round wins per seat at the end."""
    losers = [s for s in range(len(players)) if s not in winners]
    rounds = ({"round": 1, "wins": wins},) if sum(wins) else ()
    return FinishedMatch(
        match_id,
        "cuttle",
        tuple(players),
        rounds,
        {"winners": winners, "losers": [] if not winners else losers},
    )


def drawn_quick(match_id: str, players: list[str]) -> FinishedMatch:
    """A ``quick`` Cuttle match whose one round was drawn."""
    rounds = ({"round": 1, "wins": [0, 0]},)
    return FinishedMatch(match_id, "cuttle", tuple(players), rounds, {"winners": [], "losers": []})


def kozel(match_id: str, players: list[str], deals: list[tuple[int | None, int]]) -> FinishedMatch:
    """A finished Kozel match: each deal is (losing team or None for eggs, loss points)."""
    totals = [0, 0]
    rounds = []
    for loser, points in deals:
        if loser is not None:
            totals[loser] += points
        rounds.append({"losing_team": loser, "loss_points": points, "eggs": loser is None})
    goat = 0 if totals[0] > totals[1] else 1
    result = {"winners": [1 - goat, 3 - goat], "losers": [goat, goat + 2]}
    return FinishedMatch(match_id, "kozel", tuple(players), tuple(rounds), result)


def table(standings: dict[str, Any], name: str = "players") -> list[tuple[int, str]]:
    return [(row["rank"], row["entity"]) for row in standings[name]]


def line(standings: dict[str, Any], entity: str, name: str = "players") -> dict[str, Any]:
    return next(row for row in standings[name] if row["entity"] == entity)


# A three-way cycle: A beat B 2-0, B beat C 2-1, C beat A 2-1; each beat D.
#   points (match wins): A 2, B 2, C 2, D 0  -> A, B, C tied
#   head-to-head among {A, B, C}: A 1 (beat B), B 1 (beat C), C 1 (beat A): still tied
#   Sonneborn-Berger: A beat B (2 points) and D (0) = 2; B beat C and D = 2; C beat A, D = 2
#   rounds won/lost: A 2+1+2=5 / 0+2+1=3 -> +2; B 0+2+2=4 / 2+1+0=3 -> +1;
#                    C 1+2+2=5 / 2+1+0=3 -> +2; D 1+0+0=1 / 2+2+2=6 -> -5
CYCLE = [
    cuttle("m1", ["A", "B"], [0], [2, 0]),
    cuttle("m2", ["B", "C"], [0], [2, 1]),
    cuttle("m3", ["C", "A"], [0], [2, 1]),
    cuttle("m4", ["A", "D"], [0], [2, 1]),
    cuttle("m5", ["B", "D"], [0], [2, 0]),
    cuttle("m6", ["C", "D"], [0], [2, 0]),
]


class TestCuttleStandings:
    def test_lines_count_matches_and_rounds(self) -> None:
        standings = compute_standings("cuttle", [], CYCLE)
        expected = {"played": 3, "won": 2, "lost": 1, "drawn": 0, "rounds_won": 5}
        assert expected == {k: line(standings, "A")[k] for k in expected}
        assert 3 == line(standings, "A")["rounds_lost"]
        assert (0, 3, 1, 6) == tuple(
            line(standings, "D")[k] for k in ("won", "lost", "rounds_won", "rounds_lost")
        )

    def test_three_way_tie_falls_through_to_round_difference(self) -> None:
        """h2h 1-1-1 and SB 2-2-2 leave the three tied; round difference puts B third."""
        tiebreaks = ["head-to-head", "sonneborn-berger", "round-difference", "wins"]
        standings = compute_standings("cuttle", tiebreaks, CYCLE)
        assert [(1, "A"), (1, "C"), (3, "B"), (4, "D")] == table(standings)
        assert {
            "head-to-head": 1,
            "sonneborn-berger": 2,
            "round-difference": 2,
            "wins": 2,
        } == line(standings, "A")["tiebreaks"]

    def test_head_to_head_is_a_mini_table_of_the_group_still_tied(self) -> None:
        """Round difference leaves {A, C}; their mini-table is C 1 (beat A), A 0."""
        standings = compute_standings("cuttle", ["round-difference", "head-to-head"], CYCLE)
        assert [(1, "C"), (2, "A"), (3, "B"), (4, "D")] == table(standings)
        assert {"round-difference": 2, "head-to-head": 1} == line(standings, "C")["tiebreaks"]

    def test_draws_score_half_and_feed_sonneborn_berger(self) -> None:
        """Quick matches: E beat F, G beat H, F beat H, E drew H, G drew F.

        points: E 1 + 0.5 = 1.5; F 0 + 1 + 0.5 = 1.5; G 1 + 0.5 = 1.5; H 0.5
        head-to-head among {E, F, G}: E 1 (beat F); F 0 + 0.5 = 0.5; G 0.5
        SB: E = 1*1.5 (F) + 0.5*0.5 (H) = 1.75; F = 1*0.5 (H) + 0.5*1.5 (G) = 1.25;
            G = 1*0.5 (H) + 0.5*1.5 (F) = 1.25
        rounds: F won 1 lost 1 -> 0; G won 1 lost 0 -> +1
        """
        matches = [
            cuttle("q1", ["E", "F"], [0], [1, 0]),
            cuttle("q2", ["G", "H"], [0], [1, 0]),
            cuttle("q3", ["F", "H"], [0], [1, 0]),
            drawn_quick("q4", ["E", "H"]),
            drawn_quick("q5", ["G", "F"]),
        ]
        ordered = compute_standings(
            "cuttle", ["head-to-head", "sonneborn-berger", "round-difference"], matches
        )
        assert [(1, "E"), (2, "G"), (3, "F"), (4, "H")] == table(ordered)
        assert 1.5 == line(ordered, "F")["points"]
        assert 1 == line(ordered, "F")["drawn"]
        by_sb = compute_standings("cuttle", ["sonneborn-berger"], matches)
        assert [(1, "E"), (2, "F"), (2, "G"), (4, "H")] == table(by_sb)
        assert 1.75 == line(by_sb, "E")["tiebreaks"]["sonneborn-berger"]
        assert 1.25 == line(by_sb, "G")["tiebreaks"]["sonneborn-berger"]

    def test_cutthroat_places_losers_by_round_wins(self) -> None:
        """X: a wins, round wins a2 b1 c0 (places a, b, c); Y: b wins, a0 b2 c1 (b, c, a).

        points a 1, b 1, c 0; h2h {a, b}: a beat b in X, b beat a in Y -> 1 each
        SB: a = X beat b (1) + beat c (0) = 1; b = X beat c (0) + Y beat a (1) + c (0) = 1
        rounds: a won 2+0 lost 1+3 -> -2; b won 1+2 lost 2+1 -> 0
        """
        matches = [
            cuttle("x", ["a", "b", "c"], [0], [2, 1, 0]),
            cuttle("y", ["a", "b", "c"], [1], [0, 2, 1]),
        ]
        assert [3, 1, 2] == matches[1].places()  # seats a, b, c
        tiebreaks = ["head-to-head", "sonneborn-berger", "round-difference"]
        standings = compute_standings("cuttle", tiebreaks, matches)
        assert [(1, "b"), (2, "a"), (3, "c")] == table(standings)
        assert {"head-to-head": 1, "sonneborn-berger": 1, "round-difference": -2} == line(
            standings, "a"
        )["tiebreaks"]


# K1: a b c d (teams a+c vs b+d): b+d lose 4, eggs, a+c lose 2, b+d lose 2 -> b+d goat (6)
# K2: a b d c (teams a+d vs b+c): a+d lose 6 at once -> a+d goat
#   a: played 2, won 1 (K1), deals won 2 lost 2, taken 2+6=8, given 4+2=6, eggs 1, goat 1
#   b: played 2, won 1 (K2), deals won 1+1=2 lost 2, taken 6, given 2+6=8, eggs 1, goat 1
#   c: played 2, won 2, deals won 2+1=3 lost 1, taken 2, given 6+6=12, eggs 1, goat 0
#   d: played 2, won 0, deals won 1 lost 2+1=3, taken 6+6=12, given 2, eggs 1, goat 2
#   points: c 2, a 1, b 1, d 0; loss-point difference a 6-8=-2, b 8-6=+2
#   head-to-head {a, b}: K1 a beat b, K2 b beat a -> 1 each
# Pairs: a+c won K1 (taken 2, given 6: +4), b+c won K2 (taken 0, given 6: +6),
#        b+d lost K1 (given 2, taken 6: -4), a+d lost K2 (given 0, taken 6: -6)
KOZEL = [
    kozel("k1", ["a", "b", "c", "d"], [(1, 4), (None, 0), (0, 2), (1, 2)]),
    kozel("k2", ["a", "b", "d", "c"], [(0, 6)]),
]


class TestKozelStandings:
    def test_player_lines(self) -> None:
        standings = compute_standings("kozel", [], KOZEL)
        keys = (
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
        assert (2, 1, 1, 2, 2, 8, 6, 1, 1) == tuple(line(standings, "a")[k] for k in keys)
        assert (2, 1, 1, 2, 2, 6, 8, 1, 1) == tuple(line(standings, "b")[k] for k in keys)
        assert (2, 2, 0, 3, 1, 2, 12, 1, 0) == tuple(line(standings, "c")[k] for k in keys)
        assert (2, 0, 2, 1, 3, 12, 2, 1, 2) == tuple(line(standings, "d")[k] for k in keys)

    def test_loss_point_difference_breaks_the_tie(self) -> None:
        standings = compute_standings("kozel", ["loss-point-difference"], KOZEL)
        assert [(1, "c"), (2, "b"), (3, "a"), (4, "d")] == table(standings)

    def test_partners_are_not_opponents_in_head_to_head(self) -> None:
        standings = compute_standings("kozel", ["head-to-head"], KOZEL)
        assert [(1, "c"), (2, "a"), (2, "b"), (4, "d")] == table(standings)
        assert {"head-to-head": 1} == line(standings, "a")["tiebreaks"]

    def test_pair_table(self) -> None:
        standings = compute_standings("kozel", ["loss-point-difference"], KOZEL)
        assert [(1, "b+c"), (2, "a+c"), (3, "b+d"), (4, "a+d")] == table(standings, "pairs")
        assert 1 == line(standings, "b+d", "pairs")["goat"]
        assert {"loss-point-difference": 4} == line(standings, "a+c", "pairs")["tiebreaks"]


class TestRatings:
    def test_winner_rises_and_loser_falls(self) -> None:
        rated = ratings([cuttle("m", ["A", "B"], [0], [2, 1])])
        assert rated["A"]["mu"] > 25 > rated["B"]["mu"]

    def test_kozel_pairs_move_together(self) -> None:
        rated = ratings(KOZEL[:1])
        assert rated["a"]["mu"] > 25 > rated["b"]["mu"]
        assert rated["a"] == rated["c"]

    def test_order_of_matches_matters_and_is_reproducible(self) -> None:
        assert ratings(CYCLE) == ratings(list(CYCLE))
        assert ratings(CYCLE) != ratings(list(reversed(CYCLE)))


class TestRatingHistory:
    def test_a_point_per_match_of_the_player_ending_at_the_standings_rating(self) -> None:
        """See #32: the player's page charts these points."""
        history = rating_history(CYCLE, "A")
        assert ["m1", "m3", "m4"] == [p["match_id"] for p in history]
        assert ratings(CYCLE)["A"] == {k: history[-1][k] for k in ("mu", "sigma", "ordinal")}
        # After m1 alone A's rating is the one of rating m1 alone.
        assert ratings(CYCLE[:1])["A"]["ordinal"] == history[0]["ordinal"]

    def test_no_match_no_point(self) -> None:
        assert [] == rating_history(CYCLE, "Z")


class TestHeadToHead:
    def test_partners_are_not_opponents_and_cutthroat_counts_each_pair(self) -> None:
        """Kozel seats 0 and 2 play as one side (#32's head-to-head on the player's page)."""
        a, b, c, d = (str(uuid.UUID(int=i)) for i in range(1, 5))
        rows = [
            {
                "status": "finished",
                "game": "kozel",
                "players": [a, b, c, d],
                "result": {"winners": [0, 2], "losers": [1, 3]},
            },
            {
                "status": "finished",
                "game": "cuttle",
                "players": [a, b, c],
                "result": {"winners": [1], "losers": [0, 2]},
            },
            {"status": "live", "game": "cuttle", "players": [a, d], "result": None},
        ]
        lines = {line["player_id"]: line for line in head_to_head(rows, uuid.UUID(a))}
        assert {b, c, d} == set(lines)
        assert (2, 1, 1, 0) == tuple(lines[b][k] for k in ("played", "won", "lost", "drawn"))
        assert (1, 0, 0, 1) == tuple(lines[c][k] for k in ("played", "won", "lost", "drawn"))
        assert (1, 1, 0, 0) == tuple(lines[d][k] for k in ("played", "won", "lost", "drawn"))
