"""Finding matches: ``GET /matches`` filters and cursor pagination, newest first."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from store.accounts import Role
from tests.recording.play import create_match


def competition(client: TestClient[Any], admin: dict[str, str], **body: Any) -> str:
    response = client.post("/competitions", json=body, headers=admin)
    assert 201 == response.status_code, response.text
    competition_id: str = response.json()["id"]
    return competition_id


def all_pages(
    client: TestClient[Any], params: dict[str, Any], headers: dict[str, str]
) -> list[Any]:
    items: list[Any] = []
    cursor = None
    while True:
        query = {**params, "limit": 7, **({"cursor": cursor} if cursor else {})}
        response = client.get("/matches", params=query, headers=headers)
        assert 200 == response.status_code, response.text
        page = response.json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            assert "Link" not in response.headers
            return items
        assert 'rel="next"' in response.headers["Link"]


def test_filters_and_pagination(
    client: TestClient[Any],
    admin: dict[str, str],
    scorer: dict[str, str],
    make_players: Any,
    make_token: Any,
) -> None:
    open_league = competition(client, admin, name="Open", game="cuttle", variant="standard")
    private = competition(
        client, admin, name="Club", game="kozel", public_reads=False, format={"loss_limit": 4}
    )
    ann, bob, cat, dan = make_players(4)
    created: list[dict[str, Any]] = []
    for i in range(24):
        players = [ann, bob] if i % 3 else [bob, cat]
        created.append(
            create_match(
                client,
                scorer,
                {
                    "game": "cuttle",
                    "variant": "standard",
                    "players": players,
                    "competition_id": open_league if i % 2 else None,
                    "dealing": "scorer",
                },
            )
        )
    for _ in range(6):
        created.append(
            create_match(
                client,
                scorer,
                {
                    "game": "kozel",
                    "players": [ann, bob, cat, dan],
                    "competition_id": private,
                },
            )
        )
    resigned = created[0]
    client.post(
        f"/matches/{resigned['id']}/resign", json={"seat": 0, "expected_version": 1}, headers=scorer
    )

    everything = all_pages(client, {}, scorer)
    assert [m["id"] for m in reversed(created)] == [m["id"] for m in everything]

    anonymous = all_pages(client, {}, {})
    assert 24 == len(anonymous), "a private competition's matches are hidden from anonymous readers"
    assert {"cuttle"} == {m["game"] for m in anonymous}

    with_cat = all_pages(client, {"player_id": cat}, scorer)
    assert 8 + 6 == len(with_cat)
    in_league = all_pages(client, {"competition_id": open_league}, scorer)
    assert 12 == len(in_league) and all(m["competition_id"] == open_league for m in in_league)
    kozel = all_pages(client, {"game": "kozel", "status": "live"}, scorer)
    assert 6 == len(kozel)
    finished = all_pages(client, {"status": "finished"}, scorer)
    assert [resigned["id"]] == [m["id"] for m in finished]

    middle = everything[10]["created_at"]
    newer = all_pages(client, {"created_from": middle}, scorer)
    assert [m["id"] for m in everything[:11]] == [m["id"] for m in newer]

    limited = {"Authorization": f"Bearer {make_token(Role.SCORER, competitions=[private])}"}
    assert 30 == len(all_pages(client, {}, limited))


def test_bad_cursor_is_a_validation_error(client: TestClient[Any]) -> None:
    response = client.get("/matches", params={"cursor": "not-a-cursor"})
    assert (422, "VALIDATION_FAILED") == (response.status_code, response.json()["code"])


def test_player_record_lists_matches_and_results(
    client: TestClient[Any], scorer: dict[str, str], make_players: Any
) -> None:
    ann, bob, cat = make_players(3)
    first = create_match(
        client,
        scorer,
        {"game": "cuttle", "variant": "standard", "players": [ann, bob], "dealing": "scorer"},
    )
    second = create_match(
        client,
        scorer,
        {"game": "cuttle", "variant": "standard", "players": [bob, ann], "dealing": "scorer"},
    )
    create_match(
        client,
        scorer,
        {"game": "cuttle", "variant": "standard", "players": [bob, cat], "dealing": "scorer"},
    )
    for match, seat in ((first, 1), (second, 1)):  # bob resigns the first, ann the second
        response = client.post(
            f"/matches/{match['id']}/resign",
            json={"seat": seat, "expected_version": 1},
            headers=scorer,
        )
        assert 200 == response.status_code
    record = client.get(f"/players/{ann}").json()
    assert {"played": 2, "won": 1, "lost": 1, "drawn": 0} == record["results"]
    assert [(second["id"], 1, "lost"), (first["id"], 0, "won")] == [
        (m["id"], m["seat"], m["outcome"]) for m in record["matches"]
    ]
    assert 404 == client.get("/players/00000000-0000-4000-8000-000000000009").status_code
