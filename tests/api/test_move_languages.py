"""The API's sentences and game descriptors in the request's language (``?lang=``,
``Accept-Language``), saying that the answer varies by it.

Expected sentences are written out here per language (``tests.test_move_words`` holds
the domain's); a card is written as the language's decks print it, by the tests' own
table of ranks.
"""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.support import named_players
from tests.recording.play import create_match

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RUSSIAN = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}


def printed(code: str, lang: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    if lang == "ru":
        rank = RUSSIAN.get(rank, rank)
    return rank + SUITS[code[1]]


POINTS = {
    "en": "{who} plays {card} for points",
    "ja": "{who}が{card}を得点化",
    "ko": "{who} 님이 {card} 카드를 점수로 냅니다",
    "ru": "{who} играет {card} на очки",
}
NAMES = ["Ann", "Bob"]


def expected(move: str, lang: str) -> str:
    """A points move's sentence: its seat's player, its card as printed in ``lang``."""
    who = NAMES[int(move.split()[0][1:])]
    return POINTS[lang].format(who=who, card=printed(move.split()[-1], lang))


def _dealt(client: TestClient[Any], scorer: dict[str, str]) -> tuple[str, int]:
    """A physically dealt match whose first player holds an ace (a Т on a Russian deck)."""
    players = named_players(client, scorer, NAMES)
    body = {"game": "cuttle", "variant": "standard", "players": players, "format": "quick"}
    match = create_match(client, scorer, {**body, "dealing": "physical"})
    hands = ["", ""]
    hands[match["dealer"]] = "2C 3C 4C 5C 6C 7C"
    hands[1 - match["dealer"]] = "AS 9D QH KD 8S"
    dealt = client.post(
        f"/matches/{match['id']}/rounds",
        json={"hands": hands, "expected_version": match["version"]},
        headers=scorer,
    )
    assert 201 == dealt.status_code, dealt.text
    return match["id"], dealt.json()["version"]


def test_legal_moves_and_timeline_sentences_follow_the_language(
    client: TestClient[Any], scorer: dict[str, str]
) -> None:
    match_id, version = _dealt(client, scorer)
    asked = {
        "en": ("", {}),
        "ja": ("?lang=ja", {}),
        "ko": ("", {"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"}),
        "ru": ("?lang=ru", {"Accept-Language": "ja"}),  # ?lang= wins over the header
    }
    chosen = None
    for lang, (query, headers) in asked.items():
        answer = client.get(
            f"/matches/{match_id}/legal-moves{query}", headers={**scorer, **headers}
        )
        assert 200 == answer.status_code, answer.text
        assert "Accept-Language" in answer.headers["vary"]
        listed = {c["move"]: c["sentence"] for c in answer.json()["choices"]}
        chosen = next(m for m in listed if m.split()[1:] == ["points", "AS"])
        assert expected(chosen, lang) == listed[chosen]
    assert chosen is not None
    played = client.post(
        f"/matches/{match_id}/moves",
        json={"moves": [chosen]},
        headers={**scorer, "If-Match": f'"{version}"'},
    )
    assert 200 == played.status_code, played.text
    for lang, (query, headers) in asked.items():
        answer = client.get(f"/matches/{match_id}/timeline{query}", headers={**scorer, **headers})
        assert "Accept-Language" in answer.headers["vary"]
        last = answer.json()["steps"][-1]
        assert (chosen, expected(chosen, lang)) == (last["move"], last["sentence"])


def test_game_descriptors_follow_the_language(refusing_client: TestClient[Any]) -> None:
    labels = {}
    for lang in ("en", "ja", "ko", "ru"):
        answer = refusing_client.get("/games", headers={"Accept-Language": lang})
        assert 200 == answer.status_code
        assert "Accept-Language" in answer.headers["vary"]
        cuttle, kozel = answer.json()["items"]
        labels[lang] = (cuttle["label"], kozel["label"], kozel["ranks"]["Q"])
        # Codes and paths are the same in every language: the scripts read data by them.
        assert ("round", "deal", "hands.{seat}.count") == (
            cuttle["round_word"],
            kozel["round_word"],
            cuttle["zones"][0]["count"],
        )
    assert {
        "en": ("Cuttle", "Kozel", "Q"),
        "ja": ("カトル", "コゼル", "Q"),
        "ko": ("커틀", "염소", "Q"),
        "ru": ("Каттл", "Козёл", "Д"),
    } == labels
    russian = refusing_client.get("/games?lang=ru").json()["items"][1]
    pile = next(zone for zone in russian["zones"] if zone["name"] == "pile")
    assert {"one": "взятка", "few": "взятки", "many": "взяток", "other": "взятки"} == (
        pile["counts"][0]["forms"]
    )
