"""What a match's state says of its end, as JSON-ready data: its status and its result.

The read models, the API and the pad's in-browser engine all answer with these, so a
match reads the same wherever it was folded.
"""

from __future__ import annotations

from typing import Any

from domain.stream.fold import MatchState


def status_of(state: MatchState) -> str:
    """Return ``live``, ``finished`` or ``void`` (a finished match an admin voided)."""
    if state.voided:
        return "void"
    return "finished" if state.is_over else "live"


def round_data(state: MatchState) -> dict[str, Any] | None:
    """Return the round in progress as a match's summary shows it to anyone (its number,
    who acts, the cards awaited, the public view), or ``None`` between rounds."""
    if state.position is None or state.config is None:
        return None
    rules = state.rules
    return {
        "number": state.rounds_started,
        "to_act": list(rules.public_to_act(state.position)),
        "cards_awaited": rules.cards_awaited(state.position),
        "view": rules.view(state.position, None),
    }


def result_of(state: MatchState) -> dict[str, Any] | None:
    """Return the match result as JSON-ready data, or ``None`` while it is live."""
    if state.result is None:
        return None
    return {
        "winners": list(state.result.winners),
        "losers": list(state.result.losers),
        "reason": state.result.reason,
        "draw": state.result.is_draw,
    }


def result_with_resignation(state: MatchState) -> dict[str, Any] | None:
    """Return the match result, naming a whole-match resignation's seat when there was one."""
    result = result_of(state)
    if result is not None and state.series is not None:
        result.update(state.rules.result_data(state.series))
    return result


__all__ = ["result_of", "result_with_resignation", "round_data", "status_of"]
