"""Score-sheet deals (rules R48): ``deal 75 45`` or ``deal 120 0 blank B``.

A match recorded by results takes each deal as its card points (team A's, then
team B's) and the teams that took no trick at all; the series scores it exactly
as a played deal (``KozelSeries.record``: loss points 2/4/6, eggs, doubling).

>>> read_deal('Deal 120 0 BLANK b', dealer=0)
('deal 120 0 blank B', DealOutcome(card_points=(120, 0), tricks=(None, 0), last_trick_seat=1))
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from domain.errors import IllegalMoveError, MalformedError
from domain.kozel.outcome import DealOutcome

RESULT_WORD = "deal"
"""The first word of a score-sheet deal."""
BLANK = "blank"
TEAMS = "AB"
TOTAL = 120
"""The card points of a deal (R23): both teams' points add up to them."""


def is_result(text: str) -> bool:
    """Whether ``text`` is written as a score-sheet deal (first word ``deal``), readable or not.

    >>> is_result('deal 60 60'), is_result('S0 lead 7S')
    (True, False)
    """
    words = text.split(maxsplit=1)
    return bool(words) and words[0].lower() == RESULT_WORD


def read_deal(text: str, dealer: int) -> tuple[str, DealOutcome]:
    """Return a deal's canonical text and the outcome it records (``dealer`` dealt it).

    A sheet does not say who took the last trick; the seat left of the dealer (who
    led the first trick, R6) stands in, and nothing reads it: a results match plays
    no deal.

    Raises:
        MalformedError (MALFORMED): not ``deal``, two numbers, then ``blank`` and teams.
        IllegalMoveError (INVALID_RESULT): points that are not two whole numbers adding
            up to 120; a blank team with points; both teams blank.
    """
    words = text.split()
    blank = _blank_teams(text, words)
    points = (_number(text, words[1]), _number(text, words[2]))
    whole = all(math.isfinite(p) and p == int(p) and p >= 0 for p in points)
    if not whole or sum(points) != TOTAL:
        raise _invalid(text, "card points are two whole numbers adding up to 120")
    a, b = int(points[0]), int(points[1])
    if len(blank) == 2:
        raise _invalid(text, "both teams cannot have taken no trick")
    if any((a, b)[team] for team in blank):
        raise _invalid(text, "a team that took no trick has no card points")
    tricks = (0 if 0 in blank else None, 0 if 1 in blank else None)
    canonical = f"{RESULT_WORD} {a} {b}" + "".join(f" {BLANK} {TEAMS[t]}" for t in sorted(blank))
    return canonical, DealOutcome((a, b), tricks, (dealer + 1) % 4)


def _blank_teams(text: str, words: Sequence[str]) -> set[int]:
    """Return the teams named after ``blank`` (0 for A, 1 for B), or refuse the shape."""
    if len(words) < 3 or words[0].lower() != RESULT_WORD:
        raise _malformed(text)
    blank: set[int] = set()
    rest = [w.upper() for w in words[3:]]
    if rest and rest[0] != BLANK.upper():
        raise _malformed(text)
    for word in rest:
        if word == BLANK.upper():
            continue
        if word not in TEAMS:
            raise _malformed(text)
        blank.add(TEAMS.index(word))
    if rest and rest[-1] == BLANK.upper():
        raise _malformed(text)
    return blank


def _number(text: str, word: str) -> float:
    try:
        return float(word)
    except ValueError:
        raise _malformed(text) from None


def _malformed(text: str) -> MalformedError:
    return MalformedError(
        f"{text!r} is not a deal's result: write 'deal', team A's and team B's card points,"
        " then 'blank' and the team that took no trick, if one did",
        details={"result": text},
    )


def _invalid(text: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"{text!r}: {why}", code="INVALID_RESULT", details={"result": text})


def describe_deal(deal: int, text: str, losing_team: int | None, loss_points: int) -> str:
    """Return the timeline's sentence for a score-sheet deal, as its scoring event gives it.

    >>> describe_deal(3, 'deal 75 45', 1, 2)
    'Deal 3: 75-45, team B takes 2 loss points'
    >>> describe_deal(4, 'deal 60 60', None, 0)
    'Deal 4: 60-60, eggs'
    >>> describe_deal(5, 'deal 120 0 blank B', 1, 6)
    'Deal 5: 120-0, team B took no trick and takes 6 loss points'
    """
    words = text.split()
    score = f"Deal {deal}: {words[1]}-{words[2]}"
    if losing_team is None:
        return f"{score}, eggs"
    team = TEAMS[losing_team]
    blank = " took no trick and" if team in words[4:] else ""
    return f"{score}, team {team}{blank} takes {loss_points} loss points"


__all__ = ["RESULT_WORD", "TOTAL", "describe_deal", "is_result", "read_deal"]
