// matchlog viewer: draws a match at any ply, or a competition, from the JSON API.
// Every read is anonymous, so while a match is live the page gets only the public view.
"use strict";

(() => {
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

  async function getJSON(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
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
  // type); reconnects with Last-Event-ID, so nothing is missed or repeated.
  function follow(url, onEvent) {
    let lastId = null;
    let stopped = false;
    const controller = new AbortController();
    async function run() {
      while (!stopped) {
        try {
          const headers = { Accept: "text/event-stream" };
          if (lastId !== null) headers["Last-Event-ID"] = lastId;
          const response = await fetch(url, { headers, signal: controller.signal });
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

  // -- the match page --------------------------------------------------------------------

  function matchPage(matchId) {
    const S = {
      id: matchId,
      match: null,
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
    const back = el("a", { id: "competition-link", hidden: true, text: "Competition" });
    const score = el("p", { id: "score" });
    const slider = el("input", {
      id: "slider",
      type: "range",
      min: 0,
      max: 0,
      value: 0,
      "aria-label": "ply",
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
      { class: "controls", "aria-label": "step through the match" },
      button("first", "\u00AB", "first position (Home)", "first"),
      button("prev", "\u25C0\uFE0E", "previous ply (left arrow)", -1),
      slider,
      button("next", "\u25B6\uFE0E", "next ply (right arrow)", 1),
      button("last", "\u00BB", "last position (End)", "last"),
      plyLabel,
    );
    const sentence = el("p", { id: "sentence" });
    const notes = el("ul", { id: "notes", class: "notes" });
    const table = el("section", { id: "table", "aria-label": "the table" });
    const list = el("ol", { id: "timeline-list" });
    const timeline = el(
      "aside",
      { id: "timeline", "aria-label": "timeline" },
      el("h2", { text: "Timeline" }),
      list,
    );
    app.replaceChildren(
      el("header", {}, el("div", { class: "title-row" }, title, badge, back), score),
      controls,
      el("section", { id: "now", "aria-label": "this ply" }, sentence, notes),
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
      const game = S.match.game;
      slider.max = String(S.plies);
      slider.value = String(S.ply);
      plyLabel.textContent = "Ply " + S.ply + " / " + S.plies;
      const result = replay.result ? " · " + resultText(replay.result, S.names) : "";
      score.textContent = scoreText(game, replay.score, S.names) + result;
      const step = stepsAt(S.ply).find((s) => !s.taken_back) || stepsAt(S.ply)[0];
      sentence.textContent =
        S.ply === 0
          ? "Before the first move."
          : step
            ? (step.taken_back ? "(taken back) " : "") + step.sentence
            : "Ply " + S.ply;
      sentence.classList.toggle("taken-back", Boolean(step && step.taken_back));
      notes.replaceChildren(
        ...(step && step.taken_back && S.ply ? [el("li", { class: "undo", text: takenBackText(step.taken_back) })] : []),
        ...notesAt(S.ply).map((note) => el("li", { class: "note", text: noteText(note) })),
      );
      const seats = replay.seats || null;
      const body =
        replay.view === null
          ? [el("p", { class: "empty", text: "No " + roundWord(game).toLowerCase() + " on the table yet." })]
          : game === "cuttle"
            ? cuttleTable(replay.view, seats, S.names)
            : kozelTable(replay.view, seats, S.names);
      table.replaceChildren(
        el("p", { class: "round-label", text: replay.round ? roundWord(game) + " " + replay.round : "" }),
        ...body,
      );
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

    function notesList(list) {
      return list.length ? el("ul", { class: "notes" }, ...list.map((n) => el("li", { class: "note", text: noteText(n) }))) : null;
    }

    function drawTimeline() {
      let round = null;
      const word = roundWord(S.match.game);
      const items = [
        el(
          "li",
          { "data-ply": 0, class: "step" },
          el("button", { type: "button", onclick: () => go(0) }, "Start"),
          notesList(looseNotes()),
        ),
      ];
      for (const step of S.steps) {
        if (step.round !== round) {
          round = step.round;
          items.push(el("li", { class: "round", text: word + " " + round }));
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
                ? el("span", { class: "badge taken", title: takenBackText(step.taken_back), text: "taken back" })
                : null,
            ),
            notesList(step.notes || []),
          ),
        );
      }
      list.replaceChildren(...items);
    }

    async function load() {
      const [match, timeline] = await Promise.all([getJSON(base), getJSON(base + "/timeline")]);
      S.match = match;
      S.names = timeline.players;
      // A timeline that no longer extends the one drawn (a takeback) invalidates the cache.
      const signature = (steps) => steps.map((s) => s.version + (s.taken_back ? "x" : "")).join(",");
      if (!signature(timeline.steps).startsWith(signature(S.steps))) S.cache.clear();
      S.steps = timeline.steps;
      S.notes = Array.isArray(timeline.notes) ? timeline.notes : [];
      // Plies are counted over everything recorded: an undone ply keeps its number.
      S.plies = S.steps.length;
      const game = match.game.charAt(0).toUpperCase() + match.game.slice(1);
      const variant = match.variant === "default" ? "" : " · " + match.variant;
      title.textContent = game + variant + " · " + playersText(match.game, S.names);
      document.title = title.textContent + " · matchlog";
      badge.textContent = match.status;
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

    function standingsTable(rows, game) {
      if (!rows.length) return el("p", { class: "empty", text: "No finished matches yet." });
      const skip = new Set(["entity", "members", "tiebreaks", "rank", "name"]);
      const keys = Object.keys(rows[0]).filter((k) => !skip.has(k));
      const head = ["#", game === "kozel" && rows[0].members.length > 1 ? "Pair" : "Player", ...keys];
      const number = (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : v);
      // A rating is an object (mu, sigma, ordinal): the table shows its ordinal.
      const cell = (v) =>
        v !== null && typeof v === "object"
          ? "ordinal" in v
            ? number(v.ordinal)
            : Object.entries(v).map(([k, x]) => k + " " + number(x)).join(", ")
          : number(v);
      return el(
        "div",
        { class: "scroll" },
        el(
          "table",
          { class: "standings" },
          el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h.replace(/_/g, " ") })))),
          el(
            "tbody",
            {},
            ...rows.map((row) =>
              el("tr", {}, el("td", { text: row.rank }), el("th", { scope: "row", text: row.name }), ...keys.map((k) => el("td", { text: cell(row[k]) }))),
            ),
          ),
        ),
      );
    }

    async function render() {
      const [competition, standings, matches] = await Promise.all([
        getJSON(base),
        getJSON(base + "/standings"),
        allMatches(),
      ]);
      const rows = await Promise.all(
        matches.map(async (m) => {
          const players = await Promise.all(m.players.map(playerName));
          return el(
            "tr",
            { "data-match": m.id },
            el("td", { text: m.created_at.slice(0, 10) }),
            el("td", {}, el("a", { href: "/matches/" + m.id + "/view", text: playersText(m.game, players) })),
            el("td", {}, el("span", { class: "badge " + m.status, text: m.status })),
            el("td", { class: "series", text: scoreText(m.game, m.score, players) + (m.result ? " · " + resultText(m.result, players) : "") }),
          );
        }),
      );
      const tables = [el("h2", { text: "Standings" }), standingsTable(standings.players || [], competition.game)];
      if (standings.pairs) tables.push(el("h3", { text: "Pairs" }), standingsTable(standings.pairs, competition.game));
      app.replaceChildren(
        el("header", {}, el("h1", { text: competition.name }), el("p", { text: competition.game + " · " + competition.variant + " · " + plural(standings.matches, "finished match", "finished matches") })),
        el("section", { id: "standings" }, ...tables),
        el(
          "section",
          { id: "matches" },
          el("h2", { text: "Matches" }),
          matches.length
            ? el(
                "div",
                { class: "scroll" },
                el(
                  "table",
                  { class: "matches" },
                  el("thead", {}, el("tr", {}, ...["Date", "Players", "Status", "Series"].map((h) => el("th", { scope: "col", text: h })))),
                  el("tbody", {}, ...rows),
                ),
              )
            : el("p", { class: "empty", text: "No matches yet." }),
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
