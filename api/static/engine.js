// matchlog's rules engine in the page: the server's own Python (domain/ and
// projections/pad_engine.py) running on Pyodide, so the pad shows the next moves the
// moment a move is tapped and goes on while the network is down (issue #34).
// Everything comes from this server: the runtime (/vendor/pyodide/<version>/), the
// modules and the page language's catalog (/pad/engine), each kept by the browser's
// HTTP cache for good. Nothing here knows a rule: it carries JSON to and from Python.
// Loaded after session.js, before pad.js; the pad works as before until it is ready.
"use strict";

window.MatchEngine = (() => {
  const { getJSON } = window.MatchTable;
  const { auth } = window.MatchSession;

  // A browser without WebAssembly (or one whose policy forbids it) keeps the pad as it was.
  const supported = typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function";

  let loading = null;

  async function bytes(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    return new Uint8Array(await response.arrayBuffer());
  }

  // The runtime, the modules and the catalog, once per page; a failure is kept, so the
  // pad asks once and goes on without the engine.
  function load() {
    if (!supported) return Promise.reject(new Error("WebAssembly is not available"));
    if (!loading) {
      loading = (async () => {
        const lang = document.documentElement.lang || "en";
        const manifest = await getJSON("/pad/engine?lang=" + encodeURIComponent(lang), {});
        const [{ loadPyodide }, modules, catalog] = await Promise.all([
          import(manifest.runtime + "pyodide.mjs"),
          bytes(manifest.modules),
          manifest.catalog ? bytes(manifest.catalog) : null,
        ]);
        // The lock file is fetched here, not by the runtime, so a network lost mid-load
        // fails this load (the pad goes on without the engine) instead of leaving a
        // rejection nobody handles.
        const lockFile = fetch(manifest.runtime + "pyodide-lock.json").then((r) => (r.ok ? r.text() : Promise.reject(new Error(r.url + ": " + r.status))));
        lockFile.catch(() => {});
        const pyodide = await loadPyodide({ indexURL: manifest.runtime, lockFileContents: lockFile, stdout: () => {}, stderr: () => {} });
        pyodide.unpackArchive(modules, "zip", { extractDir: "/matchlog" });
        if (catalog) pyodide.FS.writeFile("/matchlog/moves.mo", catalog);
        pyodide.runPython("import sys; sys.path.insert(0, '/matchlog')");
        const BrowserMatch = pyodide.pyimport("projections.pad_engine").BrowserMatch;
        return { BrowserMatch, catalog: catalog ? "/matchlog/moves.mo" : null };
      })();
    }
    return loading;
  }

  // Every event of a match after `after`, a page of 1000 at a time.
  async function eventsAfter(base, after) {
    const items = [];
    for (;;) {
      const page = await getJSON(base + "/events?limit=1000&after=" + after, auth());
      items.push(...page.items);
      if (page.next_after === null || page.next_after === undefined) return items;
      after = page.next_after;
    }
  }

  // A match in the page: `names` one per seat. Each call answers what the pad draws
  // (match, legal, replay, steps after `afterPly`), or {refused: code}.
  async function open(base, names) {
    const engine = await load();
    const match = engine.BrowserMatch(JSON.stringify(names), engine.catalog || "");
    let confirmed = 0;
    // A failure inside the engine (a bug, not a refusal) must never stop a write: the
    // pad then waits for the server as it would without the engine.
    const call = (method, ...args) => {
      try {
        return JSON.parse(match[method](...args));
      } catch (error) {
        console.error("the pad's engine failed:", error);
        return { refused: "ENGINE_FAILED" };
      }
    };
    return {
      // The events the server has recorded since those last confirmed.
      fresh: () => eventsAfter(base, confirmed),
      // Folds events `fresh` read; guesses they disagree with are dropped: {held}.
      confirm(events) {
        const answer = call("confirm", JSON.stringify(events));
        if (events.length) confirmed = Math.max(confirmed, events[events.length - 1].version);
        return answer;
      },
      forget: () => call("forget"),
      answer: (afterPly) => call("answer", afterPly),
      // Reads and folds what the server recorded since, and answers: {held, ...answer}.
      async sync(afterPly) {
        const confirmation = this.confirm(await this.fresh());
        return { ...confirmation, ...this.answer(afterPly) };
      },
      play: (moves, afterPly) => call("play", JSON.stringify(moves), afterPly),
      startRound: (deal, afterPly) => call("start_round", JSON.stringify(deal), afterPly),
    };
  }

  return { supported, load, open };
})();
