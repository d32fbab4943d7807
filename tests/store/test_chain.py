"""What the hash chain and a checkpoint catch, one test per line of docs/event-store.md."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import uuid4

import psycopg
import pytest

from domain.events import NewEvent
from store.chain import (
    ChainReport,
    Checkpoint,
    CheckpointError,
    Head,
    canonical_event_v2,
    event_hash,
    verify,
)
from store.events import append

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def move(n: int) -> NewEvent:
    return NewEvent(uuid4(), "CardPlayed", {"card": "7H", "n": n}, {"by": "scorer", "n": n})


def record(url: str, stream: str, count: int) -> None:
    async def body() -> None:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            await append(conn, stream, [move(n) for n in range(count)], None)
            await conn.commit()

    run(body())


def walk(url: str, against: Checkpoint | None = None) -> ChainReport:
    async def body() -> ChainReport:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return await verify(conn, against=against)

    return run(body())


def found(report: ChainReport) -> list[tuple[str, int, str]]:
    return [(p.stream, p.version, p.code) for p in report.problems]


def tamper(url: str, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Run ``sql`` past the append-only triggers, as a superuser's connection can."""
    with psycopg.connect(url) as conn:
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute(sql, params)


def checkpoint(url: str) -> Checkpoint:
    report = walk(url)
    assert report.ok, report.problems
    return Checkpoint.from_json(report.checkpoint(datetime.now(UTC)).to_json())


@pytest.fixture(name="log")
def _log(database_url: str, owner_url: str) -> str:
    """Two streams of four events each, and one of two, recorded by the service's role.

    The tests tamper with it past the triggers, which only the owner can do: they get
    the owner's URL to the same database.
    """
    for stream, count in (("cuttle-a", 4), ("kozel-b", 4), ("cuttle-c", 2)):
        record(database_url, stream, count)
    return owner_url


class TestChain:
    def test_new_events_are_chain_v2(self, log: str) -> None:
        with psycopg.connect(log) as conn:
            assert [(2,)] == conn.execute("SELECT DISTINCT chain_version FROM events").fetchall()
        assert [] == walk(log).problems

    def test_a_changed_event_is_named_with_its_stream_and_version(self, log: str) -> None:
        tamper(
            log,
            "UPDATE events SET data = '{\"card\": \"KS\"}' WHERE stream = 'kozel-b' "
            "AND version = 3",
        )
        assert [("kozel-b", 3, "hash")] == found(walk(log))

    def test_every_broken_link_is_reported(self, log: str) -> None:
        tamper(log, "UPDATE events SET type = 'X' WHERE stream = 'cuttle-a' AND version = 2")
        tamper(
            log, "UPDATE events SET hash = sha256(hash) WHERE stream = 'kozel-b' AND version = 1"
        )
        tamper(log, "DELETE FROM events WHERE stream = 'cuttle-c' AND version = 1")
        assert [
            ("cuttle-a", 2, "hash"),
            ("cuttle-c", 1, "version-missing"),
            ("kozel-b", 1, "hash"),
            ("kozel-b", 2, "prev-hash"),
        ] == found(walk(log))

    @pytest.mark.parametrize(
        "change",
        [
            'metadata = \'{"by": "someone else", "n": 1}\'',
            "recorded_at = recorded_at - interval '1 day'",
            "recorded_at = recorded_at + interval '1 microsecond'",
            "global_position = global_position + 60000",
        ],
    )
    def test_v2_covers_metadata_recorded_at_and_position(self, log: str, change: str) -> None:
        tamper(log, f"UPDATE events SET {change} WHERE stream = 'cuttle-a' AND version = 2")
        assert [("cuttle-a", 2, "hash")] == found(walk(log))

    def test_a_v1_event_s_metadata_and_recorded_at_are_outside_its_hash(self, log: str) -> None:
        """The limit of chain v1 (events recorded before migration 0011)."""
        stream = rehash(log, "cuttle-c", 1, chain_version=1)
        assert [] == walk(log).problems
        tamper(
            log,
            'UPDATE events SET metadata = \'{"by": "x"}\', recorded_at = now() '
            "WHERE stream = %s AND version = 1",
            (stream,),
        )
        assert [] == walk(log).problems

    def test_a_v2_event_passed_off_as_v1_breaks(self, log: str) -> None:
        tamper(log, "UPDATE events SET chain_version = 1 WHERE stream = 'kozel-b' AND version = 3")
        assert [("kozel-b", 3, "chain-version"), ("kozel-b", 3, "hash")] == found(walk(log))

    def test_a_rewrite_rehashed_to_the_end_verifies_without_a_checkpoint(self, log: str) -> None:
        """The limit of the chain alone: the next test's checkpoint catches it."""
        rehash(log, "cuttle-a", 2)
        assert [] == walk(log).problems

    def test_a_deleted_tail_verifies_without_a_checkpoint(self, log: str) -> None:
        tamper(log, "DELETE FROM events WHERE stream = 'cuttle-a' AND version >= 3")
        tamper(log, "DELETE FROM events WHERE stream = 'kozel-b'")
        assert [] == walk(log).problems


