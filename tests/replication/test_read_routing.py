"""Reads from a hot standby: ``matchlog serve`` with ``MATCHLOG_READ_DATABASE_URL``.

One cluster (a primary and an asynchronous standby) and one server process for the
module. The standby's replay is paused (``pg_wal_replay_pause()``) to hold it
behind the primary at will: reads without a position then show what it replayed
and nothing more; a read with the ``Matchlog-Position`` of a write waits for it, or
goes to the primary; a live feed delivers nothing the standby lacks, then all of it
in order once it replays.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from store.accounts import Role
from tests.api.conftest import create_secret
from tests.recording.play import create_match
from tests.recording.test_live_server import players, serve
from tests.replication.cluster import Cluster, MatchlogDatabase, Node

READ_WAIT = 1.0
POSITION = "Matchlog-Position"


@pytest.fixture(name="node", scope="module")
def _node(
    cluster: Cluster, cluster_database: MatchlogDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A server whose reads go to the standby (a multi-host URL preferring a standby)."""
    standby, primary = cluster.standbys[0], cluster.primary
    name, password = cluster_database.login
    reads = (
        f"postgresql://{name}:{password}@127.0.0.1:{standby.port},127.0.0.1:{primary.port}"
        f"/{cluster_database.name}?target_session_attrs=prefer-standby"
    )
    with serve(
        cluster_database.app_url(cluster),
        tmp_path_factory.mktemp("node"),
        migration_database_url=cluster_database.owner_url(cluster),
        read_database_url=reads,
        read_wait=str(READ_WAIT),
    ) as base:
        yield base


@pytest.fixture(name="tokens", scope="module")
def _tokens(cluster: Cluster, cluster_database: MatchlogDatabase) -> dict[Role, dict[str, str]]:
    url = cluster_database.owner_url(cluster)
    return {role: {"Authorization": f"Bearer {create_secret(url, role)}"} for role in Role}


