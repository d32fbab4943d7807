// matchlog club pages: the home page (`/`) and a player's page (`/players/{id}/view`),
// drawn from the JSON API. Reads are anonymous unless the scorer's pad signed in in this
// tab (its token then goes along, so a private competition the token may read shows).
"use strict";

(() => {
  const { w, wn, num, num2, day, dayTime, el, getJSON, showError, gameTitle, scoreText, resultText, games } = window.MatchTable;

  // The pad's token, when the scorer signed in in this tab (api/static/pad.js keeps it).
  const secret = sessionStorage.getItem("matchlog.scorer-token");
  const headers = secret ? { Authorization: "Bearer " + secret } : {};
  const read = (url) => getJSON(url, headers);
  const app = document.getElementById("app");

  const names = new Map();
  function playerName(id) {
    if (!names.has(id)) names.set(id, read("/players/" + id).then((p) => p.display_name, () => id.slice(0, 8)));
    return names.get(id);
  }
  const namesOf = (ids) => Promise.all(ids.map(playerName));

  const competitions = new Map();
  function competition(id) {
    if (!competitions.has(id)) competitions.set(id, read("/competitions/" + id).catch(() => null));
    return competitions.get(id);
  }

  const playerLink = (id, name) => el("a", { class: "player-link", href: "/players/" + id + "/view", text: name });

  // A match as a row of links: who plays (each name to their page), the series, the replay.
  async function matchItem(m, described) {
    const d = described.get(m.game);
    const who = await namesOf(m.players);
    const score = d ? scoreText(d, m.score, who) : "";
    const result = m.result ? resultText(m.result, who, d) : "";
    return el(
      "li",
      { class: "match-item", "data-match": m.id, "data-status": m.status },
      el("span", { class: "players" }, ...m.players.flatMap((p, i) => [i ? el("span", { class: "versus", text: w("versus") }) : null, playerLink(p, who[i])])),
      el("span", { class: "meta", text: [d ? gameTitle(d, m.variant) : m.game, m.status === "live" ? w("home.since", { time: dayTime(m.created_at) }) : day(m.ended_at || m.updated_at)].join(" · ") }),
      el("span", { class: "series", text: [score, result].filter(Boolean).join(" · ") }),
      el("a", { class: "view-link", href: "/matches/" + m.id + "/view", text: m.status === "live" ? w("home.watch") : w("home.replay") }),
    );
  }

  // -- the home page ----------------------------------------------------------------------

  async function homePage() {
    const [described, live, recent, listed] = await Promise.all([
      games(),
      read("/matches?status=live&limit=100"),
      read("/matches?status=finished&limit=10"),
      read("/competitions?limit=50"),
    ]);
    // Live matches by competition (those outside any competition last).
    const groups = new Map();
    for (const m of live.items) {
      const key = m.competition_id || "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(m);
    }
    const keys = [...groups.keys()].sort((a, b) => (a === "") - (b === ""));
    const liveGroups = await Promise.all(
      keys.map(async (key) => {
        const c = key ? await competition(key) : null;
        const heading = c ? el("a", { href: "/competitions/" + key + "/view", text: c.name }) : w("home.outside");
        const items = await Promise.all(groups.get(key).map((m) => matchItem(m, described)));
        return el("section", { class: "live-group", "data-competition": key }, el("h3", {}, heading), el("ul", { class: "match-list" }, ...items));
      }),
    );
    const results = await Promise.all(recent.items.map((m) => matchItem(m, described)));
    const competitionItems = listed.items.map((c) => {
      const d = described.get(c.game);
      return el(
        "li",
        { "data-competition": c.id },
        el("a", { href: "/competitions/" + c.id + "/view", text: c.name }),
        el("span", { class: "meta", text: " " + (d ? gameTitle(d, c.variant) : c.game) }),
      );
    });
    app.replaceChildren(
      el(
        "header",
        { class: "home-header" },
        el("h1", { text: w("brand") }),
        el(
          "nav",
          { id: "ways", "aria-label": w("home.ways") },
          el("a", { href: "/score", text: w("home.pad") }),
          el("a", { href: "/organise", text: w("home.desk") }),
          el("a", { href: "/schema", text: w("home.api_docs") }),
        ),
      ),
      el("section", { id: "live" }, el("h2", { text: w("home.live") }), ...(liveGroups.length ? liveGroups : [el("p", { class: "empty", text: w("home.no_live") })])),
      el("section", { id: "results" }, el("h2", { text: w("home.results") }), results.length ? el("ul", { class: "match-list" }, ...results) : el("p", { class: "empty", text: w("home.no_finished") })),
      el("section", { id: "competitions" }, el("h2", { text: w("home.competitions") }), competitionItems.length ? el("ul", { class: "competition-list" }, ...competitionItems) : el("p", { class: "empty", text: w("home.no_competition") })),
    );
    return live.items.length > 0;
  }

  // -- the player's page ------------------------------------------------------------------

  const PAGE = 10;

  // A rating history drawn as an inline SVG line chart: the ordinal (what the standings
  // show) after each match, left to right in the order the matches ended.
  function ratingChart(history) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = (tag, attrs, ...children) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      node.append(...children);
      return node;
    };
    const W = 600, H = 200, L = 48, R = 12, T = 12, B = 28;
    const values = history.points.map((p) => p.ordinal);
    let low = Math.min(...values), high = Math.max(...values);
    if (high - low < 1) [low, high] = [low - 0.5, high + 0.5];
    const x = (i) => L + (values.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (values.length - 1));
    const y = (v) => T + ((high - v) * (H - T - B)) / (high - low);
    const fixed = (v) => num2(v);
    const line = values.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
    return svg(
      "svg",
      { class: "rating-chart", viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": w("player.chart", { first: fixed(values[0]), last: fixed(values[values.length - 1]) }), "data-low": low, "data-high": high },
      svg("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }),
      svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
      svg("text", { class: "tick", x: L - 4, y: y(high) + 4, "text-anchor": "end" }, fixed(high)),
      svg("text", { class: "tick", x: L - 4, y: y(low) + 4, "text-anchor": "end" }, fixed(low)),
      svg("text", { class: "tick", x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, wn("matches", values.length)),
      svg("polyline", { class: "rating-line", points: line }),
      ...history.points.map((p, i) =>
        svg(
          "circle",
          { class: "rating-point", cx: x(i).toFixed(1), cy: y(p.ordinal).toFixed(1), r: 4, "data-match": p.match_id, "data-ordinal": p.ordinal },
          svg("title", {}, w("player.point", { n: i + 1, ordinal: fixed(p.ordinal), mu: fixed(p.mu), sigma: fixed(p.sigma) })),
        ),
      ),
    );
  }

  async function playerPage(playerId) {
    const [described, record, ratings] = await Promise.all([games(), read("/players/" + playerId + "?limit=" + PAGE), read("/players/" + playerId + "/ratings")]);
    names.set(playerId, Promise.resolve(record.display_name));
    document.title = record.display_name + " · matchlog";
    const r = record.results;
    const charts = ratings.competitions.map((h) =>
      el(
        "figure",
        { class: "rating", "data-competition": h.competition_id },
        el("figcaption", {}, el("a", { href: "/competitions/" + h.competition_id + "/view", text: h.name }), " · " + w("player.rating", { rating: num2(h.points[h.points.length - 1].ordinal) })),
        ratingChart(h),
      ),
    );
    const opponents = await Promise.all(
      record.opponents.map(async (o) =>
        el("tr", { "data-player": o.player_id }, el("th", { scope: "row" }, playerLink(o.player_id, await playerName(o.player_id))), ...[o.played, o.won, o.lost, o.drawn].map((v) => el("td", { text: num(v) }))),
      ),
    );
    const matchesBox = el("div", { id: "match-pages" });
    const matchRow = async (m) => {
      const d = described.get(m.game);
      const who = await namesOf(m.players);
      const others = m.players.map((p, i) => (i === m.seat ? null : playerLink(p, who[i])));
      return el(
        "tr",
        { "data-match": m.id, "data-outcome": m.outcome },
        el("td", { text: day(m.created_at) }),
        el("td", { class: "game", text: d ? gameTitle(d, m.variant) : m.game }),
        el("td", { class: "with" }, ...others.filter(Boolean).flatMap((a, i) => [i ? w("comma") : null, a])),
        el("td", {}, el("span", { class: "badge outcome " + m.outcome, text: w("outcome." + m.outcome) })),
        el("td", { class: "series", text: d ? scoreText(d, m.score, who) : "" }),
        el("td", {}, el("a", { class: "view-link", href: "/matches/" + m.id + "/view", text: w("home.replay") })),
      );
    };
    // Newest first, PAGE matches a page, each page read from the server when the reader
    // first goes on to it (GET /players/{id}?cursor=, the previous page's next_cursor)
    // and kept, so Newer shows it again without a read.
    const pages = [{ rows: await Promise.all(record.matches.map(matchRow)), next: record.next_cursor }];
    let pageCount = Math.max(1, Math.ceil(record.matches_total / PAGE));
    async function showPage(at) {
      if (!pages[at]) {
        const more = await read("/players/" + playerId + "?limit=" + PAGE + "&cursor=" + encodeURIComponent(pages[at - 1].next));
        pages[at] = { rows: await Promise.all(more.matches.map(matchRow)), next: more.next_cursor };
      }
      const { rows, next } = pages[at];
      // Matches recorded since the first read add pages rather than hide the last ones.
      pageCount = Math.max(pageCount, at + (next ? 2 : 1));
      const body = el("tbody", {}, ...rows);
      matchesBox.replaceChildren(
        ...[
          rows.length
          ? el("div", { class: "scroll" }, el("table", { class: "player-matches" }, el("thead", {}, el("tr", {}, ...["date", "game", "with", "result", "series", "replay"].map((h) => el("th", { scope: "col", text: w("player.col." + h) })))), body))
          : el("p", { class: "empty", text: w("player.no_match") }),
        pageCount > 1
          ? el(
              "nav",
              { class: "pager", "aria-label": w("player.pages") },
              el("button", { type: "button", id: "newer", disabled: at === 0, onclick: () => turn(at - 1), text: w("player.newer") }),
              el("span", { id: "page-label", text: w("player.page_of", { page: num(at + 1), pages: num(pageCount) }) }),
              el("button", { type: "button", id: "older", disabled: !next, onclick: () => turn(at + 1), text: w("player.older") }),
            )
          : null,
        ].filter(Boolean), // a missing pager is left out, not written as "null"
      );
    }
    // A page that cannot be read says why where errors show; the one shown stays.
    const turn = (index) => showPage(index).catch((error) => showError(error.message));
    await showPage(0);
    app.replaceChildren(
      el("header", {}, el("p", { class: "crumbs" }, el("a", { href: "/", text: w("brand") })), el("h1", { text: record.display_name }), el("p", { id: "results-line", text: wn("finished_matches", r.played) + " · " + w("player.record", { won: num(r.won), lost: num(r.lost), drawn: num(r.drawn) }) })),
      el("section", { id: "ratings" }, el("h2", { text: w("player.ratings") }), ...(charts.length ? charts : [el("p", { class: "empty", text: w("player.no_rating") })])),
      el("section", { id: "matches" }, el("h2", { text: w("player.matches") }), matchesBox),
      el(
        "section",
        { id: "head-to-head" },
        el("h2", { text: w("player.head_to_head") }),
        opponents.length
          ? el("div", { class: "scroll" }, el("table", { class: "head-to-head" }, el("thead", {}, el("tr", {}, ...["opponent", "played", "won", "lost", "drawn"].map((h) => el("th", { scope: "col", text: w("player.col." + h) })))), el("tbody", {}, ...opponents)))
          : el("p", { class: "empty", text: w("home.no_finished") }),
      ),
      el(
        "section",
        { id: "entered" },
        el("h2", { text: w("home.competitions") }),
        record.competitions.length
          ? el("ul", { class: "competition-list" }, ...record.competitions.map((c) => el("li", { "data-competition": c.id }, el("a", { href: "/competitions/" + c.id + "/view", text: c.name }), el("span", { class: "meta", text: " " + (described.get(c.game) ? gameTitle(described.get(c.game), c.variant) : c.game) }))))
          : el("p", { class: "empty", text: w("player.no_competition") }),
      ),
    );
  }

  const { page, id } = document.body.dataset;
  (async () => {
    try {
      if (page === "home") {
        // Live matches move on (and new ones start): while one is live the lists are
        // read again every 20 seconds (a feed per match would hold a connection each).
        if (await homePage()) {
          const timer = setInterval(() => homePage().then((live) => live || clearInterval(timer), (e) => showError(e.message)), 20000);
        }
      } else if (page === "player") await playerPage(id);
    } catch (error) {
      showError(error.message);
    }
  })();
})();
