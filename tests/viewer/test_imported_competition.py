"""The competition page of a Kozel match imported with its competition."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.api.test_competition_rows import COMPETITION, kozel_log_in_competition
from tests.logs.support import cli


def test_the_page_of_an_imported_kozel_competition_shows_its_match(
    page: Any, server: str, viewer_database: str, tmp_path: Path
) -> None:
    log = tmp_path / "k.txt"
    log.write_text(kozel_log_in_competition("2+open"))
    # In a thread: the CLI runs an event loop, and Playwright's keeps one running here.
    with ThreadPoolExecutor(1) as pool:
        code, out, err = pool.submit(cli, viewer_database, "import", str(log)).result()
    assert 0 == code, out + err
    page.goto(f"{server}/competitions/{COMPETITION}/view")
    page.wait_for_selector("#matches table tr[data-match]")
    body = page.inner_text("body")
    assert "internal error" not in body
    assert f"Imported {COMPETITION[:8]}" in body
