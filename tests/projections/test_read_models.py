"""Read models over HTTP: series, timeline, replay, standings; and each equals its rebuild."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from domain.stream import fold
from projections.rebuild import READ_TABLES, rebuild
from projections.replay import Track
from tests.recording.play import create_match, play_to_end
from tests.recording.test_hidden_cards import (
    card_tokens,
    cuttle_hidden_and_public,
    full_events,
    hand_sizes_shown,
    kozel_hidden_and_public,
)


def snapshot(database_url: str) -> dict[str, list[Any]]:
    """Every row of every read model, as JSON text, in a stable order."""
    out = {}
    with psycopg.connect(database_url) as conn:
        for table in READ_TABLES:
            rows = conn.execute(f"SELECT row_to_json(t)::text FROM {table} t ORDER BY 1").fetchall()
            out[table] = [json.loads(r[0]) for r in rows]
    return out


def run_rebuild(database_url: str) -> None:
    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await rebuild(conn, batch_size=97)

    asyncio.run(go())


class TestRebuild:
    def test_every_read_model_equals_its_rebuild(self, league: dict[str, Any]) -> None:
        database_url = league["url"]
        before = snapshot(database_url)
        assert 6 == len(before["matches"]) == len(before["match_series"])
        assert 2 == len(before["competition_standings"])
        run_rebuild(database_url)
        assert before == snapshot(database_url)

    def test_rebuilt_ratings_match_to_the_last_digit(self, league: dict[str, Any]) -> None:
        client, database_url = league["client"], league["url"]
        url = f"/competitions/{league['cuttle']}/standings"
        ratings = [row["rating"] for row in client.get(url).json()["players"]]
        run_rebuild(database_url)
        assert ratings == [row["rating"] for row in client.get(url).json()["players"]]
        assert 3 == len(ratings)

    def test_cli_rebuild_reports_and_changes_nothing(self, league: dict[str, Any]) -> None:
        before = snapshot(league["url"])
        result = CliRunner().invoke(
            app, ["projections", "rebuild"], env={"MATCHLOG_DATABASE_URL": league["url"]}
        )
        assert 0 == result.exit_code, result.output
        assert "6 matches, 2 competitions' standings" in result.stdout
        assert before == snapshot(league["url"])

    def test_rebuild_reads_events_committed_behind_an_open_transaction(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        database_url: str,
    ) -> None:
        """An old open transaction holds the xmin horizon back; the rebuild still sees all."""
        with psycopg.connect(database_url) as blocker:
            blocker.execute("SELECT pg_current_xact_id()")
            create_match(client, scorer, {"game": "cuttle", "players": make_players(2)})
            before = snapshot(database_url)
            run_rebuild(database_url)
            after = snapshot(database_url)
            blocker.rollback()
        assert 1 == len(before["matches"])
        assert before == after


class TestSeriesAndStandings:
    def test_series_lists_rounds_with_running_totals(self, league: dict[str, Any]) -> None:
        client = league["client"]
        kozel = league["finished"][3]
        body = client.get(f"/matches/{kozel['id']}/series").json()
        assert kozel["result"]["winners"] == body["result"]["winners"]
        assert body["rounds"][-1]["totals"] == body["totals"]["loss_points"]
        assert all(sum(d["card_points"]) == 120 for d in body["rounds"])
        cuttle = client.get(f"/matches/{league['finished'][0]['id']}/series").json()
        assert cuttle["rounds"][-1]["wins"] == cuttle["totals"]["wins"]
        assert {"goal", "three-passes", "agreed-draw", "resignation"} >= {
            r["termination"] for r in cuttle["rounds"]
        }

    def test_standings_export_as_csv_and_markdown(self, league: dict[str, Any]) -> None:
        client = league["client"]
        url = f"/competitions/{league['kozel']}/standings"
        body = client.get(url).json()
        assert 4 == len(body["players"]) and 2 == len(body["pairs"])
        csv_text = client.get(url, params={"format": "csv"}).text
        assert csv_text.startswith("table,rank,name,played,won,lost,deals_won")
        assert 7 == len(csv_text.strip().splitlines())
        markdown = client.get(url, headers={"Accept": "text/markdown"}).text
        assert "## Pairs" in markdown and "| rank | name |" in markdown

    def test_competition_without_finished_matches_has_an_empty_table(
        self, client: TestClient[Any], make_competition: Any
    ) -> None:
        competition = make_competition(game="cuttle", variant="classic")
        body = client.get(f"/competitions/{competition}/standings").json()
        assert [] == body["players"] and 0 == body["matches"]


class TestReplay:
    def test_snapshots_give_the_same_state_as_a_fold_from_scratch(
        self, league: dict[str, Any]
    ) -> None:
        database_url = league["url"]
        events = full_events(database_url, league["finished"][3]["id"])
        track = Track(every=4)
        track.extend(list(enumerate(events, start=1)))
        for ply in range(len(track.plies) + 1):
            expected = fold(e for _, e in track.events[: track.end_of(ply)])
            assert expected == track.frame_after(ply).state

    def test_timeline_has_every_ply_with_a_sentence(self, league: dict[str, Any]) -> None:
        client = league["client"]
        match = league["finished"][0]
        timeline = client.get(f"/matches/{match['id']}/timeline").json()
        steps = timeline["steps"]
        assert list(range(1, len(steps) + 1)) == [s["ply"] for s in steps]
        assert all(s["sentence"].startswith(tuple(timeline["players"])) for s in steps)
        last = client.get(f"/matches/{match['id']}/replay", params={"ply": len(steps)}).json()
        assert match["result"]["winners"] == last["result"]["winners"]
        assert last["view"]["result"] is not None

    def test_replay_refuses_a_ply_past_the_end_and_hidden_views_of_live_matches(
        self, league: dict[str, Any]
    ) -> None:
        client = league["client"]
        live = league["live"]["id"]
        assert 422 == client.get(f"/matches/{live}/replay", params={"ply": 1}).status_code
        forbidden = client.get(f"/matches/{live}/replay", params={"ply": 0, "seat": "0"})
        assert "FORBIDDEN" == forbidden.json()["code"]
        public = client.get(f"/matches/{live}/replay", params={"ply": 0}).json()
        assert public["seats"] is None and public["view"]["seat"] is None


@pytest.mark.parametrize(("game", "variant"), [("cuttle", "standard"), ("kozel", "default")])
def test_no_hidden_card_in_timeline_or_replay_while_live(
    client: TestClient[Any],
    scorer: dict[str, str],
    make_players: Any,
    database_url: str,
    game: str,
    variant: str,
) -> None:
    players = make_players(2 if game == "cuttle" else 4)
    fmt = {"format": "short"} if game == "cuttle" else {"options": {"loss_limit": 2}}
    match = create_match(
        client, scorer, {"game": game, "variant": variant, "players": players, **fmt}
    )
    checked = 0

    def check(current: dict[str, Any]) -> None:
        nonlocal checked
        if current["status"] != "live" or current["round"] is None:
            return
        events = full_events(database_url, match["id"])
        state = fold(events)
        split = cuttle_hidden_and_public if game == "cuttle" else kozel_hidden_and_public
        hidden, table = split(events, state)
        timeline = client.get(f"/matches/{match['id']}/timeline").json()
        this_round = [s for s in timeline["steps"] if s["round"] == state.rounds_started]
        if not this_round:
            # A server-dealt round that has just begun: the last ply is the previous
            # round's end, whose cards were shuffled into this round's deck.
            assert not hidden & card_tokens(this_round)
            return
        ply = this_round[-1]["ply"]
        replay = client.get(f"/matches/{match['id']}/replay", params={"ply": ply}).json()
        leaked = hidden & (card_tokens(this_round) | card_tokens(replay))
        assert not leaked, f"hidden cards {sorted(leaked)} shown to a spectator"
        assert table <= card_tokens(replay["view"]), "the public table is missing"
        assert [len(h) for h in state.position.hands] == hand_sizes_shown(replay["view"])
        checked += 1

    play_to_end(client, scorer, match, random.Random(5), after_each=check)
    assert checked >= 3
