"""Swiss ranking: score, then the competition's standings tiebreaks, then entry order."""

from __future__ import annotations

import uuid
from fractions import Fraction

from domain.standings import FinishedMatch
from projections.standings import tally_results
from service.swiss_ranking import rank_entrants
from store.entrants import Entrant

COMPETITION = uuid.uuid4()


def entrant(*players: str) -> Entrant:
    return Entrant(uuid.uuid4(), COMPETITION, tuple(uuid.UUID(int=int(p, 16)) for p in players))


def cuttle(winner: Entrant, loser: Entrant, rounds: tuple[int, int]) -> FinishedMatch:
    players = (str(winner.players[0]), str(loser.players[0]))
    return FinishedMatch(
        str(uuid.uuid4()), "cuttle", players, ({"wins": list(rounds)},), {"winners": [0]}
    )


def test_equal_scores_are_split_by_the_tiebreaks_in_order() -> None:
    a, b, c, d = entrant("a"), entrant("b"), entrant("c"), entrant("d")
    # b beat a 2-0 and c beat d 2-1: all four stand on one Swiss point (byes, forfeits...).
    tables = tally_results("cuttle", [cuttle(b, a, (2, 0)), cuttle(c, d, (2, 1))])
    scores = {e.id: Fraction(1) for e in (a, b, c, d)}
    entered = [a, b, c, d]
    assert [a.id, b.id, c.id, d.id] == rank_entrants("cuttle", [], entered, scores, tables)
    by_rounds = rank_entrants("cuttle", ["round-difference"], entered, scores, tables)
    assert [b.id, c.id, d.id, a.id] == by_rounds
    # wins ties b and c (one each), a and d (none): entry order within each, then rounds.
    by_wins = rank_entrants("cuttle", ["wins"], entered, scores, tables)
    assert [b.id, c.id, a.id, d.id] == by_wins
    both = rank_entrants("cuttle", ["wins", "round-difference"], entered, scores, tables)
    assert [b.id, c.id, d.id, a.id] == both


def test_the_swiss_score_ranks_before_any_tiebreak() -> None:
    a, b = entrant("a"), entrant("b")
    tables = tally_results("cuttle", [cuttle(a, b, (2, 0))])
    scores = {a.id: Fraction(0), b.id: Fraction(1, 2)}
    assert [b.id, a.id] == rank_entrants("cuttle", ["wins"], [a, b], scores, tables)


def test_kozel_pairs_rank_by_their_pairs_lines() -> None:
    a, b, c = entrant("a1", "a2"), entrant("b1", "b2"), entrant("c1", "c2")
    ids = [str(p) for e in (a, b) for p in e.players]
    # Pair b (seats 1 and 3) beat pair a; c has not played: a, c and b all on 1 point.
    won = FinishedMatch("m", "kozel", (ids[0], ids[2], ids[1], ids[3]), (), {"winners": [1, 3]})
    tables = tally_results("kozel", [won])
    scores = {e.id: Fraction(1) for e in (a, b, c)}
    ranked = rank_entrants("kozel", ["head-to-head", "wins"], [a, b, c], scores, tables)
    assert [b.id, a.id, c.id] == ranked, "b beat a head to head; a and c tie on wins: entry"
