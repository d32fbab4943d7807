"""What ``domain/`` says, in each language: move sentences, results, cards and table words.

The sentences are read from the ``moves`` catalogs (``service.i18n.translations``);
expected texts are written out here by hand, in each game's terms (the glossaries
beside the catalogs). Random matches of every variant then show that no move's
sentence keeps an English word in ja, ko or ru.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import cast

import pytest
from babel.messages.pofile import read_po

from domain.cards import table_text
from domain.cuttle.describe import describe_move as cuttle_sentence
from domain.cuttle.sheet import describe_result
from domain.games import PRESENTATIONS
from domain.kozel.describe import describe_move as kozel_sentence
from domain.kozel.sheet import describe_deal
from domain.presentation import in_words
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, choices, step
from domain.words import ENGLISH, Words
from service.i18n import LOCALES, translations
from tests.recording.play import shuffled_deal

NAMES = ["Ann", "Bob", "Cy", "Di"]
TRANSLATED = ("ja", "ko", "ru")


def words(lang: str) -> Words:
    return translations(lang, "moves")


CUTTLE = {
    "P0 points TH": {
        "en": "Ann plays 10♥ for points",
        "ja": "Annが10♥を得点化",
        "ko": "Ann 님이 10♥ 카드를 점수로 냅니다",
        "ru": "Ann играет 10♥ на очки",
    },
    "P1 scuttle KS>QH": {
        "en": "Bob scuttles Q♥ with K♠",
        "ja": "BobがK♠でQ♥をスカットル",
        "ko": "Bob 님이 K♠ 카드로 Q♥ 카드를 스커틀합니다",
        "ru": "Bob бьёт Д♥ картой К♠",
    },
    "P0 seven jack JH>AS": {
        "en": "Ann plays J♥ from the deck to take A♠",
        "ja": "Annが山札のJ♥でA♠を奪う",
        "ko": "Ann 님이 덱의 J♥ 카드로 A♠ 카드를 빼앗습니다",
        "ru": "Ann играет В♥ из колоды и забирает Т♠",
    },
    "P1 oneoff 6D": {
        "en": "Bob plays 6♦ as a one-off to scrap every permanent",
        "ja": "Bobが6♦のワンオフですべての永続効果を捨て札にする",
        "ko": "Bob 님이 6♦ 카드의 일회성 효과로 모든 영구 효과 카드를 버림 더미로 보냅니다",
        "ru": "Bob разыгрывает 6♦ разово: все постоянные карты уходят в сброс",
    },
    "P0 queen QC": {
        "en": "Ann plays Q♣ as a permanent",
        "ja": "AnnがQ♣を永続効果としてプレイ",
        "ko": "Ann 님이 Q♣ 카드를 영구 효과로 냅니다",
        "ru": "Ann играет Д♣ как постоянную карту",
    },
    "P1 counter 2S": {
        "en": "Bob counters with 2♠",
        "ja": "Bobが2♠でブロック",
        "ko": "Bob 님이 2♠ 카드로 카운터합니다",
        "ru": "Bob отменяет эффект картой 2♠",
    },
}
"""Two-seat Cuttle moves (classic and standard write them alike)."""

CUTTHROAT = {
    "P2 oneoff 4S@P0": {
        "en": "Cy plays 4♠ as a one-off: Ann discards two cards",
        "ja": "Cyが4♠をワンオフとしてプレイ：Annが手札を2枚捨てる",
        "ko": "Cy 님이 4♠ 카드를 일회성 효과로 냅니다: Ann 님이 카드 두 장을 버립니다",
        "ru": "Cy разыгрывает 4♠ разово: Ann сбрасывает две карты",
    },
    "P1 joker X2>KD": {
        "en": "Bob plays ★2 to take K♦",
        "ja": "Bobがジョーカー★2でK♦を奪う",
        "ko": "Bob 님이 조커 ★2 카드로 K♦ 카드를 빼앗습니다",
        "ru": "Bob играет джокер ★2 и забирает К♦",
    },
}

KOZEL = {
    ("CardsLed", (("seat", 0), ("cards", ("QS", "AS")))): {
        "en": "Ann leads Q♠ A♠",
        "ja": "AnnがQ♠ A♠でリード",
        "ko": "Ann 님이 Q♠ A♠ 카드로 트릭을 엽니다",
        "ru": "Ann заходит с Д♠ Т♠",
    },
    ("CardsBeaten", (("seat", 1), ("cards", ("KS", "TS")))): {
        "en": "Bob beats with K♠ 10♠",
        "ja": "BobがK♠ 10♠で上回る",
        "ko": "Bob 님이 K♠ 10♠ 카드로 이깁니다",
        "ru": "Bob бьёт: К♠ 10♠",
    },
    ("MolodkaDeclared", (("seat", 2),)): {
        "en": "Cy declares molodka",
        "ja": "Cyがモロトカ（同じスート4枚）を宣言",
        "ko": "Cy 님이 풀(같은 무늬 4장)을 선언합니다",
        "ru": "Cy объявляет молодку",
    },
    ("MatchResigned", (("seat", 3),)): {
        "en": "Di concedes the match: Di and Bob lose it",
        "ja": "Diが投了：DiとBobの負け",
        "ko": "Di 님이 경기를 포기합니다: Di 님과 Bob 님의 패배",
        "ru": "Di сдаёт партию: Di и Bob проигрывают",
    },
    ("CardsDrawn", (("draws", ((0, "JD"), (1, "6C"))),)): {
        "en": "The scorer names the cards drawn: Ann J♦, Bob 6♣",
        "ja": "記録係が引かれたカードを記録：Ann J♦、Bob 6♣",
        "ko": "기록자가 뽑은 카드를 기록합니다: Ann J♦, Bob 6♣",
        "ru": "Записывающий называет взятые карты: Ann В♦, Bob 6♣",
    },
}


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
@pytest.mark.parametrize("move", [*CUTTLE, *CUTTHROAT])
def test_cuttle_sentences(lang: str, move: str) -> None:
    expected = {**CUTTLE, **CUTTHROAT}[move][lang]
    assert expected == cuttle_sentence({"move": move}, NAMES[:3], words(lang))


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
@pytest.mark.parametrize("event", list(KOZEL))
def test_kozel_sentences(lang: str, event: tuple[str, tuple[tuple[str, object], ...]]) -> None:
    kind, data = event
    assert KOZEL[event][lang] == kozel_sentence(kind, dict(data), NAMES, words(lang))


@pytest.mark.parametrize(
    ("lang", "one", "two", "five", "twenty_one"),
    [
        ("en", "1 card", "2 cards", "5 cards", "21 cards"),
        ("ru", "1 карту", "2 карты", "5 карт", "21 карту"),
        ("ja", "1枚", "2枚", "5枚", "21枚"),
        ("ko", "카드 1장", "카드 2장", "카드 5장", "카드 21장"),
    ],
)
def test_counts_take_the_languages_plural_forms(
    lang: str, one: str, two: str, five: str, twenty_one: str
) -> None:
    for count, form in ((1, one), (2, two), (5, five), (21, twenty_one)):
        sentence = kozel_sentence("CardsThrown", {"seat": 0, "count": count}, NAMES, words(lang))
        assert form in sentence, sentence


def test_russian_loss_points_and_named_cards_are_counted_in_russian() -> None:
    ru = words("ru")
    assert "получает 2 штрафных очка" in describe_deal(3, "deal 75 45", 1, 2, ru)
    assert "без взяток и получает 6 штрафных очков" in describe_deal(
        5, "deal 120 0 blank B", 1, 6, ru
    )
    named = cuttle_sentence({"move": "cards", "count": 2}, NAMES, ru)
    assert "Записывающий называет 2 карты, ушедшие из колоды" == named


@pytest.mark.parametrize(
    ("lang", "won", "drawn", "eggs"),
    [
        ("en", "Bob won round 2", "Round 3 was drawn", "Deal 4: 60-60, eggs"),
        ("ja", "Bobが第2ラウンドに勝利", "第3ラウンドは引き分け", "第4ディール：60対60、卵"),
        ("ko", "Bob 님이 2라운드에서 이겼습니다", "3라운드는 무승부입니다", "4판: 60-60, 계란"),
        ("ru", "Bob выигрывает раунд 2", "Раунд 3: ничья", "Сдача 4: 60–60, яйца"),
    ],
)
def test_score_sheet_results(lang: str, won: str, drawn: str, eggs: str) -> None:
    assert won == describe_result("result P1", 2, NAMES[:2], words(lang))
    assert drawn == describe_result("result draw", 3, NAMES[:2], words(lang))
    assert eggs == describe_deal(4, "deal 60 60", None, 0, words(lang))


def test_russian_decks_print_v_d_k_t_on_cards_and_in_the_descriptor() -> None:
    ru = words("ru")
    assert ["В♣", "Д♦", "К♥", "Т♠", "10♠", "7♥", "★1"] == [
        table_text(code, ru) for code in ("JC", "QD", "KH", "AS", "TS", "7H", "X1")
    ]
    kozel = in_words(PRESENTATIONS["kozel"], ru)
    assert {"J": "В", "Q": "Д", "K": "К", "A": "Т", "T": "10", "6": "6"}.items() <= (
        kozel.ranks.items()
    )
    assert "★" == in_words(PRESENTATIONS["cuttle"], ru).ranks["X"]
    assert "Q" == in_words(PRESENTATIONS["kozel"], words("ja")).ranks["Q"]


def test_descriptors_speak_each_games_terms() -> None:
    ru, ko, ja = words("ru"), words("ko"), words("ja")
    kozel_ru = in_words(PRESENTATIONS["kozel"], ru)
    assert ("Козёл", "Козырь {trump|suit}") == (kozel_ru.label, kozel_ru.zones[1].label)
    tricks = kozel_ru.zones[-1].counts[0]
    assert {"one": "взятка", "few": "взятки", "many": "взяток"}.items() <= tricks.forms.items()
    assert "козлы с яйцами" in kozel_ru.reasons["goat-with-eggs"]
    kozel_ko = in_words(PRESENTATIONS["kozel"], ko)
    assert ("염소", "계란을 든 염소") == (
        kozel_ko.label,
        kozel_ko.reasons["goat-with-eggs"].rsplit(": ", 1)[1],
    )
    cuttle_ja = in_words(PRESENTATIONS["cuttle"], ja)
    zones = {zone.name: zone.label for zone in cuttle_ja.zones}
    assert ("カトル", "得点", "永続効果", "山札") == (
        cuttle_ja.label,
        zones["points"],
        zones["permanents"],
        zones["deck"],
    )
    assert "第3ラウンド" == (cuttle_ja.round_number or "").format(number=3)
    # English is the descriptor as the game wrote it, codes and paths untouched.
    english = in_words(PRESENTATIONS["kozel"], ENGLISH)
    assert ("Kozel", "deal", "S") == (english.label, english.round_word, english.seat_letter)


_ENGLISH_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
_ALLOWED = set(NAMES)
"""ASCII words a translated sentence may hold: the players' names."""


