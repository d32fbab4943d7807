// matchlog organiser's desk (/organise) and a round's print page
// (/competitions/{id}/rounds/{n}/print). Everything is read and written through the
// JSON API with the token of api/static/session.js; what a competition's form offers
// comes from the games' descriptors (GET /games), so nothing here names a game. The
// server judges every action: a refusal is shown as its problem's detail.
"use strict";

(() => {
  const { w, wn, num, dayTime, variantName, el, getJSON, games, entrantText, fixtureResultText, standingsTable } = window.MatchTable;
  const session = window.MatchSession;
  const { token, auth, newKey, send, problemText, message, allPages } = session;
  const app = document.getElementById("app");

  // Every word a person reads, in one place: from the pages catalog (api/page_words.py).
  const M = {
    title: w("home.desk"),
    signIn: {
      title: w("sign_in.title"),
      label: w("desk.token"),
      hint: w("desk.token_hint"),
      refused: (status) => w("sign_in.refused", { status }),
      unreachable: w("unreachable"),
      button: w("sign_in.button"),
    },
    signOut: w("sign_out"),
    loading: w("loading"),
    answered: (path, status) => w("error.answered", { status }),
    refresh: w("desk.refresh"),
    competitions: w("desk.competitions"),
    noCompetitions: w("desk.noCompetitions"),
    open: w("desk.open"),
    allCompetitions: w("desk.allCompetitions"),
    viewer: w("desk.viewer"),
    newCompetition: w("desk.newCompetition"),
    adminCreates: w("desk.adminCreates"),
    name: w("desk.name"),
    game: w("desk.game"),
    variant: w("desk.variant"),
    tiebreaks: w("desk.tiebreaks"),
    tiebreak: (n) => w("desk.tiebreak_n", { n }),
    none: w("desk.none"),
    bye: w("desk.bye"),
    byes: { win: w("desk.bye_win"), draw: w("desk.bye_draw"), loss: w("desk.bye_loss") },
    publicReads: w("desk.publicReads"),
    create: w("desk.create"),
    yes: w("desk.yes"),
    no: w("desk.no"),
    entrants: w("desk.entrants"),
    entrantCount: (n) => wn("desk.entrants", n),
    noEntrants: w("desk.noEntrants"),
    player: (k, size) => (size > 1 ? w("desk.player_n", { n: k + 1 }) : w("standings.player")),
    playerHint: w("desk.playerHint"),
    lateEntrant: w("desk.lateEntrant"),
    addEntrant: w("desk.addEntrant"),
    sameName: (name, count) => w("desk.same_name", { name, count }),
    withdraw: w("desk.withdraw"),
    withdrawn: w("desk.withdrawn"),
    withdrawReason: w("desk.withdrawReason"),
    confirmWithdraw: w("desk.confirmWithdraw"),
    cancel: w("cancel"),
    rounds: w("desk.rounds"),
    noRounds: w("desk.noRounds"),
    makeRoundRobin: w("desk.makeRoundRobin"),
    legs: w("desk.legs"),
    makeSwiss: (n) => w("desk.make_swiss", { n }),
    makeTables: (n) => w("desk.make_tables", { n }),
    round: (n) => w("fixtures.round", { n }),
    rematches: (n) => wn("fixtures.rematches", n),
    print: w("desk.print"),
    table: w("desk.table"),
    seats: w("desk.seats"),
    state: w("desk.state"),
    actions: "",
    dealsFirst: w("desk.dealsFirst"),
    notStarted: w("desk.notStarted"),
    live: w("desk.live"),
    watch: w("desk.watch"),
    voided: w("desk.voided"),
    byeLine: w("desk.byeLine"),
    enterSheet: w("desk.enterSheet"),
    continueSheet: w("desk.continueSheet"),
    onThePad: w("desk.onThePad"),
    sheetLabel: w("desk.sheetLabel"),
    sheetHint: (examples) => w("desk.sheet_hint", { examples: examples.join(" · ") }),
    recordSheet: w("desk.recordSheet"),
    entered: w("desk.entered"),
    takeBackResult: w("desk.takeBackResult"),
    takeBackReason: w("desk.takeBackReason"),
    correctResult: w("desk.correctResult"),
    correctReason: w("desk.correctReason"),
    confirmCorrect: w("desk.confirmCorrect"),
    correctHint: w("desk.correctHint"),
    forfeit: w("desk.forfeit"),
    forfeitedBy: w("desk.forfeitedBy"),
    everyone: w("desk.everyone"),
    confirmForfeit: w("desk.confirmForfeit"),
    swap: w("desk.swap"),
    swapReason: w("desk.swapReason"),
    confirmSwap: w("desk.confirmSwap"),
    takeBackRound: w("desk.takeBackRound"),
    takeBackRoundReason: w("desk.takeBackRoundReason"),
    confirmTakeBackRound: w("desk.confirmTakeBackRound"),
    standings: w("desk.standings"),
    pairs: w("desk.pairs"),
    swissScore: w("desk.swissScore"),
    swissHint: w("desk.swissHint"),
    exports: w("desk.exports"),
    exportsList: [
      ["standings-csv", w("desk.export_standings_csv"), "/standings?format=csv", "standings.csv"],
      ["standings-md", w("desk.export_standings_md"), "/standings?format=markdown", "standings.md"],
      ["logs-jsonl", w("desk.export_logs_jsonl"), "/export", "logs.jsonl"],
      ["logs-text", w("desk.export_logs_text"), "/export?format=text", "logs.txt"],
    ],
    records: w("desk.records"),
    noRecords: w("desk.noRecords"),
    recordKinds: { withdrawal: w("desk.kind_withdrawal"), swap: w("desk.kind_swap"), takeback: w("desk.kind_takeback"), correction: w("desk.kind_correction") },
    printPage: w("desk.printPage"),
    backToDesk: w("desk.backToDesk"),
    pairingsTitle: (name, n) => w("desk.pairings_title", { name, n }),
    noSuchRound: (n) => w("desk.no_such_round", { n }),
    slip: (name, n, k) => w("desk.slip", { name, n, k }),
    slipResult: w("desk.slipResult"),
    slipWinner: w("desk.slipWinner"),
    slipSignature: w("desk.slipSignature"),
    slipRounds: w("desk.slipRounds"),
  };

  const seatName = (d, seat) => (d ? d.seat_letter : "S") + seat;

  async function download(path, filename) {
    const response = await fetch(path, { headers: auth() });
    if (!response.ok) throw new Error(M.answered(path, response.status));
    const url = URL.createObjectURL(await response.blob());
    const link = el("a", { href: url, download: filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  // A POST whose refusal becomes an Error with the problem's detail and code.
  async function post(path, body, headers) {
    const answer = await send(path, body, headers);
    if (answer.status >= 300) {
      const error = new Error(problemText(answer.body, answer.status));
      error.code = answer.body && answer.body.code;
      throw error;
    }
    return answer.body;
  }

  // Runs ``action`` from a form or button; a refusal is shown in ``box``, success redraws.
  function acting(box, action, after) {
    return async (event) => {
      if (event) event.preventDefault();
      const target = event && event.currentTarget;
      if (target && target.tagName === "BUTTON") target.disabled = true;
      box.hidden = true;
      try {
        await action();
      } catch (error) {
        box.hidden = false;
        box.textContent = error.message;
        if (target && target.tagName === "BUTTON") target.disabled = false;
        return;
      }
      // A redraw replaces the button; an action that draws nothing (a download) keeps it.
      if (target && target.tagName === "BUTTON") target.disabled = false;
      await after();
    };
  }

  const problemBox = () => el("p", { class: "message error", role: "alert", hidden: true });
  const field = (label, control, attrs) => el("label", { class: "field", ...(attrs || {}) }, el("span", { text: label }), control);

  // A competition's format as text: the format, or each setting of its object.
  function formatText(d, format) {
    if (format === null || format === undefined) return "";
    if (typeof format !== "object") return d ? variantName(d, String(format)) : String(format);
    const settings = new Map(((d && d.competition_settings) || []).map((s) => [s.name, s]));
    return Object.entries(format)
      .map(([k, v]) => ((settings.get(k) || {}).label || k) + " " + (v === true ? M.yes : v === false ? M.no : v))
      .join(" · ");
  }

  // Seats per entrant: one, or a team's seats (a fixed pair).
  const entrantSize = (d) => (d && d.teams && d.teams.length ? d.teams[0].seats.length : 1);

  function header(...extra) {
    return el("header", {}, el("h1", { text: M.title }), ...extra, token() ? session.signOutButton(M.signOut) : null);
  }

  // -- the desk ------------------------------------------------------------------------

  async function isAdmin() {
    // The token's own record says its role, so which forms to offer (a scorer's sign-in
    // asks nothing it is refused).
    const me = await getJSON("/tokens/me", auth()).catch(() => null);
    return Boolean(me && me.role === "admin");
  }

  async function deskPage() {
    if (!token()) {
      app.replaceChildren(header(), session.signInForm(deskPage, "/competitions?writable=true&limit=1", M.signIn));
      return;
    }
    app.replaceChildren(header(), el("p", { class: "loading", text: M.loading }));
    const admin = await isAdmin();
    const id = new URLSearchParams(location.hash.slice(1)).get("competition");
    try {
      if (id) await competitionView(id, admin);
      else await listView(admin);
    } catch (error) {
      app.append(message("error", error.message, "error"));
    }
  }

  async function listView(admin) {
    const [items, described] = await Promise.all([allPages("/competitions?writable=true"), games()]);
    const list = items.length
      ? el(
          "ul",
          { id: "competition-list", class: "match-list" },
          ...items.map((c) => {
            const d = described.get(c.game);
            return el(
              "li",
              { "data-competition": c.id },
              el(
                "a",
                { class: "match-link", href: "#competition=" + c.id },
                el("strong", { text: c.name }),
                " ",
                [d ? d.label : c.game, d ? variantName(d, c.variant) : c.variant, formatText(d, c.format)].filter(Boolean).join(" · "),
              ),
            );
          }),
        )
      : el("p", { id: "competition-list", class: "empty", text: M.noCompetitions });
    app.replaceChildren(
      header(),
      el(
        "div",
        { class: "desk-grid" },
        el("section", { id: "competitions" }, el("h2", { text: M.competitions }), list),
        admin ? newCompetitionForm([...described.values()]) : el("p", { class: "hint", text: M.adminCreates }),
      ),
    );
  }

  // The new-competition form: variants, format settings and tiebreaks as each game's
  // descriptor offers them.
  function newCompetitionForm(described) {
    const byName = new Map(described.map((d) => [d.game, d]));
    const name = el("input", { id: "competition-name", required: true, maxlength: 200, autocomplete: "off" });
    const game = el("select", { id: "competition-game" }, ...described.map((d) => el("option", { value: d.game, text: d.label })));
    const variant = el("select", { id: "competition-variant" });
    const variantField = field(M.variant, variant);
    const settings = el("div", { class: "settings" });
    const tiebreaks = el("div", { class: "tiebreaks" });
    const bye = el("select", { id: "competition-bye" }, ...Object.entries(M.byes).map(([v, t]) => el("option", { value: v, text: t })));
    const open = el("input", { id: "competition-public", type: "checkbox", checked: true });
    const problem = problemBox();
    let controls = [];
    let attempt = null;

    function redraw() {
      const d = byName.get(game.value);
      variant.replaceChildren(...d.variants.map((v) => el("option", { value: v.name, text: variantName(d, v.name) })));
      variantField.hidden = d.variants.length < 2;
      controls = d.competition_settings.map((s) => {
        const id = "competition-setting-" + s.name;
        let control;
        let choices = null;
        if (s.kind === "flag") control = el("input", { id, type: "checkbox", checked: Boolean(s.default) });
        else if (s.kind === "number") control = el("input", { id, type: "number", min: s.minimum, value: s.default, required: true });
        else {
          // Choices offered, others typed (a format such as best-of-7).
          choices = el("datalist", { id: id + "-choices" }, ...s.choices.map((c) => el("option", { value: c })));
          control = el("input", { id, list: choices.id, value: s.default, required: true, autocomplete: "off" });
        }
        return { setting: s, control, choices };
      });
      settings.replaceChildren(
        ...controls.map(({ setting, control, choices }) =>
          setting.kind === "flag" ? el("label", { class: "check" }, control, " ", setting.label) : field(setting.label, el("span", {}, control, choices)),
        ),
      );
      tiebreaks.replaceChildren(
        ...(d.tiebreaks.length ? [el("span", { class: "legend", text: M.tiebreaks })] : []),
        ...d.tiebreaks.map((_, i) =>
          field(
            M.tiebreak(i + 1),
            el("select", { id: "tiebreak-" + (i + 1), class: "tiebreak" }, el("option", { value: "", text: M.none }), ...d.tiebreaks.map((t) => el("option", { value: t, text: w("tiebreak." + t) }))),
          ),
        ),
      );
    }
    game.addEventListener("change", redraw);
    redraw();

    function body() {
      const d = byName.get(game.value);
      const out = { name: name.value.trim(), game: d.game, variant: variant.value, bye: bye.value, public_reads: open.checked };
      const picked = [...tiebreaks.querySelectorAll("select")].map((s) => s.value).filter(Boolean);
      out.tiebreaks = picked;
      const options = {};
      for (const { setting, control } of controls) {
        const value = setting.kind === "flag" ? control.checked : setting.kind === "number" ? Number(control.value) : control.value.trim();
        if (setting.field === "format") out.format = value;
        else options[setting.name] = value;
      }
      if (Object.keys(options).length) out.format = options;
      return out;
    }

    return el(
      "form",
      {
        id: "new-competition",
        class: "card-box",
        onsubmit: acting(
          problem,
          async () => {
            const b = body();
            const signature = JSON.stringify(b);
            // The same form sent again (after a lost answer) names the same id: no twin.
            if (!attempt || attempt.signature !== signature) attempt = { signature, id: newKey() };
            const made = await post("/competitions", { ...b, id: attempt.id });
            location.hash = "competition=" + made.id;
          },
          async () => {},
        ),
      },
      el("h2", { text: M.newCompetition }),
      field(M.name, name),
      field(M.game, game),
      variantField,
      settings,
      tiebreaks,
      field(M.bye, bye),
      el("label", { class: "check" }, open, " ", M.publicReads),
      problem,
      el("button", { id: "create-competition", type: "submit", class: "primary", text: M.create }),
    );
  }

  // -- one competition -----------------------------------------------------------------

  // Counts the competition's draws: a test (or a person's script) waits for the next.
  let draws = 0;
  // The id and Idempotency-Key of each table's score-sheet match, by table id and the
  // void match it replaces (none: ""), so a corrected table's new match is a new one.
  const starts = new Map();
  // The table whose result was just voided for a correction: its score sheet opens.
  let reopen = null;

  async function competitionView(id, admin) {
    const base = "/competitions/" + id;
    const [competition, described, entrantsBody, fixtures, standings, players, matches, records] = await Promise.all([
      getJSON(base, auth()),
      games(),
      getJSON(base + "/entrants", auth()),
      getJSON(base + "/fixtures", auth()),
      getJSON(base + "/standings", auth()),
      allPages("/players"),
      allPages("/matches?competition_id=" + id),
      getJSON(base + "/records", auth()).catch(() => null),
    ]);
    const d = described.get(competition.game);
    const size = entrantSize(d);
    const names = new Map(players.map((p) => [p.id, p.display_name]));
    const entrants = entrantsBody.items;
    const byId = new Map(entrants.map((e) => [e.id, e]));
    const who = (eid) => entrantText((byId.get(eid) || { players: [eid] }).players, names);
    const status = new Map(matches.map((m) => [m.id, m]));
    const redraw = () => competitionView(id, admin).catch((error) => app.append(message("error", error.message, "error")));
    const variant = d ? d.variants.find((v) => v.name === competition.variant) : null;
    const perTable = variant ? variant.seats / size : 2;

    // -- entrants --
    function entrantsSection() {
      const rows = entrants.map((e) => {
        const problem = problemBox();
        const gone = e.withdrawn;
        const reason = el("input", { class: "withdraw-reason", "aria-label": M.withdrawReason, placeholder: M.withdrawReason, required: true });
        const form = el(
          "form",
          { class: "withdraw-form inline", hidden: true, onsubmit: acting(problem, () => post(base + "/entrants/" + e.id + "/withdraw", { reason: reason.value.trim() }), redraw) },
          reason,
          el("button", { type: "submit", class: "primary", text: M.confirmWithdraw }),
        );
        return el(
          "li",
          { "data-entrant": e.id, class: gone ? "withdrawn" : null },
          el("span", { class: "who", text: who(e.id) }),
          gone ? el("span", { class: "badge taken", title: gone.reason || "", text: M.withdrawn }) : null,
          gone
            ? null
            : el("button", { type: "button", class: "withdraw", "aria-label": M.withdraw + " " + who(e.id), text: M.withdraw, onclick: () => ((form.hidden = !form.hidden), reason.focus()) }),
          form,
          problem,
        );
      });
      const list = entrants.length ? el("ul", { id: "entrant-list", class: "entrant-list" }, ...rows) : el("p", { id: "entrant-list", class: "empty", text: M.noEntrants });
      const datalist = el("datalist", { id: "known-players" }, ...players.map((p) => el("option", { value: p.display_name })));
      const inputs = Array.from({ length: size }, (_, k) => el("input", { id: "entrant-player-" + k, list: "known-players", required: true, autocomplete: "off" }));
      const problem = problemBox();
      async function playerId(typed) {
        const text = typed.trim();
        const same = players.filter((p) => p.display_name.toLowerCase() === text.toLowerCase());
        if (same.length > 1) throw new Error(M.sameName(text, same.length));
        if (same.length === 1) return same[0].id;
        return (await post("/players", { display_name: text })).id;
      }
      const form = el(
        "form",
        {
          id: "add-entrant",
          class: "card-box",
          onsubmit: acting(
            problem,
            async () => {
              const ids = [];
              for (const input of inputs) ids.push(await playerId(input.value));
              await post(base + "/entrants", size === 1 ? { player_id: ids[0] } : { players: ids });
            },
            async () => {
              await redraw();
              const first = document.getElementById("entrant-player-0");
              if (first) first.focus();
            },
          ),
        },
        datalist,
        ...inputs.map((input, k) => field(M.player(k, size), input)),
        el("p", { class: "hint", text: M.playerHint + (fixtures.rounds.length ? " " + M.lateEntrant : "") }),
        problem,
        el("button", { id: "add-entrant-button", type: "submit", class: "primary", text: M.addEntrant }),
      );
      return el("section", { id: "entrants" }, el("h2", { text: w("desk.entrants_count", { title: M.entrants, n: num(entrants.length) }) }), list, form);
    }

    // -- rounds --
    function makeControls() {
      const problem = problemBox();
      const rounds = fixtures.rounds;
      const next = rounds.length + 1;
      const parts = [];
      if (!rounds.length && perTable === 2) {
        const legs = el("select", { id: "round-robin-legs" }, ...[1, 2, 3, 4].map((n) => el("option", { value: n, text: String(n) })));
        parts.push(
          field(M.legs, legs),
          el("button", { id: "make-round-robin", type: "button", text: M.makeRoundRobin, onclick: acting(problem, () => post(base + "/fixtures", { system: "round-robin", legs: Number(legs.value) }), redraw) }),
        );
      }
      if (!rounds.length || rounds[rounds.length - 1].system === "swiss") {
        parts.push(
          el("button", {
            id: "make-swiss",
            type: "button",
            class: "primary",
            text: perTable === 2 ? M.makeSwiss(next) : M.makeTables(next),
            onclick: acting(problem, () => post(base + "/fixtures", { system: "swiss" }), redraw),
          }),
        );
      }
      return el("div", { class: "round-controls" }, ...parts, problem);
    }

    // The score-sheet form of a table: start its results match if it has none, record
    // the lines typed (or picked from the legal results), take back the last one.
    function sheetForm(round, table, match) {
      const problem = problemBox();
      const lines = el("textarea", { id: "sheet-" + table.id, class: "sheet-lines", rows: 3, "aria-label": M.sheetLabel, placeholder: (d ? d.examples.results : []).join("\n") });
      const quick = el("div", { class: "buttons quick-results" });
      const entered = el("ol", { class: "entered" });
      const why = el("input", { class: "takeback-reason", "aria-label": M.takeBackReason, placeholder: M.takeBackReason });
      const takeBack = el("div", { class: "takeback-result", hidden: true });
      let steps = [];
      async function load() {
        if (!match) return;
        const mbase = "/matches/" + match.id;
        const [timeline, legal] = await Promise.all([getJSON(mbase + "/timeline", auth()), getJSON(mbase + "/legal-moves", auth())]);
        steps = timeline.steps.filter((s) => !s.taken_back);
        entered.replaceChildren(...steps.map((s) => el("li", { text: s.sentence })));
        takeBack.hidden = !steps.length;
        const choices = (legal.choices || []).filter((c) => c.move);
        quick.replaceChildren(
          ...choices.map((c) =>
            el("button", { type: "button", class: "move quick-result", "data-move": c.move, text: c.sentence || c.move, onclick: () => (lines.value = (lines.value.trim() ? lines.value.trim() + "\n" : "") + c.move) }),
          ),
        );
      }
      async function record() {
        const moves = lines.value.split("\n").map((l) => l.trim()).filter(Boolean);
        if (!moves.length) return;
        let current = match;
        if (!current) {
          const body = { game: competition.game, players: table.players, fixture_id: table.id, recording: "results" };
          // One id and key per table, kept across redraws: sent again after a lost
          // answer, they make no second match.
          const slot = table.id + ":" + (table.match_id || "");
          if (!starts.has(slot)) starts.set(slot, { id: newKey(), key: newKey() });
          const start = starts.get(slot);
          current = await post("/matches", { ...body, id: start.id }, { "Idempotency-Key": start.key });
        }
        const version = (await getJSON("/matches/" + current.id + "/legal-moves", auth())).version;
        await post("/matches/" + current.id + "/moves", { moves, expected_version: version });
      }
      async function undo() {
        const last = steps[steps.length - 1];
        const reason = why.value.trim();
        if (!last || !reason) throw new Error(M.takeBackReason);
        const version = (await getJSON("/matches/" + match.id + "/legal-moves", auth())).version;
        await post("/matches/" + match.id + "/takeback", { to_version: last.before_version, reason, expected_version: version });
      }
      takeBack.append(why, el("button", { type: "button", class: "take-back-result", text: M.takeBackResult, onclick: acting(problem, undo, redraw) }));
      const form = el(
        "form",
        { class: "sheet-form", "data-table": table.id, onsubmit: acting(problem, record, redraw) },
        match ? el("div", {}, el("span", { class: "legend", text: M.entered }), entered) : null,
        takeBack,
        quick,
        field(M.sheetLabel, lines),
        el("p", { class: "hint", text: M.sheetHint((d ? d.examples.results : []).slice(0, 2)) }),
        problem,
        el("button", { type: "submit", class: "primary record-sheet", text: M.recordSheet }),
      );
      load().catch((error) => ((problem.hidden = false), (problem.textContent = error.message)));
      return form;
    }

    // Correcting a finished table's result: the match is voided (admin) with the reason
    // given, and the table's score sheet opens for the right result.
    function correctForm(table) {
      const problem = problemBox();
      const reason = el("input", { class: "correct-reason", "aria-label": M.correctReason, placeholder: M.correctReason, required: true });
      async function correct() {
        const path = "/matches/" + table.match_id;
        const version = (await getJSON(path, auth())).version;
        await post(path + "/void", { reason: reason.value.trim(), expected_version: version });
        reopen = table.id;
      }
      return el(
        "form",
        { class: "correct-form inline", onsubmit: acting(problem, correct, redraw) },
        reason,
        el("button", { type: "submit", class: "primary confirm-correct", text: M.confirmCorrect }),
        el("p", { class: "hint", text: M.correctHint }),
        problem,
      );
    }

    function forfeitForm(table) {
      const problem = problemBox();
      const by = el(
        "select",
        { class: "forfeited-by", "aria-label": M.forfeitedBy },
        ...table.entrants.map((e) => el("option", { value: e, text: who(e) })),
        el("option", { value: "*", text: M.everyone }),
      );
      return el(
        "form",
        {
          class: "forfeit-form inline",
          onsubmit: acting(problem, () => post(base + "/fixtures/" + table.id + "/forfeit", { forfeited_by: by.value === "*" ? table.entrants : [by.value] }), redraw),
        },
        field(M.forfeitedBy, by),
        el("button", { type: "submit", class: "primary", text: M.confirmForfeit }),
        problem,
      );
    }

    function tableRow(round, table, k) {
      const match = table.match_id ? status.get(table.match_id) : null;
      const live = match && match.status === "live";
      const voided = match && match.status === "void";
      const seats = table.players.map((p, s) =>
        el(
          "li",
          { class: "seat-line" + (s === table.first_dealer ? " dealer" : ""), "data-seat": s },
          el("span", { class: "seat-tag", text: seatName(d, s) }),
          " " + (names.get(p) || p.slice(0, 8)),
          s === table.first_dealer ? el("span", { class: "badge acting", text: M.dealsFirst }) : null,
        ),
      );
      let state;
      if (table.result) state = el("span", { class: "badge finished", text: fixtureResultText(table) });
      else if (live) state = el("span", {}, el("span", { class: "badge live", text: M.live }), " ", el("a", { class: "watch", href: "/matches/" + table.match_id + "/view", text: M.watch }));
      else if (match) state = el("span", { class: "badge", text: M.voided });
      else state = el("span", { class: "badge not-started", text: M.notStarted });
      const extra = el("div", { class: "table-extra" });
      const toggle = (make) => () => extra.replaceChildren(...(extra.firstChild ? [] : [make()]));
      const actions = [];
      // A void match's table takes a new match: its score sheet starts one.
      const sheetMatch = voided ? null : match;
      const sheet = !match || voided || (live && match.recording === "results");
      if (!table.result && sheet) {
        actions.push(el("button", { type: "button", class: "enter-sheet", text: sheetMatch ? M.continueSheet : M.enterSheet, onclick: toggle(() => sheetForm(round, table, sheetMatch)) }));
        if (reopen === table.id) {
          reopen = null;
          extra.replaceChildren(sheetForm(round, table, sheetMatch));
        }
      } else if (live) {
        actions.push(el("a", { class: "open-pad", href: "/matches/" + table.match_id + "/score", text: M.onThePad }));
      }
      if (table.result && admin && match && match.status === "finished") {
        actions.push(el("button", { type: "button", class: "correct-result", text: M.correctResult, onclick: toggle(() => correctForm(table)) }));
      }
      if (!table.result && admin) actions.push(el("button", { type: "button", class: "forfeit", text: M.forfeit, onclick: toggle(() => forfeitForm(table)) }));
      return el(
        "li",
        { class: "desk-table", "data-table": table.id, "data-match": table.match_id },
        el("div", { class: "table-head" }, el("strong", { class: "table-number", text: w("desk.table_n", { n: k + 1 }) }), state, el("span", { class: "table-actions" }, ...actions)),
        el("ul", { class: "seats" }, ...seats),
        extra,
      );
    }

    function roundSection(round) {
      const started = round.tables.some((t) => t.match_id || t.result);
      const problem = problemBox();
      const tools = [];
      const last = round.number === fixtures.rounds.length;
      if (!started) {
        // An entrant may change places with another at a table or with a bye.
        const seated = [...round.tables.flatMap((t) => t.entrants), ...round.byes];
        const pick = (cls) => el("select", { class: cls, "aria-label": M.swap }, ...seated.map((e) => el("option", { value: e, text: who(e) })));
        const a = pick("swap-a");
        const b = pick("swap-b");
        if (seated.length > 1) b.value = seated[1];
        const why = el("input", { class: "swap-reason", "aria-label": M.swapReason, placeholder: M.swapReason, required: true });
        const swap = el(
          "form",
          { class: "swap-form inline", hidden: true, onsubmit: acting(problem, () => post(base + "/rounds/" + round.number + "/swap", { a: a.value, b: b.value, reason: why.value.trim() }), redraw) },
          a,
          b,
          why,
          el("button", { type: "submit", class: "primary", text: M.confirmSwap }),
        );
        const reason = el("input", { class: "takeback-round-reason", "aria-label": M.takeBackRoundReason, placeholder: M.takeBackRoundReason, required: true });
        const takeback = el(
          "form",
          { class: "takeback-round-form inline", hidden: true, onsubmit: acting(problem, () => post(base + "/rounds/" + round.number + "/takeback", { reason: reason.value.trim() }), redraw) },
          reason,
          el("button", { type: "submit", class: "primary", text: M.confirmTakeBackRound }),
        );
        tools.push(
          el("button", { type: "button", class: "swap", text: M.swap, onclick: () => (swap.hidden = !swap.hidden) }),
          last ? el("button", { type: "button", class: "takeback-round", text: M.takeBackRound, onclick: () => (takeback.hidden = !takeback.hidden) }) : null,
          swap,
          takeback,
        );
      }
      return el(
        "section",
        { class: "round", "data-round": round.number, "aria-label": M.round(round.number) },
        el(
          "h3",
          {},
          M.round(round.number),
          round.rematches ? el("span", { class: "hint", text: " · " + M.rematches(round.rematches) }) : null,
          el("a", { class: "print-round", href: base + "/rounds/" + round.number + "/print", text: M.print }),
        ),
        el("div", { class: "round-tools" }, ...tools, problem),
        el("ul", { class: "desk-tables" }, ...round.tables.map((t, k) => tableRow(round, t, k))),
        round.byes.length ? el("p", { class: "byes" }, M.byeLine, ...round.byes.flatMap((e, k) => [k ? w("comma") : null, el("span", { class: "entrant", "data-entrant": e, text: who(e) })])) : null,
      );
    }

    function roundsSection() {
      const rounds = fixtures.rounds.slice().reverse();
      return el(
        "section",
        { id: "rounds" },
        el("h2", { text: M.rounds }),
        makeControls(),
        ...(rounds.length ? rounds.map(roundSection) : [el("p", { class: "empty", text: M.noRounds })]),
      );
    }

    // -- standings, exports, records --
    function swissText(value) {
      const whole = Math.floor(value + 1e-9);
      const part = value - whole;
      if (Math.abs(part) < 1e-9) return String(whole);
      if (Math.abs(part - 0.5) < 1e-9) return (whole ? whole : "") + "½";
      return value.toFixed(2);
    }

    function standingsSection() {
      const scores = fixtures.swiss_scores || {};
      const swiss = fixtures.rounds.some((r) => r.system === "swiss");
      const entrantOf = (members) => entrants.find((e) => e.players.length === members.length && e.players.every((p) => members.includes(p)));
      const scoreOf = (row) => {
        const e = entrantOf(row.members);
        return e && e.id in scores ? scores[e.id] : 0;
      };
      const tableOf = (rows) => {
        const mine = rows.length && rows[0].members.length === size;
        const differs = swiss && mine && rows.some((row) => Math.abs(scoreOf(row) - row.points) > 1e-9);
        return standingsTable(rows, differs ? { header: M.swissScore, cell: (row) => swissText(scoreOf(row)) } : null);
      };
      const parts = [el("h2", { text: M.standings }), tableOf(standings.players || [])];
      if (standings.pairs) parts.push(el("h3", { text: M.pairs }), tableOf(standings.pairs));
      if (swiss) parts.push(el("p", { class: "hint", text: M.swissHint }));
      return el("section", { id: "standings" }, ...parts);
    }

    function exportsSection() {
      const problem = problemBox();
      const slug = competition.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "competition";
      return el(
        "section",
        { id: "exports" },
        el("h2", { text: M.exports }),
        el(
          "div",
          { class: "buttons" },
          ...M.exportsList.map(([key, label, path, suffix]) =>
            el("button", { type: "button", class: "export", "data-export": key, text: label, onclick: acting(problem, () => download(base + path, slug + "-" + suffix), async () => {}) }),
          ),
        ),
        problem,
      );
    }

    function recordsSection() {
      if (!records) return null;
      const items = records.items || [];
      const line = (r) => {
        const kind = M.recordKinds[r.kind] || r.kind;
        const when = dayTime(r.at);
        const details = r.details || {};
        const whom = r.kind === "swap" ? [details.a, details.b] : r.entrant_id ? [r.entrant_id] : [];
        const where = r.kind === "correction" && details.table ? w("desk.table_n", { n: details.table }) : null;
        const what = [r.round ? M.round(r.round) : null, where, whom.filter(Boolean).map(who).join(" ⇄ ")].filter(Boolean).join(" · ");
        return el(
          "li",
          { class: "record", "data-kind": r.kind },
          el("strong", { text: kind }),
          " " + what,
          el("span", { class: "hint", text: " " + when + (r.by && r.by.name ? " · " + w("desk.by_name", { name: r.by.name }) : "") + " · " + r.reason }),
        );
      };
      return el("section", { id: "records" }, el("h2", { text: M.records }), items.length ? el("ul", { class: "record-list" }, ...items.map(line)) : el("p", { class: "empty", text: M.noRecords }));
    }

    const summary = [d ? d.label : competition.game, d ? variantName(d, competition.variant) : competition.variant, formatText(d, competition.format), M.entrantCount(entrants.length)].filter(Boolean).join(" · ");
    app.replaceChildren(
      header(
        el(
          "nav",
          {},
          el("a", { href: "#", id: "all-competitions", text: M.allCompetitions }),
          el("a", { href: base + "/view", text: M.viewer }),
          el("button", { type: "button", id: "refresh", text: M.refresh, onclick: redraw }),
        ),
      ),
      el("div", { class: "competition-title", "data-competition": id }, el("h2", { text: competition.name }), el("p", { class: "hint", text: summary })),
      el(
        "div",
        { class: "desk-grid" },
        el("div", { class: "desk-main" }, roundsSection(), entrantsSection()),
        el("aside", { class: "desk-side" }, standingsSection(), exportsSection(), recordsSection()),
      ),
    );
    draws += 1;
    document.body.dataset.drawn = String(draws);
  }

  // -- the print page ------------------------------------------------------------------

  async function printPage(ident) {
    const [id, number] = ident.split("/");
    const base = "/competitions/" + id;
    const headers = token() ? auth() : {};
    const [competition, described, fixtures, entrants] = await Promise.all([
      getJSON(base, headers),
      games(),
      getJSON(base + "/fixtures", headers),
      getJSON(base + "/entrants", headers),
    ]);
    const d = described.get(competition.game);
    const round = fixtures.rounds.find((r) => r.number === Number(number));
    const tools = el(
      "nav",
      { class: "no-print" },
      el("a", { href: "/organise#competition=" + id, text: M.backToDesk }),
      el("button", { type: "button", class: "primary", text: M.printPage, onclick: () => window.print() }),
    );
    if (!round) {
      app.replaceChildren(tools, el("p", { class: "empty", text: M.noSuchRound(number) }));
      return;
    }
    const ids = new Set(round.tables.flatMap((t) => t.players));
    for (const e of entrants.items) e.players.forEach((p) => ids.add(p));
    const names = new Map(await Promise.all([...ids].map(async (p) => [p, await getJSON("/players/" + p).then((x) => x.display_name, () => p.slice(0, 8))])));
    const players = new Map(entrants.items.map((e) => [e.id, e.players]));
    const who = (e) => entrantText(players.get(e) || [e], names);
    const seatCount = Math.max(...round.tables.map((t) => t.players.length), 1);
    const seatCell = (t, s) =>
      s < t.players.length
        ? el("td", { class: s === t.first_dealer ? "dealer" : null }, el("span", { class: "seat-tag", text: seatName(d, s) }), " " + (names.get(t.players[s]) || ""), s === t.first_dealer ? " ★" : "")
        : el("td", {});
    const title = M.pairingsTitle(competition.name, round.number);
    const pairings = el(
      "section",
      { class: "pairings" },
      el("h1", { text: title }),
      el(
        "table",
        { class: "pairings-table" },
        el("thead", {}, el("tr", {}, el("th", { text: M.table }), ...Array.from({ length: seatCount }, (_, s) => el("th", { text: seatName(d, s) })))),
        el("tbody", {}, ...round.tables.map((t, k) => el("tr", { "data-table": t.id }, el("td", { class: "number", text: String(k + 1) }), ...Array.from({ length: seatCount }, (_, s) => seatCell(t, s))))),
      ),
      el("p", { class: "legend", text: "★ " + M.dealsFirst }),
      round.byes.length ? el("p", { class: "byes" }, M.byeLine + round.byes.map(who).join(w("comma"))) : null,
    );
    const slips = round.tables.map((t, k) =>
      el(
        "section",
        { class: "slip", "data-table": t.id },
        el("h2", { text: M.slip(competition.name, round.number, k + 1) }),
        el(
          "table",
          { class: "slip-table" },
          el("thead", {}, el("tr", {}, el("th", { text: M.seats }), el("th", { text: M.slipRounds }), el("th", { text: M.slipWinner }), el("th", { text: M.slipSignature }))),
          el(
            "tbody",
            {},
            ...t.entrants.map((e) =>
              el("tr", {}, el("td", { text: who(e) + (t.first_dealer !== null && (players.get(e) || []).includes(t.players[t.first_dealer]) ? " ★" : "") }), el("td", { class: "box" }), el("td", { class: "box small" }), el("td", { class: "box signature" })),
            ),
          ),
        ),
        el("p", { class: "slip-result" }, w("desk.slip_result", { label: M.slipResult }), el("span", { class: "box line" })),
      ),
    );
    document.title = title + " · " + w("brand");
    app.replaceChildren(tools, pairings, el("div", { class: "slips" }, ...slips));
    document.body.dataset.ready = "true";
  }

  const { page, id } = document.body.dataset;
  if (page === "organise") {
    window.addEventListener("hashchange", deskPage);
    deskPage();
  } else if (page === "print") {
    printPage(id).catch((error) => app.replaceChildren(message("error", error.message, "error")));
  }
})();
