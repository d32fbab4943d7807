"""Notes, takebacks and a void survive the text notation: export, import, export again.

See #8: notes show as ``{ comments }``, takebacks as ``takeback to round N move M``
lines after the moves they undid, a void as a ``void`` line after the result.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from domain.events import Event
from domain.stream import (
    AddNote,
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    TakeBack,
    VoidMatch,
    effective_events,
    fold_stream,
)
from projections.matches import project_match_summary
from store.accounts import create_player
from store.events import read_stream
from store.recorder import Recorder
from tests.database import fresh_database
from tests.logs.support import cli
from tests.takebacks.log import Log, shuffled

NAMES = ("Ada", "Bob", "Cy", "Di")


@dataclass
class Script:
    """A match decided in memory, and the commands that recorded it, in order."""

    log: Log
    rng: random.Random
    server: bool
    commands: list[Command] = field(default_factory=list)

    def record(self, command: Command) -> None:
        self.log.record(command)
        self.commands.append(command)

    def play(self) -> None:
        """Record one random legal move (starting the next round when a scorer must)."""
        state = self.log.state
        assert state.config is not None
        if state.position is None:
            self.record(StartRound(shuffled(state.config, self.rng)))
            return
        legal = [m.text() for m in state.rules.legal_moves(state.position)]
        deal = shuffled(state.config, self.rng) if self.server else None
        self.record(Play(self.rng.choice(legal), deal))

    def play_to_round_end(self) -> int:
        """Play until a round ends; return the version just before its last move."""
        rounds = self.log.state.rounds_started
        while True:
            before = self.log.version
            self.play()
            state = self.log.state
            if state.position is None or state.rounds_started != rounds:
                return before


def corrected_match(game: str, dealing: str, seed: int) -> Script:
    """A finished, voided match with notes and takebacks inside and across rounds."""
    players = tuple(str(uuid.uuid5(uuid.NAMESPACE_URL, f"{game}/{n}")) for n in NAMES)
    if game == "cuttle":
        config = MatchConfig(game, "standard", players[:2], 0, dealing, "normal")  # type: ignore[arg-type]
    else:
        config = MatchConfig(game, "default", players, 0, dealing, None, {"loss_limit": 4})  # type: ignore[arg-type]
    script = Script(Log(), random.Random(seed), dealing == "server")
    script.record(CreateMatch(config, shuffled(config, script.rng) if script.server else None))
    if not script.server:
        script.play()
    started = script.log.version
    for _ in range(3):
        script.play()
    script.record(AddNote(started, "shuffled twice"))
    after_two = script.log.ply_versions()[1]
    for _ in range(2):
        script.play()
    # Back to right after move 2 (its last event, before move 3's first).
    move_three = script.log.ply_versions()[2]
    script.record(TakeBack(move_three - 1, "tapped the wrong card"))
    before_end = script.play_to_round_end()
    if not script.server:
        script.play()  # the scorer deals round 2, then the round-ending move is taken back
    script.record(TakeBack(before_end, "the round did not end there"))
    script.record(AddNote(after_two, "noted late, on move 2"))
    script.record(AddNote(1, "club night"))
    while not script.log.state.is_over:
        script.play()
    script.record(AddNote(script.log.version, "checked by the referee"))
    script.record(VoidMatch("wrong players entered"))
    script.record(AddNote(script.log.version, "voided by the organiser"))
    return script


def record_script(url: str, script: Script) -> str:
    """Record a script's commands through the recorder, with its players; return the id."""

    async def main() -> str:
        async with AsyncConnectionPool(url, min_size=1, max_size=1, open=False) as pool:
            recorder = Recorder(pool, [project_match_summary])
            config = script.log.state.config
            assert config is not None
            match_id = str(uuid.uuid4())
            await recorder.record(f"{config.game}-{match_id}", script.commands, expected_version=0)
            async with pool.connection() as conn:
                for pid, name in zip(config.players, NAMES, strict=False):
                    await create_player(conn, name, player_id=uuid.UUID(pid))
            return match_id

    return asyncio.run(main())


def stored_state(url: str, stream: str) -> tuple[MatchState, list[tuple[str, Any]]]:
    """The match as its stored stream folds, and its effective events less notes."""

    async def main() -> list[tuple[int, Event]]:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return [(e.version, Event(e.type, e.data)) for e in await read_stream(conn, stream)]

    pairs = asyncio.run(main())
    moves = [(e.type, e.data) for _, e in effective_events(pairs) if e.type != "NoteAdded"]
    return fold_stream(pairs), moves


def comparable(state: MatchState) -> tuple[Any, ...]:
    """What two recordings of the same play must share (versions may differ)."""
    return (state.series, state.result, state.voided, state.rounds_started, state.position)


class TestTextRoundTrip:
    @pytest.mark.parametrize(
        ("game", "dealing", "seed"), [("cuttle", "scorer", 3), ("kozel", "server", 5)]
    )
    def test_corrections_survive_export_and_import(
        self,
        database_url: str,
        admin_url: str,
        template_database: str,
        tmp_path: Path,
        game: str,
        dealing: str,
        seed: int,
    ) -> None:
        script = corrected_match(game, dealing, seed)
        match_id = record_script(database_url, script)
        code, exported, err = cli(database_url, "export", match_id, "--format", "text")
        assert 0 == code, err
        word = "round" if game == "cuttle" else "deal"
        assert 2 == exported.count(f"\ntakeback to {word} ")
        assert f'takeback to {word} 1 move 2 "tapped the wrong card"' in exported
        assert 'void "wrong players entered" { voided by the organiser }' in exported
        assert "\n{ club night }\n" in exported
        (late,) = [line for line in exported.splitlines() if "{ noted late, on move 2 }" in line]
        assert late.startswith("2. ")
        (shuffled_line,) = [line for line in exported.splitlines() if "{ shuffled twice }" in line]
        assert shuffled_line.startswith(f"{word} 1 ")
        assert "{ checked by the referee }" in exported.split("\nresult ")[1]
        path = tmp_path / "match.txt"
        path.write_text(exported)
        stream = f"{game}-{match_id}"
        with fresh_database(admin_url, template_database) as other:
            code, _, err = cli(other, "import", str(path))
            assert 0 == code, err
            code, again, err = cli(other, "export", match_id, "--format", "text")
            assert 0 == code, err
            imported = stored_state(other, stream)
            code, _, err = cli(other, "import", str(path))
            assert 0 == code, err
            assert "1 already recorded" in err
        assert exported == again
        recorded = stored_state(database_url, stream)
        assert comparable(recorded[0]) == comparable(imported[0])
        assert recorded[1] == imported[1]
