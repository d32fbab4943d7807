"""With no feed the hub reads nothing after a wake-up; a feed that joins later misses nothing."""

from __future__ import annotations

import asyncio

from psycopg_pool import AsyncConnectionPool

from projections.live import Inbox, LiveHub
from tests.store.test_events import committed_append, move, run


def test_a_feed_joining_an_idle_hub_starts_at_the_head_and_gets_every_later_event(
    database_url: str,
) -> None:
    async def scenario() -> tuple[int, int, list[int], int, list[int], list[int]]:
        async with AsyncConnectionPool(database_url, min_size=1, max_size=2, open=False) as pool:
            hub = LiveHub(pool)
            async with hub.listening(database_url, poll_interval=0.05):
                start = hub.position
                unread = await committed_append(database_url, "kozel-idle", [move(0)], 0)
                await asyncio.sleep(0.5)
                idle_position = hub.position
                inbox = Inbox(stream="kozel-idle", competition_id=None, limit=100)
                until = await hub.register(inbox)
                later = await committed_append(database_url, "kozel-idle", [move(1)], 1)
                got: list[int] = []
                while len(got) < 1:
                    got += [e.global_position for e in await inbox.take(timeout=30)]
                hub.unregister(inbox)
        assert start < unread.positions[0]
        return start, idle_position, list(unread.positions), until, list(later.positions), got

    start, idle_position, unread, until, later, got = run(scenario())
    assert start == idle_position, "with no feed the hub read nothing"
    assert unread[-1] == until, "the joining feed reads up to the head from the table"
    assert later == got
