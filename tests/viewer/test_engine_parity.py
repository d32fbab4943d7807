"""The pad's engine in the page answers as the server does (issue #34), move by move.

For every game and variant, random matches are played twice at once: each move is
decided by the engine running in Chromium (``window.MatchEngine`` on Pyodide, in a pad
page of the match, signed in) and recorded by the server (``POST /moves``). After each,
the engine's answer must equal what the server reads back: the legal moves, the table
(``/replay?seat=full``), the match's fields and the timeline's new steps, sentences in
the page's language. Deals are entered by the scorer (physical hands or a deck order)
in both, or dealt by the server and read by the engine (``sync``), as a pad does.
Namings are sampled at random, never listed. Takebacks and notes are the server's
alone: the engine reads them back, as it reads every write, and must draw the same
table and timeline. Moves the match does not accept are refused by both, with one code.
Each run prints what it played and how long the engine and the server took.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from domain.cards import format_cards
from domain.stream import MatchConfig, rules_for
from tests.recording.play import physical_deal, shuffled_deal
from tests.viewer.conftest import PHONE
from tests.viewer.test_pad import _club, _club_browser, _secret, fresh_page
from tests.viewer.test_pad_engine import wait_for_engine
from tests.viewer.test_viewer import make_players

__all__ = ["_club", "_club_browser", "_secret"]  # the pad's fixtures, used here too

Page = Any
Json = dict[str, Any]
COUNTED = (
    "moves",
    "namings",
    "named last",
    "service",
    "physical deals",
    "scorer deals",
    "server deals",
    "syncs",
    "takebacks",
    "notes",
    "refusals",
    "finished",
    "left live",
)

MIN_MOVES = 300
"""Moves each run plays through both (namings and deals included)."""
MATCH_MOVES = 120
"""A match is left after this many moves, so that a run meets every way of dealing."""
MAX_MATCHES = 14
"""Matches a run may play to take every path: about twice what 300 moves need."""
DEALINGS = ("physical", "scorer", "server")
MATCH_FIELDS = ("version", "status", "score", "result", "rounds_started", "dealer", "round")
"""The fields of ``GET /matches/{id}`` the engine decides (``LocalMatch.summary``)."""
STEP_FIELDS = ("ply", "version", "before_version", "round", "seat", "move", "sentence")
STEP_FIELDS_TAKEN = (*STEP_FIELDS, "taken_back", "notes")
"""Compared as well: the corrections the engine reads back from the server."""
SERVICE_ODDS = 0.005
"""How often a listed service move (a resignation, a draw offer, a concession) is played;
between rounds, ten times as often (a Kozel concession ends the match)."""
TAKEBACK_ODDS = 0.03
NOTE_ODDS = 0.02
SYNC_ODDS = 0.1
"""How often the engine reads the server's events after a move (it also does when a match
is opened, after a server-dealt round start and a takeback, and at the match's end)."""
REFUSAL_ODDS = 0.04
"""How often a move the match does not accept is tried in both (the same code, nothing kept)."""


@dataclass(frozen=True)
class Run:
    """One game and variant, played in one page language."""

    name: str
    game: str
    variant: str
    lang: str
    extra: Json = field(default_factory=dict)
    server_dealt: Json = field(default_factory=dict)
    """What a server-dealt match changes: a longer match, so that the server deals inside
    a move (a quick Cuttle match ends with its first decided round)."""

    @property
    def seats(self) -> int:
        """How many players the variant seats."""
        return rules_for(self.game).seats(MatchConfig(self.game, self.variant, (), 0))


NORMAL = {"format": "normal"}
RUNS = [
    Run("cuttle-standard-ja", "cuttle", "standard", "ja", {"format": "quick"}, NORMAL),
    Run("cuttle-classic-ru", "cuttle", "classic", "ru", {"format": "quick"}, NORMAL),
    Run("cuttle-cutthroat-ko", "cuttle", "cutthroat", "ko", {"format": "quick"}, NORMAL),
    # The indicator lies under the stock: a physical deal's last naming is forced (name_last).
    Run(
        "kozel-ru",
        "kozel",
        "default",
        "ru",
        {"options": {"loss_limit": 4, "trump_indicator_bottom": True, "open_throws": True}},
        {"options": {"loss_limit": 8, "trump_indicator_bottom": True}},
    ),
    Run(
        "kozel-en",
        "kozel",
        "default",
        "en",
        {"options": {"loss_limit": 4, "eggs_double_next": True}},
        {"options": {"loss_limit": 8, "eggs_double_next": True}},
    ),
]


