"""The API docs at ``/schema`` in Chromium, with no way out to the internet."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import pytest

LOCAL = ("127.0.0.1", "localhost")
POLICY = "script-src 'self'"


@pytest.mark.parametrize("path", ["/schema", "/schema/swagger"])
def test_swagger_ui_renders_the_operations_offline(browser: Any, server: str, path: str) -> None:
    context = browser.new_context()
    elsewhere: list[str] = []
    errors: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if urlparse(url).hostname not in LOCAL:
            elsewhere.append(url)
            route.abort()
        elif urlparse(url).path == path:
            # The security headers' policy: a page that needs an inline script breaks here.
            answer = route.fetch()
            route.fulfill(
                response=answer, headers={**answer.headers, "content-security-policy": POLICY}
            )
        else:
            route.continue_()

    context.route("**/*", only_local)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        answer = page.goto(server + path)
        assert answer is not None and 200 == answer.status
        page.wait_for_selector(".opblock-summary", timeout=20_000)
        operations = page.locator(".opblock-summary-path").all_inner_texts()
        assert "/matches/{match_id}/export" in [o.replace("\u200b", "") for o in operations]
        assert page.locator(".info .title").inner_text().startswith("matchlog")
        assert [] == elsewhere, "the docs asked another host"
        assert [] == errors
    finally:
        context.close()
