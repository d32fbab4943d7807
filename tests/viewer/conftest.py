"""Fixtures for the viewer: the app served on a loopback port, and headless Chromium.

Chromium is Debian's package (``apt-get install chromium``), driven by Playwright's
Python client with its executable path set; no browser is downloaded. Without
either, every test here skips and says how to install it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from api.app import create_app
from service.settings import Settings
from store.accounts import Role
from tests.api.conftest import create_secret
from tests.database import as_login, fresh_database

CHROMIUM = os.environ.get("MATCHLOG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _why_no_browser() -> str | None:
    if not Path(CHROMIUM).exists():
        return (
            f"no Chromium at {CHROMIUM}: install Debian's package with "
            "`apt-get update && apt-get install -y chromium` (or set MATCHLOG_CHROMIUM); "
            ".ci/run installs it"
        )
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is missing: `pip install -e '.[test]'`"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the browser tests, saying how to install Chromium; in CI, refuse to run."""
    needing = [item for item in items if "browser" in getattr(item, "fixturenames", ())]
    reason = _why_no_browser() if needing else None
    if reason is None:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"CI must run the viewer's browser tests, but {reason}")
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=reason))


def free_port() -> int:
    """Return a loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(name="viewer_database", scope="module")
def _viewer_database(
    admin_url: str, template_database: str, app_login: tuple[str, str]
) -> Iterator[str]:
    """One database for a module's matches (each test records its own)."""
    with fresh_database(admin_url, template_database) as url:
        yield as_login(url, app_login)


@pytest.fixture(name="server", scope="module")
def _server(viewer_database: str) -> Iterator[str]:
    """Base URL of the app served by uvicorn in a thread on a free loopback port."""
    data_dir = tempfile.mkdtemp(prefix="matchlog-viewer-")
    app = create_app(Settings(database_url=viewer_database, data_dir=Path(data_dir)))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            # A live feed still open would hold the shutdown; the lifespan still closes the pool.
            timeout_graceful_shutdown=5,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert thread.is_alive(), "the server thread died"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        assert not thread.is_alive(), "the server did not stop"
        shutil.rmtree(data_dir, ignore_errors=True)


def token_headers(url: str, role: Role) -> dict[str, str]:
    """Return headers with a new token of ``role`` on the database at ``url``.

    In a thread of its own: Playwright's sync API keeps an event loop running in
    this one, and ``create_secret`` runs its own.
    """
    with ThreadPoolExecutor(1) as pool:
        secret = pool.submit(create_secret, url, role).result()
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture(name="scorer_headers", scope="module")
def _scorer_headers(viewer_database: str) -> dict[str, str]:
    return token_headers(viewer_database, Role.SCORER)


@pytest.fixture(name="http", scope="module")
def _http(server: str) -> Iterator[httpx.Client]:
    """A client of the served app (send the scorer's headers to write)."""
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client


@pytest.fixture(name="browser", scope="session")
def _browser() -> Iterator[Any]:
    """Headless Debian Chromium under Playwright (which gives it a fresh temporary profile)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(name="viewport", params=[DESKTOP, PHONE], ids=["desktop", "390px"])
def _viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    viewport: dict[str, int] = request.param
    return viewport


@pytest.fixture(name="page")
def _page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A fresh browser page (no cookies, no token: an anonymous reader)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    try:
        yield page
        assert [] == errors, "the page's script failed"
    finally:
        context.close()
