"""A pure, in-memory match stream for takeback tests: decide commands, number events."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from domain.events import Event
from domain.stream import (
    Command,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    VersionedEvent,
    decide,
    fold_stream,
    fold_versioned,
    rules_for,
)


def shuffled(config: MatchConfig, rng: random.Random) -> dict[str, Any]:
    """A deal a scorer or the server could give: a shuffled deck (and an indicator)."""
    spec = rules_for(config.game).deal_spec(config)
    cards = list(spec.pack)
    rng.shuffle(cards)
    deal: dict[str, Any] = {"deck": [c.text() for c in cards]}
    if spec.indicator_positions is not None:
        deal["indicator_position"] = rng.choice(spec.indicator_positions)
    return deal


def comparable(state: MatchState) -> MatchState:
    """The state less its raw version (which a takeback moves on, not back)."""
    return replace(state, version=0)


@dataclass
class Log:
    """A raw stream and the state the recorder would hold for it."""

    pairs: list[VersionedEvent] = field(default_factory=list)
    state: MatchState = field(default_factory=MatchState)

    @property
    def version(self) -> int:
        """The raw head."""
        return self.pairs[-1][0] if self.pairs else 0

    def record(self, command: Command) -> list[Event]:
        """Decide ``command`` and append its events, as the recorder does."""
        events = decide(self.state, command)
        numbered = list(enumerate(events, start=self.version + 1))
        self.pairs.extend(numbered)
        if any(e.type == "TakenBack" for e in events):
            self.state = fold_stream(self.pairs)
        else:
            self.state = fold_versioned(numbered, self.state)
        return events

    def at(self, version: int) -> MatchState:
        """The match as it was when the stream's head was ``version``."""
        return fold_stream([p for p in self.pairs if p[0] <= version])

    def play_random(self, rng: random.Random, moves: int, *, server: bool = False) -> None:
        """Record up to ``moves`` random legal moves (starting rounds as a scorer would)."""
        rules = self.state.rules
        assert self.state.config is not None
        for _ in range(moves):
            if self.state.is_over:
                return
            if self.state.position is None:
                self.record(StartRound(shuffled(self.state.config, rng)))
                continue
            legal = [m.text() for m in rules.legal_moves(self.state.position)]
            deal = shuffled(self.state.config, rng) if server else None
            self.record(Play(rng.choice(legal), deal))

    def ply_versions(self) -> list[int]:
        """The versions of the effective moves."""
        from domain.stream import effective_events, move_text

        config = self.state.config
        assert config is not None
        return [v for v, e in effective_events(self.pairs) if move_text(config, e) is not None]
