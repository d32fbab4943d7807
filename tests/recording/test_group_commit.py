"""Group commit: writes waiting together share a transaction, each answered on its own."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from domain.errors import DomainError, UnauthenticatedError
from domain.stream import CreateMatch, MatchConfig, Play
from store import accounts
from store.events import VersionConflictError, read_stream
from store.group_commit import GroupCommit
from store.recorder import Recorded, Recorder, StartRound, shuffled_deal

CONFIG = MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing="scorer", format="quick")


@dataclass(frozen=True)
class _Write:
    stream: str
    fails: bool = False


class _Batches:
    """A fake ``record_batch`` that holds each batch until released, and logs them."""

    def __init__(self) -> None:
        self.seen: list[list[str]] = []
        self.release = asyncio.Event()

    async def __call__(self, writes: Sequence[_Write]) -> list[str]:
        self.seen.append([w.stream for w in writes])
        await self.release.wait()
        if any(w.fails for w in writes):
            raise RuntimeError("this batch holds a write that breaks it")
        return [f"{w.stream} done" for w in writes]


def test_a_lone_write_is_recorded_at_once() -> None:
    async def main() -> tuple[str, list[list[str]]]:
        batches = _Batches()
        batches.release.set()
        group = GroupCommit(batches)
        # No timer: the write is flushed as soon as the loop gets to it.
        return await asyncio.wait_for(group.record(_Write("a")), 1), batches.seen

    assert ("a done", [["a"]]) == asyncio.run(main())


def test_writes_waiting_during_a_flush_share_the_next_one_by_distinct_stream() -> None:
    async def main() -> tuple[list[str], list[list[str]], Counter[int]]:
        batches = _Batches()
        group = GroupCommit(batches)
        first = asyncio.create_task(group.record(_Write("a")))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        # The first batch is being recorded; these wait for the next.
        rest = [asyncio.create_task(group.record(_Write(s))) for s in ("c", "b", "b")]
        await asyncio.sleep(0)
        batches.release.set()
        answers = await asyncio.gather(first, *rest)
        return answers, batches.seen, group.sizes

    answers, seen, sizes = asyncio.run(main())
    assert ["a done", "c done", "b done", "b done"] == answers
    # In stream order (every batch locks its streams in one order); the second
    # write to "b" waits for the batch after the first one's.
    assert [["a"], ["b", "c"], ["b"]] == seen
    assert Counter({1: 2, 2: 1}) == sizes


def test_a_batch_that_fails_is_recorded_write_by_write() -> None:
    async def main() -> list[Any]:
        batches = _Batches()
        group = GroupCommit(batches)
        blocker = asyncio.create_task(group.record(_Write("x")))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        writes = [_Write("a"), _Write("b", fails=True), _Write("c")]
        tasks = [asyncio.create_task(group.record(w)) for w in writes]
        await asyncio.sleep(0)
        batches.release.set()
        return await asyncio.gather(blocker, *tasks, return_exceptions=True)

    answers = asyncio.run(main())
    assert ["x done", "a done", "c done"] == [answers[0], answers[1], answers[3]]
    assert isinstance(answers[2], RuntimeError)


async def _dealt(recorder: Recorder, count: int) -> list[Recorded]:
    streams = [f"cuttle-{uuid.uuid4()}" for _ in range(count)]
    created = await asyncio.gather(
        *(recorder.record(s, [CreateMatch(CONFIG)], expected_version=0) for s in streams)
    )
    return list(
        await asyncio.gather(
            *(
                recorder.record(
                    c.stream,
                    [StartRound(shuffled_deal(CONFIG, random.Random(i)))],
                    expected_version=c.version,
                )
                for i, c in enumerate(created)
            )
        )
    )


def _legal(recorded: Recorded) -> str:
    state = recorded.state
    assert state.position is not None
    return next(iter(state.rules.legal_moves(state.position))).text()


async def _one_batch_of_mixed_writes(url: str) -> dict[str, Any]:
    async with (
        AsyncConnectionPool(url, min_size=1, max_size=2, open=False) as pool,
        await psycopg.AsyncConnection.connect(url) as admin,
    ):
        recorder = Recorder(pool, group_commit=True)
        good, _ = await accounts.create_token(admin, role=accounts.Role.SCORER)
        revoked_token, _ = await accounts.create_token(admin, role=accounts.Role.SCORER)
        await accounts.revoke_token(admin, revoked_token.id)
        await admin.commit()
        matches = await _dealt(recorder, 5)
        before = Counter(recorder.batch_sizes)
        answers = await asyncio.gather(
            recorder.record(
                matches[0].stream,
                [Play(_legal(matches[0]))],
                expected_version=matches[0].version,
                token_id=good.id,
            ),
            recorder.record(
                matches[1].stream,
                [Play(_legal(matches[1]))],
                expected_version=matches[1].version - 1,
            ),
            recorder.record(
                matches[2].stream, [Play("P1 scuttles")], expected_version=matches[2].version
            ),
            recorder.record(
                matches[3].stream,
                [Play(_legal(matches[3]))],
                expected_version=matches[3].version,
                token_id=revoked_token.id,
            ),
            recorder.record(
                matches[4].stream, [Play(_legal(matches[4]))], expected_version=matches[4].version
            ),
            return_exceptions=True,
        )
        sizes = recorder.batch_sizes - before
        heads = {}
        # Another connection sees every answered write: it was committed before its answer.
        async with await psycopg.AsyncConnection.connect(url) as reader:
            for m in matches:
                heads[m.stream] = (await read_stream(reader, m.stream))[-1].version
            synchronous = await (await reader.execute("SHOW synchronous_commit")).fetchone()
        return {
            "matches": matches,
            "answers": answers,
            "sizes": sizes,
            "heads": heads,
            "synchronous": synchronous,
        }


def test_a_batch_answers_each_write_on_its_own(database_url: str) -> None:
    result = asyncio.run(_one_batch_of_mixed_writes(database_url))
    matches, answers, heads = result["matches"], result["answers"], result["heads"]
    assert Counter({5: 1}) == result["sizes"]
    assert isinstance(answers[0], Recorded) and isinstance(answers[4], Recorded)
    assert isinstance(answers[1], VersionConflictError)
    assert isinstance(answers[2], DomainError) and not isinstance(answers[2], VersionConflictError)
    assert isinstance(answers[3], UnauthenticatedError)
    for index in (0, 4):
        assert answers[index].version > matches[index].version
        assert answers[index].version == heads[matches[index].stream]
        assert answers[index].events[-1].version == answers[index].version
    for index in (1, 2, 3):
        assert matches[index].version == heads[matches[index].stream]
    assert ("on",) == result["synchronous"]


async def _a_stale_write_among_others(url: str) -> tuple[list[Any], list[int], Counter[int]]:
    async with AsyncConnectionPool(url, min_size=1, max_size=3, open=False) as pool:
        here, elsewhere = Recorder(pool, group_commit=True), Recorder(pool)
        matches = await _dealt(here, 3)
        # Another process moves match 0 on: this recorder's memory of it is stale, and
        # so is a writer who saw what it remembers.
        await elsewhere.record(
            matches[0].stream, [Play(_legal(matches[0]))], expected_version=matches[0].version
        )
        before = Counter(here.batch_sizes)
        answers = await asyncio.gather(
            *(
                here.record(m.stream, [Play(_legal(m))], expected_version=m.version)
                for m in matches
            ),
            return_exceptions=True,
        )
        async with pool.connection() as conn:
            heads = [(await read_stream(conn, m.stream))[-1].version for m in matches]
        return answers, heads, here.batch_sizes - before


def test_a_write_the_append_refuses_does_not_fail_its_batch(database_url: str) -> None:
    answers, heads, sizes = asyncio.run(_a_stale_write_among_others(database_url))
    assert isinstance(answers[0], VersionConflictError)
    assert [Recorded, Recorded] == [type(a) for a in answers[1:]]
    assert [a.version for a in answers[1:]] == heads[1:]
    assert Counter({3: 1}) == sizes


@pytest.mark.parametrize("group_commit", [True, False])
def test_an_idle_recorder_records_a_lone_write(database_url: str, group_commit: bool) -> None:
    async def main() -> int:
        async with AsyncConnectionPool(database_url, min_size=1, max_size=2, open=False) as pool:
            recorder = Recorder(pool, group_commit=group_commit)
            (match,) = await _dealt(recorder, 1)
            moved = await recorder.record(
                match.stream, [Play(_legal(match))], expected_version=match.version
            )
            return moved.version - match.version

    assert asyncio.run(main()) >= 1
