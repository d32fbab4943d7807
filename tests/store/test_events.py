"""The event store against a real PostgreSQL (issue #2, item 4)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID, uuid4

import psycopg
import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg_pool import AsyncConnectionPool

from domain.events import NewEvent
from store.chain import BrokenLink, canonical_event_v2, event_hash, verify
from store.events import (
    EventIdConflictError,
    Notifier,
    VersionConflictError,
    append,
    canonical_json,
    claim_position,
    read_all,
    read_stream,
    stream_version,
    subscribe,
)
from tests.strategies import event_data, json_values, stream_names

T = TypeVar("T")
Conn = psycopg.AsyncConnection[Any]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def move(n: int = 0, event_id: UUID | None = None) -> NewEvent:
    return NewEvent(event_id or uuid4(), "CardPlayed", {"seat": n % 2, "card": "7H", "n": n})


async def with_conn(url: str, body: Callable[[Conn], Awaitable[T]]) -> T:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        return await body(conn)


async def late_writer(database_url: str, n: int, rng: random.Random) -> list[int]:
    """Append 6 pairs to ``cuttle-<n>``, each commit held back a random while; return positions."""
    positions: list[int] = []
    async with await psycopg.AsyncConnection.connect(database_url) as conn:
        for version in range(0, 12, 2):
            if rng.random() < 0.5:  # sometimes a projection write comes first
                await conn.execute("SELECT pg_current_xact_id()")
            result = await append(conn, f"cuttle-{n}", [move(), move()], version)
            await asyncio.sleep(rng.random() * 0.05)
            await conn.commit()
            positions += result.positions
    return positions


async def committed_append(
    url: str, stream: str, events: list[NewEvent], expected: int | None
) -> Any:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        result = await append(conn, stream, events, expected)
        await conn.commit()
        return result


class TestAppend:
    def test_versions_count_from_one(self, database_url: str) -> None:
        first = run(committed_append(database_url, "cuttle-a", [move(0), move(1)], 0))
        second = run(committed_append(database_url, "cuttle-a", [move(2)], 2))
        assert (2, [1, 2]) == (first.version, [e.version for e in first.events])
        assert (3, [3]) == (second.version, [e.version for e in second.events])
        assert 3 == run(with_conn(database_url, lambda c: stream_version(c, "cuttle-a")))

    def test_rejects_stale_version_with_current_version(self, database_url: str) -> None:
        run(committed_append(database_url, "cuttle-a", [move(0), move(1)], 0))
        with pytest.raises(VersionConflictError) as e:
            run(committed_append(database_url, "cuttle-a", [move(2)], 1))
        assert "VERSION_CONFLICT" == e.value.code
        assert 2 == e.value.details["current_version"]

    def test_expected_zero_requires_empty_stream(self, database_url: str) -> None:
        run(committed_append(database_url, "kozel-a", [move()], None))
        with pytest.raises(VersionConflictError) as e:
            run(committed_append(database_url, "kozel-a", [move()], 0))
        assert 1 == e.value.details["current_version"]

    def test_any_version_appends_at_head(self, database_url: str) -> None:
        run(committed_append(database_url, "kozel-a", [move(), move()], None))
        result = run(committed_append(database_url, "kozel-a", [move()], None))
        assert 3 == result.version

    def test_empty_append_checks_version_and_writes_nothing(self, database_url: str) -> None:
        assert 0 == run(committed_append(database_url, "kozel-a", [], 0)).version
        with pytest.raises(VersionConflictError) as e:
            run(committed_append(database_url, "kozel-a", [], 4))
        assert 0 == e.value.details["current_version"]

    def test_positions_grow_across_streams(self, database_url: str) -> None:
        a = run(committed_append(database_url, "cuttle-a", [move(), move()], 0))
        b = run(committed_append(database_url, "kozel-b", [move()], 0))
        positions = a.positions + b.positions
        assert sorted(set(positions)) == list(positions)

    def test_a_claimed_position_comes_before_a_later_append(self, database_url: str) -> None:
        """claim_position fixes a transaction's place: another appending and committing
        in the meantime still lands after it."""

        async def body() -> tuple[Any, Any]:
            async with (
                await psycopg.AsyncConnection.connect(database_url) as first,
                await psycopg.AsyncConnection.connect(database_url) as second,
            ):
                await claim_position(first)
                later = await append(second, "kozel-later", [move()], 0)
                await second.commit()
                claimed = await append(first, "cuttle-claimed", [move(), move()], 0)
                await first.commit()
                return claimed, later

        claimed, later = run(body())
        assert max(claimed.positions) < min(later.positions)

    def test_works_inside_the_callers_transaction(self, database_url: str) -> None:
        async def body(conn: Conn) -> list[Any]:
            await append(conn, "cuttle-a", [move(), move()], 0)
            await conn.rollback()
            return await read_stream(conn, "cuttle-a")

        assert [] == run(with_conn(database_url, body))

    def test_all_events_land_or_none(self, database_url: str) -> None:
        """A batch whose last row cannot be stored leaves no row of it behind."""
        taken = uuid4()
        run(committed_append(database_url, "kozel-b", [move(event_id=taken)], 0))
        with pytest.raises(EventIdConflictError):
            run(committed_append(database_url, "cuttle-a", [move(), move(event_id=taken)], 0))
        assert 0 == run(with_conn(database_url, lambda c: stream_version(c, "cuttle-a")))

    def test_may_follow_other_writes_and_repeat_in_one_transaction(self, database_url: str) -> None:
        """Projections may be written first, and one transaction may append twice."""

        async def body(conn: Conn) -> list[int]:
            await conn.execute("CREATE TEMP TABLE scratch (x int)")
            await conn.execute("INSERT INTO scratch VALUES (1)")
            first = await append(conn, "cuttle-a", [move(0), move(1)], 0)
            second = await append(conn, "kozel-b", [move(0)], 0)
            await conn.commit()
            return [e.global_position for e in await read_all(conn)] + [
                *first.positions,
                *second.positions,
            ]

        positions = run(with_conn(database_url, body))
        assert positions[:3] == positions[3:]
        assert sorted(set(positions[:3])) == positions[:3]

    def test_notifies_on_commit(self, database_url: str) -> None:
        async def body(conn: Conn) -> list[str]:
            await conn.set_autocommit(True)
            await conn.execute("LISTEN matchlog_events")
            await committed_append(database_url, "cuttle-a", [move(), move()], 0)
            return [n.payload async for n in conn.notifies(timeout=5, stop_after=1)]

        assert ["cuttle-a"] == run(with_conn(database_url, body))

    def test_channel_none_sends_no_notify(self, database_url: str) -> None:
        async def body(conn: Conn) -> list[str]:
            await conn.set_autocommit(True)
            await conn.execute("LISTEN matchlog_events")
            async with await psycopg.AsyncConnection.connect(database_url) as writer:
                await append(writer, "cuttle-a", [move()], 0, channel=None)
                await writer.commit()
            return [n.payload async for n in conn.notifies(timeout=0.5)]

        assert [] == run(with_conn(database_url, body))


class TestConcurrentAppend:
    def test_same_expected_version_exactly_one_wins(self, database_url: str) -> None:
        async def writer(delay: float) -> Any:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                await asyncio.sleep(delay)
                try:
                    result = await append(conn, "cuttle-a", [move()], 0)
                    await asyncio.sleep(0.3)  # hold the transaction open across the rival
                    await conn.commit()
                    return result.version
                except VersionConflictError as e:
                    return e

        async def race() -> list[Any]:
            return list(await asyncio.gather(writer(0), writer(0.1)))

        won, lost = run(race())
        assert 1 == won
        assert isinstance(lost, VersionConflictError)
        assert ("VERSION_CONFLICT", 1) == (lost.code, lost.details["current_version"])
        assert 1 == run(with_conn(database_url, lambda c: stream_version(c, "cuttle-a")))

    def test_reader_never_skips_an_out_of_order_commit(self, database_url: str) -> None:
        """A appends first and commits last: nobody reads B's event before A's."""

        async def scenario() -> tuple[list[int], list[int], list[int], list[int]]:
            async with (
                await psycopg.AsyncConnection.connect(database_url) as a,
                await psycopg.AsyncConnection.connect(database_url, autocommit=True) as reader,
            ):
                first = await append(a, "cuttle-a", [move()], 0)
                second = await committed_append(database_url, "kozel-b", [move()], 0)
                # Without the horizon a tailing reader would take B's and move past A's.
                cur = await reader.execute("SELECT global_position FROM events")
                naive = [r[0] for r in await cur.fetchall()]
                before = [e.global_position for e in await read_all(reader)]
                await a.commit()
                after = [e.global_position for e in await read_all(reader)]
                return [*first.positions, *second.positions], naive, before, after

        appended, naive, before, after = run(scenario())
        assert appended[1:] == naive
        assert [] == before
        assert appended == after

    def test_tailing_reader_gets_a_late_commit_with_a_younger_transaction_id(
        self, database_url: str
    ) -> None:
        """B appends while A, older, runs; A appends and commits first; then B commits.

        This is where positions drawn from a sequence go wrong even below the xmin
        horizon: B draws the lower position, A (older id, so readable while B runs)
        the higher one, and a reader that moved past A's event never sees B's.
        Positions made from the transaction id give B's event the higher position.
        """

        async def scenario() -> tuple[list[int], list[int]]:
            async with (
                await psycopg.AsyncConnection.connect(database_url) as a,
                await psycopg.AsyncConnection.connect(database_url) as b,
                await psycopg.AsyncConnection.connect(database_url, autocommit=True) as reader,
            ):
                await a.execute("CREATE TEMP TABLE projection (x int)")
                await a.execute("INSERT INTO projection VALUES (1)")  # A takes its id
                await append(b, "kozel-b", [move()], 0)
                await append(a, "cuttle-a", [move()], 0)
                await a.commit()
                tailed = [e.global_position for e in await read_all(reader)]
                await b.commit()
                tailed += [
                    e.global_position for e in await read_all(reader, after_position=tailed[-1])
                ]
                everything = [e.global_position for e in await read_all(reader)]
                return tailed, everything

        tailed, everything = run(scenario())
        assert 2 == len(everything)
        assert everything == tailed

    def test_tailing_reader_gets_every_event_in_order_under_load(self, database_url: str) -> None:
        """Writers hold transactions open for random times while a reader tails."""

        async def scenario() -> tuple[list[int], list[int]]:
            rng = random.Random(2)
            tail: list[int] = []
            events = subscribe(database_url, poll_interval=0.05)
            writers = asyncio.gather(
                *(late_writer(database_url, n, random.Random(rng.random())) for n in range(6))
            )
            while len(tail) < 6 * 12:
                tail.append((await asyncio.wait_for(anext(events), timeout=20)).global_position)
            await events.aclose()  # type: ignore[attr-defined]
            return sorted(p for ps in await writers for p in ps), tail

        appended, tail = run(scenario())
        assert appended == tail

    def test_appends_to_other_streams_commit_independently(self, database_url: str) -> None:
        """Appends take no lock across streams: an open append blocks no other stream."""

        async def scenario() -> int:
            async with await psycopg.AsyncConnection.connect(database_url) as a:
                await append(a, "cuttle-a", [move()], 0)
                other = await asyncio.wait_for(
                    committed_append(database_url, "kozel-b", [move()], 0), timeout=10
                )
                await a.commit()
                return int(other.version)

        assert 1 == run(scenario())


class TestIdempotentRetry:
    def test_same_ids_and_content_succeed_without_duplicates(self, database_url: str) -> None:
        events = [move(0), move(1)]
        first = run(committed_append(database_url, "cuttle-a", events, 0))
        retry = run(committed_append(database_url, "cuttle-a", events, 0))
        assert (first.version, first.positions) == (retry.version, retry.positions)
        assert (False, True) == (first.already_recorded, retry.already_recorded)
        assert 2 == len(run(with_conn(database_url, lambda c: read_stream(c, "cuttle-a"))))

    def test_retry_is_checked_before_the_version(self, database_url: str) -> None:
        events = [move(0)]
        run(committed_append(database_url, "cuttle-a", events, 0))
        run(committed_append(database_url, "cuttle-a", [move(1)], 1))
        assert 1 == run(committed_append(database_url, "cuttle-a", events, 0)).version

    def test_same_ids_with_other_content_fail(self, database_url: str) -> None:
        event = move(0)
        run(committed_append(database_url, "cuttle-a", [event], 0))
        changed = NewEvent(event.event_id, event.type, {**event.data, "card": "8H"})
        with pytest.raises(EventIdConflictError) as e:
            run(committed_append(database_url, "cuttle-a", [changed], 0))
        assert "EVENT_ID_CONFLICT" == e.value.code

    def test_same_ids_on_another_stream_fail(self, database_url: str) -> None:
        event = move(0)
        run(committed_append(database_url, "cuttle-a", [event], 0))
        with pytest.raises(EventIdConflictError) as e:
            run(committed_append(database_url, "cuttle-b", [event], 0))
        assert "EVENT_ID_CONFLICT" == e.value.code

    def test_partly_recorded_batch_fails(self, database_url: str) -> None:
        event = move(0)
        run(committed_append(database_url, "cuttle-a", [event], 0))
        with pytest.raises(EventIdConflictError) as e:
            run(committed_append(database_url, "cuttle-a", [event, move(1)], 0))
        assert "EVENT_ID_CONFLICT" == e.value.code

    def test_repeated_id_within_one_call_fails(self, database_url: str) -> None:
        event = move(0)
        with pytest.raises(EventIdConflictError) as e:
            run(committed_append(database_url, "cuttle-a", [event, event], 0))
        assert "EVENT_ID_CONFLICT" == e.value.code


class TestReads:
    def test_read_stream_is_exclusive_and_limited(self, database_url: str) -> None:
        run(committed_append(database_url, "cuttle-a", [move(n) for n in range(5)], 0))
        run(committed_append(database_url, "kozel-b", [move()], 0))

        async def body(conn: Conn) -> list[int]:
            events = await read_stream(conn, "cuttle-a", after_version=1, limit=3)
            return [e.version for e in events]

        assert [2, 3, 4] == run(with_conn(database_url, body))

    def test_read_stream_returns_what_was_appended(self, database_url: str) -> None:
        appended = run(committed_append(database_url, "cuttle-a", [move(0)], 0)).events
        assert list(appended) == run(with_conn(database_url, lambda c: read_stream(c, "cuttle-a")))

    def test_read_all_is_exclusive_and_limited(self, database_url: str) -> None:
        a = run(committed_append(database_url, "cuttle-a", [move(n) for n in range(3)], 0))
        b = run(committed_append(database_url, "kozel-b", [move(n) for n in range(3)], 0))
        positions = a.positions + b.positions

        async def body(conn: Conn) -> list[int]:
            events = await read_all(conn, after_position=positions[1], limit=3)
            return [e.global_position for e in events]

        assert list(positions[2:5]) == run(with_conn(database_url, body))

    def test_read_all_returns_what_was_appended(self, database_url: str) -> None:
        a = run(committed_append(database_url, "cuttle-a", [move(0), move(1)], 0))
        b = run(committed_append(database_url, "kozel-b", [move(0)], 0))
        assert [*a.events, *b.events] == run(with_conn(database_url, read_all))


class TestSubscribe:
    def test_catches_up_then_wakes_on_notify(self, database_url: str) -> None:
        async def scenario() -> tuple[list[int], list[int]]:
            old = await committed_append(database_url, "cuttle-a", [move(0), move(1)], 0)
            # A poll interval far longer than the wait: only the NOTIFY can wake it.
            events = subscribe(database_url, after_position=0, poll_interval=60)
            seen = [(await anext(events)).global_position for _ in range(2)]
            pending = asyncio.ensure_future(anext(events))
            await asyncio.sleep(0.2)
            assert not pending.done()
            new = await committed_append(database_url, "kozel-b", [move()], 0)
            seen.append((await asyncio.wait_for(pending, timeout=10)).global_position)
            await events.aclose()  # type: ignore[attr-defined]
            return [*old.positions, *new.positions], seen

        appended, seen = run(scenario())
        assert appended == seen

    def test_wakes_on_the_notifier_after_commit(self, database_url: str) -> None:
        async def scenario() -> tuple[int, int]:
            async with Notifier(database_url) as notifier:
                events = subscribe(database_url, poll_interval=60)
                pending = asyncio.ensure_future(anext(events))
                await asyncio.sleep(0.2)
                async with await psycopg.AsyncConnection.connect(database_url) as conn:
                    result = await append(conn, "cuttle-a", [move()], 0, channel=None)
                    await conn.commit()
                notifier.notify()
                seen = (await asyncio.wait_for(pending, timeout=10)).global_position
                await events.aclose()  # type: ignore[attr-defined]
                return result.positions[0], seen

        appended, seen = run(scenario())
        assert appended == seen

    def test_starts_after_the_position_given(self, database_url: str) -> None:
        async def scenario() -> tuple[int, int]:
            result = await committed_append(database_url, "cuttle-a", [move(0), move(1)], 0)
            events = subscribe(database_url, after_position=result.positions[0])
            position = (await anext(events)).global_position
            await events.aclose()  # type: ignore[attr-defined]
            return result.positions[1], position

        expected, got = run(scenario())
        assert expected == got

    def test_accepts_a_pool(self, database_url: str) -> None:
        async def scenario() -> tuple[int, int]:
            result = await committed_append(database_url, "cuttle-a", [move(0)], 0)
            async with AsyncConnectionPool(database_url, min_size=1, open=False) as pool:
                events = subscribe(pool)
                position = (await anext(events)).global_position
                await events.aclose()  # type: ignore[attr-defined]
            return result.positions[0], position

        expected, got = run(scenario())
        assert expected == got


class TestAppendOnly:
    @pytest.mark.parametrize(
        "sql", ["UPDATE events SET type = 'X'", "DELETE FROM events", "TRUNCATE events"]
    )
    def test_triggers_refuse_changes(self, owner_url: str, sql: str) -> None:
        """Even the schema's owner, who has every privilege, is refused."""
        run(committed_append(owner_url, "cuttle-a", [move()], 0))
        with psycopg.connect(owner_url) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
            conn.rollback()
            assert (1,) == conn.execute("SELECT count(*) FROM events").fetchone()


