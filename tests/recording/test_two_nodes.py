"""Two API nodes (``matchlog serve`` processes on their own ports) over one database.

They stand for two machines behind a proxy: what keeps one process right must keep
both right, through the database alone. Group commit is on (the default) in both.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from store.accounts import Role
from tests.projections.test_live_feeds import refused
from tests.recording.play import create_match
from tests.recording.test_live_server import players, serve

ROUNDS = 6


@pytest.fixture(name="nodes", scope="module")
def _nodes(
    tmp_path_factory: pytest.TempPathFactory, module_database: str
) -> Iterator[tuple[str, str]]:
    caps = {"live_max_feeds": "2", "live_max_feeds_per_client": "2", "group_commit": "true"}
    with (
        serve(module_database, tmp_path_factory.mktemp("a"), **caps) as a,
        serve(module_database, tmp_path_factory.mktemp("b"), **caps) as b,
    ):
        yield a, b


@pytest.fixture(name="module_database", scope="module")
def _module_database(
    admin_url: str, template_database: str, app_login: tuple[str, str]
) -> Iterator[str]:
    from tests.database import as_login, fresh_database

    with fresh_database(admin_url, template_database) as url:
        yield as_login(url, app_login)


def token(url: str, role: Role) -> dict[str, str]:
    from tests.api.conftest import create_secret

    return {"Authorization": f"Bearer {create_secret(url, role)}"}


def race(calls: list[tuple[str, str, dict[str, Any], dict[str, str]]]) -> list[httpx.Response]:
    """POST each (node, path, body, headers) at once from its own thread; answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def post(index: int) -> None:
        base, path, body, headers = calls[index]
        with httpx.Client(base_url=base, timeout=30) as client:
            barrier.wait()
            answers[index] = client.post(path, json=body, headers=headers)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def new_match(base: str, scorer: dict[str, str]) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30) as client:
        return create_match(
            client,
            scorer,
            {"game": "cuttle", "variant": "standard", "players": players(client, scorer, 2)},
        )


def first_moves(base: str, scorer: dict[str, str], match: dict[str, Any]) -> list[str]:
    with httpx.Client(base_url=base, timeout=30) as client:
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
    return [m for m in legal["moves"] if "resign" not in m][:2]


def test_the_same_next_move_raced_from_two_nodes_has_one_winner_each_round(
    nodes: tuple[str, str], module_database: str
) -> None:
    a, b = nodes
    scorer = token(module_database, Role.SCORER)
    match = new_match(a, scorer)
    version = match["version"]
    for round_number in range(ROUNDS):
        moves = first_moves(a, scorer, {**match, "version": version})
        assert moves, "the match ended before the rounds did"
        # Each node recorded moves of this match before (its cache holds the match):
        # the version check must still hold across processes.
        path = f"/matches/{match['id']}/moves"
        precondition = {**scorer, "If-Match": f'"{version}"'}
        answers = race(
            [
                (a, path, {"moves": [moves[0]]}, precondition),
                (b, path, {"moves": [moves[-1]]}, precondition),
            ]
        )
        statuses = sorted(answer.status_code for answer in answers)
        assert [200, 412] == statuses, (round_number, [a.text for a in answers])
        winner = next(answer for answer in answers if answer.status_code == 200).json()
        loser = next(answer for answer in answers if answer.status_code == 412).json()
        assert winner["version"] == loser["details"]["current_version"]
        version = winner["version"]
        for node in (a, b):
            events = httpx.get(f"{node}/matches/{match['id']}/events", headers=scorer).json()
            assert version == len(events["items"])


def test_an_idempotency_key_sent_to_both_nodes_records_once_and_answers_alike(
    nodes: tuple[str, str], module_database: str
) -> None:
    a, b = nodes
    scorer = token(module_database, Role.SCORER)
    match = new_match(a, scorer)
    version = match["version"]
    path = f"/matches/{match['id']}/moves"
    for round_number in range(ROUNDS):
        move = first_moves(b, scorer, {**match, "version": version})[0]
        keyed = {**scorer, "Idempotency-Key": f"tap-{round_number}"}
        body = {"moves": [move], "expected_version": version}
        # The same keyed request at once on both nodes, then retried on each.
        raced = race([(a, path, body, keyed), (b, path, body, keyed)])
        retried = race([(b, path, body, keyed), (a, path, body, keyed)])
        answers = raced + retried
        assert [200] * 4 == [answer.status_code for answer in answers], [
            answer.text for answer in answers
        ]
        assert len({answer.content for answer in answers}) == 1
        assert sum(answer.headers.get("Idempotent-Replayed") != "true" for answer in answers) == 1
        version = answers[0].json()["version"]
        assert version == match["version"] + round_number + 1
        events = httpx.get(f"{a}/matches/{match['id']}/events", headers=scorer).json()
        assert version == len(events["items"])


def test_the_feed_cap_is_per_node_and_the_client_cap_across_nodes(
    nodes: tuple[str, str], module_database: str
) -> None:
    """Caps of 2 on each node: ``MATCHLOG_LIVE_MAX_FEEDS`` counts one process's feeds,
    ``MATCHLOG_LIVE_MAX_FEEDS_PER_CLIENT`` a client's on every node (in the database)."""
    a, b = nodes
    one, two, three = (token(module_database, Role.SCORER) for _ in range(3))
    match = new_match(a, token(module_database, Role.SCORER))
    live = f"/matches/{match['id']}/live"
    with httpx.Client(timeout=30) as client:
        opened: list[httpx.Response] = []
        try:
            for base, headers in ((a, one), (b, one)):
                opened.append(
                    client.send(
                        client.build_request("GET", base + live, headers=headers), stream=True
                    )
                )
            assert [200, 200] == [response.status_code for response in opened]
            # ``one`` holds a feed on each node: its cap of 2 is reached on both.
            for base in (a, b):
                assert "this client" in refused(client.get(base + live, headers=one))["detail"]
            opened.append(
                client.send(client.build_request("GET", a + live, headers=two), stream=True)
            )
            assert 200 == opened[-1].status_code
            # Node a holds its 2 feeds; node b holds 1 and takes another client's.
            assert "the server" in refused(client.get(a + live, headers=three))["detail"]
            opened.append(
                client.send(client.build_request("GET", b + live, headers=three), stream=True)
            )
            assert 200 == opened[-1].status_code
        finally:
            for response in opened:
                response.close()