def differences(ours: Any, theirs: Any, path: str = "", limit: int = 4) -> list[str]:
    """Where two JSON values differ: up to ``limit`` paths, each with both values."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        found: list[str] = []
        for key in sorted(set(ours) | set(theirs), key=str):
            if key not in ours or key not in theirs:
                found.append(f"{path}.{key}: only in {'engine' if key in ours else 'server'}")
            else:
                found += differences(ours[key], theirs[key], f"{path}.{key}", limit)
            if len(found) >= limit:
                break
        return found[:limit]
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        found = []
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found += differences(a, b, f"{path}[{index}]", limit)
            if len(found) >= limit:
                break
        return found[:limit]
    if ours == theirs:
        return []
    return [f"{path}: engine {_short(ours)} != server {_short(theirs)}"]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "..."


@dataclass
class Server:
    """What the server reads back about one match, in one language."""

    legal: Json
    match: Json
    steps: list[Json]
    replay: Json


class Duel:
    """One match played through the page's engine and the server at once."""

    def __init__(
        self,
        page: Page,
        http: httpx.Client,
        headers: dict[str, str],
        run: Run,
        match: Json,
        rng: random.Random,
        reads: ThreadPoolExecutor,
    ) -> None:
        self.page = page
        self.http = http
        self.run = run
        self.match = match
        self.id = match["id"]
        self.rng = rng
        self.reads = reads
        # The API is asked in the page's language both ways: the query and the header.
        self.headers = {**headers, "Accept-Language": run.lang}
        self.params = {"lang": run.lang}
        self.version: int = match["version"]
        self.synced = 0
        """The version the engine last read from the server: its guesses are the events past it."""
        self.previous_moves: list[str] = []
        self.counts = dict.fromkeys(COUNTED, 0)
        self.seconds = {"engine": 0.0, "server": 0.0}
        self.server = self.read()

    # -- the two sides ------------------------------------------------------------------

    def read(self) -> Server:
        """Read the match back from the server (three reads at once, then the table)."""
        started = time.perf_counter()
        base = f"/matches/{self.id}"
        legal, match, timeline = self.reads.map(
            self._get, [f"{base}/legal-moves", base, f"{base}/timeline"]
        )
        kept = [s["ply"] for s in timeline["steps"] if s["taken_back"] is None]
        replay = self._get(f"{base}/replay", ply=kept[-1] if kept else 0, seat="full")
        replay.pop("match_id")
        self.seconds["server"] += time.perf_counter() - started
        return Server(legal, match, timeline["steps"], replay)

    def _get(self, url: str, **params: Any) -> Json:
        response = self.http.get(url, params={**self.params, **params}, headers=self.headers)
        assert 200 == response.status_code, f"{url}: {response.text}"
        body: Json = response.json()
        return body

    def engine(self, method: str, *args: Any) -> Json:
        """Call the page's engine (``window.__parity``) and return its answer."""
        started = time.perf_counter()
        answer: Json = self.page.evaluate(
            "([method, args]) => window.__parity[method](...args)", [method, list(args)]
        )
        self.seconds["engine"] += time.perf_counter() - started
        return answer

    def open(self) -> None:
        """Open the match in the page's engine and read what the server recorded so far."""
        self.page.evaluate(
            "async ([base, names]) => { window.__parity = await MatchEngine.open(base, names); }",
            [f"/matches/{self.id}", self.names()],
        )
        self.sync("opening the match", after=0)

    def names(self) -> list[str]:
        timeline = self._get(f"/matches/{self.id}/timeline")
        names: list[str] = timeline["players"]
        return names

    def post(self, path: str, body: Json) -> httpx.Response:
        started = time.perf_counter()
        response = self.http.post(
            f"/matches/{self.id}/{path}",
            json={**body, "expected_version": self.version},
            headers=self.headers,
        )
        self.seconds["server"] += time.perf_counter() - started
        return response

    # -- comparing ----------------------------------------------------------------------

    def compare(self, answer: Json, after: int, what: str) -> None:
        """The engine's answer against what the server reads back now, field by field
        (the timeline's steps after ply ``after``)."""
        server = self.server
        where = f"{self.run.name}, match {self.id[:8]}, ply {len(server.steps)} after {what}"
        assert "refused" not in answer, f"{where}: the engine refused: {answer['refused']}"
        theirs_steps = [
            {k: s[k] for k in STEP_FIELDS_TAKEN} for s in server.steps if s["ply"] > after
        ]
        ours_steps = [{k: s[k] for k in STEP_FIELDS_TAKEN} for s in answer["steps"]]
        fields = {
            "version": (answer["version"], server.match["version"]),
            "legal": (answer["legal"], server.legal),
            "replay": (answer["replay"], server.replay),
            "match": (answer["match"], {k: server.match[k] for k in MATCH_FIELDS}),
            "steps": (ours_steps, theirs_steps),
        }
        for name, (ours, theirs) in fields.items():
            assert ours == theirs, f"{where}: {name} differs: " + "; ".join(
                differences(ours, theirs, name) or [f"{_short(ours)} != {_short(theirs)}"]
            )

    def sync(self, what: str, after: int) -> None:
        """The engine reads the server's events: its guesses held, and it answers as the
        server (steps after ply ``after``: 0 compares the whole timeline)."""
        answer = self.engine("sync", after)
        where = f"{self.run.name}, match {self.id[:8]}, after {what}"
        assert answer.get("held") is True, f"{where}: the engine's guesses did not hold"
        assert answer["guesses"] == 0, f"{where}: guesses left after reading the server"
        self.compare(answer, after, what + " (sync)")
        self.synced = answer["version"]
        self.counts["syncs"] += 1

    # -- playing ------------------------------------------------------------------------

    def play(self, limit: int) -> int:
        """Play until the match ends or ``limit`` moves; return the moves played."""
        played = 0
        while self.server.match["status"] == "live" and played < limit:
            legal = self.server.legal
            if self.server.match["round"] is None and not self.concede_between_rounds(legal):
                self.deal()
            elif self.corrected():
                continue
            else:
                if self.rng.random() < REFUSAL_ODDS:
                    self.refuse(legal)
                self.move(self.pick(legal))
            played += 1
        self.counts["finished" if self.server.match["status"] != "live" else "left live"] += 1
        self.sync("the last write", after=0)
        return played

    def concede_between_rounds(self, legal: Json) -> bool:
        """Between rounds, a listed service move is sometimes played instead of a deal."""
        return bool(legal["service_moves"]) and self.rng.random() < SERVICE_ODDS * 10

    def pick(self, legal: Json) -> str:
        """A random legal move: a naming sampled from the cards that may be named."""
        if legal["cards_awaited"]:
            last = legal["name_last"]
            pool = [c for c in legal["nameable"] if c != last]
            named = self.rng.sample(pool, legal["cards_awaited"] - (last is not None))
            self.counts["namings"] += 1
            self.counts["named last"] += last is not None
            return "cards " + " ".join([*named, *([last] if last else [])])
        if legal["service_moves"] and (not legal["moves"] or self.rng.random() < SERVICE_ODDS):
            self.counts["service"] += 1
            return str(self.rng.choice(legal["service_moves"]))
        assert legal["moves"], f"{self.run.name}: a live round with nothing to play: {legal}"
        return str(self.rng.choice(legal["moves"]))

    def move(self, move: str) -> None:
        """Play ``move`` in the page's engine and on the server, then compare."""
        after = len(self.server.steps)
        answer = self.engine("play", [move], after)
        response = self.post("moves", {"moves": [move]})
        assert 200 == response.status_code, f"{self.run.name}: {move}: {response.text}"
        self.previous_moves = self.server.legal["moves"]
        self.recorded(response, answer, after, move)
        self.counts["moves"] += 1

    def deal(self) -> None:
        """Open the next round from the scorer's deal, in both."""
        match = self.server.match
        game, variant = self.run.game, self.run.variant
        if match["dealing"] == "physical":
            deal = physical_deal(game, variant, match["dealer"], self.rng)
        else:
            deal = shuffled_deal(game, variant, self.rng)
        after = len(self.server.steps)
        answer = self.engine("startRound", deal, after)
        response = self.post("rounds", deal)
        assert 201 == response.status_code, f"{self.run.name}: deal: {response.text}"
        self.recorded(response, answer, after, f"a {match['dealing']} deal")
        self.counts[f"{match['dealing']} deals"] += 1

    def recorded(self, response: httpx.Response, answer: Json, after: int, what: str) -> None:
        body = response.json()
        self.version = body["version"]
        self.server = self.read()
        dealt = [e for e in body["events"] if e["version"] > answer.get("version", 0)]
        if (
            self.server.match["dealing"] == "server"
            and "refused" not in answer
            and answer["match"]["round"] is None
            and dealt
            and dealt[0]["type"] == rules_for(self.run.game).round_started
        ):
            # The server dealt the next round inside the move: only it could (the deck is
            # its own shuffle). Up to that deal, the engine decided what the server did.
            self.sync(f"{what} (the server dealt)", after)
            self.counts["server deals"] += 1
            return
        self.compare(answer, after, what)
        # Every event since the engine last read the server is still its own guess.
        assert answer["guesses"] == self.version - self.synced, (
            f"{self.run.name}: {what}: {answer['guesses']} guesses"
        )
        if self.rng.random() < SYNC_ODDS:
            self.sync(what, after)

    def corrected(self) -> bool:
        """Sometimes the server takes the last move back, or notes it; whether it did."""
        if self.rng.random() < TAKEBACK_ODDS and self.take_back():
            return True
        return self.rng.random() < NOTE_ODDS and self.note()

    def take_back(self) -> bool:
        """The server takes the last move back (the engine cannot): the engine reads it."""
        steps = [s for s in self.server.steps if s["taken_back"] is None]
        if not steps or self.server.match["round"] is None:
            return False
        last = steps[-1]
        if last["round"] != self.server.match["round"]["number"] or last["seat"] is None:
            return False
        response = self.post("takeback", {"to_version": last["before_version"], "reason": "parity"})
        assert 200 == response.status_code, f"{self.run.name}: takeback: {response.text}"
        self.version = response.json()["version"]
        self.server = self.read()
        # The whole timeline: the step taken back is marked so in both.
        self.sync(f"a takeback to version {last['before_version']}", after=0)
        self.counts["takebacks"] += 1
        return True

    def note(self) -> bool:
        """The server notes the last step (the engine cannot): the engine reads it."""
        if not self.server.steps:
            return False
        version = self.server.steps[-1]["version"]
        response = self.post("notes", {"version": version, "text": f"parity note {version}"})
        assert 201 == response.status_code, f"{self.run.name}: note: {response.text}"
        self.version = response.json()["version"]
        self.server = self.read()
        self.sync(f"a note on version {version}", after=0)
        self.counts["notes"] += 1
        return True

    def refuse(self, legal: Json) -> None:
        """A move the match does not accept: the engine refuses it with the server's code."""
        wrong = self.wrong_move(legal)
        if wrong is None:
            return
        answer = self.engine("play", [wrong], len(self.server.steps))
        response = self.post("moves", {"moves": [wrong]})
        assert response.status_code >= 400, f"{self.run.name}: the server took {wrong!r}"
        where = f"{self.run.name}, match {self.id[:8]}, ply {len(self.server.steps)}, {wrong!r}"
        assert answer.get("refused") == response.json()["code"], (
            f"{where}: engine {answer} != server {response.json()['code']}"
        )
        self.counts["refusals"] += 1

    def wrong_move(self, legal: Json) -> str | None:
        """A move not legal now: a card named twice, one that cannot be drawn, or a move
        that was legal before the last one."""
        if legal["cards_awaited"]:
            config = MatchConfig(self.run.game, self.run.variant, (), 0)
            pack = format_cards(rules_for(self.run.game).deal_spec(config).pack).split()
            unseen = [c for c in pack if c not in legal["nameable"] and c != legal["name_last"]]
            if unseen:
                named = [self.rng.choice(unseen), *legal["nameable"]][: legal["cards_awaited"]]
                return "cards " + " ".join(named)
            return None
        stale = [m for m in self.previous_moves if m not in legal["moves"]]
        return self.rng.choice(stale) if stale else None


