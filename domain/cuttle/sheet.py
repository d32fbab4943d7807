"""Score-sheet rounds (rules §27, rulings 41-42): ``result P1`` or ``result draw``.

A match recorded by results takes each round as its result, which the series
scores exactly as a played round's outcome (``CuttleSeries.record``).

>>> text, outcome = read_result(' Result p1 ', 2)
>>> text, outcome.winner, outcome.termination.value
('result P1', 1, 'score-sheet')
>>> read_result('result draw', 3)[1].winner is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cuttle.outcome import Outcome, Termination
from domain.errors import MalformedError
from domain.words import ENGLISH, Words

RESULT_WORD = "result"
"""The first word of a score-sheet result."""
DRAW = "draw"


def is_result(text: str) -> bool:
    """Whether ``text`` is written as a result (its first word is ``result``), readable or not.

    >>> is_result('result P0'), is_result('P0 draw'), is_result('results')
    (True, False, False)
    """
    words = text.split(maxsplit=1)
    return bool(words) and words[0].lower() == RESULT_WORD


def read_result(text: str, players: int) -> tuple[str, Outcome]:
    """Return a result's canonical text and the round outcome it records.

    >>> read_result('result P01', 2)
    Traceback (most recent call last):
    ...
    domain.errors.MalformedError: 'result P01' is not a result: ...

    Raises:
        MalformedError (MALFORMED): not ``result`` followed by a seat of the
            variant or ``draw``, word for word.
    """
    words = text.split()
    # Word by word, in ASCII, against the results themselves: 'P01', 'P²' or a Kelvin
    # sign are no seat, though int() or lower() would make one of them.
    if len(words) == 2 and all(w.isascii() for w in words) and words[0].lower() == RESULT_WORD:
        word = words[1].upper()
        if word == DRAW.upper():
            return f"{RESULT_WORD} {DRAW}", Outcome(Termination.SCORE_SHEET, None)
        tokens = [f"P{seat}" for seat in range(players)]
        if word in tokens:
            return f"{RESULT_WORD} {word}", Outcome(Termination.SCORE_SHEET, tokens.index(word))
    seats = ", ".join(f"P{s}" for s in range(players))
    raise MalformedError(
        f"{text!r} is not a result: write 'result' and a seat ({seats}) or 'draw'",
        details={"result": text},
    )


def results(players: int) -> tuple[str, ...]:
    """Return every result a round may have: each seat's win, then a draw.

    >>> results(3)
    ('result P0', 'result P1', 'result P2', 'result draw')
    """
    return (*(f"{RESULT_WORD} P{seat}" for seat in range(players)), f"{RESULT_WORD} {DRAW}")


def describe_result(text: str, round_no: int, names: Sequence[str], words: Words = ENGLISH) -> str:
    """Return the timeline's sentence for a result entered as round ``round_no``.

    >>> describe_result('result P1', 2, ['Ann', 'Bob'])
    'Bob won round 2'
    >>> describe_result('result draw', 3, ['Ann', 'Bob'])
    'Round 3 was drawn'
    """
    _, outcome = read_result(text, max(len(names), 2))
    if outcome.winner is None:
        return words.gettext("Round {round} was drawn").format(round=round_no)
    seat = outcome.winner
    who = names[seat] if seat < len(names) else f"P{seat}"
    return words.gettext("{who} won round {round}").format(who=who, round=round_no)


__all__ = ["RESULT_WORD", "describe_result", "is_result", "read_result", "results"]
