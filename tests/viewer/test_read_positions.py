"""The pages send a write's ``Matchlog-Position`` back with their reads (docs/api.md).

The server routes reads to a read database (here the same one: the routing and the
header are what is under test, not replication; tests/replication has the standby).
The pad starts a match from its form (a new player, the match) and opens it: its
reads after the writes carry the position the last write answered, and the viewer
of that match, opened in another tab of the browser, sends it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.recording.test_live_server import serve
from tests.viewer.conftest import DESKTOP
from tests.viewer.test_pad import fresh_page
from tests.viewer.test_viewer import make_players

POSITION = "matchlog-position"


@pytest.fixture(name="routed", scope="module")
def _routed(viewer_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``matchlog serve`` with ``MATCHLOG_READ_DATABASE_URL`` set."""
    with serve(
        viewer_database, tmp_path_factory.mktemp("routed"), read_database_url=viewer_database
    ) as base:
        yield base


def test_the_pad_and_the_viewer_read_with_the_position_of_the_last_write(
    browser: Any, routed: str, scorer_headers: dict[str, str]
) -> None:
    with httpx.Client(base_url=routed, timeout=30) as http:
        players = make_players(http, scorer_headers, ["Xia"])
    secret = scorer_headers["Authorization"].removeprefix("Bearer ")
    page = fresh_page(browser, DESKTOP)
    exchanges: list[tuple[str, str, str | None, str | None]] = []
    """(method, path, the position the request sent, the position its answer carried)"""

    def answered(response: Any) -> None:
        request = response.request
        path = request.url.removeprefix(routed)
        exchanges.append(
            (request.method, path, request.headers.get(POSITION), response.headers.get(POSITION))
        )

    page.on("response", answered)
    try:
        page.goto(routed + "/score")
        page.fill("#token", secret)
        page.click("#sign-in-button")
        page.wait_for_selector("#new-match")
        page.select_option('select.player[data-seat="0"]', players[0])
        page.select_option('select.player[data-seat="1"]', "new")
        page.fill('input.new-player[data-seat="1"]', "Yan")
        page.click("#create-match")
        page.wait_for_url("**/matches/*/score")
        page.wait_for_selector("#deal")
        match_id = page.url.split("/")[-2]
        writes = [(path, answer) for method, path, _, answer in exchanges if method == "POST"]
        assert [path for path, _ in writes][-1] == "/matches", writes
        assert all(answer is not None for _, answer in writes), "each write answers a position"
        last = writes[-1][1]
        after = exchanges[[e[0] for e in exchanges].index("POST") :]
        reads = [(path, sent) for method, path, sent, _ in after if method == "GET"]
        json_reads = [(path, sent) for path, sent in reads if f"/matches/{match_id}" in path]
        assert json_reads, reads
        # Not the page itself (a navigation) nor the live feed (it waits for the standby).
        data = [sent for path, sent in json_reads if not path.endswith(("/score", "/live"))]
        assert data and all(sent == last for sent in data), json_reads
        assert page.errors == []
        viewer = page.context.new_page()
        exchanges.clear()
        viewer.on("response", answered)
        with viewer.expect_response(lambda r: r.url.endswith("/timeline")):
            viewer.goto(f"{routed}/matches/{match_id}/view")
        data = [sent for method, path, sent, _ in exchanges if path.startswith("/matches/")]
        assert data and last in data, exchanges
    finally:
        page.context.close()