@pytest.fixture(name="reads", scope="module")
def _reads() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(4) as pool:
        yield pool


@pytest.fixture(name="signed_in", scope="module")
def _signed_in(club_browser: Any, club: str, secret: str) -> Iterator[Page]:
    """A tab signed in on the pad (the token stays in the tab), kept by every run: the
    browser's cache then holds the engine's runtime after the first load."""
    page = fresh_page(club_browser, PHONE)
    page.console = []
    page.on("console", lambda m: page.console.append(m.text))
    try:
        page.goto(f"{club}/score")
        page.fill("#token", secret)
        page.click("#sign-in-button")
        page.wait_for_selector("#new-match")
        yield page
    finally:
        page.context.close()


def open_pad_in(page: Page, club: str, match_id: str, lang: str) -> None:
    """Go to the pad of the match, its page in ``lang``, and wait for its engine."""
    page.console.clear()
    page.goto(f"{club}/matches/{match_id}/score?lang={lang}")
    wait_for_engine(page)
    assert page.evaluate("document.documentElement.lang") == lang


def test_every_variant_is_played_here(http: httpx.Client) -> None:
    """The runs below cover every game and variant the server lists."""
    games = http.get("/games").json()
    listed = {(g["game"], v["name"]) for g in games["items"] for v in g["variants"]}
    assert listed == {(r.game, r.variant) for r in RUNS}


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_the_engine_in_the_page_answers_as_the_server(
    run: Run,
    signed_in: Page,
    club: str,
    http: httpx.Client,
    scorer_headers: dict[str, str],
    reads: ThreadPoolExecutor,
) -> None:
    rng = random.Random(f"parity-{run.name}")
    started = time.monotonic()
    totals = dict.fromkeys(COUNTED, 0)
    seconds = {"engine": 0.0, "server": 0.0, "page": 0.0}
    page = signed_in
    page.errors.clear()
    matches = 0

    def missed() -> list[str]:
        """The paths no move has taken yet (the server's shuffles vary the runs a little)."""
        left = [key for key in COUNTED if key not in ("service", "left live") and not totals[key]]
        if not run.extra.get("options", {}).get("trump_indicator_bottom"):
            left = [key for key in left if key != "named last"]
        return left

    # Matches in turn dealt from physical hands, by the scorer's deck, by the server, until
    # every path was taken (a few more matches at most).
    while (totals["moves"] < MIN_MOVES or matches < len(DEALINGS) or missed()) and (
        matches < MAX_MATCHES
    ):
        dealing = DEALINGS[matches % len(DEALINGS)]
        names = [f"{run.name[:6]} {matches}.{seat}" for seat in range(run.seats)]
        body = {
            "game": run.game,
            "variant": run.variant,
            "players": make_players(http, scorer_headers, names),
            "dealing": dealing,
            "first_dealer": rng.randrange(run.seats),
            **run.extra,
            **(run.server_dealt if dealing == "server" else {}),
        }
        # Not play.create_match: its client protocol is no httpx.Client to mypy.
        created = http.post("/matches", json=body, headers=scorer_headers)
        assert 201 == created.status_code, created.text
        match = created.json()
        if matches == 0:
            # The pad page of the run's first match; the engine opens each match in it.
            opening = time.monotonic()
            open_pad_in(page, club, match["id"], run.lang)
            seconds["page"] = time.monotonic() - opening
        duel = Duel(page, http, scorer_headers, run, match, rng, reads)
        duel.open()
        duel.play(MATCH_MOVES)
        matches += 1
        for key, count in duel.counts.items():
            totals[key] += count
        for key, spent in duel.seconds.items():
            seconds[key] += spent
    assert page.errors == []
    counted = ", ".join(f"{key} {count}" for key, count in totals.items())
    print(
        f"\n{run.name} ({run.lang}): {matches} matches, {counted}; "
        f"{time.monotonic() - started:.1f}s (engine {seconds['engine']:.1f}s, "
        f"server {seconds['server']:.1f}s, the pad page and its engine's load "
        f"{seconds['page']:.1f}s)"
    )
    assert totals["moves"] >= MIN_MOVES
    assert missed() == [], f"{run.name}: no {missed()} in {matches} matches"
