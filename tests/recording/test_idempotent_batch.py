"""Writes with an idempotency key in a group-commit batch: each answer stored with its events."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.stream import Play
from store.idempotency import KeyTakenError, OnceKey
from store.recorder import Recorded, Recorder
from tests.recording.test_group_commit import _dealt, _legal


def _key(token: uuid.UUID, key: str, request: bytes) -> OnceKey:
    return OnceKey(
        token, key, request, 200, lambda r: json.dumps({"stream": r.stream, "version": r.version})
    )


async def _stored(url: str, token: uuid.UUID) -> dict[str, tuple[bytes, dict[str, Any]]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute(
            "SELECT key, request_hash, response FROM idempotent_requests WHERE token_id = %s",
            (token,),
        )
        # Kept as the text that was answered (migration 0016).
        return {row[0]: (bytes(row[1]), json.loads(row[2])) for row in await cur.fetchall()}


async def _heads(url: str, streams: list[str]) -> list[int]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute(
            "SELECT stream, max(version) FROM events WHERE stream = ANY(%s) GROUP BY stream",
            (streams,),
        )
        found = dict(await cur.fetchall())
    return [found.get(s, 0) for s in streams]


async def _keyed_moves(url: str, keys: list[str], hashes: list[bytes]) -> dict[str, Any]:
    token = uuid.uuid4()
    async with AsyncConnectionPool(url, min_size=1, max_size=2, open=False) as pool:
        recorder = Recorder(pool, group_commit=True)
        matches = await _dealt(recorder, len(keys))
        before = Counter(recorder.batch_sizes)
        answers = await asyncio.gather(
            *(
                recorder.record(
                    m.stream,
                    [Play(_legal(m))],
                    expected_version=m.version,
                    once=_key(token, key, digest),
                )
                for m, key, digest in zip(matches, keys, hashes, strict=True)
            ),
            return_exceptions=True,
        )
        sizes = recorder.batch_sizes - before
    return {
        "matches": matches,
        "answers": answers,
        "sizes": sizes,
        "stored": await _stored(url, token),
        "heads": await _heads(url, [m.stream for m in matches]),
    }


def test_keyed_writes_share_a_batch_and_each_stores_its_answer(database_url: str) -> None:
    result = asyncio.run(_keyed_moves(database_url, ["k1", "k2", "k3"], [b"1", b"2", b"3"]))
    assert Counter({3: 1}) == result["sizes"]
    answers = result["answers"]
    assert all(isinstance(a, Recorded) for a in answers), answers
    assert {
        key: (digest, {"stream": a.stream, "version": a.version})
        for key, digest, a in zip(["k1", "k2", "k3"], [b"1", b"2", b"3"], answers, strict=True)
    } == result["stored"]
    assert [a.version for a in answers] == result["heads"]


def test_a_key_used_twice_in_one_batch_records_one_of_the_writes_only(database_url: str) -> None:
    """The batch's first of the two (in stream order) holds the key; the other is refused."""
    result = asyncio.run(_keyed_moves(database_url, ["k", "other", "k"], [b"a", b"b", b"c"]))
    assert Counter({3: 1}) == result["sizes"]
    answers, heads, matches = result["answers"], result["heads"], result["matches"]
    assert isinstance(answers[1], Recorded)
    held = [i for i in (0, 2) if isinstance(answers[i], Recorded)]
    refused = [i for i in (0, 2) if isinstance(answers[i], KeyTakenError)]
    assert (1, 1) == (len(held), len(refused)), answers
    assert {"k": [b"a", b"b", b"c"][held[0]], "other": b"b"} == {
        k: v[0] for k, v in result["stored"].items()
    }
    assert min(matches[0].stream, matches[2].stream) == matches[held[0]].stream
    assert answers[held[0]].version == heads[held[0]]
    assert matches[refused[0]].version == heads[refused[0]], "the refused write appended nothing"


def test_a_key_with_an_answer_refuses_a_write_that_comes_after(database_url: str) -> None:
    async def scenario() -> tuple[Any, Any, list[int], int]:
        token = uuid.uuid4()
        async with AsyncConnectionPool(database_url, min_size=1, max_size=2, open=False) as pool:
            recorder = Recorder(pool, group_commit=True)
            one, two = await _dealt(recorder, 2)
            first = await recorder.record(
                one.stream, [Play(_legal(one))], expected_version=one.version,
                once=_key(token, "tap", b"x"),
            )  # fmt: skip
            try:
                await recorder.record(
                    two.stream,
                    [Play(_legal(two))],
                    expected_version=two.version,
                    once=_key(token, "tap", b"x"),
                )
                second: Any = "recorded"
            except KeyTakenError as e:
                second = e
        heads = await _heads(database_url, [one.stream, two.stream])
        return first, second, heads, two.version

    first, second, heads, before = asyncio.run(scenario())
    assert isinstance(second, KeyTakenError)
    assert [first.version, before] == heads
