"""The scorer's pad pages: HTML shells with the security headers, no token and no card."""

from __future__ import annotations

import random
import re
from typing import Any
from uuid import UUID, uuid4

from litestar.testing import TestClient

from api.security import SECURITY_HEADERS, WASM_POLICY
from store.accounts import Role
from tests.api.conftest import MakeToken
from tests.api.support import competition, deal_physically, named_players
from tests.recording.play import create_match

_CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|X[12])(?![0-9A-Za-z])")
_TAG = re.compile(r"<(script|link|style)\b([^>]*)>", re.IGNORECASE)


def _assets(html: str) -> list[tuple[str, str]]:
    return [(tag.lower(), attrs) for tag, attrs in _TAG.findall(html)]


def _check_shell(response: Any, secrets: list[str]) -> str:
    assert 200 == response.status_code, response.text
    assert response.headers["content-type"].startswith("text/html")
    # The pad's pages alone may compile WebAssembly (its engine, #34): nothing else changes.
    expected = {**SECURITY_HEADERS, "Content-Security-Policy": WASM_POLICY}
    for name, value in expected.items():
        assert value == response.headers[name]
    html: str = response.text
    # Scripts and styles come from files under /static only: nothing inline runs (the
    # page's words are a JSON data block the scripts read).
    assert [
        ("link", ' rel="stylesheet" href="/static/pad.css"'),
        ("script", ' type="application/json" id="words"'),
        ("script", ' src="/static/table.js"'),
        ("script", ' src="/static/session.js"'),
        ("script", ' src="/static/engine.js"'),
        ("script", ' src="/static/pad.js"'),
    ] == _assets(html)
    assert re.search(r"\s(style|on[a-z]+)=", html) is None
    assert 'id="app"' in html
    for secret in secrets:
        assert secret not in html
        assert all(secret not in value for value in response.headers.values())
    assert [] == _CARD.findall(html)
    return html


def test_the_home_page_is_a_shell(client: TestClient[Any], scorer: dict[str, str]) -> None:
    secret = scorer["Authorization"].removeprefix("Bearer ")
    html = _check_shell(client.get("/score", headers=scorer), [secret])
    assert 'data-page="score"' in html
    _check_shell(client.get("/score"), [secret])


def test_a_match_pad_holds_no_token_and_no_hidden_card(
    client: TestClient[Any], admin: dict[str, str], scorer: dict[str, str], make_token: MakeToken
) -> None:
    players = named_players(client, scorer, ["Ann", "Bob"])
    private = competition(client, admin, public=False)
    body = {"game": "cuttle", "variant": "standard", "players": players, "dealing": "physical"}
    match = create_match(client, scorer, {**body, "competition_id": private})
    deal_physically(client, scorer, match, random.Random(5))
    other = {
        "Authorization": f"Bearer {make_token(Role.SCORER, [UUID(competition(client, admin))])}"
    }
    secrets = [h["Authorization"].removeprefix("Bearer ") for h in (scorer, other)]
    url = f"/matches/{match['id']}/score"

    for headers in (scorer, other, {}):
        html = _check_shell(client.get(url, headers=headers), secrets)
        assert f'data-page="pad" data-id="{match["id"]}"' in html

    # The pad's hidden cards come only from the JSON API, with the rights to record.
    legal = f"/matches/{match['id']}/legal-moves"
    assert 200 == client.get(legal, headers=scorer).status_code
    assert 401 == client.get(legal).status_code  # a private competition's match
    assert 403 == client.get(legal, headers=other).status_code
    assert (
        403
        == client.get(f"/matches/{match['id']}/replay?ply=0&seat=full", headers=other).status_code
    )


def test_an_unknown_match_has_no_pad(client: TestClient[Any]) -> None:
    response = client.get(f"/matches/{uuid4()}/score")
    assert 404 == response.status_code
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "MATCH_NOT_FOUND" == response.json()["code"]
