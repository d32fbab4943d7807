"""``GET /metrics``: Prometheus' text format, for admins; its figures move as the service works."""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from service.settings import Settings
from tests.recording.play import create_match

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

MOVES_ROUTE = "/matches/{match_id}/moves"


def parse(text: str) -> Samples:
    """Every sample of an exposition, by name and labels (prometheus_client's parser)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels`` (0 if none)."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


def scrape(client: TestClient[Any], admin: dict[str, str]) -> Samples:
    response = client.get("/metrics", headers=admin)
    assert 200 == response.status_code, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return parse(response.text)


def test_metrics_need_an_admin_token(
    client: TestClient[Any], scorer: dict[str, str], admin: dict[str, str]
) -> None:
    before = scrape(client, admin)
    anonymous = client.get("/metrics")
    assert 401 == anonymous.status_code
    assert anonymous.headers["content-type"].startswith("application/problem+json")
    assert "UNAUTHENTICATED" == anonymous.json()["code"]
    scoring = client.get("/metrics", headers=scorer)
    assert 403 == scoring.status_code
    assert "FORBIDDEN" == scoring.json()["code"]
    after = scrape(client, admin)
    assert 1 == value(after, "matchlog_database_up")
    # Refusals are counted by their status; the scrape counts itself as in progress.
    for status in ("401", "403"):
        labels = {"method": "GET", "path": "/metrics", "status_code": status}
        counted = value(after, "matchlog_requests_total", **labels)
        assert 1 == counted - value(before, "matchlog_requests_total", **labels)
    assert 1 == value(after, "matchlog_requests_in_progress")


def test_figures_move_with_recorded_moves(
    client: TestClient[Any], scorer: dict[str, str], admin: dict[str, str]
) -> None:
    before = scrape(client, admin)
    players = [
        client.post("/players", json={"display_name": f"P{i}"}, headers=scorer).json()["id"]
        for i in range(2)
    ]
    match = create_match(
        client, scorer, {"game": "cuttle", "variant": "standard", "players": players}
    )
    rng = random.Random(5)
    version, moves = match["version"], 6
    for _ in range(moves):
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()["moves"]
        answer = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": [rng.choice([m for m in legal if "resign" not in m])]},
            headers={**scorer, "If-Match": f'"{version}"'},
        )
        assert 200 == answer.status_code, answer.text
        version = answer.json()["version"]
    after = scrape(client, admin)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moves == moved("matchlog_moves_recorded_total")
    assert moved("matchlog_events_recorded_total") >= moves + 1  # the match's creation too
    # Requests by route template, never by raw path.
    posted = {"method": "POST", "path": MOVES_ROUTE, "status_code": "200"}
    assert moves == moved("matchlog_requests_total", **posted)
    assert moves == moved("matchlog_request_duration_seconds_count", **posted)
    assert moved("matchlog_request_duration_seconds_sum", **posted) > 0
    assert not [n for (n, ls) in after if dict(ls).get("path", "").count(match["id"])]
    # Group commit is on: each write alone was a batch of one.
    assert moves + 1 <= moved("matchlog_group_commit_batch_size_count")
    assert moves + 1 <= moved("matchlog_group_commit_batch_size_bucket", le="1.0")
    assert moved("matchlog_pool_requests_total", database="primary") >= moves
    assert value(after, "matchlog_pool_connections", database="primary") >= 1
    # Without a read database there is one pool, and no standby series.
    assert not [n for (n, ls) in after if n.startswith("matchlog_pool") and "standby" in str(ls)]
    assert 0 == value(after, "matchlog_live_feeds_open")


def test_a_read_database_has_its_own_pool_figures(
    database_url: str, admin: dict[str, str], scorer: dict[str, str]
) -> None:
    """With MATCHLOG_READ_DATABASE_URL, reads' pool is labelled standby beside the primary's."""
    # The same database as reads' own: a second pool, as a standby's would be.
    settings = Settings(database_url=database_url, read_database_url=database_url)
    with TestClient(create_app(settings)) as client:
        before = scrape(client, admin)
        for _ in range(3):
            assert 200 == client.get("/matches", headers=scorer).status_code
        after = scrape(client, admin)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert 3 == moved("matchlog_reads_routed_total", database="standby")
    assert moved("matchlog_pool_requests_total", database="standby") >= 3
    for database in ("primary", "standby"):
        assert value(after, "matchlog_pool_connections", database=database) >= 1
        assert value(after, "matchlog_pool_connections_max", database=database) >= 1


def test_metrics_can_be_turned_off(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url, metrics=False))) as client:
        assert 404 == client.get("/metrics").status_code


@pytest.mark.parametrize("address", ["9100", "localhost:", ":9100", "host:99999"])
def test_metrics_address_must_be_host_and_port(address: str) -> None:
    with pytest.raises(ValueError, match="host:port"):
        Settings(metrics_address=address)
