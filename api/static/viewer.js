// matchlog viewer: draws a match at any ply, or a competition, from the JSON API.
// Every read is anonymous, so while a match is live the page gets only the public view.
"use strict";

(() => {
  const {
    w,
    wn,
    day,
    el,
    getJSON,
    showError,
    follow,
    reveal,
    debounce,
    playersText,
    roundWord,
    roundTitle,
    scoreText,
    noteText,
    takenBackText,
    resultText,
    scoreSheet,
    entrantText,
    fixtureResultText,
    standingsTable,
    games,
    describe,
    gameTitle,
    drawTable,
  } = window.MatchTable;

  // -- the match page --------------------------------------------------------------------

  function matchPage(matchId) {
    const S = {
      id: matchId,
      match: null,
      d: null, // the game's presentation descriptor (GET /games)
      series: null,
      names: [],
      steps: [],
      notes: [],
      ply: 0,
      plies: 0,
      following: true,
      cache: new Map(),
      asked: 0,
      stopFeed: null,
    };
    const base = "/matches/" + matchId;
    const app = document.getElementById("app");

    const title = el("h1");
    const badge = el("span", { id: "status", class: "badge" });
    const back = el("a", { id: "competition-link", hidden: true, text: w("viewer.competition") });
    const score = el("p", { id: "score" });
    const slider = el("input", {
      id: "slider",
      type: "range",
      min: 0,
      max: 0,
      value: 0,
      "aria-label": w("viewer.ply"),
    });
    const plyLabel = el("span", { id: "ply-label" });
    const button = (id, text, label, delta) =>
      el("button", {
        id,
        type: "button",
        text,
        "aria-label": label,
        title: label,
        onclick: () => go(delta === "first" ? 0 : delta === "last" ? latest() : S.ply + delta),
      });
    const controls = el(
      "nav",
      { class: "controls", "aria-label": w("viewer.controls") },
      button("first", "\u00AB", w("viewer.first"), "first"),
      button("prev", "\u25C0\uFE0E", w("viewer.prev"), -1),
      slider,
      button("next", "\u25B6\uFE0E", w("viewer.next"), 1),
      button("last", "\u00BB", w("viewer.last"), "last"),
      plyLabel,
    );
    const sentence = el("p", { id: "sentence" });
    // Which round the ply is in (the game's round word), beside its sentence.
    const roundBadge = el("span", { id: "round", class: "badge round" });
    const notes = el("ul", { id: "notes", class: "notes" });
    const table = el("section", { id: "table", "aria-label": w("viewer.table") });
    const list = el("ol", { id: "timeline-list" });
    // Each player's name links to their page (matches, ratings, head-to-head).
    const playerLinks = el("p", { id: "players", class: "players" });
    const timeline = el(
      "aside",
      { id: "timeline", "aria-label": w("viewer.timeline") },
      playerLinks,
      el("h2", { text: w("viewer.timeline") }),
      list,
    );
    app.replaceChildren(
      el("header", {}, el("div", { class: "title-row" }, title, badge, back), score),
      controls,
      el("section", { id: "now", "aria-label": w("viewer.this_ply") }, el("div", { class: "now-row" }, roundBadge, sentence), notes),
      el(
        "div",
        { class: "layout" },
        table,
        timeline,
      ),
    );

    slider.addEventListener("input", () => go(Number(slider.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement && event.target !== slider) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const moves = { ArrowLeft: S.ply - 1, ArrowRight: S.ply + 1, Home: 0, End: latest() };
      if (!(event.key in moves)) return;
      event.preventDefault();
      go(moves[event.key]);
    });

    const live = () => S.match && S.match.status === "live";
    // The match as it is now: after its last ply no takeback undid (plies a takeback
    // undid keep their numbers, struck through, and can still be stepped to).
    const latest = () => {
      const kept = S.steps.filter((step) => !step.taken_back);
      return kept.length ? kept[kept.length - 1].ply : 0;
    };
    const seatParam = () => (live() ? "public" : "full");

    // ``keepUp``: whether live updates move the reader along. By default a reader who
    // steps to the newest ply follows; one who steps elsewhere stays (a taken-back ply
    // after the newest one included: they are reading it).
    function go(ply, keepUp) {
      const target = Math.max(0, Math.min(S.plies, Number.isFinite(ply) ? ply : 0));
      S.ply = target;
      S.following = keepUp === undefined ? target === latest() : keepUp;
      const url = new URL(location.href);
      url.searchParams.set("ply", String(target));
      history.replaceState(null, "", url);
      return show(target);
    }

    // Returns [body, fresh]: a fresh body's ``plies`` is the match's count right now.
    async function replayAt(ply) {
      const key = seatParam() + ":" + ply;
      if (S.cache.has(key)) return [S.cache.get(key), false];
      const body = await getJSON(base + "/replay?ply=" + ply + "&seat=" + seatParam());
      // While live the last ply may still gain derived events; earlier plies change only
      // by a takeback, which clears the cache (see load).
      if (!live() || ply < body.plies) S.cache.set(key, body);
      return [body, true];
    }

    async function show(ply) {
      const asked = ++S.asked;
      let replay, fresh;
      try {
        [replay, fresh] = await replayAt(ply);
      } catch (error) {
        showError(error.message);
        return;
      }
      if (asked !== S.asked) return; // a later step overtook this one
      if (fresh) S.plies = replay.plies;
      draw(replay);
    }

    function stepsAt(ply) {
      return S.steps.filter((step) => step.ply === ply);
    }

    // Steps carry the notes on their plies; the timeline's own list holds them all, so
    // the ones no step carries (on the match's creation or first deal) go with ply 0.
    function looseNotes() {
      const carried = new Set(S.steps.flatMap((step) => (step.notes || []).map((n) => n.version)));
      return S.notes.filter((note) => !carried.has(note.version));
    }

    function notesAt(ply) {
      return ply === 0 ? looseNotes() : stepsAt(ply).flatMap((step) => step.notes || []);
    }

    function draw(replay) {
      const d = S.d;
      slider.max = String(S.plies);
      slider.value = String(S.ply);
      plyLabel.textContent = w("viewer.ply_of", { ply: S.ply, plies: S.plies });
      const result = replay.result ? " · " + resultText(replay.result, S.names, d) : "";
      score.textContent = scoreText(d, replay.score, S.names) + result;
      const step = stepsAt(S.ply).find((s) => !s.taken_back) || stepsAt(S.ply)[0];
      sentence.textContent =
        S.ply === 0
          ? w("viewer.before_first")
          : step
            ? (step.taken_back ? w("viewer.taken_back_sentence", { sentence: step.sentence }) : step.sentence)
            : w("viewer.ply_n", { ply: S.ply });
      sentence.classList.toggle("taken-back", Boolean(step && step.taken_back));
      const round = replay.round || (step && step.round);
      roundBadge.textContent = round ? roundTitle(d, round) : "";
      roundBadge.hidden = !round;
      notes.replaceChildren(
        ...(step && step.taken_back && S.ply ? [el("li", { class: "undo", text: takenBackText(step.taken_back) })] : []),
        ...notesAt(S.ply).map((note) => el("li", { class: "note", text: noteText(note) })),
      );
      const seats = replay.seats || null;
      const body = S.series
        ? [scoreSheet(d, S.series, S.names, sheetRound(replay))]
        : replay.view === null
          ? [el("p", { class: "empty", text: w("viewer.no_round", { round: roundWord(d) }) })]
          : drawTable(d, replay.view, seats, S.names, Boolean(replay.result));
      table.replaceChildren(...body);
      table.dataset.ply = String(S.ply);
      table.dataset.seat = replay.seat === null ? (seats ? "full" : "public") : String(replay.seat);
      for (const item of list.children) {
        const current = Number(item.dataset.ply) === S.ply && !item.classList.contains("taken-back");
        item.classList.toggle("current", current);
        if (current) item.setAttribute("aria-current", "step");
        else item.removeAttribute("aria-current");
      }
      const current = list.querySelector("li.current");
      if (current) reveal(timeline, current);
    }

    // A score sheet at a ply shows the rounds entered up to it: those before its round,
    // and its own unless a takeback undid it (the sheet then holds what replaced it).
    // The replay's round is read, not the timeline step's: after a takeback of a result
    // the step's round runs one ahead ("Gil won round 1" in round 2).
    function sheetRound(replay) {
      if (!replay.round) return 0;
      return replay.taken_back ? replay.round - 1 : replay.round;
    }

    function notesList(list) {
      return list.length ? el("ul", { class: "notes" }, ...list.map((n) => el("li", { class: "note", text: noteText(n) }))) : null;
    }

    function drawTimeline() {
      let round = null;
      const items = [
        el(
          "li",
          { "data-ply": 0, class: "step" },
          el("button", { type: "button", onclick: () => go(0) }, w("viewer.start")),
          notesList(looseNotes()),
        ),
      ];
      for (const step of S.steps) {
        if (step.round !== round) {
          round = step.round;
          items.push(el("li", { class: "round", text: roundTitle(S.d, round) }));
        }
        items.push(
          el(
            "li",
            { class: "step" + (step.taken_back ? " taken-back" : ""), "data-ply": step.ply },
            el(
              "button",
              { type: "button", onclick: () => go(step.ply) },
              el("span", { class: "ply-number", text: step.ply + "." }),
              " ",
              el("span", { class: "sentence", text: step.sentence }),
              step.taken_back
                ? el("span", { class: "badge taken", title: takenBackText(step.taken_back), text: w("viewer.taken_back") })
                : null,
            ),
            notesList(step.notes || []),
          ),
        );
      }
      list.replaceChildren(...items);
    }

    async function load() {
      // The match before its timeline, not beside it: a timeline read first could miss the
      // last moves of a match then read as finished, and a finished match stops the feed
      // that would have brought them (seen under load in CI).
      const match = await getJSON(base);
      const timeline = await getJSON(base + "/timeline");
      S.d = await describe(match.game);
      // A match recorded by results has no table to draw: its score sheet is the series.
      S.series = match.recording === "results" ? await getJSON(base + "/series") : null;
      S.match = match;
      S.names = timeline.players;
      // A timeline that no longer extends the one drawn (a takeback) invalidates the cache.
      const signature = (steps) => steps.map((s) => s.version + (s.taken_back ? "x" : "")).join(",");
      if (!signature(timeline.steps).startsWith(signature(S.steps))) S.cache.clear();
      S.steps = timeline.steps;
      S.notes = Array.isArray(timeline.notes) ? timeline.notes : [];
      // Plies are counted over everything recorded: an undone ply keeps its number.
      S.plies = S.steps.length;
      title.textContent = gameTitle(S.d, match.variant) + " · " + playersText(S.d, S.names);
      playerLinks.replaceChildren(...match.players.map((p, s) => el("a", { class: "player-link", href: "/players/" + p + "/view", text: S.names[s] || p.slice(0, 8) })));
      title.title = title.textContent;
      document.title = title.textContent + " · matchlog";
      badge.textContent = w("status." + match.status);
      badge.className = "badge " + match.status;
      document.body.dataset.status = match.status;
      if (match.competition_id) {
        back.hidden = false;
        back.href = "/competitions/" + match.competition_id + "/view";
      }
      drawTimeline();
    }

    async function refresh() {
      const wasLive = live();
      try {
        await load();
      } catch (error) {
        showError(error.message);
        return;
      }
      if (wasLive && !live()) {
        S.cache.clear(); // the whole record is public now
        if (S.stopFeed) S.stopFeed();
      }
      // Read after the load: a reader may have stepped while it ran.
      await go(S.following ? latest() : S.ply, S.following);
    }

    // One refresh at a time, so an older answer never overwrites a newer one.
    let refreshing = false;
    let again = false;
    async function refreshOnce() {
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      do {
        again = false;
        await refresh();
      } while (again);
      refreshing = false;
    }

    (async () => {
      try {
        await load();
      } catch (error) {
        showError(error.message);
        return;
      }
      const asked = new URL(location.href).searchParams.get("ply");
      const linked = asked !== null && /^\d+$/.test(asked);
      // A link to a ply stays at that ply, even the last one, while the match goes on.
      await go(linked ? Number(asked) : latest(), !linked);
      if (live()) S.stopFeed = follow(base + "/live", debounce(refreshOnce, 60));
    })();
  }

  // -- the competition page -----------------------------------------------------------------

  function competitionPage(competitionId) {
    const app = document.getElementById("app");
    const base = "/competitions/" + competitionId;
    const names = new Map();

    async function playerName(id) {
      if (!names.has(id)) {
        names.set(
          id,
          getJSON("/players/" + id).then((p) => p.display_name, () => id.slice(0, 8)),
        );
      }
      return names.get(id);
    }

    async function allMatches() {
      const items = [];
      let cursor = null;
      for (let page = 0; page < 20; page += 1) {
        const query = "?competition_id=" + competitionId + "&limit=100" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
        const body = await getJSON("/matches" + query);
        items.push(...body.items);
        cursor = body.next_cursor;
        if (!cursor) break;
      }
      return items;
    }

    // Each round a section: its tables (entrants by their players' names, the result
    // from the first entrant's side, a link to the match) and its byes.
    async function roundsSection(fixtures, entrants, matches) {
      if (!fixtures.rounds.length) return null;
      const ids = new Set(entrants.flatMap((e) => e.players));
      for (const round of fixtures.rounds) for (const t of round.tables) t.players.forEach((p) => ids.add(p));
      const names = new Map(await Promise.all([...ids].map(async (p) => [p, await playerName(p)])));
      const players = new Map(entrants.map((e) => [e.id, e.players]));
      const entrant = (id) => entrantText(players.get(id) || [id], names);
      const status = new Map(matches.map((m) => [m.id, m.status]));
      const sections = fixtures.rounds.map((round) =>
          el(
            "section",
            { class: "round", "data-round": round.number, "aria-label": w("fixtures.round", { n: round.number }) },
            el("h3", { text: w("fixtures.round", { n: round.number }) + (round.rematches ? " · " + wn("fixtures.rematches", round.rematches) : "") }),
            el(
              "div",
              { class: "scroll" },
              el(
                "table",
                { class: "fixtures" },
                el("thead", {}, el("tr", {}, ...["table", "entrants", "result", "match"].map((h) => el("th", { scope: "col", text: w("fixtures.col." + h) })))),
                el(
                  "tbody",
                  {},
                  ...round.tables.map((t, i) =>
                    el(
                      "tr",
                      { "data-table": t.id, "data-match": t.match_id },
                      el("td", { text: String(i + 1) }),
                      el("td", { class: "entrants" }, ...t.entrants.flatMap((e, k) => [k ? el("span", { class: "versus", text: w("versus") }) : null, el("span", { class: "entrant", "data-entrant": e, text: entrant(e) })])),
                      el("td", { class: "result", text: fixtureResultText(t, status.get(t.match_id)) }),
                      el("td", {}, t.match_id ? el("a", { href: "/matches/" + t.match_id + "/view", text: w("fixtures.view") }) : null),
                    ),
                  ),
                ),
              ),
            ),
            round.byes.length
              ? el("p", { class: "byes" }, w("fixtures.bye"), ...round.byes.flatMap((e, k) => [k ? w("comma") : null, el("span", { class: "entrant", "data-entrant": e, text: entrant(e) })]))
              : null,
          ),
        );
      return el("section", { id: "rounds" }, el("h2", { text: w("fixtures.rounds") }), ...sections);
    }

    async function render() {
      const [described, competition, standings, matches, fixtures, entrants] = await Promise.all([
        games(),
        getJSON(base),
        getJSON(base + "/standings"),
        allMatches(),
        getJSON(base + "/fixtures"),
        getJSON(base + "/entrants"),
      ]);
      const rounds = await roundsSection(fixtures, entrants.items, matches);
      // Every match of a competition is of its game.
      const d = described.get(competition.game);
      if (!d) throw new Error(w("error.undescribed", { game: competition.game }));
      const rows = await Promise.all(
        matches.map(async (m) => {
          const players = await Promise.all(m.players.map(playerName));
          return el(
            "tr",
            { "data-match": m.id },
            el("td", { text: day(m.created_at) }),
            el("td", {}, el("a", { href: "/matches/" + m.id + "/view", text: playersText(d, players) })),
            el("td", {}, el("span", { class: "badge " + m.status, text: w("status." + m.status) })),
            el("td", { class: "series", text: scoreText(d, m.score, players) + (m.result ? " · " + resultText(m.result, players, d) : "") }),
          );
        }),
      );
      const tables = [el("h2", { text: w("competition.standings") }), standingsTable(standings.players || [])];
      if (standings.pairs) tables.push(el("h3", { text: w("competition.pairs") }), standingsTable(standings.pairs));
      app.replaceChildren(
        el("header", {}, el("h1", { text: competition.name }), el("p", {}, el("span", { class: "game", text: gameTitle(d, competition.variant) }), " · " + wn("finished_matches", standings.matches))),
        // A competition without fixtures has no rounds section (not the text "null").
        ...(rounds ? [rounds] : []),
        el("section", { id: "standings" }, ...tables),
        el(
          "section",
          { id: "matches" },
          el("h2", { text: w("competition.matches") }),
          matches.length
            ? el(
                "div",
                { class: "scroll" },
                el(
                  "table",
                  { class: "matches" },
                  el("thead", {}, el("tr", {}, ...["date", "players", "status", "series"].map((h) => el("th", { scope: "col", text: w("competition.col." + h) })))),
                  el("tbody", {}, ...rows),
                ),
              )
            : el("p", { class: "empty", text: w("competition.no_matches") }),
        ),
      );
      return matches.some((m) => m.status === "live");
    }

    (async () => {
      try {
        if (await render()) follow(base + "/live", debounce(() => render().catch((e) => showError(e.message)), 1000));
      } catch (error) {
        showError(error.message);
      }
    })();
  }

  const { page, id } = document.body.dataset;
  if (page === "match") matchPage(id);
  else if (page === "competition") competitionPage(id);
})();