class TestCheckpoint:
    def test_a_deleted_tail_is_found(self, log: str) -> None:
        before = checkpoint(log)
        tamper(log, "DELETE FROM events WHERE stream = 'cuttle-a' AND version >= 3")
        report = walk(log, before)
        assert [("cuttle-a", 3, "events-lost")] == found(report)
        assert "events 3..4 are gone since the checkpoint" == report.problems[0].reason

    def test_a_deleted_stream_is_found(self, log: str) -> None:
        before = checkpoint(log)
        tamper(log, "DELETE FROM events WHERE stream = 'kozel-b'")
        assert [("kozel-b", 1, "stream-gone")] == found(walk(log, before))

    def test_a_rehashed_rewrite_is_found(self, log: str) -> None:
        before = checkpoint(log)
        rehash(log, "cuttle-a", 2)
        assert [("cuttle-a", 4, "rewritten")] == found(walk(log, before))

    def test_a_deleted_tail_grown_back_is_found(self, log: str) -> None:
        before = checkpoint(log)
        tamper(log, "DELETE FROM events WHERE stream = 'kozel-b' AND version >= 2")
        record(log, "kozel-b", 5)
        assert [] == walk(log).problems
        assert [("kozel-b", 4, "rewritten")] == found(walk(log, before))

    def test_later_appends_and_new_streams_are_fine(self, log: str) -> None:
        before = checkpoint(log)
        record(log, "cuttle-a", 2)
        record(log, "kozel-new", 1)
        report = walk(log, before)
        assert report.ok
        assert Head(6, report.heads["cuttle-a"].hash) == report.heads["cuttle-a"]

    def test_holds_every_stream_s_head(self, log: str) -> None:
        taken = checkpoint(log)
        assert {"cuttle-a": 4, "kozel-b": 4, "cuttle-c": 2} == {
            name: head.version for name, head in taken.heads.items()
        }
        assert 10 == taken.events

    @pytest.mark.parametrize(
        "edit",
        [
            lambda d: d["streams"]["cuttle-a"].update(version=3),
            lambda d: d["streams"].pop("kozel-b"),
            lambda d: d.update(events=9),
            lambda d: d.update(digest="0" * 64),
        ],
        ids=["head", "stream", "count", "digest"],
    )
    def test_an_edited_file_is_refused(self, log: str, edit: Any) -> None:
        document = json.loads(checkpoint(log).to_json())
        edit(document)
        with pytest.raises(CheckpointError, match="digest does not match"):
            Checkpoint.from_json(json.dumps(document))

    @pytest.mark.parametrize("text", ["", "[]", '{"digest": "x"}', '{"format": 1}'])
    def test_a_file_that_is_no_checkpoint_is_refused(self, text: str) -> None:
        with pytest.raises(CheckpointError) as e:
            Checkpoint.from_json(text)
        assert "CHECKPOINT_INVALID" == e.value.code


def rehash(url: str, stream: str, from_version: int, *, chain_version: int = 2) -> str:
    """Rewrite ``stream``'s event ``from_version`` and re-hash it and every later one.

    What an attacker with superuser access and this code would do. With
    ``chain_version=1`` the events are re-hashed as chain v1 events instead.
    """
    from store.chain import canonical_event

    with psycopg.connect(url) as conn:
        conn.execute("SET LOCAL session_replication_role = replica")
        rows = conn.execute(
            "SELECT version, event_id, type, data, metadata, recorded_at, global_position, "
            "hash FROM events WHERE stream = %s ORDER BY version",
            (stream,),
        ).fetchall()
        previous: bytes | None = None
        for version, event_id, type_, data, metadata, recorded_at, position, digest in rows:
            if version < from_version:
                previous = bytes(digest)
                continue
            if version == from_version:
                data = {**data, "card": "KS"}
            if chain_version == 1:
                canonical = canonical_event(stream, version, event_id, type_, data)
            else:
                canonical = canonical_event_v2(
                    stream, version, event_id, type_, data, metadata, recorded_at, position
                )
            new = event_hash(previous, canonical)
            conn.execute(
                "UPDATE events SET data = %s, prev_hash = %s, hash = %s, chain_version = %s "
                "WHERE stream = %s AND version = %s",
                (json.dumps(data), previous, new, chain_version, stream, version),
            )
            previous = new
    return stream
