// matchlog table drawing: the helpers and the card table shared by the viewer and the
// scorer's pad (api/static/viewer.js, api/static/pad.js), loaded before either.
"use strict";

window.MatchTable = (() => {
  const SUITS = {
    C: { symbol: "\u2663\uFE0E", name: "clubs", colour: "black" },
    D: { symbol: "\u2666\uFE0E", name: "diamonds", colour: "red" },
    H: { symbol: "\u2665\uFE0E", name: "hearts", colour: "red" },
    S: { symbol: "\u2660\uFE0E", name: "spades", colour: "black" },
  };

  // -- the page's words ----------------------------------------------------------------
  // Every word a page shows comes from the shell: the server put the page's language's
  // catalog in <script id="words"> (api/page_words.py). A key it lacks shows as itself,
  // which the pseudo-language check (tests/viewer/test_languages.py) finds.
  const WORDS = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  const LANG = WORDS.locale || "en";
  const put = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
  function w(key, params) {
    const text = (WORDS.words || {})[key];
    return put(text === undefined ? key : text, params);
  }
  const pluralRules = new Intl.PluralRules(LANG);
  // A count with its words, in the form the language takes for it ({n} is the count).
  function wn(key, n, params) {
    const forms = (WORDS.plurals || {})[key];
    if (!forms) return key;
    return put(forms[pluralRules.select(n)] || forms.other, { n: num(n), ...(params || {}) });
  }
  const numbers = new Intl.NumberFormat(LANG);
  const fixed2 = new Intl.NumberFormat(LANG, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const num = (n) => (typeof n === "number" ? numbers.format(n) : String(n));
  const num2 = (n) => fixed2.format(n);
  const days = new Intl.DateTimeFormat(LANG, { dateStyle: "medium" });
  // Times are the reader's own (Intl takes the device's time zone) and say which zone
  // that is, so a time read on a page shared across zones is not taken for another's.
  const times = new Intl.DateTimeFormat(LANG, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
  const day = (iso) => (iso ? days.format(new Date(iso)) : "");
  const dayTime = (iso) => (iso ? times.format(new Date(iso)) : "");

  // -- the language switcher -----------------------------------------------------------
  // The server writes each language's link as ``?lang=xx``; a page's place is more than
  // that (the viewer's ``?ply=``, which it moves as the reader steps; the desk's
  // ``#competition=``), so each link is remade from the page's URL as it is now whenever
  // it may be followed: drawn, pointed at, focused or clicked.
  function keepPlace() {
    for (const link of document.querySelectorAll("nav.languages a[hreflang]")) {
      const url = new URL(location.href);
      url.searchParams.set("lang", link.getAttribute("hreflang"));
      link.href = url.href;
    }
  }
  const switcherNav = document.querySelector("nav.languages");
  if (switcherNav) {
    keepPlace();
    for (const type of ["pointerover", "focusin", "click", "auxclick", "contextmenu"]) {
      switcherNav.addEventListener(type, keepPlace, true);
    }
  }

  // -- small DOM helpers ---------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function cardLabel(code) {
    if (code[0] === "X") return w("card.joker", { n: code.slice(1) });
    const rank = "AJQK".includes(code[0]) ? w("rank." + code[0]) : code[0] === "T" ? "10" : code[0];
    return w("card.name", { rank, suit: SUITS[code[1]] ? w("suit." + code[1]) : code[1] });
  }

  // Each rank letter as the reader's decks print it (a descriptor's ``ranks``, in the
  // page's language: a Russian queen is Д), read with the games' descriptors.
  let RANKS = {};
  const rankText = (letter) => RANKS[letter] || (letter === "T" ? "10" : letter === "X" ? "\u2605" : letter);

  function cardText(code) {
    if (code[0] === "X") return rankText("X") + code.slice(1);
    const suit = SUITS[code[1]];
    return rankText(code[0]) + (suit ? suit.symbol : code[1]);
  }

  // A face-up card: data-card holds its notation, the text its rank and suit symbol.
  // ``corner``: rank above suit, as in a real card's corner, so that a card under a
  // stack's jacks still shows both (one line of text would be half covered).
  function card(code, extra, corner) {
    const suit = SUITS[code[1]];
    const colour = code[0] === "X" ? "joker" : suit ? suit.colour : "black";
    const text = cardText(code);
    const rank = rankText(code[0]);
    return el(
      "span",
      {
        class: "card " + colour + (code[0] === "T" ? " ten" : "") + (corner ? " corner" : "") + (extra ? " " + extra : ""),
        "data-card": code,
        title: cardLabel(code),
        "aria-label": cardLabel(code),
        text: corner ? null : text,
      },
      corner ? [el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: text.slice(rank.length) })] : null,
    );
  }

  function back(extra) {
    return el("span", {
      class: "card back" + (extra ? " " + extra : ""),
      title: w("card.face_down"),
      "aria-label": w("card.face_down"),
    });
  }

  function backs(count, extra) {
    return Array.from({ length: count }, () => back(extra));
  }

  function zone(name, label, ...children) {
    return el(
      "div",
      { class: "zone zone-" + name.replace(/-\d+$/, ""), "data-zone": name },
      label ? el("span", { class: "zone-label", text: label }) : null,
      el("div", { class: "cards" }, ...children),
    );
  }

  // The last write's Matchlog-Position (session.js keeps it), sent with every read: a
  // server reading from a standby then shows that write (docs/api.md).
  const position = () => localStorage.getItem("matchlog.position");

  // ``headers``: extra request headers (the pad sends its scorer's token).
  async function getJSON(url, headers) {
    const read = position() ? { "Matchlog-Position": position() } : {};
    const response = await fetch(url, { headers: { Accept: "application/json", ...read, ...(headers || {}) } });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const detail = body && (body.detail || body.title);
      throw new Error(detail || w("error.answered", { status: response.status }));
    }
    return body;
  }

  function showError(message) {
    const box = document.getElementById("error") || el("p", { id: "error", role: "alert" });
    box.textContent = message;
    if (!box.isConnected) document.getElementById("app").prepend(box);
  }

  // Server-sent events by fetch (EventSource drops named events without a listener per
  // type); reconnects with Last-Event-ID, so nothing is missed or repeated. `headers`
  // (optional) go with every request: the pad's Authorization, which a private
  // competition's feed needs (an EventSource could not send it).
  function follow(url, onEvent, headers) {
    let lastId = null;
    let stopped = false;
    const controller = new AbortController();
    async function run() {
      while (!stopped) {
        try {
          const sent = { ...(headers || {}), Accept: "text/event-stream" };
          if (lastId !== null) sent["Last-Event-ID"] = lastId;
          const response = await fetch(url, { headers: sent, signal: controller.signal });
          if (!response.ok || !response.body) throw new Error("feed " + response.status);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replace(/\r\n?/g, "\n");
            let cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const message = { event: "message", data: "" };
              for (const line of block.split("\n")) {
                const colon = line.indexOf(":");
                if (colon <= 0) continue;
                const field = line.slice(0, colon);
                const text = line.slice(colon + 1).replace(/^ /, "");
                if (field === "id") lastId = text;
                else if (field === "event") message.event = text;
                else if (field === "data") message.data += text;
              }
              if (message.data) onEvent(message);
            }
          }
        } catch (error) {
          if (stopped) return;
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 1500));
      }
    }
    run();
    return () => {
      stopped = true;
      controller.abort();
    };
  }

  // Scroll a box so that an item inside it shows, without scrolling the page itself.
  function reveal(box, item) {
    const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top + item.offsetHeight - box.clientHeight;
    }
  }

  function debounce(fn, ms) {
    let timer = null;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
  }

  // "1 trick", "2 tricks": a count with its noun (a game descriptor's own words), by the
  // language's plural category when the descriptor gives its ``forms``.
  function plural(count, one, many, forms) {
    const noun = forms && forms[pluralRules.select(count)];
    return num(count) + " " + (noun || (count === 1 ? one : many || one + "s"));
  }

  // -- games ---------------------------------------------------------------------------
  // Every game is drawn from its presentation descriptor (GET /games, docs/viewer.md):
  // nothing below knows a game; the descriptor names the zones, where their cards are
  // in the engine's view, and the words.

  // The descriptors by game name, read once per page.
  let gamesRead = null;
  function games() {
    if (!gamesRead) {
      gamesRead = getJSON("/games").then((body) => {
        for (const d of body.items) RANKS = { ...RANKS, ...(d.ranks || {}) };
        return new Map(body.items.map((d) => [d.game, d]));
      });
      gamesRead.catch(() => (gamesRead = null));
    }
    return gamesRead;
  }

  async function describe(game) {
    const found = (await games()).get(game);
    if (!found) throw new Error(w("error.undescribed", { game }));
    return found;
  }

  const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // A value in the view at a dotted path ("hands.0.cards"); undefined when missing.
  function at(data, path) {
    if (!path) return undefined;
    let value = data;
    for (const key of path.split(".")) {
      if (value === null || value === undefined) return undefined;
      value = value[key];
    }
    return value;
  }

  // A path or template with the seat or team being drawn put in.
  function bind(text, where) {
    return text.replace(/\{(seat|team)\}/g, (_, key) => String(where[key]));
  }

  function teamName(d, names, team) {
    return d.teams[team].seats.map((s) => names[s] || w("seat", { n: s })).join(w("and"));
  }

  // A template filled in: {path} from `data`, {path|filter} through a filter.
  function fill(d, template, data, names) {
    const filters = {
      name: (s) => names[s] || w("seat", { n: s }),
      tag: (s) => d.seat_letter + s,
      team: (t) => d.team_word + " " + d.teams[t].label,
      Team: (t) => cap(d.team_word) + " " + d.teams[t].label,
      players: (t) => teamName(d, names, t),
      suit: (s) => (SUITS[s] ? SUITS[s].symbol : s),
      card: (c) => cardText(c),
      word: (w) => (d.caption && d.caption.words[w]) || w,
    };
    return template.replace(/\{([^{}|]+)(?:\|(\w+))?\}/g, (_, path, filter) => {
      const value = at(data, path);
      if (value === undefined || value === null) return "";
      return filter ? filters[filter](value) : String(value);
    });
  }

  function extras(d, list, data, names) {
    return list
      .filter((x) => {
        const value = at(data, x.path);
        if (value === undefined || value === null || value === false) return false;
        if (x.minimum !== null && x.minimum !== undefined && !(value >= x.minimum)) return false;
        if (x.maximum !== null && x.maximum !== undefined && !(value <= x.maximum)) return false;
        return true;
      })
      .map((x) => fill(d, x.text, data, names));
  }

  // The first case that holds, written out.
  function cases(d, list, data, names) {
    for (const c of list) {
      const value = c.when ? at(data, c.when) : true;
      const holds = c.null ? value === null || value === undefined : Boolean(value);
      if (!c.when || holds) return fill(d, c.text, data, names) + extras(d, c.extras, data, names).join("");
    }
    return "";
  }

  // -- scores ----------------------------------------------------------------------------

  // "Ann & Cid v Bob & Dee" when the game has teams (and the names fill them), else "Ann v Bob".
  function playersText(d, names) {
    const seated = d.teams.length && d.teams.every((t) => t.seats.every((s) => s < names.length));
    if (seated) return d.teams.map((_, t) => teamName(d, names, t)).join(w("versus"));
    return names.join(w("versus"));
  }

  // What the game calls a round ("Deal"), as a column heads it.
  function roundWord(d) {
    return d.round_title || cap(d.round_word);
  }

  // A round by its number ("Deal 2").
  function roundTitle(d, number) {
    return d.round_number ? d.round_number.replace("{number}", num(number)) : roundWord(d) + " " + num(number);
  }

  // A variant's or a format's name in the reader's words (the descriptor's ``words``).
  const variantName = (d, name) => (d.words && d.words[name]) || name;

  // The game's label and the variant ("· cutthroat"); a game of one variant is named alone.
  function gameTitle(d, variant) {
    return d.label + (d.variants.length === 1 ? "" : " · " + variantName(d, variant));
  }

  function scoreText(d, score, names) {
    if (!score) return "";
    const S = d.score;
    const who = S.by === "team" ? (t) => teamName(d, names, t) : (s) => names[s];
    const values = at(score, S.values).map((v, i) => who(i) + " " + v).join(" · ");
    const more = extras(d, S.extras, score, names).map((x) => " · " + x).join("");
    return fill(d, S.template.replace("{values}", "\u0000").replace("{extras}", "\u0001"), score, names)
      .replace("\u0000", values)
      .replace("\u0001", more);
  }

  // Notes and takebacks name who recorded them by role (a scorer also sees the token id).
  function noteText(note) {
    const who = note.by && note.by.role;
    return who ? w("note.by", { text: note.text, role: w("role." + who) }) : note.text;
  }

  function takenBackText(undo) {
    const who = undo.by && undo.by.role;
    return who ? w("taken_back.by", { role: w("role." + who), reason: undo.reason }) : w("taken_back", { reason: undo.reason });
  }

  // ``d``: the game's descriptor, whose ``reasons`` say a result's reason code in words.
  function resultText(result, names, d) {
    if (!result) return "";
    const words = result.reason && d && d.reasons ? d.reasons[result.reason] : null;
    const reason = result.reason ? w("result.reason", { reason: words || result.reason }) : "";
    if (result.draw) return w("result.drawn") + reason;
    const winners = (result.winners || []).map((s) => names[s] || w("seat", { n: s }));
    return w("result.won_by", { winners: winners.join(w("and")) }) + reason;
  }

  // -- score sheets ------------------------------------------------------------------------

  // A match recorded by results (`"recording": "results"`) drawn as its score sheet: a
  // row per round of GET /matches/{id}/series, with the running score after it; the
  // descriptor's columns say what each holds. ``upTo``: only the rows of rounds up to
  // that one (the viewer at an earlier ply).
  function scoreSheet(d, series, names, upTo) {
    const number = (r) => r[d.round_word];
    const rows = series.rounds.filter((r) => upTo === undefined || number(r) <= upTo);
    const spread = (column) => {
      const count = column.by === "seat" ? names.length : column.by === "team" ? d.teams.length : 1;
      return Array.from({ length: count }, (_, i) => ({ column, where: { seat: i, team: i } }));
    };
    const columns = d.sheet.flatMap(spread);
    const head = columns.map(({ column, where }) => fill(d, bind(column.header, where), { ...where, name: names[where.seat] }, names));
    const cell = (r, { column, where }) =>
      cases(
        d,
        column.cells.map((c) => ({ ...c, text: bind(c.text, where), when: c.when && bind(c.when, where), extras: c.extras.map((x) => ({ ...x, path: bind(x.path, where) })) })),
        r,
        names,
      );
    return el(
      "div",
      { class: "scroll" },
      el(
        "table",
        { class: "score-sheet", "data-game": d.game },
        el("thead", {}, el("tr", {}, ...[roundWord(d), ...head].map((h) => el("th", { scope: "col", text: h })))),
        el(
          "tbody",
          {},
          ...rows.map((r) =>
            el("tr", { "data-round": number(r) }, el("th", { scope: "row", text: String(number(r)) }), ...columns.map((c) => el("td", { text: cell(r, c) }))),
          ),
        ),
      ),
      rows.length ? null : el("p", { class: "empty", text: w("sheet.empty", { round: roundWord(d) }) }),
    );
  }

  // -- fixtures ----------------------------------------------------------------------------

  // An entrant by its players' names: "Ann", or "Ada & Cy" (a pair).
  function entrantText(players, names) {
    return players.map((p) => names.get(p) || p.slice(0, 8)).join(w("and"));
  }

  // A fixture table's result as the CLI writes it (`matchlog fixtures`): each entrant's
  // score in seat order (a seat's entrant is seat % entrants), `ff` after a forfeit.
  // Without a result: the match's status ("live", "void") when it has one, else
  // "not started".
  function fixtureResultText(table, status) {
    const result = table.result;
    if (!result) return table.match_id ? w("status." + (status || "live")) : w("fixture.not_started");
    const count = table.entrants.length;
    if (result.draw) return Array(count).fill(count === 2 ? "\u00BD" : w("fixture.draw")).join("-");
    const won = new Set((result.winners || []).map((s) => s % count));
    const text = table.entrants.map((_, i) => (won.has(i) ? "1" : "0")).join("-");
    return result.forfeit ? w("fixture.forfeit", { score: text }) : text;
  }

  // A standings table (GET /competitions/{id}/standings players or pairs): rank, name,
  // then every other column the server gives. ``extra``: {header, cell(row)}, a column
  // a page adds after the name (the desk's Swiss score).
  function standingsTable(rows, extra) {
    if (!rows.length) return el("p", { class: "empty", text: w("standings.empty") });
    const skip = new Set(["entity", "members", "tiebreaks", "rank", "name"]);
    const keys = Object.keys(rows[0]).filter((k) => !skip.has(k));
    const head = [w("standings.rank"), rows[0].members.length > 1 ? w("standings.pair") : w("standings.player"), ...(extra ? [extra.header] : []), ...keys.map((k) => w("standings." + k))];
    const number = (v) => (typeof v === "number" ? (Number.isInteger(v) ? num(v) : num2(v)) : v);
    // A rating is an object (mu, sigma, ordinal): the table shows its ordinal.
    const cell = (v) =>
      v !== null && typeof v === "object"
        ? "ordinal" in v
          ? number(v.ordinal)
          : Object.entries(v).map(([k, x]) => w("standings." + k) + " " + number(x)).join(w("comma"))
        : number(v);
    return el(
      "div",
      { class: "scroll" },
      el(
        "table",
        { class: "standings" },
        el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
        el(
          "tbody",
          {},
          ...rows.map((row) =>
            el(
              "tr",
              { "data-entity": row.entity },
              el("td", { text: num(row.rank) }),
              // A player's name links to their page (a pair's names are its two players').
              el("th", { scope: "row" }, row.members.length === 1 ? el("a", { href: "/players/" + row.members[0] + "/view", text: row.name }) : row.name),
              extra ? el("td", { class: "extra", text: extra.cell(row) }) : null,
              ...keys.map((k) => el("td", { text: cell(row[k]) })),
            ),
          ),
        ),
      ),
    );
  }

  // -- the table ---------------------------------------------------------------------------

  function stackCards(stack) {
    // "TH[JS:P1,JC:P0]": the base card, then what is attached to it, bottom to top.
    const match = /^([^[]+)(?:\[(.*)\])?$/.exec(stack);
    const base = match[1];
    const attached = match[2] ? match[2].split(",").map((part) => part.split(":")) : [];
    return el(
      "span",
      { class: "stack", "data-stack": stack },
      card(base, "", true),
      ...attached.map(([code, seat]) =>
        el("span", { class: "attached", title: w("stack.played_by", { seat }) }, card(code, "on-stack", true), el("small", { text: seat })),
      ),
    );
  }

  const list = (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

  // The seats that may act, from the view (a seat, or a list of seats).
  function actingSeats(d, view) {
    return list(at(view, d.acting));
  }

  // One zone drawn for a seat or a team (`where`), or for the table; null when an
  // optional zone is empty. `seats`: every seat's own view (a full replay), or null.
  function drawZone(d, z, view, seats, names, where) {
    const path = (p) => p && bind(p, where);
    const suffix = z.place === "seat" ? "-" + where.seat : z.place === "team" ? "-" + where.team : "";
    const name = z.name + suffix;
    const ctx = { ...view, ...where };
    const small = z.small ? "small" : "";
    const label = (count) => fill(d, z.label, { ...ctx, count }, names);
    const box = (text, children, attrs) =>
      el(
        "div",
        { class: "zone zone-" + z.name, "data-zone": name, "data-kind": z.kind, ...(attrs || {}) },
        text ? el("span", { class: "zone-label", title: text, text }) : null,
        el("div", { class: "cards" }, ...children),
      );
    if (z.kind === "hand") {
      const count = at(view, path(z.count)) || 0;
      const own = seats && z.own ? at(seats[where.seat], path(z.own)) : undefined;
      const known = own !== undefined ? own : at(view, path(z.cards));
      const flagged = new Set(list(at(view, z.flagged)));
      const cards = known ? known.map((code) => card(code, flagged.has(code) ? z.flag : "")) : backs(count);
      return box(label(count), cards);
    }
    if (z.kind === "stacks") {
      const items = list(at(view, path(z.items))).filter((item) => item[z.owner] === where.seat);
      if (z.optional && !items.length) return null;
      return box(label(items.length), items.map((item) => stackCards(item.stack)));
    }
    if (z.kind === "stock") {
      const count = at(view, path(z.count)) || 0;
      const top = list(at(view, path(z.top)));
      return box(
        label(count),
        [count ? back("pile") : el("span", { class: "empty", text: w("stock.empty") }), el("span", { class: "count", text: String(count) }), ...top.map((code) => card(code, "seen"))],
        { "data-count": count },
      );
    }
    if (z.kind === "cards") {
      const cards = list(at(view, path(z.cards)));
      if (z.optional && !cards.length) return null;
      return box(label(cards.length), cards.map((code) => card(code, small)));
    }
    if (z.kind === "plays") {
      const items = list(at(view, path(z.items)));
      if (z.optional && !items.length) return null;
      const open = z.open_flag ? Boolean(at(view, z.open_flag)) : false;
      const play = (item) => {
        const shown = item.cards || (item.card ? [item.card] : null);
        const mark = z.hidden_kind && item.kind === z.hidden_kind && !open ? "face-down-open" : "";
        const cards = shown ? shown.map((code) => card(code, mark)) : backs(item.count || 0);
        const words = fill(d, z.caption || "", item, names);
        const caption = el("small", { class: "caption", title: words, text: words });
        return z.caption_below
          ? el("span", { class: "link", "data-seat": item.seat }, ...cards, caption)
          : el("span", { class: "play", "data-seat": item.seat, "data-kind": item.kind }, caption, el("span", { class: "cards" }, ...cards));
      };
      return box(label(items.length), items.map(play));
    }
    if (z.kind === "pile") {
      const up = list(at(view, path(z.cards)));
      const opened = at(view, path(z.opened));
      const down = at(view, path(z.count)) || 0;
      const counts = z.counts
        .map((c) => [c, at(view, path(c.path))])
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([c, value]) => plural(value, c.one, c.many, c.forms));
      const text = label(up.length + down) + (counts.length ? ": " + counts.join(" · ") : "");
      const downCards = opened ? opened.map((code) => card(code, small + " face-down-open")) : backs(down, small);
      // Each part under its own label when the descriptor names them (face up, face down).
      const part = (name, text, cards) =>
        cards.length ? el("span", { class: "pile-part", "data-part": name }, el("small", { class: "part-label", text }), el("span", { class: "cards" }, ...cards)) : null;
      const cards = z.up_label
        ? [part("up", z.up_label, up.map((code) => card(code, small))), part("down", z.down_label || "", downCards)]
        : [...up.map((code) => card(code, small)), ...downCards];
      return box(text, cards);
    }
    return box(label(0), []);
  }

  // What the table waits for, in the descriptor's words.
  function captionText(d, view, names) {
    const c = d.caption;
    if (!c) return null;
    if (at(view, c.over)) return cases(d, c.result, view, names);
    const phase = at(view, c.phase);
    if (phase in c.sentences) return c.sentences[phase];
    const acting = actingSeats(d, view).map((s) => names[s]).join(w("or"));
    const doing = c.doings[phase] || c.doing;
    return acting ? w("caption.acting", { who: acting, doing, extras: extras(d, c.extras, view, names).join("") }) : "";
  }

  // The table of any game: a panel per seat (its name, tag, team, whether it acts,
  // its tally and its zones) and the centre (the shared zones, each team's zones,
  // the caption), laid out as the descriptor says.
  // ``over``: the match has ended (a concession may end it with a seat still to act in
  // the round's view): no seat is badged to act then.
  function drawTable(d, view, seats, names, over) {
    const count = names.length || (seats ? seats.length : 0);
    const acting = new Set(over ? [] : actingSeats(d, view));
    const teamOf = (s) => d.teams.findIndex((t) => t.seats.includes(s));
    const seatZones = d.zones.filter((z) => z.place === "seat");
    const panel = (s) => {
      const team = teamOf(s);
      const tag = d.seat_letter + s + (team >= 0 ? " · " + fill(d, "{team|team}", { team }, names) : "");
      const tally = d.tally
        ? el("span", { class: "tally", text: at(view, bind(d.tally.value, { seat: s })) + " / " + plural(at(view, bind(d.tally.goal, { seat: s })), d.tally.one, d.tally.many, d.tally.forms) })
        : null;
      const zones = seatZones.map((z) => drawZone(d, z, view, seats, names, { seat: s }));
      return el(
        "div",
        { class: "seat seat-" + s + (acting.has(s) ? " acting" : ""), "data-seat": s },
        el("h3", {}, el("span", { class: "name", title: names[s] || w("seat", { n: s }), text: names[s] || w("seat", { n: s }) }), " ", el("small", { text: tag }), acting.has(s) ? el("span", { class: "badge acting", text: d.acting_word }) : null, tally),
        seatZones.length > 1 ? el("div", { class: "zones" }, ...zones) : zones,
      );
    };
    // The centre: shared zones in order (those of one row side by side), each team's
    // zones where the descriptor lists them.
    const parts = [];
    for (const z of d.zones) {
      if (z.place === "seat") continue;
      const drawn = z.place === "team" ? d.teams.map((_, t) => drawZone(d, z, view, seats, names, { team: t })) : [drawZone(d, z, view, seats, names, {})];
      const last = parts[parts.length - 1];
      if (z.row && last && last.row === z.row) last.zones.push(...drawn);
      else parts.push({ row: z.row, zones: drawn });
    }
    const caption = over && !(d.caption && at(view, d.caption.over)) ? null : captionText(d, view, names);
    const centre = el(
      "div",
      { class: "centre" },
      ...parts.map((p) => (p.row ? el("div", { class: "zone-row" }, ...p.zones) : p.zones)),
      caption === null ? null : el("p", { class: "phase", text: caption }),
    );
    const panels = Array.from({ length: count }, (_, s) => panel(s));
    const felt = "felt " + d.game + " " + (d.layout === "around" && count === 4 ? "around" : "across") + " seats-" + count;
    // Round the table (the style sheet places them): the partner across, the opponents
    // either side, seat 0 nearest the reader.
    if (d.layout === "around" && count === 4) return [el("div", { class: felt }, panels[2], panels[1], centre, panels[3], panels[0])];
    // The other seats across the table, side by side; seat 0 nearest the reader.
    return [el("div", { class: felt }, el("div", { class: "across" }, ...panels.slice(1)), centre, panels[0])];
  }

  return Object.freeze({
    SUITS,
    LANG,
    w,
    wn,
    num,
    num2,
    day,
    dayTime,
    el,
    cardLabel,
    cardText,
    card,
    back,
    backs,
    zone,
    getJSON,
    showError,
    follow,
    reveal,
    debounce,
    plural,
    games,
    describe,
    at,
    fill,
    teamName,
    playersText,
    roundWord,
    roundTitle,
    variantName,
    gameTitle,
    scoreText,
    noteText,
    takenBackText,
    resultText,
    scoreSheet,
    entrantText,
    fixtureResultText,
    standingsTable,
    stackCards,
    drawTable,
  });
})();
