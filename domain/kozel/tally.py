"""Kozel's standings lines: per player and per pair, and their encounters (docs/standings.md)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tally import Encounter, Finished, Line, encounters, pair_key

COMPETITION_FORMAT = {"loss_limit": 12, "eggs_double_next": False}
"""What a competition's match format holds, with its defaults."""

STANDINGS_STATS: tuple[str, ...] = (
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
"""The columns of a Kozel standings line, in order."""


def tally_lines(
    matches: Sequence[Finished], *, pairs: bool
) -> tuple[dict[str, Line], list[Encounter]]:
    """Tally lines per player (``pairs=False``) or per pair, and their encounters."""
    lines: dict[str, Line] = {}
    met: list[Encounter] = []
    for match in matches:
        teams = [(match.players[0], match.players[2]), (match.players[1], match.players[3])]
        winners = set(match.result["winners"])
        for team, members in enumerate(teams):
            won = team in {s % 2 for s in winners}
            entities = [pair_key(members)] if pairs else list(members)
            for entity in entities:
                line = lines.setdefault(
                    entity,
                    Line(
                        entity,
                        tuple(sorted(members)) if pairs else (entity,),
                        dict.fromkeys(STANDINGS_STATS, 0),
                    ),
                )
                line.add("played", 1)
                line.add("won" if won else "lost", 1)
                # A concession is a loss, never a goat (R47).
                line.add("goat", 0 if won or match.result.get("reason") == "concession" else 1)
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
            met.extend(encounters([pair_key(t) for t in teams], [places[0], places[1]]))
        else:
            for a, b in ((0, 1), (0, 3), (2, 1), (2, 3)):
                met.extend(encounters([match.players[a], match.players[b]], [places[a], places[b]]))
    for line in lines.values():
        line.stats["points"] = line.stats["won"]
    return lines, met


__all__ = ["COMPETITION_FORMAT", "STANDINGS_STATS", "tally_lines"]