def _english_left(sentence: str) -> list[str]:
    return [w for w in _ENGLISH_WORD.findall(sentence) if w not in _ALLOWED]


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|\{[^{}]*\{[^{}]*\}[^{}]*\}")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_keeps_its_placeholders_and_no_english(lang: str) -> None:
    path = Path(LOCALES, lang, "LC_MESSAGES", "moves.po")
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    checked = 0
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(set(_PLACEHOLDER.findall(ids[-1])))
        for text in texts:
            assert text and not message.fuzzy, message.id
            assert wanted == sorted(set(_PLACEHOLDER.findall(text))), (message.id, text)
            # Beyond its placeholders, a translation keeps no English word.
            assert [] == _english_left(_PLACEHOLDER.sub("", text)), (message.id, text)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("game", "variant", "seats", "matches"),
    [
        ("cuttle", "classic", 2, 4),
        ("cuttle", "standard", 2, 4),
        ("cuttle", "cutthroat", 3, 4),
        ("kozel", "default", 4, 1),
    ],
)
def test_no_move_of_a_random_match_keeps_an_english_word(
    game: str, variant: str, seats: int, matches: int
) -> None:
    rng = random.Random(5)
    languages = {lang: words(lang) for lang in TRANSLATED}
    kinds: set[str] = set()
    for _ in range(matches):
        format = None if game == "kozel" else "quick"
        config = MatchConfig(game, variant, tuple(NAMES[:seats]), 0, "server", format, {})
        state = step(MatchState(), CreateMatch(config, shuffled_deal(game, variant, rng)))[1]
        for _ in range(300):
            if state.is_over or state.position is None:
                break
            rules = state.rules
            moves = list(rules.legal_moves(state.position))
            offered = moves + list(rules.service_moves(state.position))
            english = choices(state, offered, NAMES[:seats])
            for lang, translated in languages.items():
                for choice, original in zip(
                    choices(state, offered, NAMES[:seats], translated), english, strict=True
                ):
                    assert choice.sentence != original.sentence, (lang, choice)
                    assert [] == _english_left(choice.sentence), (lang, choice)
            kinds.update(c.move.split()[1] for c in english)
            deal = shuffled_deal(game, variant, rng)
            state = step(state, Play(rng.choice(moves).text(), deal))[1]
    if game == "cuttle":
        assert {"draw", "points", "scuttle", "oneoff", "resign"} <= kinds
    else:
        assert {"lead", "beat", "throw", "concede"} <= kinds


