// matchlog scorer's pad: sign in, pick or create a live match, and record it with taps.
// Nothing here knows what is legal: every move, its card, target and sentence come from
// GET /matches/{id}/legal-moves, or, once the engine has loaded in the page (engine.js:
// the server's own rules on Pyodide), from that engine, which decides a tapped move at
// once while the server's answer still decides.
// Works on a non-secure origin (a club's LAN address): no crypto.randomUUID, no
// service worker; the token stays in sessionStorage, the pending writes in localStorage.
"use strict";

(() => {
  const T = window.MatchTable;
  const { w, wn, dayTime, el, card, cardText, getJSON, follow, debounce, playersText, roundWord, roundTitle, variantName, gameTitle, scoreText, resultText, scoreSheet, takenBackText, noteText, entrantText, fixtureResultText, games, describe } = T;

  const { token, auth, newKey, send, problemText, message, allPages } = window.MatchSession;
  const app = document.getElementById("app");

  // -- sign in -------------------------------------------------------------------------

  const SIGN_IN = {
    title: w("sign_in.title"),
    label: w("pad.token"),
    hint: w("sign_in.hint"),
    refused: (status) => w("sign_in.refused", { status }),
    unreachable: w("unreachable"),
    button: w("sign_in.button"),
  };
  // Checked by a read that needs it.
  const signInForm = (after) => window.MatchSession.signInForm(after, "/matches?status=live&writable=true&limit=1", SIGN_IN);
  const signOutButton = () => window.MatchSession.signOutButton(w("sign_out"));

  // -- /score: matches and a new match -----------------------------------------------

  // Starts matches: the match's id and Idempotency-Key are made once per body and sent
  // again when the same body is sent again (after a lost answer), so a retry makes no
  // second match; another body makes a new attempt. On success the pad opens the match.
  function matchStarter() {
    let attempt = null;
    return async (body) => {
      const signature = JSON.stringify(body);
      if (!attempt || attempt.signature !== signature) attempt = { signature, id: newKey(), key: newKey() };
      const made = await send("/matches", { ...body, id: attempt.id }, { "Idempotency-Key": attempt.key });
      if (made.status !== 201) {
        const error = new Error(problemText(made.body, made.status));
        error.code = made.body && made.body.code;
        throw error;
      }
      location.assign("/matches/" + made.body.id + "/score");
    };
  }

  async function homePage() {
    if (!token()) {
      app.replaceChildren(el("header", {}, el("h1", { text: w("home.pad") })), signInForm(homePage));
      return;
    }
    app.replaceChildren(el("header", {}, el("h1", { text: w("home.pad") }), signOutButton()), el("p", { class: "loading", text: w("loading") }));
    let matches, players, described;
    try {
      [matches, players, described] = await Promise.all([allPages("/matches?status=live&writable=true"), allPages("/players"), games()]);
    } catch (error) {
      app.append(message("error", error.message, "error"));
      return;
    }
    const names = new Map(players.map((p) => [p.id, p.display_name]));
    let list;
    try {
      list = matches.length ? await liveList(matches, described, names) : el("p", { id: "live-matches", class: "empty", text: w("pad.no_live") });
    } catch (error) {
      list = message("error", error.message, "error");
    }
    const fixtures = el("section", { id: "fixtures", "aria-label": w("pad.fixtures") });
    app.replaceChildren(
      el("header", {}, el("h1", { text: w("home.pad") }), signOutButton()),
      el("section", { id: "matches" }, el("h2", { text: w("pad.live") }), list),
      fixtures,
      newMatchForm(players, [...described.values()]),
    );
    fixturesSection(fixtures, names);
  }

  // The live matches by competition (those outside any last), each with its round and
  // table when a fixture made it, and when it started: two matches of the same players
  // differ by these.
  async function liveList(matches, described, names) {
    const groups = new Map();
    for (const m of matches) {
      const key = m.competition_id || "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(m);
    }
    const keys = [...groups.keys()].sort((a, b) => (a === "") - (b === ""));
    const sections = await Promise.all(
      keys.map(async (key) => {
        const [competition, fixtures] = key
          ? await Promise.all([getJSON("/competitions/" + key, auth()), getJSON("/competitions/" + key + "/fixtures", auth())])
          : [null, { rounds: [] }];
        const where = new Map();
        for (const round of fixtures.rounds) round.tables.forEach((t, i) => t.match_id && where.set(t.match_id, w("pad.round_table", { round: round.number, table: i + 1 })));
        return el(
          "section",
          { class: "live-group", "data-competition": key },
          el("h3", { text: competition ? competition.name : w("home.outside") }),
          el("ul", { class: "match-list" }, ...groups.get(key).map((m) => el("li", { "data-match": m.id }, matchLink(m, described.get(m.game), names, where.get(m.id))))),
        );
      }),
    );
    return el("div", { id: "live-matches" }, ...sections);
  }

  // When a match started, to the second, in the reader's own time, naming its zone
  // (timeStyle "long" is "medium" with the zone).
  const startedAt = new Intl.DateTimeFormat(T.LANG, { dateStyle: "short", timeStyle: "long" });
  const started = (iso) => startedAt.format(new Date(iso));

  // A live match in the list: its game and variant, its players, and where and when it started.
  function matchLink(m, d, names, where) {
    const who = m.players.map((p) => names.get(p) || p.slice(0, 8));
    return el(
      "a",
      { class: "match-link", href: "/matches/" + m.id + "/score" },
      el("strong", { class: "game", text: d ? gameTitle(d, m.variant) : m.game }),
      " ",
      el("span", { class: "who", text: d ? playersText(d, who) : who.join(w("versus")) }),
      // The match's own number last: two started in the same second still differ.
      el("small", { class: "when", text: [where, w("pad.started", { time: started(m.created_at) }), w("pad.match_id", { id: m.id.slice(0, 8) })].filter(Boolean).join(" · ") }),
    );
  }

  // How a new match is dealt: the same choice in the new-match form and for fixtures.
  function dealingSelect(id) {
    return el(
      "select",
      { id },
      el("option", { value: "physical", text: w("dealing.physical") }),
      el("option", { value: "scorer", text: w("dealing.scorer") }),
      el("option", { value: "server", text: w("dealing.server") }),
    );
  }

  // Recorded move by move, or as a score sheet (each round's result only: no deal).
  function recordingSelect(id) {
    return el(
      "select",
      { id },
      el("option", { value: "moves", text: w("recording.moves") }),
      el("option", { value: "results", text: w("recording.results") }),
    );
  }

  // The part of a new match's body the two choices give: a score sheet deals nothing.
  function howRecorded(dealing, recording) {
    return recording.value === "results" ? { recording: "results" } : { dealing: dealing.value };
  }

  // The dealing choice only matters to a match recorded move by move.
  function hideDealingForResults(dealingField, recording) {
    const sync = () => (dealingField.hidden = recording.value === "results");
    recording.addEventListener("change", sync);
    sync();
  }

  // How many competitions the home page reads the fixtures of, newest first: one
  // request each, and a club night's token is limited to one or two.
  const FIXTURE_COMPETITIONS = 20;
  // Up to this many competitions' groups are drawn open; more are drawn collapsed (a
  // tap on a heading opens its group), so a phone is not a wall of tables.
  const OPEN_GROUPS = 3;

  // A table without a result whose match is not live: its match was voided (a finished
  // match gives its table a result), so the table takes a new one, as the API allows.
  const voidTable = (t, live) => Boolean(t.match_id) && !t.result && !live.has(t.match_id);
  // A table still to play: no result yet (no match, a void one, or a live one; a
  // forfeit is a result).
  const openTable = (t) => !t.result;

  // The current round of each competition this token may record in: the first round
  // with a table still to play, else the last round.
  function currentRound(rounds) {
    return rounds.find((r) => r.tables.some(openTable)) || rounds[rounds.length - 1];
  }

  async function fixturesSection(box, names) {
    // One starter per table and the void match it replaces (none: ""), kept across
    // redraws, so a retry after a lost answer sends the same match id and key, and a
    // table voided again takes a new match.
    const starters = new Map();
    const dealing = dealingSelect("fixture-dealing");
    const recording = recordingSelect("fixture-recording");
    const dealingField = el("label", { class: "field" }, el("span", { text: w("pad.fixture_dealing") }), dealing);
    hideDealingForResults(dealingField, recording);

    function tableItem(competition, table, entrants, live) {
      const problem = el("p", { class: "message error", role: "alert", hidden: true });
      const players = (id) => entrantText(entrants.get(id) || [id], names);
      const who = table.entrants.map(players).join(w("versus"));
      // A forfeited table (a result without a match) takes no match: no action.
      let action = null;
      if ((!table.match_id && !table.result) || voidTable(table, live)) {
        const key = table.id + ":" + (table.match_id || "");
        if (!starters.has(key)) starters.set(key, matchStarter());
        action = el("button", {
          type: "button",
          class: "primary start-fixture",
          text: w("pad.start"),
          "aria-label": w("pad.start_who", { who }),
          onclick: async (event) => {
            const button = event.currentTarget;
            button.disabled = true;
            problem.hidden = true;
            const body = { game: competition.game, players: table.players, fixture_id: table.id, ...howRecorded(dealing, recording) };
            try {
              await starters.get(key)(body);
            } catch (error) {
              button.disabled = false;
              problem.hidden = false;
              problem.textContent = error.message;
              // Another device started it first: read the round again to open that match.
              if (error.code === "FIXTURE_TAKEN") draw();
            }
          },
        });
      } else if (live.has(table.match_id)) {
        action = el("a", { class: "open-fixture", href: "/matches/" + table.match_id + "/score", text: w("pad.open") });
      } else if (table.match_id) {
        action = el("a", { class: "view-fixture", href: "/matches/" + table.match_id + "/view", text: w("pad.viewer") });
      }
      const status = table.result ? undefined : voidTable(table, live) ? "void" : "live";
      return el(
        "li",
        { class: "fixture", "data-table": table.id, "data-match": table.match_id },
        el("span", { class: "who", text: who }),
        el("span", { class: "fixture-result", text: fixtureResultText(table, status) }),
        action,
        problem,
      );
    }

    async function competitionBox(competition, live) {
      const base = "/competitions/" + competition.id;
      const [fixtures, entrants] = await Promise.all([getJSON(base + "/fixtures", auth()), getJSON(base + "/entrants", auth())]);
      if (!fixtures.rounds.length) return null;
      const round = currentRound(fixtures.rounds);
      const players = new Map(entrants.items.map((e) => [e.id, e.players]));
      // A group per competition, as the live matches are: its name the heading, its
      // current round's tables under it.
      return el(
        "details",
        { class: "competition", "data-competition": competition.id, "data-round": round.number, "data-open-tables": round.tables.filter(openTable).length },
        el("summary", {}, el("h3", { text: competition.name + " · " + w("pad.round_of", { round: round.number, rounds: fixtures.rounds.length }) })),
        el("ul", { class: "fixture-list" }, ...round.tables.map((t) => tableItem(competition, t, players, live))),
        round.byes.length ? el("p", { class: "hint byes", text: w("fixtures.bye") + round.byes.map((e) => entrantText(players.get(e) || [e], names)).join(w("comma")) }) : null,
      );
    }

    async function draw() {
      let boxes;
      try {
        const [competitions, live] = await Promise.all([
          getJSON("/competitions?writable=true&limit=" + FIXTURE_COMPETITIONS, auth()),
          allPages("/matches?status=live&writable=true"),
        ]);
        const liveIds = new Set(live.map((m) => m.id));
        boxes = (await Promise.all(competitions.items.map((c) => competitionBox(c, liveIds)))).filter(Boolean);
      } catch (error) {
        box.replaceChildren(el("h2", { text: w("pad.fixtures_title") }), message("fixtures-error", error.message, "error"));
        return;
      }
      // Competitions with a table to play (unplayed or live) first, the rest after, each
      // part newest first as listed; a group the reader opened stays open on a redraw.
      const toPlay = (b) => Number(b.dataset.openTables) > 0;
      boxes.sort((a, b) => toPlay(b) - toPlay(a));
      const opened = new Set([...box.querySelectorAll("details.competition[open]")].map((d) => d.dataset.competition));
      for (const b of boxes) b.open = boxes.length <= OPEN_GROUPS || opened.has(b.dataset.competition);
      box.hidden = !boxes.length;
      box.replaceChildren(
        el("h2", { text: w("pad.fixtures_title") }),
        el("label", { class: "field" }, el("span", { text: w("pad.fixture_recording") }), recording),
        dealingField,
        ...boxes,
      );
    }
    box.hidden = true;
    await draw();
  }

  // The new-match form: the games, their variants and settings as the server describes them.
  function newMatchForm(players, described) {
    const field = (label, control) => el("label", { class: "field" }, el("span", { text: label }), control);
    const byName = new Map(described.map((d) => [d.game, d]));
    const game = el("select", { id: "game" }, ...described.map((d) => el("option", { value: d.game, text: d.label })));
    const variant = el("select", { id: "variant" });
    const settings = el("div", { class: "settings" });
    const dealing = dealingSelect("dealing");
    const recording = recordingSelect("recording");
    const seats = el("div", { id: "seats" });
    const problem = el("p", { class: "message error", role: "alert", hidden: true });
    const dealingField = field(w("pad.dealing"), dealing);
    hideDealingForResults(dealingField, recording);
    const current = () => byName.get(game.value);
    // A setting's control: its id is its name ("loss_limit": #loss-limit).
    const control = (setting) => {
      const id = setting.name.replace(/_/g, "-");
      if (setting.kind === "number") {
        return [el("input", { id, "data-setting": setting.name, type: "number", min: setting.minimum, value: setting.default, inputmode: "numeric" })];
      }
      const choices = setting.choices.length ? el("datalist", { id: id + "-choices" }, ...setting.choices.map((c) => el("option", { value: c }))) : null;
      return [el("input", { id, "data-setting": setting.name, value: setting.default, list: choices ? id + "-choices" : null, autocomplete: "off" }), choices];
    };

    function seatControl(s) {
      const pick = el(
        "select",
        { "data-seat": s, class: "player", "aria-label": w("pad.player_in_seat", { seat: s }) },
        el("option", { value: "", text: w("pad.pick_player") }),
        ...players.map((p) => el("option", { value: p.id, text: p.display_name })),
        el("option", { value: "new", text: w("pad.new_player") }),
      );
      const name = el("input", { class: "new-player", "data-seat": s, placeholder: w("pad.name"), hidden: true, "aria-label": w("pad.new_player_in_seat", { seat: s }) });
      pick.addEventListener("change", () => {
        name.hidden = pick.value !== "new";
        if (!name.hidden) name.focus();
      });
      // POST /players is idempotent by the id the client picks: the same id is sent
      // again when the form is sent again (after a lost answer), a new one for a new name.
      name.addEventListener("input", () => delete name.dataset.playerId);
      const d = current();
      const team = d.teams.findIndex((t) => t.seats.includes(s));
      const label = w("pad.seat", { seat: s }) + (team >= 0 ? " · " + d.team_word + " " + d.teams[team].label : "");
      return el("div", { class: "seat-pick" }, el("span", { text: label }), pick, name);
    }

    function redraw() {
      const d = current();
      variant.replaceChildren(...d.variants.map((v) => el("option", { value: v.name, text: variantName(d, v.name) })));
      const controls = d.settings.map(control);
      settings.replaceChildren(...controls.map(([input], i) => field(d.settings[i].label, input)), ...controls.flatMap(([, choices]) => (choices ? [choices] : [])));
      syncSeats();
    }
    function syncSeats() {
      const count = current().variants.find((v) => v.name === variant.value).seats;
      seats.replaceChildren(...Array.from({ length: count }, (_, s) => seatControl(s)));
    }
    game.addEventListener("change", redraw);
    variant.addEventListener("change", syncSeats);
    redraw();

    // One attempt per form content (matchStarter): sending the same form again after a
    // lost answer makes no second match.
    const start = matchStarter();

    async function submit(event) {
      event.preventDefault();
      problem.hidden = true;
      const chosen = [];
      try {
        for (const box of seats.querySelectorAll(".seat-pick")) {
          const pick = box.querySelector("select");
          const name = box.querySelector("input");
          if (pick.value === "new") {
            if (!name.dataset.playerId) name.dataset.playerId = newKey();
            const made = await send("/players", { id: name.dataset.playerId, display_name: name.value.trim() });
            if (made.status !== 201 && made.status !== 200) throw new Error(problemText(made.body, made.status));
            chosen.push(made.body.id);
          } else if (pick.value) chosen.push(pick.value);
          else throw new Error(w("pad.pick_every_seat"));
        }
        const body = { game: game.value, variant: variant.value, players: chosen, ...howRecorded(dealing, recording) };
        for (const setting of current().settings) {
          const input = settings.querySelector('[data-setting="' + setting.name + '"]');
          const value = setting.kind === "number" ? Number(input.value) : input.value.trim() || setting.default;
          if (setting.field === "format") body.format = value;
          else body.options = { ...(body.options || {}), [setting.name]: value };
        }
        await start(body);
      } catch (error) {
        problem.hidden = false;
        problem.textContent = error.message;
      }
    }

    return el(
      "form",
      { id: "new-match", class: "card-box", onsubmit: submit },
      el("h2", { text: w("pad.new_match") }),
      field(w("pad.game"), game),
      field(w("pad.variant"), variant),
      settings,
      field(w("pad.recording"), recording),
      dealingField,
      el("fieldset", {}, el("legend", { text: w("pad.players") }), seats),
      problem,
      el("button", { id: "create-match", type: "submit", class: "primary", text: w("pad.start_match") }),
    );
  }

  // -- the pad for one match ----------------------------------------------------------

  const REASONS = [w("undo.wrong_card"), w("undo.wrong_player"), w("undo.taken_back")];
  // The pack of a match's variant as the pickers show it: a row per suit, the jokers last.
  function packOf(d, match) {
    const found = d.variants.find((v) => v.name === match.variant) || d.variants[0];
    const pack = found.pack;
    const rows = pack.suits.split("").map((suit) => pack.ranks.split("").map((rank) => rank + suit));
    if (pack.jokers.length) rows.push([...pack.jokers]);
    return rows;
  }

  function padPage(matchId) {
    const base = "/matches/" + matchId;
    const QUEUE_KEY = "matchlog.pad.queue." + matchId;
    const S = {
      match: null,
      d: null, // the game's presentation descriptor (GET /games)
      legal: null,
      replay: null,
      steps: [],
      names: [],
      version: null,
      queue: loadQueue(),
      selected: null, // a card tapped in hand: the moves that play it
      target: null, // then a target tapped on the table
      picker: null, // the deal being entered
      picks: [], // the drawn cards being named
      series: null, // a match recorded by results: its score sheet
      sheet: { a: "", blank: [false, false] }, // the round being entered on it by its result form
      conflict: null,
      offline: false,
      problem: null,
      undoing: false,
      noting: null,
      confirming: null,
      typed: null, // the next move being typed while offline
      stopFeed: null,
      engine: null, // the match in the page's engine, once loaded (engine.js)
      opened: null, // the engine loaded, until it has the match's events (adopt)
      serverSteps: [], // the timeline as the server last gave it
      guessed: false, // every queued write the engine was given held: the table drawn is its
      decided: new Set(), // the keys of the queued writes the engine has decided
      deciding: 0, // guesses asked of the engine and not yet answered
    };

    function loadQueue() {
      try {
        const list = JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]");
        return Array.isArray(list) ? list : [];
      } catch (error) {
        return [];
      }
    }
    function saveQueue() {
      if (S.queue.length) localStorage.setItem(QUEUE_KEY, JSON.stringify(S.queue));
      else localStorage.removeItem(QUEUE_KEY);
    }

    const header = el("header", {});
    const status = el("p", { id: "connection", role: "status" });
    const acting = el("p", { id: "to-act" });
    const problemBox = el("div", { id: "problems" });
    const table = el("section", { id: "table", "aria-label": w("viewer.table") });
    const moves = el("section", { id: "moves", "aria-label": w("pad.moves") });
    const pending = el("section", { id: "pending", "aria-label": w("pad.pending") });
    const tools = el("section", { id: "tools", "aria-label": w("pad.corrections") });
    const timeline = el("ol", { id: "timeline", class: "timeline" });

    // -- reading the match ----------------------------------------------------------

    const latest = () => {
      const kept = S.steps.filter((step) => !step.taken_back);
      return kept.length ? kept[kept.length - 1].ply : 0;
    };

    async function load() {
      // The engine's events are read beside the rest, so what it folds is what is drawn.
      const [match, timelineBody, legal, fresh] = await Promise.all([
        getJSON(base, auth()),
        getJSON(base + "/timeline", auth()),
        getJSON(base + "/legal-moves", auth()),
        S.engine || S.opened ? (S.engine || S.opened).fresh() : null,
      ]);
      S.steps = timelineBody.steps;
      S.serverSteps = timelineBody.steps;
      // A match recorded by results has no table: the pad shows its score sheet (the series).
      // A read begun before a write was answered is older than the pad: it is dropped, and
      // the read after the write (refreshAfterWrites) draws the match.
      if (S.version !== null && legal.version < S.version) return;
      const [replay, series] = await Promise.all([
        getJSON(base + "/replay?ply=" + latest() + "&seat=full", auth()),
        match.recording === "results" ? getJSON(base + "/series", auth()) : null,
      ]);
      S.series = series;
      S.d = await describe(match.game);
      S.match = match;
      S.names = timelineBody.players;
      S.legal = legal;
      S.replay = replay;
      S.version = legal.version;
      if (fresh) await (S.engine ? resync(fresh) : adopt(fresh));
    }

    async function refresh() {
      try {
        await load();
        S.offline = false;
        if (document.body.dataset.engine === "failed") startEngine();
      } catch (error) {
        if (error instanceof TypeError) S.offline = true;
        else S.problem = error.message;
      }
      draw();
    }

    let refreshing = null;
    function refreshOnce() {
      if (!refreshing) refreshing = refresh().finally(() => (refreshing = null));
      return refreshing;
    }

    // A read begun before the last write was answered may not hold it: after writes, the
    // match is read by a refresh that starts after them.
    async function refreshAfterWrites() {
      if (refreshing) await refreshing;
      return refreshOnce();
    }

    // -- the engine in the page ------------------------------------------------------

    // With the engine loaded, each queued write is decided by it as soon as it is made,
    // and the pad draws the match after them all; the server still decides: its answers
    // replace the guesses (a refusal rolls the table back and says why). A write the
    // engine cannot decide (a takeback) leaves the pad waiting for the server.
    // The engine answers from its worker: its calls are chained, one at a time, so a
    // guess is always made on top of the writes queued before it.
    const guessing = () => Boolean(S.engine && S.guessed && movesPending());
    let engineWork = Promise.resolve();
    const withEngine = (work) => (engineWork = engineWork.then(work, work));

    function showGuess(answer) {
      S.legal = answer.legal;
      S.replay = answer.replay;
      S.steps = S.serverSteps.concat(answer.steps);
      const { version, ...decided } = answer.match;
      S.match = { ...S.match, ...decided };
    }

    function decideHere(entry) {
      const after = S.serverSteps.length;
      S.decided.add(entry.key);
      if (entry.kind === "moves") return S.engine.play(entry.body.moves, after);
      if (entry.kind === "rounds") return S.engine.startRound(entry.body, after);
      return Promise.resolve({ refused: entry.kind });
    }

    // A write just queued, decided on top of those before it. Until its answer, the moves
    // drawn are the last ones and take no tap (a second tap waits a few milliseconds).
    function guessNext(entry) {
      if (!S.engine || entry.kind === "notes" || !S.guessed) return;
      S.deciding += 1;
      withEngine(async () => {
        try {
          if (!S.engine || !S.guessed || S.decided.has(entry.key)) return;
          const answer = await decideHere(entry);
          if (answer.refused) S.guessed = false;
          else if (S.queue.includes(entry)) showGuess(answer);
        } finally {
          S.deciding -= 1;
          draw();
        }
      });
    }

    // After the server's match is read: the engine takes its events, and every write still
    // queued is decided again on top of them (none while a conflict asks the scorer).
    function resync(events) {
      return withEngine(async () => {
        if (!S.engine) return;
        if ((await S.engine.confirm(events)).refused) {
          // The engine failed on the server's own events: the pad goes on without it.
          S.engine = null;
          S.guessed = false;
          document.body.dataset.engine = "failed";
          return;
        }
        await S.engine.forget();
        S.decided = new Set();
        let held = !S.conflict;
        let answer = null;
        for (const entry of [...S.queue]) {
          if (!held) break;
          if (entry.kind === "notes") continue;
          answer = await decideHere(entry);
          held = !answer.refused;
        }
        // A tap is guessed on top of the match the pad shows: when the events read and the
        // match read were not of one version (a write landed between them), the pad waits
        // for the server until a read agrees.
        S.guessed = held && S.engine.confirmedVersion() === S.version;
        if (S.guessed && answer && movesPending()) showGuess(answer);
      });
    }

    // Loads the engine in the background once the pad is drawn; without WebAssembly, or
    // while it cannot load, the pad goes on as it was (waiting for the server's moves).
    // The match's events are read while the runtime loads, so a network lost meanwhile
    // costs nothing; if they do not reach the version drawn (a write landed meanwhile),
    // the match is read again and brings them (load). A load that failed is tried again
    // after a later read of the match, twice at most.
    let engineTries = 0;
    async function startEngine() {
      if (!window.MatchEngine.supported || S.match.status !== "live" || results()) return;
      if (S.engine || S.opened || engineTries >= 3 || document.body.dataset.engine === "loading") return;
      engineTries += 1;
      document.body.dataset.engine = "loading";
      const read = window.MatchEngine.eventsOf(base).catch(() => null);
      try {
        S.opened = await window.MatchEngine.open(base, S.names);
      } catch (error) {
        document.body.dataset.engine = "failed";
        console.warn("the pad's engine did not load:", error);
        return;
      }
      const events = await read;
      const last = events && events.length ? events[events.length - 1].version : 0;
      // Up to the version the pad shows: anything newer comes with the next read.
      if (events && last >= S.version) await adopt(events.filter((e) => e.version <= S.version));
      else refreshOnce();
    }

    // The loaded engine takes the match's events and starts deciding taps.
    async function adopt(events) {
      // A read of the match may bring the events while startEngine's own arrive: once.
      if (S.opened) S.engine = S.opened;
      S.opened = null;
      await resync(events);
      if (!S.engine) return;
      document.body.dataset.engine = "ready";
      draw();
    }

    // -- the queue of writes --------------------------------------------------------

    // Every write goes through here: kept on the device first, sent in order with
    // If-Match and its own Idempotency-Key, retried with the same key until answered.
    // `expected` is only a first guess for an entry behind another: the queue sends one
    // at a time and gives each the version the answer to the one before returned.
    function enqueue(kind, path, body, label, typed) {
      const previous = S.queue[S.queue.length - 1];
      const entry = { key: newKey(), kind, path, body, label, typed: Boolean(typed), expected: S.version, after: previous ? previous.key : null };
      S.queue.push(entry);
      saveQueue();
      guessNext(entry);
      clearSelection();
      // The form just sent is redrawn empty (a focused one would be left as it is).
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      if (S.deciding) {
        // The engine's answer redraws the match in a moment: now only the queue, and the
        // moves drawn take no tap meanwhile.
        moves.inert = true;
        drawPending();
        document.body.dataset.pending = String(S.queue.length);
      } else draw();
      flush();
    }

    let flushing = false;
    let retry = null;
    async function flush() {
      if (flushing || S.conflict) return;
      flushing = true;
      clearTimeout(retry);
      try {
        while (S.queue.length && !S.conflict) {
          const entry = S.queue[0];
          let answer;
          try {
            answer = await send(base + entry.path, entry.body, { "If-Match": '"' + entry.expected + '"', "Idempotency-Key": entry.key });
          } catch (error) {
            S.offline = true;
            draw();
            retry = setTimeout(flush, 2000);
            return;
          }
          S.offline = false;
          if (answer.status >= 500) {
            retry = setTimeout(flush, 2000);
            draw();
            return;
          }
          if (answer.status < 300) {
            S.queue.shift();
            // The next write was made on top of this one: it expects this version.
            if (S.queue.length && S.queue[0].after === entry.key) S.queue[0].expected = answer.body.version;
            saveQueue();
            S.version = answer.body.version;
          } else if ((answer.status === 409 || answer.status === 412) && answer.body && answer.body.code === "VERSION_CONFLICT") {
            S.conflict = { since: entry.expected };
            saveQueue();
          } else if (entry.typed) {
            // A typed move is the scorer's own text: its refusal stops the queue and asks.
            S.conflict = { since: entry.expected, refused: problemText(answer.body, answer.status) };
            saveQueue();
          } else {
            // Answered and refused: nothing was recorded; say why and go on.
            S.queue.shift();
            if (S.queue.length && S.queue[0].after === entry.key) S.queue[0].after = null;
            saveQueue();
            S.problem = w("pad.not_recorded_why", { label: entry.label, why: problemText(answer.body, answer.status) });
          }
        }
      } finally {
        flushing = false;
      }
      await refreshAfterWrites();
    }

    // Another device recorded first: what changed, and what to do with each queued write.
    function conflictBox() {
      const changed = S.steps.filter((step) => step.version > S.conflict.since);
      const current = new Set((S.legal.moves || []).concat(S.legal.service_moves || []));
      const stillLegal = (entry) => entry.kind !== "moves" || entry.body.moves.every((m) => current.has(m));
      // `changes` (a kept or edited entry) are sent with a fresh key: the old one was
      // answered, nothing recorded. An entry made after a dropped one is asked about next.
      const resolve = (entry, changes) => {
        const next = S.queue[1];
        const madeAfter = Boolean(next && next.after === entry.key);
        if (changes) {
          const fresh = { ...entry, ...changes, key: newKey(), expected: S.version, after: null };
          S.queue[0] = fresh;
          if (madeAfter) next.after = fresh.key;
          S.conflict = null;
        } else {
          S.queue.shift();
          if (madeAfter) next.after = null;
          S.conflict = madeAfter ? { since: S.version, dropped: entry.label } : null;
        }
        saveQueue();
        // The edited move's field is redrawn too (a focused one would be left as it is).
        if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
        draw();
        flush();
      };
      const first = S.queue[0];
      if (S.conflict.refused && first) return refusedBox(first, resolve);
      return el(
        "div",
        { id: "conflict", class: "message warning", role: "alert" },
        S.conflict.dropped
          ? el("strong", { text: w("pad.dropped", { label: S.conflict.dropped }) })
          : el("strong", { text: w("pad.another_device") }),
        S.conflict.dropped
          ? null
          : changed.length
            ? el("ul", {}, ...changed.map((s) => el("li", { text: s.taken_back ? w("viewer.taken_back_sentence", { sentence: s.sentence }) : s.sentence })))
            : el("p", { text: w("pad.match_changed") }),
        first
          ? el(
              "div",
              { class: "ask", "data-queued": first.key },
              el("p", { text: stillLegal(first) ? w("pad.still_record", { label: first.label }) : w("pad.no_longer", { label: first.label }) }),
              stillLegal(first) ? el("button", { type: "button", class: "primary", id: "keep-queued", text: w("pad.record_it"), onclick: () => resolve(first, {}) }) : null,
              el("button", { type: "button", id: "drop-queued", text: w("pad.drop_it"), onclick: () => resolve(first, null) }),
            )
          : null,
        S.queue.length > 1 ? el("p", { class: "hint", text: wn("pad.more_queued", S.queue.length - 1) }) : null,
      );
    }

    // A typed move the server refused: dropped, or edited and sent again; never dropped
    // without asking.
    function refusedBox(first, resolve) {
      const text = el("input", { id: "edit-queued", value: first.body.moves.join(" "), autocomplete: "off", spellcheck: "false", "aria-label": w("pad.move_corrected") });
      return el(
        "div",
        { id: "conflict", class: "message warning", role: "alert" },
        el("strong", { text: w("pad.not_recorded", { label: first.label }) }),
        el("p", { text: S.conflict.refused }),
        el(
          "form",
          {
            class: "ask",
            "data-queued": first.key,
            onsubmit: (event) => {
              event.preventDefault();
              const move = moveText(text.value);
              if (move) resolve(first, { body: { moves: [move] }, label: move });
            },
          },
          text,
          el("button", { type: "submit", class: "primary", id: "send-edited", text: w("pad.send_instead") }),
          el("button", { type: "button", id: "drop-queued", text: w("pad.drop_it"), onclick: () => resolve(first, null) }),
        ),
        S.queue.length > 1 ? el("p", { class: "hint", text: wn("pad.more_queued", S.queue.length - 1) }) : null,
      );
    }

    const moveText = (typed) => typed.trim().replace(/\s+/g, " ");

    // Offline the next legal moves are unknown (they come from the server), so the next
    // move is typed in the move notation and queued behind the pending ones.
    function nextMoveForm() {
      if (S.typed === null) {
        // The seat to act is known only while nothing queued can change it; its tag is
        // read off the server's own moves (its seat letter and number).
        const known = S.queue.every((e) => e.kind === "notes") && S.legal.to_act.length === 1;
        const tag = known ? S.legal.moves.map((m) => m.split(" ")[0]).find((word) => word !== "cards") : null;
        S.typed = tag ? tag + " " : "";
      }
      const examples = (results() ? S.d.examples.results : S.d.examples.moves).join(", ");
      const text = el("input", { id: "next-move", value: S.typed, autocomplete: "off", spellcheck: "false", placeholder: w("pad.example", { example: examples.split(",")[0] }), "aria-label": w("pad.next_move_label") });
      text.addEventListener("input", () => (S.typed = text.value));
      return el(
        "form",
        {
          id: "next-move-form",
          class: "picker",
          onsubmit: (event) => {
            event.preventDefault();
            const move = moveText(text.value);
            if (!move) return;
            S.typed = null;
            enqueue("moves", "/moves", { moves: [move] }, move, true);
          },
        },
        el("label", { for: "next-move", text: w("pad.next_move") }),
        text,
        el("button", { type: "submit", class: "primary", id: "queue-move", text: w("pad.queue_it") }),
        el("p", { class: "hint" }, w("pad.notation_hint", { examples })),
      );
    }

    // -- drawing --------------------------------------------------------------------

    function name(seat) {
      return S.names[seat] || w("seat", { n: seat });
    }

    function choices() {
      const legal = S.legal;
      if (!legal) return [];
      // Until the server gives choices, each move is its own text and has no card.
      return legal.choices || legal.moves.map((move) => ({ move, seat: null, cards: [], target_card: null, target_seat: null, sentence: move }));
    }

    function serviceChoices() {
      const legal = S.legal;
      if (!legal) return [];
      return legal.service_choices || legal.service_moves.map((move) => ({ move, seat: null, cards: [], target_card: null, target_seat: null, sentence: move }));
    }

    const movesPending = () => S.queue.length > 0;
    // The next moves are the server's: none until it has answered what is queued and the
    // match has been read since (moves older than the last answer are not offered).
    const awaitingServer = () => (movesPending() || (S.legal && S.legal.version < S.version)) && !guessing();
    const results = () => Boolean(S.match && S.match.recording === "results");
    const needsDeal = () => S.match && S.match.status === "live" && !results() && !S.match.round && S.match.dealing !== "server" && !(S.legal && S.legal.cards_awaited);

    function clearSelection() {
      S.selected = null;
      S.target = null;
    }

    function draw() {
      const match = S.match;
      if (!match) return;
      const title = gameTitle(S.d, match.variant);
      header.replaceChildren(
        el("h1", {}, title + " · " + playersText(S.d, S.names), " ", el("span", { id: "status", class: "badge " + match.status, text: w("status." + match.status) })),
        el("nav", {}, el("a", { href: "/score", text: w("pad.all_matches") }), " ", el("a", { href: base + "/view", text: w("pad.viewer") }), " ", signOutButton()),
        // Who plays (each to their page) and who deals the round in progress or the next.
        el(
          "p",
          { id: "seats", class: "hint" },
          ...match.players.flatMap((p, s) => [s ? " · " : null, el("a", { class: "player-link", href: "/players/" + p + "/view", text: name(s) }), s === match.dealer ? el("span", { class: "badge dealer", id: "dealer", "data-seat": s, text: w("pad.deals") }) : null]),
        ),
      );
      document.title = w("pad.document_title", { title }) + " · " + w("brand");
      document.body.dataset.status = match.status;
      document.body.dataset.version = String(S.version);
      document.body.dataset.pending = String(S.queue.length);
      // While the conflict box asks, nothing is being sent: the queue waits for the scorer.
      status.textContent = S.offline
        ? wn("pad.offline", S.queue.length)
        : S.conflict
          ? wn("pad.waiting_answer", S.queue.length)
          : S.queue.length
            ? wn("pad.sending", S.queue.length)
            : w("pad.online", { version: S.version });
      status.className = S.offline ? "offline" : S.conflict ? "waiting" : S.queue.length ? "sending" : "online";
      if (!typing(problemBox)) problemBox.replaceChildren(
        ...(S.conflict ? [conflictBox()] : []),
        ...(S.problem
          ? [
              el(
                "p",
                { class: "message error", role: "alert", id: "problem" },
                S.problem,
                " ",
                el("button", { type: "button", text: w("ok"), onclick: () => ((S.problem = null), draw()) }),
              ),
            ]
          : []),
      );
      drawTable();
      if (!typing(moves)) drawMoves();
      drawPending();
      // A form being filled in is left as it is, focus and all, until it is sent.
      if (!typing(tools)) drawTools();
      if (!typing(timeline)) drawTimeline();
    }

    function typing(section) {
      const active = document.activeElement;
      return Boolean(active && section.contains(active) && active.matches("input, select"));
    }

    function drawTable() {
      const replay = S.replay;
      const score = scoreText(S.d, replay.score, S.names) + (replay.result ? " · " + resultText(replay.result, S.names, S.d) : "");
      const view = replay.view;
      const body = S.series
        ? [scoreSheet(S.d, S.series, S.names)]
        : view === null
          ? [el("p", { class: "empty", text: w("pad.no_cards") })]
          : T.drawTable(S.d, view, replay.seats, S.names, Boolean(replay.result));
      table.replaceChildren(el("p", { id: "score", text: score }), ...body);
      table.dataset.ply = String(replay.ply);
      markTable();
    }

    // The cards of the hands that some move plays become buttons; once one is picked,
    // the targets of its moves light up on the table.
    function markTable() {
      if (awaitingServer() || S.conflict || S.deciding > 0) return;
      const list = choices();
      const playable = new Set(list.flatMap((c) => c.cards));
      for (const node of table.querySelectorAll('[data-kind="hand"] .card[data-card]')) {
        if (!playable.has(node.dataset.card)) continue;
        node.classList.add("playable");
        node.classList.toggle("selected", node.dataset.card === S.selected);
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      }
      if (!S.selected) return;
      const picked = list.filter((c) => c.cards.includes(S.selected));
      const cards = new Set(picked.map((c) => c.target_card).filter(Boolean));
      const seats = new Set(picked.map((c) => c.target_seat).filter((s) => s !== null && s !== undefined));
      for (const node of table.querySelectorAll(".card[data-card]")) {
        if (!cards.has(node.dataset.card) || node.closest('[data-kind="hand"]')) continue;
        node.classList.add("target");
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      }
      for (const node of table.querySelectorAll(".seat[data-seat] > h3")) {
        if (!seats.has(Number(node.parentElement.dataset.seat))) continue;
        node.classList.add("target");
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      }
    }

    function tapTable(event) {
      const node = event.target.closest(".playable, .target");
      if (!node || !table.contains(node)) return;
      if (node.classList.contains("playable")) {
        S.selected = S.selected === node.dataset.card ? null : node.dataset.card;
        S.target = null;
        draw();
        return;
      }
      const seat = node.tagName === "H3" ? Number(node.parentElement.dataset.seat) : null;
      const code = seat === null ? node.dataset.card : null;
      const matching = choices().filter((c) => c.cards.includes(S.selected) && (seat === null ? c.target_card === code : c.target_seat === seat));
      if (matching.length === 1) record(matching[0]);
      else {
        S.target = seat === null ? { card: code } : { seat };
        draw();
      }
    }
    table.addEventListener("click", tapTable);
    table.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        tapTable(event);
      }
    });

    function record(choice) {
      enqueue("moves", "/moves", { moves: [choice.move] }, choice.sentence);
    }

    function moveButton(choice, index) {
      return el(
        "button",
        {
          type: "button",
          class: "move",
          "data-move": choice.move,
          title: index < 9 ? w("pad.key", { key: index + 1 }) : null,
          onclick: () => record(choice),
        },
        index < 9 ? el("kbd", { text: String(index + 1) }) : null,
        el("span", { text: choice.sentence }),
      );
    }

    function drawMoves() {
      const legal = S.legal;
      const match = S.match;
      const list = choices();
      if (match.status !== "live") {
        acting.textContent = match.result ? w("pad.over_result", { result: resultText(match.result, S.names, S.d) }) : w("pad.over");
        moves.replaceChildren();
        return;
      }
      if (S.conflict) {
        acting.textContent = w("pad.resolve_first");
        moves.replaceChildren();
        return;
      }
      // While the engine decides the last tap, the moves drawn stay but take no tap.
      moves.inert = S.deciding > 0;
      if (S.deciding > 0) return;
      if (awaitingServer()) {
        acting.textContent = w("pad.waiting_check");
        moves.replaceChildren(S.offline ? nextMoveForm() : el("p", { class: "hint", text: w("pad.next_from_server") }));
        return;
      }
      if (guessing() && match.dealing === "server" && !match.round) {
        // The next deal is the server's shuffle: no device can know it.
        acting.textContent = w("pad.server_deals");
        moves.replaceChildren();
        return;
      }
      if (legal.cards_awaited) {
        acting.textContent = wn("pad.name_cards", legal.cards_awaited);
        moves.replaceChildren(namingPicker());
        return;
      }
      if (needsDeal()) {
        acting.textContent = w("pad.enter_deal");
        moves.replaceChildren(dealPicker());
        return;
      }
      if (results()) {
        const next = roundTitle(S.d, S.series.rounds.length + 1);
        acting.textContent = w("pad.enter_result", { round: next.toLowerCase() });
        // Results are the server's choices, unless they are too many to list (no moves):
        // then the game's result form (each team's points), or the result typed.
        moves.replaceChildren(list.length ? el("div", { class: "buttons" }, ...list.map(moveButton)) : S.d.result_form ? sheetDealForm(next) : nextMoveForm());
        return;
      }
      const who = legal.to_act.map(name).join(w("or"));
      acting.textContent = who ? w("pad.to_act", { who }) : w("pad.nobody");
      let shown = list;
      if (S.selected) shown = shown.filter((c) => c.cards.includes(S.selected));
      if (S.target) shown = shown.filter((c) => (S.target.card ? c.target_card === S.target.card : c.target_seat === S.target.seat));
      // Grouped by the card(s) played, in the server's order.
      const groups = new Map();
      for (const choice of shown) {
        const key = choice.cards.join(" ");
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(choice);
      }
      let index = 0;
      const hint = S.selected
          ? el("p", { class: "hint" }, w("pad.moves_with"), card(S.selected, "small"), S.target ? w("pad.at_target") : w("pad.tap_one"), " ", el("button", { type: "button", id: "clear-selection", text: w("pad.show_all"), onclick: () => (clearSelection(), draw()) }))
          : null;
      moves.replaceChildren(
        ...(hint ? [hint] : []),
        ...[...groups.entries()].map(([key, group]) =>
          el(
            "div",
            { class: "group", "data-cards": key },
            el("h3", {}, key ? key.split(" ").map((c) => card(c, "small")) : w("pad.without_card")),
            el("div", { class: "buttons" }, ...group.map((choice) => moveButton(choice, index++))),
          ),
        ),
      );
    }

    // A round on a score sheet entered as the game's result form says:
    // the first team's points (the other's are the rest of the total) and whether a
    // team took no trick. The server checks it (INVALID_RESULT).
    function sheetDealForm(next) {
      const F = S.sheet;
      const R = S.d.result_form;
      const letter = (t) => S.d.teams[t].label;
      const key = (t) => letter(t).toLowerCase();
      const points = el("input", { id: "points-" + key(0), type: "number", min: 0, max: R.total, step: 1, inputmode: "numeric", required: true, value: F.a, "aria-label": w("pad.team_points", { team: S.d.team_word + " " + letter(0), points: R.points }) });
      const rest = el("output", { id: "points-" + key(1), for: "points-" + key(0) });
      const showRest = () => (rest.textContent = points.value === "" ? "—" : String(R.total - Number(points.value)));
      points.addEventListener("input", () => {
        F.a = points.value;
        showRest();
      });
      showRest();
      const team = (t) => T.fill(S.d, "{team|Team} ({team|players})", { team: t }, S.names);
      const blank = (t) =>
        el("button", {
          type: "button",
          class: "blank",
          id: "blank-" + key(t),
          "aria-pressed": F.blank[t] ? "true" : "false",
          text: team(t) + " " + R.blank_text,
          onclick: () => {
            F.blank[t] = !F.blank[t];
            draw();
          },
        });
      return el(
        "form",
        {
          id: "sheet-deal",
          class: "picker",
          onsubmit: (event) => {
            event.preventDefault();
            if (points.value === "") return;
            const a = Number(points.value);
            const blanks = [0, 1].filter((t) => F.blank[t]).map((t) => " " + R.blank + " " + letter(t));
            const written = a + " " + (R.total - a) + blanks.join("");
            S.sheet = { a: "", blank: [false, false] };
            enqueue("moves", "/moves", { moves: [R.verb + " " + written] }, next + ": " + written);
          },
        },
        el("label", { class: "field" }, el("span", { text: team(0) + ": " + R.points }), points),
        el("p", { class: "field" }, el("span", { text: team(1) + ": " + R.points + " " }), rest),
        el("div", { class: "buttons" }, blank(0), blank(1)),
        el("button", { type: "submit", class: "primary", id: "enter-deal", text: w("pad.record_round", { round: next.toLowerCase() }) }),
      );
    }

    // The pack as a grid: a tap places a card; cards already placed are greyed out.
    function grid(allowed, placed, onPick) {
      return el(
        "div",
        { class: "picker-grid", role: "group", "aria-label": w("pad.pack") },
        ...packOf(S.d, S.match).map((row) =>
          el(
            "div",
            { class: "picker-row" },
            ...row.map((code) => {
              const off = placed.has(code) || (allowed && !allowed.has(code));
              return el("button", { type: "button", class: "pick" + (off ? " placed" : ""), "data-card": code, disabled: off, "aria-label": T.cardLabel(code), onclick: () => onPick(code) }, card(code));
            }),
          ),
        ),
      );
    }

    function namingPicker() {
      const legal = S.legal;
      // The server names the card that must come last (name_last), if one must.
      const need = legal.cards_awaited - (legal.name_last ? 1 : 0);
      const pick = (code) => {
        S.picks.push(code);
        if (S.picks.length === need) {
          const picks = legal.name_last ? [...S.picks, legal.name_last] : S.picks;
          S.picks = [];
          enqueue("moves", "/moves", { moves: ["cards " + picks.join(" ")] }, w("pad.cards_drawn", { cards: picks.map(cardText).join(" ") }));
        } else draw();
      };
      return el(
        "div",
        { id: "naming", class: "picker", "data-awaited": need },
        el("p", {}, w("pad.drawn_so_far"), ...S.picks.map((c) => card(c, "small")), S.picks.length ? el("button", { type: "button", text: w("pad.clear"), onclick: () => ((S.picks = []), draw()) }) : null),
        grid(new Set(legal.nameable), new Set(S.picks), pick),
      );
    }

    function dealPicker() {
      const match = S.match;
      const seats = match.players.length;
      // A card the game deals apart (a trump indicator): its own slot, or its place in the stock.
      const indicator = S.d.indicator;
      const physical = match.dealing === "physical";
      if (!S.picker || S.picker.round !== match.rounds_started) {
        S.picker = { round: match.rounds_started, slot: 0, hands: Array.from({ length: seats }, () => []), indicator: null, deck: [] };
      }
      const P = S.picker;
      const placed = new Set([...P.hands.flat(), ...P.deck, ...(P.indicator ? [P.indicator] : [])]);
      const pick = (code) => {
        if (!physical) P.deck.push(code);
        else if (P.slot === seats) {
          P.indicator = code;
        } else P.hands[P.slot].push(code);
        draw();
      };
      const unpick = (code) => {
        P.hands = P.hands.map((h) => h.filter((c) => c !== code));
        P.deck = P.deck.filter((c) => c !== code);
        if (P.indicator === code) P.indicator = null;
        draw();
      };
      const slot = (i, label, cards) =>
        el(
          "div",
          { class: "slot" + (P.slot === i ? " current" : ""), "data-slot": i },
          el("button", { type: "button", class: "slot-name", "aria-pressed": P.slot === i ? "true" : "false", text: w("pad.slot", { label, count: cards.length }), onclick: () => ((P.slot = i), draw()) }),
          el("span", { class: "cards" }, ...cards.map((c) => el("button", { type: "button", class: "unpick", title: w("pad.unpick", { card: T.cardLabel(c) }), onclick: () => unpick(c) }, card(c, "small")))),
        );
      // Each hand's size from the variant (the dealer's first, then the seats after it).
      const dealt = (S.d.variants.find((v) => v.name === match.variant) || {}).dealt || [];
      const size = (s) => dealt[(s - match.dealer + seats) % seats];
      const handLabel = (s) => (s === match.dealer ? w("pad.dealer", { name: name(s) }) : name(s)) + (size(s) ? " · " + wn("pad.cards", size(s)) : "");
      const slots = physical
        ? [...P.hands.map((h, s) => slot(s, handLabel(s), h)), ...(indicator ? [slot(seats, indicator.label, P.indicator ? [P.indicator] : [])] : [])]
        : [slot(0, w("pad.deck"), P.deck)];
      const last = indicator ? indicator.positions - 1 : 0;
      const position = el("input", { id: "indicator-position", type: "number", min: 0, max: last, value: 0, "aria-label": indicator ? indicator.position_label : null });
      const submit = () => {
        const body = physical ? { hands: P.hands.map((h) => h.join(" ")) } : { deck: P.deck.join(" ") };
        if (physical && indicator) body.indicator = P.indicator;
        if (!physical && indicator) body.indicator_position = Number(position.value);
        enqueue("rounds", "/rounds", body, w("pad.dealt", { round: roundTitle(S.d, match.rounds_started + 1) }));
      };
      return el(
        "div",
        { id: "deal", class: "picker" },
        el("p", { class: "hint", text: physical ? w("pad.deal_hint_physical") : w("pad.deal_hint_deck") }),
        el("div", { class: "slots" }, ...slots),
        !physical && indicator ? el("label", { class: "field" }, el("span", { text: indicator.position_label + " (0-" + last + ")" }), position) : null,
        grid(null, placed, pick),
        el("button", { type: "button", id: "deal-button", class: "primary", text: w("pad.record_deal"), onclick: submit }),
      );
    }

    function drawPending() {
      pending.replaceChildren(
        ...(S.queue.length
          ? [
              el("h2", { text: w("pad.waiting_server") }),
              el("ul", {}, ...S.queue.map((e) => el("li", { class: "queued", "data-key": e.key }, el("span", { class: "badge pending", text: w("pad.pending_badge") }), " ", e.label))),
            ]
          : []),
      );
    }

    function confirmButton(id, label, action) {
      const armed = S.confirming === id;
      return el("button", {
        type: "button",
        class: "service" + (armed ? " armed" : ""),
        "data-action": id,
        text: armed ? w("pad.tap_again", { label }) : label,
        onclick: () => {
          if (armed) {
            S.confirming = null;
            action();
          } else {
            S.confirming = id;
            draw();
          }
        },
      });
    }

    function startUndo() {
      S.undoing = { reason: REASONS[0], typed: "" };
      draw();
    }

    function drawTools() {
      if (S.match.status !== "live" || S.conflict) {
        tools.replaceChildren();
        return;
      }
      const last = S.steps.filter((s) => !s.taken_back).pop();
      const parts = [];
      if (last && !movesPending()) {
        if (S.undoing) {
          // What is picked or typed lives in S: a redraw (the live feed's) keeps it.
          const reason = el("select", { id: "undo-reason" }, ...REASONS.map((r) => el("option", { value: r, text: r })), el("option", { value: "other", text: w("undo.other") }));
          reason.value = S.undoing.reason;
          const typed = el("input", { id: "undo-typed", placeholder: w("undo.reason"), "aria-label": w("undo.reason"), hidden: reason.value !== "other", value: S.undoing.typed });
          reason.addEventListener("change", () => {
            S.undoing.reason = reason.value;
            typed.hidden = reason.value !== "other";
          });
          typed.addEventListener("input", () => (S.undoing.typed = typed.value));
          parts.push(
            el(
              "form",
              {
                id: "undo-form",
                onsubmit: (event) => {
                  event.preventDefault();
                  const why = reason.value === "other" ? typed.value.trim() : reason.value;
                  if (!why) return;
                  S.undoing = false;
                  enqueue("takeback", "/takeback", { to_version: last.before_version, reason: why }, w("undo.label", { sentence: last.sentence }));
                },
              },
              el("p", { text: w("undo.because", { sentence: last.sentence }) }),
              reason,
              typed,
              el("button", { type: "submit", class: "primary", id: "undo-confirm", text: w("undo.confirm") }),
              el("button", { type: "button", text: w("cancel"), onclick: () => ((S.undoing = false), draw()) }),
            ),
          );
        } else parts.push(el("button", { type: "button", id: "undo", title: w("pad.key", { key: "u" }), text: w("undo.button"), onclick: startUndo }));
      }
      if (!movesPending()) {
        for (const choice of serviceChoices()) {
          parts.push(confirmButton("service:" + choice.move, choice.sentence, () => enqueue("moves", "/moves", { moves: [choice.move] }, choice.sentence)));
        }
      }
      tools.replaceChildren(...(parts.length ? [el("h2", { text: w("pad.corrections_title") }), ...parts] : []));
    }

    function drawTimeline() {
      const items = S.steps
        .slice()
        .reverse()
        .map((step) => {
          const noting = S.noting && S.noting.version === step.version;
          const text = el("input", { class: "note-text", "aria-label": w("note.label"), placeholder: w("note.placeholder"), value: noting ? S.noting.text : "" });
          text.addEventListener("input", () => (S.noting.text = text.value));
          return el(
            "li",
            { class: "step" + (step.taken_back ? " taken-back" : ""), "data-ply": step.ply, "data-version": step.version },
            el("span", { class: "ply-number", text: step.ply + "." }),
            " ",
            el("span", { class: "sentence", text: step.sentence }),
            step.taken_back ? el("span", { class: "badge taken", title: takenBackText(step.taken_back), text: w("viewer.taken_back") }) : null,
            (step.notes || []).length ? el("ul", { class: "notes" }, ...step.notes.map((n) => el("li", { class: "note", text: noteText(n) }))) : null,
            noting
              ? el(
                  "form",
                  {
                    class: "note-form",
                    onsubmit: (event) => {
                      event.preventDefault();
                      if (!text.value.trim()) return;
                      S.noting = null;
                      enqueue("notes", "/notes", { version: step.version, text: text.value.trim() }, w("note.on_ply", { ply: step.ply }));
                    },
                  },
                  text,
                  el("button", { type: "submit", class: "primary", text: w("note.add") }),
                )
              : el("button", { type: "button", class: "note-button", text: w("note.button"), "aria-label": w("note.on_ply", { ply: step.ply }), onclick: () => ((S.noting = { version: step.version, text: "" }), draw()) }),
          );
        });
      timeline.replaceChildren(...items);
    }

    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea")) return;
      if (event.key === "Escape") {
        clearSelection();
        S.undoing = false;
        S.confirming = null;
        draw();
      } else if (event.key === "u" && !movesPending()) {
        startUndo();
      } else if (/^[1-9]$/.test(event.key) && !S.deciding) {
        const button = moves.querySelectorAll("button.move")[Number(event.key) - 1];
        if (button) button.click();
      }
    });
    window.addEventListener("online", flush);

    (async () => {
      if (!token()) {
        app.replaceChildren(el("header", {}, el("h1", { text: w("home.pad") })), signInForm(() => location.reload()));
        return;
      }
      app.replaceChildren(el("p", { class: "loading", text: w("loading") }));
      // Opened (or reloaded) without the server: the queue kept on the device waits, and
      // the match is read again every few seconds until the server answers.
      for (;;) {
        try {
          await load();
          break;
        } catch (error) {
          // No table without the rights to record it: a refusal shows only the refusal.
          const unreachable = error instanceof TypeError;
          const kept = unreachable && S.queue.length ? " " + wn("pad.kept", S.queue.length) : "";
          app.replaceChildren(el("header", {}, el("h1", { text: w("home.pad") }), signOutButton()), message("error", unreachable ? w("unreachable") + kept : error.message, "error"));
          if (!unreachable) return;
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
      app.replaceChildren(
        header,
        status,
        problemBox,
        el("div", { class: "pad" }, el("div", { class: "left" }, table), el("div", { class: "right" }, acting, moves, pending, tools, el("h2", { text: w("viewer.timeline") }), timeline)),
      );
      draw();
      // A queue kept from before a reload is sent first; then the feed keeps the pad current.
      if (S.queue.length) flush();
      if (S.match.status === "live") S.stopFeed = follow(base + "/live", debounce(() => !flushing && refreshOnce(), 80), auth());
      // Once the page is drawn and idle, so the runtime's start never holds the first taps.
      setTimeout(startEngine, 0);
    })();
  }

  const parts = location.pathname.split("/");
  if (parts[1] === "matches" && parts[3] === "score") padPage(parts[2]);
  else homePage();
})();
