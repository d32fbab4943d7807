// matchlog's rules engine for the pad: the server's own Python (domain/ and
// projections/pad_engine.py) on Pyodide, so the pad shows the next moves the moment a
// move is tapped and goes on while the network is down (issue #34). It runs in a worker
// (engine-worker.js): the interpreter's start takes seconds of CPU, and the page must
// answer taps meanwhile. Everything comes from this server: the runtime
// (/vendor/pyodide/<version>/), the modules and the page language's catalog
// (/pad/engine), each kept by the browser's HTTP cache for good. Nothing here knows a
// rule: it carries JSON to and from Python. Loaded after session.js, before pad.js; the
// pad works as before until the engine is ready.
"use strict";

window.MatchEngine = (() => {
  const { getJSON } = window.MatchTable;
  const { auth } = window.MatchSession;

  // A browser without WebAssembly or module workers keeps the pad as it was.
  const supported = typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function" && typeof Worker === "function";

  const CALL_LIMIT_MS = 10000;
  let worker = null;
  let loading = null;
  let asked = 0;
  const waiting = new Map();

  // One request to the worker; its answers come in the order asked.
  function ask(method, ...args) {
    return new Promise((resolve, reject) => {
      asked += 1;
      waiting.set(asked, { resolve, reject });
      worker.postMessage({ id: asked, method, args });
    });
  }

  function hear(event) {
    const { id, result, error } = event.data;
    const asker = waiting.get(id);
    waiting.delete(id);
    if (error === undefined) asker.resolve(result);
    else asker.reject(new Error(error));
  }

  // The worker, the runtime, the modules and the catalog, once per page. A failed load
  // (most often the network lost mid-download) is not kept: the worker goes, and the pad
  // may ask again once it reads the server again.
  function load() {
    if (!supported) return Promise.reject(new Error("WebAssembly is not available"));
    if (!loading) {
      loading = (async () => {
        const lang = document.documentElement.lang || "en";
        const manifest = await getJSON("/pad/engine?lang=" + encodeURIComponent(lang), {});
        worker = new Worker("/pad/engine-worker.js", { type: "module" });
        worker.onmessage = hear;
        worker.onerror = (event) => {
          for (const asker of waiting.values()) asker.reject(new Error(event.message || "the engine's worker failed"));
          waiting.clear();
        };
        await ask("start", manifest);
      })().catch((error) => {
        if (worker) worker.terminate();
        worker = null;
        loading = null;
        waiting.clear();
        throw error;
      });
    }
    return loading;
  }

  // Every event of a match after `after`, a page of 1000 at a time.
  async function eventsOf(base, after = 0) {
    const items = [];
    for (;;) {
      const page = await getJSON(base + "/events?limit=1000&after=" + after, auth());
      items.push(...page.items);
      if (page.next_after === null || page.next_after === undefined) return items;
      after = page.next_after;
    }
  }

  let opened = 0;

  // A match in the engine: `names` one per seat. Each call resolves to what the pad
  // draws (match, legal, replay, steps after `afterPly`), or {refused: code}.
  async function open(base, names) {
    await load();
    opened += 1;
    const match = opened;
    await ask("open", match, JSON.stringify(names));
    let confirmed = 0;
    // A failure inside the engine (a bug, not a refusal) must never stop a write: the
    // pad then waits for the server as it would without the engine.
    const call = async (method, ...args) => {
      try {
        // A call takes milliseconds; one that never ends must not hold the pad's reads.
        const late = new Promise((_, reject) => setTimeout(() => reject(new Error("the engine did not answer")), CALL_LIMIT_MS));
        return JSON.parse(await Promise.race([ask("call", match, method, ...args), late]));
      } catch (error) {
        console.error("the pad's engine failed:", error);
        return { refused: "ENGINE_FAILED" };
      }
    };
    return {
      // The events the server has recorded since those last confirmed.
      fresh: () => eventsOf(base, confirmed),
      // The version of the last event confirmed (0: none yet).
      confirmedVersion: () => confirmed,
      // Folds events `fresh` read; guesses they disagree with are dropped: {held}.
      confirm(events) {
        if (events.length) confirmed = Math.max(confirmed, events[events.length - 1].version);
        return call("confirm", JSON.stringify(events));
      },
      forget: () => call("forget"),
      answer: (afterPly) => call("answer", afterPly),
      // Reads and folds what the server recorded since, and answers: {held, ...answer}.
      async sync(afterPly) {
        const confirmation = await this.confirm(await this.fresh());
        return { ...confirmation, ...(await this.answer(afterPly)) };
      },
      play: (moves, afterPly) => call("play", JSON.stringify(moves), afterPly),
      startRound: (deal, afterPly) => call("start_round", JSON.stringify(deal), afterPly),
    };
  }

  return { supported, load, open, eventsOf };
})();
