"""A scorer's token appears in no log line of the served app, access log included.

The app runs under uvicorn as ``matchlog serve`` runs it, but with every logger at
DEBUG and uvicorn's access log on (lines with method, path and query), its records
captured. A pad's requests carry the token in the ``Authorization`` header only.
"""

from __future__ import annotations

import logging
import random
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from api.app import create_app
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import create_secret
from tests.api.support import deal_physically, named_players
from tests.database import as_login, fresh_database
from tests.viewer.conftest import free_port


@pytest.fixture(name="logged_server")
def _logged_server(
    admin_url: str, template_database: str, app_login: tuple[str, str]
) -> Iterator[tuple[str, str]]:
    """Base URL of the app under uvicorn with its access log on, and the database URL."""
    with fresh_database(admin_url, template_database) as url:
        url = as_login(url, app_login)
        data_dir = tempfile.mkdtemp(prefix="matchlog-logs-")
        app = create_app(Settings(database_url=url, data_dir=Path(data_dir)))
        port = free_port()
        # log_config None: uvicorn's loggers propagate to the root, where caplog listens.
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_config=None, log_level="debug", access_log=True
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 60
            while not server.started:
                assert thread.is_alive() and time.monotonic() < deadline, "no server"
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}", url
        finally:
            server.should_exit = True
            thread.join(timeout=30)


def test_a_pad_session_logs_no_token(
    logged_server: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    base, url = logged_server
    secret = create_secret(url, Role.SCORER)
    wrong = "mlt_" + "x" * 40  # a token that is refused must not be logged either
    caplog.set_level(logging.DEBUG)
    scorer = {"Authorization": f"Bearer {secret}"}
    with httpx.Client(base_url=base, timeout=30) as http:
        players = named_players(http, scorer, ["Ann", "Bob"])
        body = {"game": "cuttle", "variant": "standard", "players": players}
        match = http.post("/matches", json={**body, "dealing": "physical"}, headers=scorer).json()
        match_id = match["id"]
        assert 200 == http.get(f"/matches/{match_id}/score").status_code
        deal_physically(http, scorer, match, random.Random(2))
        legal = http.get(f"/matches/{match_id}/legal-moves", headers=scorer).json()
        write = {
            **scorer,
            "If-Match": f'"{legal["version"]}"',
            "Idempotency-Key": "pad-key-1",
        }
        move = {"moves": [legal["choices"][0]["move"]]}
        first = http.post(f"/matches/{match_id}/moves", json=move, headers=write)
        again = http.post(f"/matches/{match_id}/moves", json=move, headers=write)
        assert (200, 200) == (first.status_code, again.status_code), first.text
        stale = http.post(
            f"/matches/{match_id}/moves",
            json=move,
            headers={**write, "Idempotency-Key": "pad-key-2"},
        )
        assert 412 == stale.status_code, stale.text
        listed = http.get("/matches?status=live&writable=true", headers=scorer)
        assert 200 == listed.status_code
        refused = http.get(
            f"/matches/{match_id}/legal-moves", headers={"Authorization": f"Bearer {wrong}"}
        )
        assert 401 == refused.status_code
    lines = [record.getMessage() for record in caplog.records]
    # The capture works: the access log has the pad's write, path and status.
    assert any(
        f"POST /matches/{match_id}/moves HTTP/1.1" in line and "412" in line for line in lines
    )
    assert any("writable=true" in line for line in lines)
    for line in lines:
        assert secret not in line and wrong not in line, line
    assert secret[:12] not in caplog.text and wrong[:12] not in caplog.text
