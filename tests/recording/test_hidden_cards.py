"""No anonymous read reveals a card the table could not see while a match is live.

After every write, the test folds the full stream (read straight from the database)
and works out which cards are hidden from the full state and the public events
alone; it never asks the API's redaction code. Then it calls every GET endpoint
anonymously and checks that no hidden card appears anywhere, and that the public
information (fields, table, scores, hand sizes) does.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient

from domain.cards import Card
from domain.events import Event
from domain.stream import MatchState, fold
from tests.recording.play import create_match, play_to_end, seats_of

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_])([2-9AKQJT][CDHS]|X[12])(?![A-Za-z0-9_])")
TABLE_CARD = re.compile(r"(?<![A-Za-z0-9_])(10|[2-9AKQJ])([\u2663\u2666\u2665\u2660])|\u2605([12])")
"""A card as sentences write it (``10♣``, ``Q♠``, ``★1``; ``domain.cards.table_text``)."""
SUIT_LETTERS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def card_tokens(value: Any) -> set[str]:
    """Every card written anywhere in a JSON value, as a code or as the table draws it."""
    found = set()
    for text in strings(value):
        found |= set(CARD_TOKEN.findall(text))
        for rank, suit, joker in TABLE_CARD.findall(text):
            code = f"X{joker}" if joker else ("T" if rank == "10" else rank) + SUIT_LETTERS[suit]
            found.add(code)
    return found


def full_events(database_url: str, match_id: str) -> list[Event]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT type, data FROM events WHERE stream LIKE %s ORDER BY version",
            (f"%-{match_id}",),
        ).fetchall()
    return [Event(t, d) for t, d in rows]


def cuttle_hidden_and_public(events: list[Event], state: MatchState) -> tuple[set[str], set[str]]:
    """Hidden: cards in hands or the deck never shown this round; public: the table."""
    seen: set[str] = set()
    for event in events:
        if event.type == "RoundStarted":
            seen = set()
        elif event.type == "MovePlayed":
            words = str(event.data["move"]).split()
            if words[0] != "cards":  # the scorer naming cards may name a private draw
                seen |= set(CARD_TOKEN.findall(str(event.data["move"])))
        elif event.type == "CardsRevealed":
            seen |= set(event.data["cards"])
        elif event.type in ("OneOffResolved", "OneOffFizzled"):
            seen.add(event.data["card"])
    p = state.position
    if p is None:
        return set(), set()
    exposed: set[int] = set()
    if p.variant.value == "classic":  # classic glasses expose the opponent's hand to all
        exposed = {1 - s.owner for s in p.permanents if s.base.rank == "8"}
    candidates = {c.text() for c in p.deck if c is not None}
    for seat, hand in enumerate(p.hands):
        if seat not in exposed:
            candidates |= {c.text() for c in hand}
    table = {s.base.text() for s in (*p.stacks, *p.permanents)}
    table |= {c.text() for s in (*p.stacks, *p.permanents) for c, _ in s.attached}
    table |= {c.text() for c in p.scrap}
    return candidates - seen, table


def kozel_hidden_and_public(events: list[Event], state: MatchState) -> tuple[set[str], set[str]]:
    """Hidden: hands, stock and face-down throws never shown face up this deal."""
    seen: set[str] = set()
    for event in events:
        if event.type == "DealStarted":
            seen = set()
        elif event.type in ("CardsLed", "CardsBeaten", "MolodkaDeclared"):
            seen |= set(event.data["cards"])
    p = state.position
    if p is None:
        return set(), set()
    seen.add(p.indicator.text())
    candidates = {c.text() for hand in p.hands for c in hand} | {c.text() for c in p.stock}
    candidates |= {c.text() for team in p.face_down for c in team}
    candidates |= {c.text() for play in p.trick if play.kind == "throw" for c in play.cards}
    table = {c.text() for play in p.trick if play.kind != "throw" for c in play.cards}
    table |= {c.text() for team in p.piles for c in team}
    table.add(p.indicator.text())
    return candidates - seen, table


def anonymous_reads(client: TestClient[Any], match_id: str, round_start: int) -> list[Any]:
    """Every GET a spectator can make of the match, as far as the round in play goes.

    Events and timeline steps of earlier rounds are left out: their cards were
    shuffled into this round's deck, so a code seen there says nothing about where
    the card is now.
    """
    bodies = [client.get(f"/matches/{match_id}").json()]
    legal = client.get(f"/matches/{match_id}/legal-moves")
    bodies.append(legal.json())
    after: int | None = round_start - 1  # earlier rounds' events are left out anyway
    while after is not None:
        page = client.get(f"/matches/{match_id}/events", params={"after": after, "limit": 50})
        assert 200 == page.status_code
        bodies.append([e for e in page.json()["items"] if e["version"] >= round_start])
        after = page.json()["next_after"]
    timeline = client.get(f"/matches/{match_id}/timeline")
    assert 200 == timeline.status_code
    steps = timeline.json()["steps"]
    bodies.append([step for step in steps if step["version"] >= round_start])
    if steps and steps[-1]["version"] >= round_start:
        replay = client.get(f"/matches/{match_id}/replay", params={"ply": steps[-1]["ply"]})
        assert 200 == replay.status_code
        bodies.append(replay.json())
        assert (
            "FORBIDDEN"
            == client.get(
                f"/matches/{match_id}/replay", params={"ply": steps[-1]["ply"], "seat": "full"}
            ).json()["code"]
        )
    bodies.append(client.get(f"/matches/{match_id}/series").json())
    return bodies


def hand_sizes_shown(view: dict[str, Any]) -> list[int]:
    sizes = view.get("hand_sizes")
    if sizes is not None:
        return list(sizes)
    return [h["count"] for h in view["hands"]]


@pytest.mark.parametrize(
    ("game", "variant", "dealing"),
    [
        ("cuttle", "classic", "server"),
        ("cuttle", "standard", "server"),
        ("cuttle", "cutthroat", "server"),
        ("kozel", "default", "server"),
        ("cuttle", "standard", "physical"),
        ("kozel", "default", "physical"),
    ],
)
def test_no_hidden_card_in_any_anonymous_read(
    client: TestClient[Any],
    scorer: dict[str, str],
    make_players: Any,
    database_url: str,
    game: str,
    variant: str,
    dealing: str,
) -> None:
    players = make_players(seats_of(game, variant))
    # Cuttle best of 3: a random deck can end one round in a few moves (three kings
    # make a cutthroat goal 0), so a longer series makes sure many positions are seen.
    fmt = {"format": "normal"} if game == "cuttle" else {"options": {"loss_limit": 2}}
    match = create_match(
        client,
        scorer,
        {"game": game, "variant": variant, "players": players, "dealing": dealing, **fmt},
    )
    checked = 0

    def check(current: dict[str, Any]) -> None:
        nonlocal checked
        if current["status"] != "live":
            return
        events = full_events(database_url, match["id"])
        state = fold(events)
        split = cuttle_hidden_and_public if game == "cuttle" else kozel_hidden_and_public
        hidden, table = split(events, state)
        starts = [i for i, e in enumerate(events) if e.type in ("RoundStarted", "DealStarted")]
        round_start = starts[-1] + 1 if starts else 1
        bodies = anonymous_reads(client, match["id"], round_start)
        leaked = hidden & set().union(*(card_tokens(b) for b in bodies))
        assert not leaked, f"hidden cards {sorted(leaked)} shown to a spectator"
        assert "FORBIDDEN" == bodies[1]["code"], "legal moves reveal hands"
        public = bodies[0]
        if state.position is not None:
            view = public["round"]["view"]
            assert table <= card_tokens(view), "the public table is missing from the view"
            hands = [len(h) for h in state.position.hands]
            assert hands == hand_sizes_shown(view)
        assert public["score"], "the series score is public"
        checked += 1

    final = play_to_end(client, scorer, match, random.Random(41), after_each=check)
    assert checked >= 4
    # Once the match is over, its whole record is public.
    deal_events = [
        e
        for e in client.get(f"/matches/{match['id']}/events").json()["items"]
        if e["type"] in ("RoundStarted", "DealStarted")
    ]
    assert "finished" == final["status"]
    assert all({"deck", "hands"} & set(e["data"]["setup"]) for e in deal_events)


def test_card_tokens_find_codes_only() -> None:
    assert {"7H", "TS", "X1"} == card_tokens({"a": "P0 scuttle TS>7H", "b": ["X1"], "7": 7})
    assert set() == card_tokens({"id": "5a1c7h00", "move": "P0 draw", "code": "AS_IS"})
    assert Card.from_text("AS").text() in card_tokens(["AS"])


def test_spectators_are_not_told_who_holds_a_molodka(
    client: TestClient[Any], scorer: dict[str, str], make_players: Any
) -> None:
    """Seat 2 holds four hearts: the engine lets it declare out of turn (R19), but the
    public match body must only name the seat whose turn it is."""
    from domain.kozel import PACK

    hearts = [c for c in PACK if c.suit == "H"][:4]
    rest = [c for c in PACK if c not in hearts]
    deck = []
    for i in range(16):  # dealer 0: card i goes to seat (1 + i) % 4, so seat 2 gets 1, 5, 9, 13
        deck.append(hearts.pop() if (1 + i) % 4 == 2 else rest.pop())
    deck.extend(rest)
    match = create_match(
        client,
        scorer,
        {"game": "kozel", "players": make_players(4), "dealing": "scorer", "first_dealer": 0},
    )
    started = client.post(
        f"/matches/{match['id']}/rounds",
        json={
            "deck": " ".join(c.text() for c in deck),
            "indicator_position": 9,
            "expected_version": 1,
        },
        headers=scorer,
    )
    assert 201 == started.status_code, started.text
    legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
    assert [1, 2] == sorted(legal["to_act"]), "precondition: seat 2 may declare"
    public = client.get(f"/matches/{match['id']}").json()
    assert [1] == public["round"]["to_act"]