_CODES = frozenset(
    {
        *("game", "round_word", "seat_letter", "layout", "acting", "dealer", "tiebreaks"),
        *("name", "field", "kind", "default", "choices", "by", "values", "path", "when"),
        *("over", "phase", "value", "goal", "verb", "blank", "moves", "results", "ranks"),
        *("suits", "count", "cards", "own", "top", "opened", "flagged", "flag", "items"),
        *("owner", "hidden_kind", "open_flag", "place", "row"),
    }
)
"""Descriptor fields that hold codes, paths or notation: the same in every language."""


def _leaves(english: object, other: object, field: str) -> Iterator[tuple[str, str, str]]:
    if is_dataclass(english):
        for part in fields(english):
            yield from _leaves(getattr(english, part.name), getattr(other, part.name), part.name)
    elif isinstance(english, tuple):
        for mine, theirs in zip(english, cast(tuple[object, ...], other), strict=True):
            yield from _leaves(mine, theirs, field)
    elif isinstance(english, Mapping):
        for key, mine in english.items():
            yield from _leaves(mine, cast(Mapping[str, object], other)[key], field)
    elif isinstance(english, str):
        yield field, english, cast(str, other)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", list(PRESENTATIONS))
def test_every_word_of_a_descriptor_is_translated(lang: str, game: str) -> None:
    """A text a game forgot to mark (``N_``) would stay English: only codes may."""
    english = in_words(PRESENTATIONS[game])
    translated = in_words(PRESENTATIONS[game], words(lang))
    left = [
        (field, text)
        for field, text, other in _leaves(english, translated, "")
        if text == other and _english_left(_PLACEHOLDER.sub("", text)) and field not in _CODES
    ]
    assert [] == left
