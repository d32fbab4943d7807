"""The request's language (#33): pages and problems in it, the device's choice kept, Vary."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from uuid import uuid4

from litestar.testing import TestClient

from api.language import LANG_COOKIE
from api.problem_words import DETAILS, TITLES
from tests.api.conftest import SharedDatabase
from tests.api.support import named_players
from tests.recording.play import create_match

Client = TestClient[Any]
ROOT = Path(__file__).resolve().parents[2]


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', html)
    assert found, html[:200]
    return found.group(1)


class TestPages(SharedDatabase):
    def test_the_header_picks_the_language_and_the_answer_says_it_varies(
        self, client: Client
    ) -> None:
        page = client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
        assert "ru" == lang_of(page.text)
        assert "ru" == page.headers["content-language"]
        assert {"Accept-Language", "Cookie"} <= {v.strip() for v in page.headers["vary"].split(",")}
        assert "Клубный вечер · matchlog" in page.text  # the title, from the catalog
        assert '"home.live": "Сейчас идут"' in page.text  # the scripts' words
        assert LANG_COOKIE not in page.headers.get("set-cookie", "")

    def test_a_chosen_language_is_remembered_and_beats_the_header(self, client: Client) -> None:
        chosen = client.get("/score?lang=ko", headers={"Accept-Language": "ja"})
        assert "ko" == lang_of(chosen.text)
        assert f"{LANG_COOKIE}=ko" in chosen.headers["set-cookie"]
        assert "Max-Age=34560000" in chosen.headers["set-cookie"]
        kept = client.get("/", headers={"Accept-Language": "ja"})  # the client keeps cookies
        assert "ko" == lang_of(kept.text)
        query = client.get("/?lang=en", headers={"Accept-Language": "ja"})
        assert "en" == lang_of(query.text)
        client.cookies.clear()
        assert "ja" == lang_of(client.get("/", headers={"Accept-Language": "ja"}).text)
        assert "en" == lang_of(client.get("/", headers={"Accept-Language": "de"}).text)

    def test_every_page_offers_the_four_languages_by_their_own_names(self, client: Client) -> None:
        html = client.get("/organise", headers={"Accept-Language": "ja"}).text
        for code, name in (
            ("en", "English"),
            ("ja", "日本語"),
            ("ko", "한국어"),
            ("ru", "Русский"),
        ):
            assert f'href="?lang={code}"' in html and f">{name}</a>" in html
        assert 'aria-current="true" lang="ja"' in html
        assert "x-pseudo" not in html

    def test_the_pseudo_language_is_served_unlisted(self, client: Client) -> None:
        html = client.get("/?lang=x-pseudo").text
        assert "x-pseudo" == lang_of(html)
        assert '"home.live": "⟦Live now⟧"' in html
        assert "set-cookie" not in client.get("/?lang=x-pseudo").headers


class TestProblems(SharedDatabase):
    def test_a_missing_match_in_russian(self, client: Client) -> None:
        answer = client.get(f"/matches/{uuid4()}", headers={"Accept-Language": "ru"})
        assert 404 == answer.status_code
        body = answer.json()
        assert "MATCH_NOT_FOUND" == body["code"]
        assert "Матч не найден" == body["title"]
        assert "Такого матча нет." == body["detail"]
        assert "Accept-Language" in answer.headers["vary"]
        english = client.get(f"/matches/{uuid4()}").json()
        assert ("MATCH_NOT_FOUND", "Match not found") == (english["code"], english["title"])

    def test_validation_in_korean_keeps_its_fields(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        answer = client.post(
            "/players", json={"display_name": 7}, headers={**scorer, "Accept-Language": "ko"}
        )
        assert 422 == answer.status_code
        body = answer.json()
        assert ("VALIDATION_FAILED", "입력 오류") == (body["code"], body["title"])
        assert "빠졌거나 잘못된 항목이 있습니다." == body["detail"]
        assert "display_name" == body["details"]["errors"][0]["field"]

    def test_unauthenticated_in_japanese(self, client: Client) -> None:
        answer = client.post(
            "/players", json={"display_name": "Ann"}, headers={"Accept-Language": "ja"}
        )
        assert 401 == answer.status_code
        assert ("UNAUTHENTICATED", "未認証") == (answer.json()["code"], answer.json()["title"])


def test_a_rules_refusal_in_japanese(client: Client, scorer: dict[str, str]) -> None:
    """The rules' refusal a pad meets most: a move by the seat not to act."""
    players = named_players(client, scorer, ["Ann", "Bob"])
    match = create_match(
        client, scorer, {"game": "cuttle", "players": players, "dealing": "server"}
    )
    legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
    other = 1 - legal["to_act"][0]
    answer = client.post(
        f"/matches/{match['id']}/moves",
        json={"moves": [f"P{other} draw"], "expected_version": legal["version"]},
        headers={**scorer, "Accept-Language": "ja"},
    )
    assert 422 == answer.status_code
    body = answer.json()
    assert "NOT_YOUR_TURN" == body["code"]
    assert "手番ではありません" == body["title"]
    assert "このプレイヤーの番ではありません。" == body["detail"]


def raised_codes() -> set[str]:
    """Every code the source raises with (``code="X"``, a default, a refusal helper's first
    argument) and every code the rules documents list."""
    pattern = re.compile(
        r'(?:\bcode=|default_code = |not_started_code = |_refuse\()"([A-Z][A-Z0-9_]{3,})"'
    )
    found: set[str] = set()
    for folder in ("api", "domain", "service", "store"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    # Codes only the service's operations raise (the CLI's, never a page's) need no title.
    return {code for code in found if not code.startswith(("BACKUP", "MIGRATION"))}


def test_every_code_has_a_title_and_every_detail_a_code() -> None:
    missing = sorted(code for code in raised_codes() if code not in TITLES)
    cli_only = {
        "CHECKPOINT_INVALID",
        "DATABASE_TOO_NEW",
        "DATA_DIR_UNUSABLE",
        "DOWNGRADE_REFUSED",
        "EMBEDDED_DATABASE_DOWN",
        "EVENT_COUNT_MISMATCH",
        "EVENT_ID_CONFLICT",
        "EVENT_MISMATCH",
        "EXTERNAL_DATABASE",
        "NOT_A_BACKUP",
        "NO_DATA",
        "SCHEMA_OUTDATED",
        "UNKNOWN_FORMAT",
        "UNKNOWN_REVISION",
        "VERIFY_FAILED",
    }
    assert [] == [code for code in missing if code not in cli_only]
    assert set() == set(DETAILS) - set(TITLES)