def tamper(url: str, sql: str) -> None:
    """Run ``sql`` with the append-only triggers off, as a superuser (``url``) could."""
    with psycopg.connect(url) as conn:
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute(sql)


class TestVerify:
    def test_intact_log_verifies(self, database_url: str) -> None:
        tricky = NewEvent(
            uuid4(),
            "Noted",
            {
                "é": "snow ☃ \U0001f0a1",
                "q": 'say "hi" \\ {a,b} \n',
                "f": [0.1, 1e300, -0.0, 5e-324],
                "n": None,
                "": {},
            },
        )
        run(committed_append(database_url, "cuttle-a", [move(0), tricky, move(2)], 0))
        run(committed_append(database_url, "kozel-b", [move(0)], 0))
        run(committed_append(database_url, "cuttle-a", [move(3)], 3))
        assert [] == run(with_conn(database_url, verify)).problems

    def test_names_the_altered_row(self, database_url: str, owner_url: str) -> None:
        run(committed_append(database_url, "cuttle-a", [move(n) for n in range(4)], 0))
        run(committed_append(database_url, "kozel-b", [move(0)], 0))
        tamper(
            owner_url,
            """UPDATE events SET data = jsonb_set(data, '{card}', '"KS"')
               WHERE stream = 'cuttle-a' AND version = 3""",
        )
        assert [BrokenLink("cuttle-a", 3, "hash", "hash does not match the event")] == run(
            with_conn(database_url, verify)
        ).problems

    def test_rehashed_row_breaks_the_next_link(self, database_url: str, owner_url: str) -> None:
        """Recomputing the altered row's hash does not help: the next link names it."""
        run(committed_append(database_url, "cuttle-a", [move(n) for n in range(3)], 0))
        tamper(
            owner_url,
            "UPDATE events SET hash = sha256(hash) WHERE stream = 'cuttle-a' AND version = 2",
        )
        problems = run(with_conn(database_url, verify)).problems
        assert [("cuttle-a", 2, "hash"), ("cuttle-a", 3, "prev-hash")] == [
            (p.stream, p.version, p.code) for p in problems
        ]

    def test_names_a_deleted_row(self, database_url: str, owner_url: str) -> None:
        run(committed_append(database_url, "kozel-b", [move(n) for n in range(3)], 0))
        tamper(owner_url, "DELETE FROM events WHERE stream = 'kozel-b' AND version = 2")
        problems = run(with_conn(database_url, verify)).problems
        assert [BrokenLink("kozel-b", 2, "version-missing", "version 2 missing")] == problems


