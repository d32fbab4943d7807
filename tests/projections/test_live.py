"""Live feeds against a running ``matchlog serve``: resume, wake-up, redaction."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg

from domain.stream import fold
from tests.recording.play import create_match, play_to_end
from tests.recording.test_hidden_cards import card_tokens, full_events, kozel_hidden_and_public
from tests.recording.test_live_server import _http, _server, players  # noqa: F401


def sse(
    client: httpx.Client, url: str, count: int, last_event_id: int | None = None
) -> list[dict[str, Any]]:
    """Read ``count`` messages from an SSE endpoint, then disconnect."""
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    messages: list[dict[str, Any]] = []
    with client.stream("GET", url, headers=headers, timeout=20) as response:
        assert 200 == response.status_code
        assert response.headers["content-type"].startswith("text/event-stream")
        current: dict[str, Any] = {}
        for line in _lines(response):
            if not line:
                if "data" in current:
                    messages.append(current)
                    current = {}
                    if len(messages) == count:
                        break
                continue
            key, _, value = line.partition(":")
            current[key] = value.strip()
    return [{"id": int(m["id"]), "event": m["event"], **json.loads(m["data"])} for m in messages]


def _lines(response: httpx.Response) -> Iterator[str]:
    for line in response.iter_lines():
        yield line.rstrip("\r")


def positions(database_url: str, match_id: str) -> list[int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT global_position FROM events WHERE stream LIKE %s ORDER BY version",
            (f"%-{match_id}",),
        ).fetchall()
    return [r[0] for r in rows]


def test_match_feed_resumes_without_loss_or_duplicates(
    http: tuple[httpx.Client, dict[str, str]], database_url: str
) -> None:
    client, headers = http
    match = create_match(
        client,
        headers,
        {"game": "cuttle", "players": players(client, headers, 2), "format": "short"},
    )
    play_to_end(client, headers, match, random.Random(3))
    expected = positions(database_url, match["id"])
    url = f"/matches/{match['id']}/live"
    first = sse(client, url, 7)
    rest = sse(client, url, len(expected) - 7, last_event_id=first[-1]["id"])
    assert expected == [m["id"] for m in first + rest]
    assert "MatchEnded" == rest[-1]["event"]
    assert "deck" in first[1]["data"]["setup"], "a finished match's record is public"


def test_live_match_feed_wakes_up_and_redacts(
    http: tuple[httpx.Client, dict[str, str]], database_url: str, make_token: Any
) -> None:
    client, headers = http
    people = players(client, headers, 4)
    match = create_match(client, headers, {"game": "kozel", "players": people})
    url = f"/matches/{match['id']}/live"
    start = sse(client, url, 2)
    assert ["MatchCreated", "DealStarted"] == [m["event"] for m in start]
    assert "deck" not in start[1]["data"]["setup"]
    assert set() == card_tokens(start[1]["data"]) - {start[1]["data"]["setup"].get("indicator")}

    def move() -> None:
        # Record one move while the feed below waits: the NOTIFY must wake it.
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=headers).json()
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": [legal["moves"][0]]},
            headers={**headers, "If-Match": f'"{match["version"]}"'},
        )
        assert 200 == response.status_code

    timer = threading.Timer(0.5, move)
    timer.start()
    try:
        woken = sse(client, url, 1, last_event_id=start[-1]["id"])
    finally:
        timer.join()
    assert woken[0]["id"] > start[-1]["id"]
    assert woken[0]["event"] in ("CardsLed", "MolodkaDeclared")


def test_competition_feed_holds_only_its_matches(
    http: tuple[httpx.Client, dict[str, str]], make_token: Any
) -> None:
    from store.accounts import Role

    client, headers = http
    admin = {"Authorization": f"Bearer {make_token(Role.ADMIN)}"}
    created = client.post(
        "/competitions",
        json={"name": "Cup", "game": "cuttle", "variant": "standard"},
        headers=admin,
    )
    competition = created.json()["id"]
    people = players(client, headers, 2)
    outside = create_match(client, headers, {"game": "cuttle", "players": people})
    inside = create_match(
        client, headers, {"game": "cuttle", "players": people, "competition_id": competition}
    )
    messages = sse(client, f"/competitions/{competition}/live", 2)
    assert {inside["id"]} == {m["stream"].split("-", 1)[1] for m in messages}
    assert outside["id"] != inside["id"]


def test_live_feed_shows_no_hidden_card_and_every_public_one(
    http: tuple[httpx.Client, dict[str, str]], database_url: str
) -> None:
    client, headers = http
    match = create_match(client, headers, {"game": "kozel", "players": players(client, headers, 4)})
    version, rng = match["version"], random.Random(11)
    for _ in range(16):  # a few tricks of the first deal, face-down throws likely among them
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=headers).json()
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": [rng.choice(legal["moves"])]},
            headers={**headers, "If-Match": f'"{version}"'},
        )
        assert 200 == response.status_code, response.text
        version = response.json()["version"]
    events = full_events(database_url, match["id"])
    hidden, table = kozel_hidden_and_public(events, fold(events))
    messages = sse(client, f"/matches/{match['id']}/live", version)
    # Only the deal in play: about 1 deal in 200 ends within 16 random moves, and the
    # cards an earlier deal showed are shuffled into this one's hidden hands and stock.
    deal = max(m["version"] for m in messages if m["event"] == "DealStarted")
    current = [m for m in messages if m["version"] >= deal]
    shown = card_tokens([{"data": m["data"], "view": m.get("view")} for m in current])
    assert not hidden & shown, f"hidden cards {sorted(hidden & shown)} in the live feed"
    assert table <= shown, "public cards missing from the live feed"


def test_an_anonymous_feed_names_no_token(
    http: tuple[httpx.Client, dict[str, str]], database_url: str
) -> None:
    """Not even of a finished match, whose cards are public: tokens are for readers with
    rights on it (docs/recording.md, #29)."""
    client, headers = http
    people = players(client, headers, 2)
    match = create_match(client, headers, {"game": "cuttle", "players": people, "format": "quick"})
    play_to_end(client, headers, match, random.Random(5))
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT DISTINCT metadata->>'token_id' FROM events WHERE stream = %s",
            (f"cuttle-{match['id']}",),
        ).fetchall()
    token_ids = {row[0] for row in rows}
    assert len(token_ids) == 1 and None not in token_ids, "the log itself keeps the token"
    messages = sse(
        client, f"/matches/{match['id']}/live", len(positions(database_url, match["id"]))
    )
    assert "MatchEnded" == messages[-1]["event"]
    assert not any(token in json.dumps(m) for m in messages for token in token_ids)
