"""The organiser's desk and a round's print page: HTML shells with the security headers,
their scripts and style from ``/static`` only, no token and no competition's name."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from api.security import SECURITY_HEADERS
from tests.api.support import competition

_TAG = re.compile(r"<(script|link|style)\b([^>]*)>", re.IGNORECASE)
_ASSETS = [
    ("link", ' rel="stylesheet" href="/static/desk.css"'),
    # The page's words, data the scripts read (the CSP runs no inline script).
    ("script", ' type="application/json" id="words"'),
    ("script", ' src="/static/table.js"'),
    ("script", ' src="/static/session.js"'),
    ("script", ' src="/static/desk.js"'),
]


def _shell(response: Any, secret: str) -> str:
    assert 200 == response.status_code, response.text
    assert response.headers["content-type"].startswith("text/html")
    for name, value in SECURITY_HEADERS.items():
        assert value == response.headers[name]
    html: str = response.text
    assert _ASSETS == [(tag.lower(), attrs) for tag, attrs in _TAG.findall(html)]
    assert re.search(r"\s(style|on[a-z]+)=", html) is None
    assert secret not in html
    return html


def test_the_desk_is_a_shell(client: TestClient[Any], admin: dict[str, str]) -> None:
    secret = admin["Authorization"].removeprefix("Bearer ")
    for headers in (admin, {}):
        assert 'data-page="organise"' in _shell(client.get("/organise", headers=headers), secret)


def test_the_print_page_names_no_private_competition(
    client: TestClient[Any], admin: dict[str, str]
) -> None:
    """Served to anyone once the competition exists; its script reads the rest with a token."""
    secret = admin["Authorization"].removeprefix("Bearer ")
    private = competition(client, admin, public=False)
    name = client.get(f"/competitions/{private}", headers=admin).json()["name"]
    html = _shell(client.get(f"/competitions/{private}/rounds/2/print"), secret)
    assert f'data-page="print" data-id="{private}/2"' in html
    assert name not in html
    missing = client.get("/competitions/00000000-0000-4000-8000-000000000000/rounds/1/print")
    assert (404, "COMPETITION_NOT_FOUND") == (missing.status_code, missing.json()["code"])
    zero = client.get(f"/competitions/{private}/rounds/0/print")
    assert (422, "VALIDATION_FAILED") == (zero.status_code, zero.json()["code"])
