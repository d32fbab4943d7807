"""The one listening connection: every settled event handed on once, in order, late commits too."""

from __future__ import annotations

import asyncio
import random

from domain.events import RecordedEvent
from store.listener import EventListener
from tests.store.test_events import committed_append, late_writer, move, run


def test_hands_on_every_later_event_in_order_while_writers_commit_late(
    database_url: str,
) -> None:
    """Writers hold their appends open for random times; the listener skips none of them."""

    async def scenario() -> tuple[list[int], list[int], list[int]]:
        before = await committed_append(database_url, "kozel-old", [move(0), move(1)], 0)
        handed: list[int] = []
        done = asyncio.Event()

        async def dispatch(events: list[RecordedEvent]) -> None:
            handed.extend(e.global_position for e in events)
            if len(handed) >= 6 * 12:
                done.set()

        # Batches of 5 split the writers' pairs: a batch boundary is no event boundary.
        async with EventListener(database_url, dispatch, batch_size=5, poll_interval=0.05):
            rng = random.Random(4)
            written = await asyncio.gather(
                *(late_writer(database_url, n, random.Random(rng.random())) for n in range(6))
            )
            await asyncio.wait_for(done.wait(), timeout=60)
        return before.positions, sorted(p for ps in written for p in ps), handed

    before, appended, handed = run(scenario())
    assert appended == handed
    assert not set(before) & set(handed), "events recorded before the start are not handed on"


def test_reads_nothing_while_unwanted_and_reads_on_from_where_it_is_moved(
    database_url: str,
) -> None:
    """Unwanted wake-ups hand nothing on; after ``skip_to`` it hands on only what follows."""

    async def scenario() -> tuple[list[int], list[int], list[int], list[int]]:
        handed: list[int] = []
        wanted = False
        arrived = asyncio.Event()

        async def dispatch(events: list[RecordedEvent]) -> None:
            handed.extend(e.global_position for e in events)
            arrived.set()

        async with EventListener(
            database_url, dispatch, poll_interval=0.05, wanted=lambda: wanted
        ) as listener:
            start = listener.position
            skipped = await committed_append(database_url, "kozel-unwanted", [move(0)], 0)
            # Several poll intervals and a NOTIFY: reason enough to read, were it wanted.
            await asyncio.sleep(0.5)
            while_unwanted = list(handed)
            listener.skip_to(skipped.positions[-1])
            wanted = True
            later = await committed_append(database_url, "kozel-wanted", [move(0), move(1)], 0)
            await asyncio.wait_for(arrived.wait(), timeout=30)
            while len(handed) < 2:
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), timeout=30)
        assert start < skipped.positions[0]
        return while_unwanted, list(skipped.positions), list(later.positions), handed

    while_unwanted, skipped, later, handed = run(scenario())
    assert [] == while_unwanted
    assert later == handed
    assert not set(skipped) & set(handed)
