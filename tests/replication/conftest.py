"""Fixtures for replication tests: a primary and a hot standby on loopback, one per module."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.replication.cluster import Cluster, MatchlogDatabase, matchlog_database, replica_cluster


@pytest.fixture(name="cluster", scope="module")
def _cluster() -> Iterator[Cluster]:
    """A primary and one streaming hot standby (asynchronous), stopped after the module.

    In a folder of its own outside pytest's tmp_path, as ``embedded_dir`` is (under
    root the servers' user must reach it, and concurrent runs prune tmp_path).
    """
    with replica_cluster(Path(tempfile.mkdtemp(prefix="matchlog-cluster-"))) as cluster:
        yield cluster


@pytest.fixture(name="cluster_database", scope="module")
def _cluster_database(cluster: Cluster) -> MatchlogDatabase:
    """matchlog's migrated database on the module's cluster, with a login for the service."""
    return matchlog_database(cluster)