class TestCanonicalJson:
    @given(value=json_values)
    def test_matches_rfc8785(self, value: Any) -> None:
        """The fast path writes exactly what the reference implementation does."""
        assert rfc8785.dumps(value).decode() == canonical_json(value)


class TestDatabaseHash:
    # Each example appends to its own fresh stream, so sharing the database is fine.
    @settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        stream=stream_names,
        types=st.lists(
            st.text(min_size=1).filter(lambda s: "\x00" not in s), min_size=1, max_size=3
        ),
        # jsonb cannot hold U+0000, whoever writes the JSON.
        data=event_data.filter(lambda d: "\\u0000" not in canonical_json(d)),
        # A log import's own times, in any zone, or the database's clock.
        recorded_at=st.none()
        | st.datetimes(timezones=st.timezones(), min_value=datetime(1900, 1, 1)),
    )
    def test_the_database_hashes_what_verify_recomputes(
        self,
        database_url: str,
        stream: str,
        types: list[str],
        data: dict[str, Any],
        recorded_at: datetime | None,
    ) -> None:
        """The database writes the row into the hashed JSON as RFC 8785 does (chain v2)."""
        stream = f"{stream}{uuid4()}"  # a fresh stream per example, whatever it holds
        events = [NewEvent(uuid4(), type_, data, data, recorded_at) for type_ in types]
        recorded = run(committed_append(database_url, stream, events, 0)).events
        previous = None
        for version, (event, stored) in enumerate(zip(events, recorded, strict=True), 1):
            canonical = canonical_event_v2(
                stream,
                version,
                event.event_id,
                event.type,
                data,
                data,
                stored.recorded_at,
                stored.global_position,
            )
            previous = event_hash(previous, canonical)
            assert previous.hex() == stored.hash
