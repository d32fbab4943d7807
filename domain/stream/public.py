"""What the public may see of a live match's events."""

from __future__ import annotations

from typing import Any

from domain.events import Event
from domain.stream.config import MatchConfig
from domain.stream.facts import facts


def public_event_data(config: MatchConfig, event: Event) -> dict[str, Any]:
    """Return an event's data as anyone may see it while the match is live.

    Deck orders, dealt hands, drawn and named cards, and face-down throws (unless
    Kozel's ``open_throws``) become counts; public facts stay as they are. Once a
    match is over its whole record is public (Cuttle §16 with design.md, Kozel R44),
    so callers redact only live matches.

    >>> cfg = MatchConfig('kozel', 'default', ('a', 'b', 'c', 'd'), 0)
    >>> public_event_data(cfg, Event('CardsThrown', {'seat': 1, 'cards': ['6D', '8C']}))
    {'seat': 1, 'count': 2}
    """
    data = dict(event.data)
    kind = event.type
    rules = facts(config).rules
    if kind == rules.round_started:
        setup = dict(data["setup"])
        hidden = {"deck", "hands", "indicator_position"}
        data["setup"] = {k: v for k, v in setup.items() if k not in hidden}
        return data
    return rules.public_data(config, kind, data)


__all__ = ["public_event_data"]
