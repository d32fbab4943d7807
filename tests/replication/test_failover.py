"""Failover with nothing lost: a synchronous standby promoted after the primary's ``kill -9``.

``matchlog serve`` (group commit on, as it runs by default) reaches the cluster by a
multi-host URL with ``target_session_attrs=read-write``. Writers record moves over
HTTP; the primary's postmaster is killed mid-load and the standby promoted. Every
acknowledged move must be on the promoted server, the hash chains must verify, also
against a checkpoint taken before the kill, and writes must resume through the same
URL, the app's pool having found the promoted server by itself. The old primary then
rejoins as the new primary's standby (``pg_rewind``), as docs/deploy.md tells.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psycopg

from store.accounts import Role
from tests.api.conftest import create_secret
from tests.recording.test_database_loss import (
    Answers,
    keep_writing,
    new_match,
    play_one,
    serving,
    wait_for_data,
)
from tests.replication.cluster import Cluster, MatchlogDatabase
from tests.test_embedded import wait_until

REPO = Path(__file__).resolve().parents[2]
WRITERS = 6
RESUMED_WITHIN = 30.0
"""Seconds from the promotion by which a write must be accepted again."""


def matchlog_cli(cluster: Cluster, database: MatchlogDatabase, *args: str) -> str:
    """Run ``matchlog ARGS`` on the cluster through its multi-host URLs; return its stdout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATCHLOG_")}
    env["MATCHLOG_DATABASE_URL"] = database.app_url(cluster)
    env["MATCHLOG_MIGRATION_DATABASE_URL"] = database.owner_url(cluster)
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert 0 == done.returncode, done.stdout + done.stderr
    return done.stdout


def recorded_versions(url: str) -> dict[str, int]:
    """Each stream's last version by its id (``cuttle-ID``: ``ID``), read from one server."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT stream, max(version) FROM events GROUP BY stream").fetchall()
    return {stream.partition("-")[2]: version for stream, version in rows}


def test_acknowledged_moves_survive_a_killed_primary(
    cluster: Cluster, cluster_database: MatchlogDatabase, tmp_path: Path
) -> None:
    cluster.set_synchronous(True)
    standby = cluster.standbys[0]
    log = tmp_path / "serve.log"
    with serving(
        tmp_path / "data",
        log,
        database_url=cluster_database.app_url(cluster),
        migration_database_url=cluster_database.owner_url(cluster),
    ) as base:
        secret = create_secret(cluster_database.owner_url(cluster), Role.SCORER)
        headers = {"Authorization": f"Bearer {secret}"}
        answers = Answers()
        with httpx.Client(base_url=base, timeout=30) as client:
            matches = [new_match(client, headers) for _ in range(WRITERS)]
        stop = threading.Event()
        writers = [
            threading.Thread(target=keep_writing, args=(base, headers, m, answers, stop))
            for m in matches
        ]
        for writer in writers:
            writer.start()
        try:
            assert wait_until(lambda: all(m.acked >= 3 for m in matches), 60), log.read_text()
            checkpoint = tmp_path / "before.json"
            matchlog_cli(cluster, cluster_database, "verify", "--checkpoint", str(checkpoint))
            # Writes go on after the checkpoint: the kill lands among them.
            at_checkpoint = sum(m.acked for m in matches)
            assert wait_until(lambda: sum(m.acked for m in matches) >= at_checkpoint + 12, 60)
            cluster.kill_primary()
            # The app finds it gone: 503 at once (a write in flight gets no answer).
            assert wait_until(lambda: 503 in answers.statuses, 30), log.read_text()
        finally:
            stop.set()
            for writer in writers:
                writer.join(timeout=60)
        cluster.promote(standby)
        promoted = time.monotonic()
        # Straight from the promoted server: every acknowledged move, and at most the
        # one write per match whose answer never came.
        on_promoted = recorded_versions(cluster.primary.url(cluster_database.name))
        for match in matches:
            assert on_promoted[match.id] in (match.acked, match.acked + 1), match
        # Through the same multi-host URL: the app's pool found the promoted server.
        wait_for_data(base, headers, matches[0], answers)
        resumed = []
        with httpx.Client(base_url=base, timeout=30) as client:
            for match in matches:
                match.acked = client.get(f"/matches/{match.id}", headers=headers).json()["version"]
                assert match.acked == on_promoted[match.id]
                match.interrupted = False
                resumed.append(play_one(client, headers, match, random.Random(7), answers))
        assert True in resumed and False not in resumed, resumed
        assert time.monotonic() - promoted < RESUMED_WITHIN
        assert 503 in answers.statuses, "the writers saw the loss"
    assert "Traceback" not in log.read_text()
    verified = matchlog_cli(cluster, cluster_database, "verify", "--against", str(checkpoint))
    assert "every hash chain holds" in verified
    assert "nothing lost or rewritten since the checkpoint" in verified

    # The old primary rejoins as the new one's standby, and takes part in commits again.
    cluster.rejoin(cluster.retired[0])
    cluster.set_synchronous(True)
    cluster.wait_replayed(cluster.standbys[0])
    assert recorded_versions(cluster.standbys[0].url(cluster_database.name)) == recorded_versions(
        cluster.primary.url(cluster_database.name)
    )
