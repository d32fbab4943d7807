"""Score-sheet deals (rules R48): ``deal 75 45`` or ``deal 120 0 blank B``.

A match recorded by results takes each deal as its card points (team A's, then
team B's) and the teams that took no trick at all; the series scores it exactly
as a played deal (``KozelSeries.record``: loss points 2/4/6, eggs, doubling).

>>> read_deal('Deal 120 0 BLANK b', dealer=0)
('deal 120 0 blank B', DealOutcome(card_points=(120, 0), tricks=(None, 0), last_trick_seat=1))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from domain.errors import IllegalMoveError, MalformedError
from domain.kozel.outcome import DealOutcome
from domain.words import ENGLISH, Words

RESULT_WORD = "deal"
"""The first word of a score-sheet deal."""
BLANK = "blank"
TEAMS = "AB"
TOTAL = 120
"""The card points of a deal (R23): both teams' points add up to them."""
_TEAM_WORDS = {letter: team for team, letter in enumerate(TEAMS)}
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
"""A number as a sheet writes it: ASCII digits, a sign and a decimal part allowed (R48's
INVALID_RESULT answers a readable number that is no card points); no exponent, no
``_``, no ``nan``."""


def is_result(text: str) -> bool:
    """Whether ``text`` is written as a score-sheet deal (first word ``deal``), readable or not.

    >>> is_result('deal 60 60'), is_result('S0 lead 7S')
    (True, False)
    """
    words = text.split(maxsplit=1)
    return bool(words) and words[0].lower() == RESULT_WORD


def read_deal(text: str, dealer: int) -> tuple[str, DealOutcome]:
    """Return a deal's canonical text and the outcome it records (``dealer`` dealt it).

    The text is read word by word: ``deal``, team A's points, team B's points, then
    nothing, or ``blank`` and one or two different teams (``A``, ``B``); any other word,
    a word more or a word repeated is unreadable. A sheet does not say who took the
    last trick; the seat left of the dealer (who led the first trick, R6) stands in,
    and nothing reads it: a results match plays no deal.

    >>> read_deal('deal 0 120 blank AB', dealer=0)
    Traceback (most recent call last):
    ...
    domain.errors.MalformedError: 'deal 0 120 blank AB' is not a deal's result: ...

    Raises:
        MalformedError (MALFORMED): not ``deal``, two numbers (digits, a ``-`` and a
            decimal part allowed), then nothing or ``blank`` and one or two teams.
        IllegalMoveError (INVALID_RESULT): points that are not two whole numbers from 0
            adding up to 120; a blank team with points; both teams blank.
    """
    words = text.split()
    # Words are compared in ASCII: a letter that only lower-cases to one (the Kelvin
    # sign's 'k') is not that letter.
    ascii_words = all(word.isascii() for word in words)
    if not 3 <= len(words) <= 6 or not ascii_words or words[0].lower() != RESULT_WORD:
        raise _malformed(text)
    points = (_number(text, words[1]), _number(text, words[2]))
    blank = _blank_teams(text, words[3:])
    if not all(p == p.to_integral_value() and p >= 0 for p in points) or sum(points) != TOTAL:
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
    """Return the teams ``blank`` names (0 for A, 1 for B): none, or one or two different ones."""
    if not words:
        return set()
    teams = [w.upper() for w in words[1:]]
    if words[0].lower() != BLANK or not 1 <= len(teams) <= 2 or len(set(teams)) != len(teams):
        raise _malformed(text)
    # Each word must be a team's letter itself: 'AB' is one word, and no team.
    if not all(team in _TEAM_WORDS for team in teams):
        raise _malformed(text)
    return {_TEAM_WORDS[team] for team in teams}


def _number(text: str, word: str) -> Decimal:
    if _NUMBER.fullmatch(word) is None:
        raise _malformed(text)
    return Decimal(word)


def _malformed(text: str) -> MalformedError:
    return MalformedError(
        f"{text!r} is not a deal's result: write 'deal', team A's and team B's card points,"
        " then 'blank' and the team that took no trick, if one did",
        details={"result": text},
    )


def _invalid(text: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"{text!r}: {why}", code="INVALID_RESULT", details={"result": text})


def describe_deal(
    deal: int, text: str, losing_team: int | None, loss_points: int, words: Words = ENGLISH
) -> str:
    """Return the timeline's sentence for a score-sheet deal, as its scoring event gives it.

    >>> describe_deal(3, 'deal 75 45', 1, 2)
    'Deal 3: 75-45, team B takes 2 loss points'
    >>> describe_deal(4, 'deal 60 60', None, 0)
    'Deal 4: 60-60, eggs'
    >>> describe_deal(5, 'deal 120 0 blank B', 1, 6)
    'Deal 5: 120-0, team B took no trick and takes 6 loss points'
    """
    parts = text.split()
    a, b = parts[1], parts[2]
    if losing_team is None:
        return words.gettext("Deal {deal}: {a}-{b}, eggs").format(deal=deal, a=a, b=b)
    team = TEAMS[losing_team]
    if team in parts[4:]:
        sentence = words.ngettext(
            "Deal {deal}: {a}-{b}, team {team} took no trick and takes {points} loss point",
            "Deal {deal}: {a}-{b}, team {team} took no trick and takes {points} loss points",
            loss_points,
        )
    else:
        sentence = words.ngettext(
            "Deal {deal}: {a}-{b}, team {team} takes {points} loss point",
            "Deal {deal}: {a}-{b}, team {team} takes {points} loss points",
            loss_points,
        )
    return sentence.format(deal=deal, a=a, b=b, team=team, points=loss_points)


__all__ = ["RESULT_WORD", "TOTAL", "describe_deal", "is_result", "read_deal"]