@contextmanager
def paused(standby: Node) -> Iterator[None]:
    """Hold the standby's replay where it is for the block (it still receives WAL)."""
    with psycopg.connect(standby.url(), autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()")
        try:
            yield
        finally:
            conn.execute("SELECT pg_wal_replay_resume()")


def metrics(base: str, admin: dict[str, str]) -> dict[str, float]:
    """The routing counters, the pools' requests (``pool:primary``, ``pool:standby``) and the
    replay lag, as ``/metrics`` says them."""
    text = httpx.get(f"{base}/metrics", headers=admin).text
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "matchlog_reads_routed_total":
                found[sample.labels["database"]] = sample.value
            elif sample.name == "matchlog_pool_requests_total":
                found[f"pool:{sample.labels['database']}"] = sample.value
            elif sample.name.startswith("matchlog_standby_replay_lag"):
                found[sample.name] = sample.value
    return found


def test_reads_see_what_the_standby_replayed_and_a_position_it_lacks_reads_the_primary(
    node: str, cluster: Cluster, tokens: dict[Role, dict[str, str]]
) -> None:
    admin, scorer = tokens[Role.ADMIN], tokens[Role.SCORER]
    standby = cluster.standbys[0]
    with paused(standby):
        created = httpx.post(f"{node}/players", json={"display_name": "Late"}, headers=scorer)
        assert 201 == created.status_code, created.text
        position = created.headers[POSITION]
        url = f"{node}/players/{created.json()['id']}"
        before = metrics(node, admin)
        # The standby has not replayed the new player: a plain read does not see it.
        assert 404 == httpx.get(url, headers=scorer).status_code
        started = time.monotonic()
        own = httpx.get(url, headers={**scorer, POSITION: position})
        waited = time.monotonic() - started
        assert 200 == own.status_code, "the primary answers a position the standby lacks"
        assert waited >= READ_WAIT * 0.9, "it waited for the standby first"
        after = metrics(node, admin)
        assert after["standby"] - before["standby"] == 1
        assert after["primary"] - before["primary"] == 1
        # Each pool counts its own: the standby's served the plain read (and replay samples).
        assert after["pool:standby"] - before["pool:standby"] >= 1
        assert after["pool:primary"] > before["pool:primary"]
        time.sleep(1.2)  # the lag is sampled once a second
        assert metrics(node, admin)["matchlog_standby_replay_lag_bytes"] > 0
    cluster.wait_replayed(standby)
    assert 200 == httpx.get(url, headers=scorer).status_code
    # A position that is not one cannot be waited for: the primary answers at once.
    before = metrics(node, admin)
    assert 200 == httpx.get(url, headers={**scorer, POSITION: "yesterday"}).status_code
    assert metrics(node, admin)["primary"] - before["primary"] == 1


def test_a_read_carrying_its_writes_position_waits_for_the_standby_to_replay_it(
    node: str, cluster: Cluster, tokens: dict[Role, dict[str, str]]
) -> None:
    admin, scorer = tokens[Role.ADMIN], tokens[Role.SCORER]
    standby = cluster.standbys[0]
    with paused(standby):
        created = httpx.post(f"{node}/players", json={"display_name": "Soon"}, headers=scorer)
        assert 201 == created.status_code, created.text
        before = metrics(node, admin)
        resumed = threading.Timer(
            0.3,
            lambda: (
                psycopg.connect(standby.url(), autocommit=True)
                .execute("SELECT pg_wal_replay_resume()")
                .connection.close()
            ),
        )
        resumed.start()
        own = httpx.get(
            f"{node}/players/{created.json()['id']}",
            headers={**scorer, POSITION: created.headers[POSITION]},
        )
        resumed.join()
        assert 200 == own.status_code
        after = metrics(node, admin)
        # Served by the standby once it had replayed the write, not by the primary.
        assert after["standby"] - before["standby"] == 1
        assert after["primary"] == before["primary"]


def test_a_live_feed_delivers_every_event_in_order_and_none_before_the_standby_replays_it(
    node: str, cluster: Cluster, tokens: dict[Role, dict[str, str]]
) -> None:
    scorer = tokens[Role.SCORER]
    standby = cluster.standbys[0]
    with httpx.Client(base_url=node, timeout=30) as client:
        match = create_match(
            client,
            scorer,
            {"game": "cuttle", "variant": "standard", "players": players(client, scorer, 2)},
        )
    cluster.wait_replayed(standby)
    received: list[tuple[float, dict[str, Any]]] = []
    feed = Feed(f"{node}/matches/{match['id']}/live", received)
    feed.start()
    try:
        wait_until(lambda: len(received) == match["version"])
        version = match["version"]
        moves = 4
        with paused(standby):
            for _ in range(moves):
                legal = httpx.get(
                    f"{node}/matches/{match['id']}/legal-moves", headers=scorer
                ).json()
                move = next(m for m in legal["moves"] if "resign" not in m)
                answer = httpx.post(
                    f"{node}/matches/{match['id']}/moves",
                    json={"moves": [move]},
                    headers={**scorer, "If-Match": f'"{version}"'},
                )
                assert 200 == answer.status_code, answer.text
                version = answer.json()["version"]
            feed.expected = version
            # Longer than the listener's bounded wait for the standby: still nothing.
            time.sleep(2.5)
            assert len(received) == match["version"], "an event went out before its replay"
            resumed_at = time.monotonic()
        wait_until(lambda: len(received) == version)
    finally:
        feed.stop()
    versions = [message["version"] for _, message in received]
    assert list(range(1, version + 1)) == versions
    ids = [message["position"] for _, message in received]
    assert ids == sorted(ids)
    assert all(at >= resumed_at for at, _ in received[match["version"] :])


class Feed(threading.Thread):
    """Read an SSE feed into ``received`` (arrival time, message) until it holds ``expected``.

    It disconnects itself (a feed left open would hold the server's shutdown); after
    ``stop`` it gives up within ``READ_TIMEOUT`` seconds of silence.
    """

    READ_TIMEOUT = 10.0

    def __init__(self, url: str, received: list[tuple[float, dict[str, Any]]]) -> None:
        super().__init__(daemon=True)
        self._url = url
        self._received = received
        self.expected: int | None = None
        self._stopped = threading.Event()

    def run(self) -> None:
        fields: dict[str, str] = {}
        timeout = httpx.Timeout(30, read=self.READ_TIMEOUT)
        with (
            contextlib.suppress(httpx.ReadTimeout),
            httpx.Client(timeout=timeout) as client,
            client.stream("GET", self._url) as response,
        ):
            for line in response.iter_lines():
                line = line.rstrip("\r")
                if line:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
                elif "data" in fields:
                    self._received.append((time.monotonic(), json.loads(fields["data"])))
                    fields = {}
                    if self._stopped.is_set() or len(self._received) == self.expected:
                        return

    def stop(self) -> None:
        self._stopped.set()
        self.join(timeout=self.READ_TIMEOUT + 5)


def wait_until(condition: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def test_while_the_standby_is_down_reads_go_on_and_see_every_write(
    node: str, cluster: Cluster, tokens: dict[Role, dict[str, str]]
) -> None:
    """Last of the module: it stops the standby (and starts it again).

    The read URL lists the primary after the standby (``prefer-standby``): libpq's
    new read connections land on the primary, which counts as having replayed all.
    """
    scorer = tokens[Role.SCORER]
    standby = cluster.standbys[0]
    standby.stop()
    try:
        created = httpx.post(f"{node}/players", json={"display_name": "Kept"}, headers=scorer)
        assert 201 == created.status_code, created.text
        url = f"{node}/players/{created.json()['id']}"
        # Reads may answer 503 until the read pool has found its standby gone.
        wait_until(lambda: httpx.get(url, headers=scorer).status_code == 200)
        own = httpx.get(url, headers={**scorer, POSITION: created.headers[POSITION]})
        assert 200 == own.status_code
    finally:
        standby.start()
    cluster.wait_replayed(standby)
    assert 200 == httpx.get(url, headers=scorer).status_code
