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
  const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

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
    if (code[0] === "X") return "joker " + code.slice(1);
    const suit = SUITS[code[1]];
    return (RANK_NAMES[code[0]] || code[0]) + " of " + (suit ? suit.name : code[1]);
  }

  function cardText(code) {
    if (code[0] === "X") return "\u2605" + code.slice(1);
    const suit = SUITS[code[1]];
    return (code[0] === "T" ? "10" : code[0]) + (suit ? suit.symbol : code[1]);
  }

  // A face-up card: data-card holds its notation, the text its rank and suit symbol.
  // ``corner``: rank above suit, as in a real card's corner, so that a card under a
  // stack's jacks still shows both (one line of text would be half covered).
  function card(code, extra, corner) {
    const suit = SUITS[code[1]];
    const colour = code[0] === "X" ? "joker" : suit ? suit.colour : "black";
    const text = cardText(code);
    const rank = code[0] === "X" ? "\u2605" : code[0] === "T" ? "10" : code[0];
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
      title: "face down",
      "aria-label": "face-down card",
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

  // ``headers``: extra request headers (the pad sends its scorer's token).
  async function getJSON(url, headers) {
    const response = await fetch(url, { headers: { Accept: "application/json", ...(headers || {}) } });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const detail = body && (body.detail || body.title);
      throw new Error(detail || url + " answered " + response.status);
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

  // "1 trick", "2 tricks": a count with its noun.
  function plural(count, one, many) {
    return count + " " + (count === 1 ? one : many || one + "s");
  }

  // -- scores ----------------------------------------------------------------------------

  function teamName(names, team) {
    return names[team] + " & " + names[team + 2];
  }

  // Kozel is played by teams (seats 0+2 v 1+3): "Ada & Cy v Bob & Dee".
  function playersText(game, names) {
    if (game === "kozel" && names.length === 4) return teamName(names, 0) + " v " + teamName(names, 1);
    return names.join(" v ");
  }

  // What the game calls a round: Kozel plays deals.
  function roundWord(game) {
    return game === "kozel" ? "Deal" : "Round";
  }

  function scoreText(game, score, names) {
    if (!score) return "";
    if (game === "cuttle") {
      const wins = score.wins.map((w, s) => names[s] + " " + w).join(" · ");
      const draws = score.drawn_rounds ? " · drawn " + score.drawn_rounds : "";
      return "Rounds won: " + wins + draws + " (first to " + score.wins_needed + ")";
    }
    const points = score.loss_points.map((p, t) => teamName(names, t) + " " + p).join(" · ");
    const eggs = score.eggs ? " · eggs " + score.eggs : "";
    const next = score.multiplier > 1 ? " · next deal ×" + score.multiplier : "";
    return "Loss points: " + points + " (out at " + score.loss_limit + ")" + eggs + next;
  }

  // Notes and takebacks name who recorded them by role (a scorer also sees the token id).
  function noteText(note) {
    const who = note.by && note.by.role;
    return who ? note.text + " (" + who + ")" : note.text;
  }

  function takenBackText(undo) {
    const who = undo.by && undo.by.role;
    return "Taken back" + (who ? " by the " + who : "") + ": " + undo.reason;
  }

  function resultText(result, names) {
    if (!result) return "";
    const reason = result.reason ? " (" + result.reason + ")" : "";
    if (result.draw) return "Drawn" + reason;
    const winners = (result.winners || []).map((s) => names[s] || "seat " + s);
    return "Won by " + winners.join(" & ") + reason;
  }

  // -- score sheets ------------------------------------------------------------------------

  // A match recorded by results (`"recording": "results"`) drawn as its score sheet: a
  // row per round or deal of GET /matches/{id}/series, with the running score after it.
  // ``upTo``: only the rows of rounds up to that one (the viewer at an earlier ply).
  function scoreSheet(game, series, names, upTo) {
    const rows = series.rounds.filter((r) => upTo === undefined || (r.round || r.deal) <= upTo);
    const kozel = game === "kozel";
    const head = kozel
      ? ["Deal", "Team A", "Team B", "Loss points", teamName(names, 0), teamName(names, 1)]
      : ["Round", "Result", ...names];
    const team = (t) => "team " + (t ? "B" : "A");
    const cells = (r) => {
      if (!kozel) return [r.draw ? "drawn" : (names[r.winner] || "seat " + r.winner) + " won", ...r.wins];
      // A score sheet keeps no trick count; 0 tricks marks a team that took none.
      const points = (t) => r.card_points[t] + (r.tricks[t] === 0 ? " (no trick)" : "");
      const loss = r.eggs
        ? "eggs"
        : r.losing_team === null
          ? "—"
          : team(r.losing_team) + " +" + r.loss_points + (r.multiplier > 1 ? " (\u00D7" + r.multiplier + ")" : "");
      return [points(0), points(1), loss, ...r.totals];
    };
    return el(
      "div",
      { class: "scroll" },
      el(
        "table",
        { class: "score-sheet", "data-game": game },
        el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
        el(
          "tbody",
          {},
          ...rows.map((r) =>
            el("tr", { "data-round": r.round || r.deal }, el("th", { scope: "row", text: String(r.round || r.deal) }), ...cells(r).map((c) => el("td", { text: String(c) }))),
          ),
        ),
      ),
      rows.length ? null : el("p", { class: "empty", text: "No " + roundWord(game).toLowerCase() + " entered yet." }),
    );
  }

  // -- fixtures ----------------------------------------------------------------------------

  // An entrant by its players' names: "Ann" (Cuttle), "Ada & Cy" (a Kozel pair).
  function entrantText(players, names) {
    return players.map((p) => names.get(p) || p.slice(0, 8)).join(" & ");
  }

  // A fixture table's result as the CLI writes it (`matchlog fixtures`): each entrant's
  // score in seat order (a seat's entrant is seat % entrants), `ff` after a forfeit.
  // Without a result: the match's status ("live", "void") when it has one, else
  // "not started".
  function fixtureResultText(table, status) {
    const result = table.result;
    if (!result) return table.match_id ? status || "live" : "not started";
    const count = table.entrants.length;
    if (result.draw) return Array(count).fill(count === 2 ? "\u00BD" : "draw").join("-");
    const won = new Set((result.winners || []).map((s) => s % count));
    const text = table.entrants.map((_, i) => (won.has(i) ? "1" : "0")).join("-");
    return result.forfeit ? text + " ff" : text;
  }

  // -- Cuttle ------------------------------------------------------------------------------

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
        el("span", { class: "attached", title: "played by " + seat }, card(code, "on-stack", true), el("small", { text: seat })),
      ),
    );
  }

  function cuttleTable(view, seats, names) {
    const panels = view.hands.map((hand, s) => {
      const known = seats ? seats[s].hands[s].cards : hand.cards;
      const frozen = new Set(view.frozen);
      const handCards = known
        ? known.map((code) => card(code, frozen.has(code) ? "frozen" : ""))
        : backs(hand.count);
      const acting = view.to_act.includes(s);
      return el(
        "div",
        { class: "seat" + (acting ? " acting" : ""), "data-seat": s },
        el(
          "h3",
          {},
          names[s] + " ",
          el("small", { text: "P" + s }),
          acting ? el("span", { class: "badge acting", text: "to act" }) : null,
          el("span", { class: "tally", text: view.totals[s] + " / " + plural(view.goals[s], "point") }),
        ),
        el(
          "div",
          { class: "zones" },
          zone("hand-" + s, "Hand (" + hand.count + ")", ...handCards),
          zone(
            "points-" + s,
            "Points",
            ...view.points.filter((p) => p.controller === s).map((p) => stackCards(p.stack)),
          ),
          zone(
            "permanents-" + s,
            "Permanents",
            ...view.permanents.filter((p) => p.controller === s).map((p) => stackCards(p.stack)),
          ),
        ),
      );
    });
    const centre = el(
      "div",
      { class: "centre" },
      el(
        "div",
        { class: "zone zone-deck", "data-zone": "deck", "data-count": view.deck.count },
        el("span", { class: "zone-label", text: "Deck" }),
        el(
          "div",
          { class: "cards" },
          view.deck.count ? back("pile") : el("span", { class: "empty", text: "empty" }),
          el("span", { class: "count", text: String(view.deck.count) }),
          ...view.deck.top.map((code) => card(code, "seen")),
        ),
      ),
      zone("scrap", "Scrap (" + view.scrap.length + ")", ...view.scrap.map((code) => card(code, "small"))),
      view.chain.length
        ? zone(
            "chain",
            "On the table",
            ...view.chain.map((link) => el("span", { class: "link" }, card(link.card), el("small", { text: "P" + link.seat }))),
          )
        : null,
      view.revealed.length ? zone("revealed", "Revealed by the seven", ...view.revealed.map((c) => card(c))) : null,
      el("p", { class: "phase", text: phaseText(view, names) }),
    );
    // The other seats across the table, side by side; seat 0 nearest the reader.
    const across = el("div", { class: "across" }, ...panels.slice(1));
    return [el("div", { class: "felt cuttle seats-" + view.hands.length }, across, centre, panels[0])];
  }

  // What the table waits for, in words (the engine's phases, docs/rules/cuttle.md §17).
  const PHASES = {
    MAIN: "to play",
    COUNTER: "may counter",
    RESOLVE_THREE: "takes a card from the scrap (three)",
    RESOLVE_FOUR: "discards two cards (four)",
    RESOLVE_FIVE: "resolves the five",
    RESOLVE_SEVEN: "plays a revealed card (seven)",
    DRAW_OFFERED: "answers the draw offer",
  };
  const ENDINGS = {
    goal: "reached the goal",
    "three-passes": "three passes in a row",
    "agreed-draw": "a draw agreed",
    resignation: "a resignation",
  };

  function phaseText(view, names) {
    if (view.result) {
      const r = view.result;
      const who = r.winner === null ? "drawn" : names[r.winner] + " wins the round";
      return "Round over: " + who + " (" + (ENDINGS[r.termination] || r.termination) + ")";
    }
    if (view.phase === "NAME_CARDS") return "The scorer names the cards drawn.";
    const acting = view.to_act.map((s) => names[s]).join(" or ");
    const doing = PHASES[view.phase] || "to act";
    const target = view.target ? ", targeting " + cardText(view.target) : "";
    return acting ? acting + " " + doing + target + "." : "";
  }

  // -- Kozel -------------------------------------------------------------------------------

  function kozelTable(view, seats, names) {
    const panel = (s) => {
      const known = seats ? seats[s].hand : null;
      const acting = view.to_play === s;
      return el(
        "div",
        { class: "seat seat-" + s + (acting ? " acting" : ""), "data-seat": s },
        el(
          "h3",
          {},
          names[s] + " ",
          el("small", { text: "S" + s + " · team " + (s % 2 ? "B" : "A") }),
          acting ? el("span", { class: "badge acting", text: "to play" }) : null,
        ),
        zone("hand-" + s, "Hand (" + view.hand_sizes[s] + ")", ...(known ? known.map((c) => card(c)) : backs(view.hand_sizes[s]))),
      );
    };
    const suit = SUITS[view.trump];
    const trick = view.trick.map((play) =>
      el(
        "span",
        { class: "play", "data-seat": play.seat, "data-kind": play.kind },
        el("small", { text: names[play.seat] + " " + play.kind }),
        el(
          "span",
          { class: "cards" },
          // A throw shown face up after the match (R44) keeps a mark of having been face down.
          ...(play.cards ? play.cards.map((c) => card(c, play.kind === "throw" && !view.options.open_throws ? "face-down-open" : "")) : backs(play.count)),
        ),
      ),
    );
    const pile = (team) => {
      const p = view.piles[team];
      const points = view.card_points ? " · " + plural(view.card_points[team], "card point") : "";
      return el(
        "div",
        { class: "zone zone-pile", "data-zone": "pile-" + team },
        el("span", {
          class: "zone-label",
          text: "Team " + (team ? "B" : "A") + " (" + teamName(names, team) + "): " + plural(view.tricks[team], "trick") + points,
        }),
        el(
          "div",
          { class: "cards" },
          ...p.face_up.map((c) => card(c, "small")),
          ...(p.face_down_cards ? p.face_down_cards.map((c) => card(c, "small face-down-open")) : backs(p.face_down, "small")),
        ),
      );
    };
    const centre = el(
      "div",
      { class: "centre" },
      el(
        "div",
        { class: "trump-row" },
        zone("indicator", "Trump " + (suit ? suit.symbol : view.trump), card(view.indicator)),
        el(
          "div",
          { class: "zone zone-stock", "data-zone": "stock", "data-count": view.stock },
          el("span", { class: "zone-label", text: "Stock" }),
          el(
            "div",
            { class: "cards" },
            view.stock ? back("pile") : el("span", { class: "empty", text: "empty" }),
            el("span", { class: "count", text: String(view.stock) }),
          ),
        ),
      ),
      zone("trick", "Trick", ...trick),
      pile(0),
      pile(1),
    );
    return [
      el(
        "div",
        { class: "felt kozel" },
        // Seated round the table (the style sheet places them): partner across, the
        // opponents either side, seat 0 nearest the reader.
        panel(2),
        panel(1),
        centre,
        panel(3),
        panel(0),
      ),
    ];
  }

  return Object.freeze({
    SUITS,
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
    teamName,
    playersText,
    roundWord,
    scoreText,
    noteText,
    takenBackText,
    resultText,
    scoreSheet,
    entrantText,
    fixtureResultText,
    stackCards,
    cuttleTable,
    phaseText,
    kozelTable,
  });
})();
