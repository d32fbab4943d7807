"""The pad's engine in the page (#34): tap to next moves, first load, memory.

``matchlog serve`` runs as a process of its own on an embedded PostgreSQL (or
``MATCHLOG_DATABASE_URL``); headless Debian Chromium opens the pad at 390 px through
``http://club.test`` (mapped to 127.0.0.1: a LAN-like, non-secure origin), as
``bench/pad_tap.py`` does. Three parts, in one run:

1. Tap to next moves shown, two pads side by side, taps interleaved: ``engine`` waits
   for ``body[data-engine=ready]``; ``server`` is a context whose init script deletes
   ``WebAssembly``, so the pad waits for the server's round trip. A tap (a seeded pick
   among ``#moves button.move``) is timed in the page with ``performance.now()`` from
   the click until ``#moves`` holds new move buttons (the DOM, before paint), and on
   until the write is answered and redrawn (``settled``), before the next tap. Quick
   server-dealt Cuttle matches; a new one when one ends.
2. First load of a pad on a throttled connection (CDP
   ``Network.emulateNetworkConditions``), cold (a fresh context: empty HTTP cache),
   then warm (another match's pad in the same context): bytes received for the engine
   (runtime, modules, catalog, manifest; as received, the runtime gzipped), the time
   from navigation to ``body[data-engine=ready]``, and the page's main-thread long tasks
   meanwhile (a tap waits for them; the engine runs in a worker).
3. Memory of an idle pad with and without the engine, after a forced GC: the page's JS
   heap (CDP ``Performance.getMetrics`` ``JSHeapUsedSize``) and the renderer process's
   RSS and PSS, which hold the engine's worker and its WebAssembly memory.

    .venv/bin/python bench/pad_engine.py --taps 60
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.proc_stats import cpu_seconds  # noqa: E402
from bench.servers import serve_for_the_pad, stop_server  # noqa: E402
from bench.support import scratch_dir  # noqa: E402

CHROMIUM = os.environ.get("MATCHLOG_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 390, "height": 844}
NO_WASM = "delete globalThis.WebAssembly;"

# Click the index-th move button. Resolve with {shown, settled, guessed}: ms until
# #moves holds buttons that were not there before the click (null if none came: the
# match ended), ms until the pad shows the answered version with nothing queued, and
# whether the moves were shown while the write was still queued (the page's guess).
TAP = """(index) => new Promise((resolve) => {
  const moves = document.getElementById('moves');
  const old = [...moves.querySelectorAll('button.move[data-move]')];
  if (!old.length) return resolve(null);
  const before = document.body.dataset.version;
  let shown = null, guessed = null;
  let watch = null;
  const start = performance.now();
  const check = () => {
    const now = performance.now();
    const body = document.body.dataset;
    if (shown === null && moves.querySelector('button.move[data-move]')
        && !old.some((b) => b.isConnected)) {
      shown = now - start;
      guessed = body.pending !== '0';
    }
    if (body.version !== before && body.pending === '0') {
      if (watch) watch.disconnect();
      resolve({shown, settled: now - start, guessed});
      return true;
    }
    return false;
  };
  watch = new MutationObserver(check);
  watch.observe(document.body, {attributes: true, childList: true, subtree: true});
  const tapped = old[index % old.length].dataset.move;
  old[index % old.length].click();
  if (check()) return;  // the engine's guess is drawn in the click's own handler
  // Never answered in time: say what the pad shows instead.
  setTimeout(() => {
    watch.disconnect();
    const text = (id) => (document.getElementById(id) || {}).textContent;
    resolve({timeout: [tapped, text('connection'), text('to-act'), text('problems')].join(' | ')});
  }, 30000);
})"""

# The pad's engine has loaded, or has failed to.
ENGINE_SETTLED = "body[data-engine=ready], body[data-engine=failed]"

# When the pad sets data-version and data-engine, in ms from navigation start.
MARKS = """
window.__marks = {};
new MutationObserver(() => {
  const body = document.body;
  if (!body) return;
  // data-engine is "loading" first, then "ready" or "failed".
  for (const key of ['version', 'engine']) {
    const value = body.dataset[key];
    if (value !== undefined && value !== 'loading' && window.__marks[key] === undefined)
      window.__marks[key] = performance.now();
  }
}).observe(document, {attributes: true, subtree: true, childList: true});
// Tasks over 50 ms on the page's main thread (a tap waits for them): the engine's start.
window.__long = [];
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) window.__long.push([task.startTime, task.duration]);
}).observe({type: "longtask", buffered: true});
"""


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, round(fraction * len(ordered)) - 1)]


def client_cpu(server_pid: int) -> dict[str, float]:
    """Return the CPU seconds so far of this process with the Playwright driver
    (``driver``) and of Chromium's processes (``chromium``): the server's tree and
    PostgreSQL are left out."""
    server = {
        p.pid for p in [psutil.Process(server_pid), *psutil.Process(server_pid).children(True)]
    }
    totals = {"driver": 0.0, "chromium": 0.0}
    for proc in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            if proc.pid in server or "postgres" in proc.name():
                continue
            times = proc.cpu_times()
            role = "chromium" if "chrom" in proc.name() else "driver"
        except psutil.Error:
            continue
        totals[role] += times.user + times.system
    return totals


def renderers() -> dict[int, psutil.Process]:
    """Return this bench's Chromium renderer processes by pid."""
    found = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            if "--type=renderer" in proc.cmdline():
                found[proc.pid] = proc
        except psutil.Error:
            continue
    return found


def page_renderer(page: Any, before: set[int]) -> psutil.Process | None:
    """Return the renderer process of ``page``, among those not in ``before``: the one
    that spends the CPU of a busy loop run in the page (a context starts more than one)."""
    new = [proc for pid, proc in renderers().items() if pid not in before]

    def cpu() -> list[float]:
        return [sum(proc.cpu_times()[:2]) for proc in new]

    start = cpu()
    page.evaluate(
        "(() => { const end = performance.now() + 500; while (performance.now() < end); })()"
    )
    spent = [after - was for after, was in zip(cpu(), start, strict=True)]
    # On a busy machine the loop gets a share of a core: the page's renderer is the one
    # that spent most, and clearly more than any other.
    ranked = sorted(spent, reverse=True)
    if not ranked or ranked[0] < 0.05 or (len(ranked) > 1 and ranked[0] < 3 * ranked[1]):
        print(f"renderer not found: {len(new)} new, CPU {spent}", file=sys.stderr)
        return None
    return new[spent.index(max(spent))]


@dataclass
class Pad:
    """One side of the tap comparison: a signed-in context, its page and its taps."""

    name: str
    page: Any
    engine: bool
    shown: list[float] = field(default_factory=list)
    guessed: list[float] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)
    no_moves: int = 0
    server_answered: int = 0
    timeouts: int = 0
    stale: bool = True  # open a new match before the next tap
    matches: int = 0


class Bench:
    """The server, the browser and the scorer the three parts share."""

    def __init__(self, browser: Any, http: httpx.Client, club: str, token: str, players: list[str]):
        self.browser, self.http, self.club = browser, http, club
        self.token, self.players = token, players

    def new_match(self) -> str:
        """Create a quick server-dealt Cuttle match; return its pad's URL."""
        body = {
            "game": "cuttle",
            "variant": "standard",
            "format": "quick",
            "players": self.players[:2],
            "dealing": "server",
        }
        answer = self.http.post(
            "/matches", json=body, headers={"Authorization": f"Bearer {self.token}"}
        )
        assert answer.status_code == 201, answer.text
        return f"{self.club}/matches/{answer.json()['id']}/score"

    def signed_in(self, init_scripts: list[str], context: Any = None) -> Any:
        """Return a page in ``context`` or a fresh one (empty cache), signed in."""
        if context is None:
            context = self.browser.new_context(viewport=VIEWPORT)
        for script in init_scripts:
            context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(180_000)
        # What the page said and sent, for a tap that is never answered.
        page.log = []
        page.on("console", lambda m: page.log.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: page.log.append(f"error: {e}"))
        page.on(
            "response",
            lambda r: page.log.append(f"{r.request.method} {r.url.split('/', 3)[-1]} {r.status}"),
        )
        page.goto(self.club + "/score")
        page.fill("#token", self.token)
        page.click("#sign-in-button")
        page.wait_for_selector("#new-match")
        return page

    def open_match(self, page: Any, engine: bool) -> None:
        """Open a new match's pad; with ``engine``, wait until the engine is ready."""
        page.goto(self.new_match())
        page.wait_for_selector("body[data-version]")
        if engine:
            page.wait_for_selector(ENGINE_SETTLED)
            state = page.evaluate("document.body.dataset.engine")
            assert state == "ready", f"the engine did not load: {state}"

    def tap(self, pad: Pad, index: int, timed: bool) -> None:
        """Tap once on ``pad`` (a new match first if this one has no moves)."""
        for _ in range(3):
            if pad.stale or not pad.page.query_selector("#moves button.move[data-move]"):
                self.open_match(pad.page, pad.engine)
                pad.matches += 1
                pad.stale = False
            result = pad.page.evaluate(TAP, index)
            if result is not None:
                break
        else:
            raise SystemExit(f"{pad.name}: no move to tap in three new matches")
        if "timeout" in result:
            # Left out of the figures, and said: a new match for this pad.
            print(f"{pad.name}: no answer in 30 s: {result['timeout']}", file=sys.stderr)
            for line in pad.page.log[-8:]:
                print(f"  {line}", file=sys.stderr)
            pad.timeouts += 1
            pad.stale = True
            return
        if not timed:
            return
        pad.settled.append(result["settled"])
        if result["shown"] is None:
            pad.no_moves += 1  # the match ended: no next moves to show
            return
        pad.shown.append(result["shown"])
        if result["guessed"]:
            pad.guessed.append(result["shown"])
        else:
            pad.server_answered += 1


def taps(bench: Bench, args: argparse.Namespace, server_pid: int) -> list[str]:
    """Part 1: interleaved taps with and without the engine; return the report's lines."""
    rng = random.Random(args.seed)
    pads = [
        Pad("engine", bench.signed_in([]), engine=True),
        Pad("server", bench.signed_in([NO_WASM]), engine=False),
    ]
    for _ in range(args.warmup):
        for pad in pads:
            bench.tap(pad, rng.randrange(1000), timed=False)
    client_before = client_cpu(server_pid)
    server_before = cpu_seconds(server_pid)
    wall_before = time.perf_counter()
    for n in range(args.taps):
        # Alternate which side goes first, so neither always follows the other's redraw.
        for pad in pads if n % 2 == 0 else pads[::-1]:
            bench.tap(pad, rng.randrange(1000), timed=True)
        if (n + 1) % 10 == 0:
            print(f"{n + 1} taps a side", file=sys.stderr)
    wall = time.perf_counter() - wall_before
    client = {k: v - client_before[k] for k, v in client_cpu(server_pid).items()}
    server_cpu = cpu_seconds(server_pid) - server_before
    for pad in pads:
        pad.page.context.close()

    lines = [
        f"## 1. tap to next moves shown ({args.taps} taps a side, interleaved, after "
        f"{args.warmup} untimed a side; ms in the page, DOM before paint)",
        "| side | taps shown | p50 | p95 | max | shown by page guess "
        "| settled p50 | settled p95 | matches |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for pad in pads:
        lines.append(
            f"| {pad.name} | {len(pad.shown)} (+{pad.no_moves} ended) "
            f"| {statistics.median(pad.shown):.1f} | {percentile(pad.shown, 0.95):.1f} "
            f"| {max(pad.shown):.1f} | {len(pad.guessed)} "
            f"| {statistics.median(pad.settled):.1f} | {percentile(pad.settled, 0.95):.1f} "
            f"| {pad.matches} |"
        )
        if pad.timeouts:
            lines.append(f"{pad.name}: {pad.timeouts} taps not answered in 30 s (left out)")
    engine, server = pads
    lines.append(
        "ratio server/engine: "
        f"p50 {statistics.median(server.shown) / statistics.median(engine.shown):.1f}x, "
        f"p95 {percentile(server.shown, 0.95) / percentile(engine.shown, 0.95):.1f}x"
    )
    if engine.guessed:
        lines.append(
            f"engine, guessed taps alone: p50 {statistics.median(engine.guessed):.1f} ms, "
            f"p95 {percentile(engine.guessed, 0.95):.1f} ms ({engine.server_answered} waited "
            "for the server: a round's end, the server deals)"
        )
    met = percentile(engine.shown, 0.95) <= 30
    lines.append(f"target engine p95 <= 30 ms: {'met' if met else 'NOT met'}")
    count = 2 * args.taps
    lines.append(
        f"CPU a tap ({count} taps, {wall:.1f} s wall, both sides): driver (Python + "
        f"Playwright) {1000 * client['driver'] / count:.1f} ms, Chromium "
        f"{1000 * client['chromium'] / count:.1f} ms, server {1000 * server_cpu / count:.1f} ms; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    return lines


class Traffic:
    """Bytes received from the network per URL on one page, its worker's included, from
    Playwright's finished requests (the engine's files are fetched by its worker, which
    the page's CDP session does not see; a file from the HTTP cache finishes no request)."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.received: dict[str, int] = {}
        page.on("requestfinished", self._finished)

    def _finished(self, request: Any) -> None:
        sizes = request.sizes()
        got = int(sizes["responseBodySize"]) + int(sizes["responseHeadersSize"])
        self.received[f"{id(request)} {request.url}"] = got

    def reset(self) -> None:
        """Forget what was counted so far."""
        self.received.clear()

    def engine(self) -> tuple[dict[str, int], int]:
        """Return the engine's bytes from the network by part, and all bytes the page
        received from the network."""
        parts = {"runtime": 0, "modules+catalog": 0, "manifest": 0}
        total = 0
        for key, got in self.received.items():
            url = key.split(" ", 1)[1]
            path = url.split("/", 3)[-1] if url.count("/") >= 3 else url
            part = (
                "runtime"
                if path.startswith("vendor/pyodide/")
                else "manifest"
                if path.startswith("pad/engine?")
                else "modules+catalog"
                if path.startswith("pad/engine/")
                else None
            )
            total += got
            if part is not None:
                parts[part] += got
        return parts, total


def first_load(bench: Bench, args: argparse.Namespace, profile: Any) -> list[str]:
    """Part 2: a cold then a warm load on a throttled connection, in ``profile`` (a
    persistent context: a disk cache, as a phone's browser has) and in an incognito
    context (an in-memory cache); the report's lines."""
    down = args.down_mbit * 1_000_000 / 8
    conditions = {
        "offline": False,
        "latency": args.latency_ms,
        "downloadThroughput": down,
        "uploadThroughput": args.up_mbit * 1_000_000 / 8,
    }
    lines = [
        f"## 2. first load, throttled: {args.down_mbit:g} Mbit/s down, {args.up_mbit:g} up, "
        f"{args.latency_ms} ms latency (CDP); bytes as received (the runtime gzipped)",
        "| cache | load | engine bytes: runtime | modules+catalog | manifest "
        "| page total bytes | pad drawn | engine ready "
        "| main thread blocked meanwhile: total, longest |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for cache, context in (("disk (profile)", profile), ("memory (incognito)", None)):
        page = bench.signed_in([MARKS], context)
        traffic = Traffic(page)
        traffic.cdp.send("Network.emulateNetworkConditions", conditions)
        for label in ("cold", "warm"):
            traffic.reset()
            bench.open_match(page, engine=True)
            marks = page.evaluate("window.__marks")
            # Long tasks from the pad drawn to the engine ready: how long a tap could wait.
            blocked = [
                duration
                for start, duration in page.evaluate("window.__long")
                if marks["version"] <= start <= marks["engine"]
            ]
            parts, total = traffic.engine()
            lines.append(
                f"| {cache} | {label} | {parts['runtime']:,} | {parts['modules+catalog']:,} "
                f"| {parts['manifest']:,} | {total:,} "
                f"| {marks['version'] / 1000:.2f} s | {marks['engine'] / 1000:.2f} s "
                f"| {sum(blocked):.0f} ms, {max(blocked, default=0):.0f} ms |"
            )
        page.context.close()
    return lines


def memory(bench: Bench) -> list[str]:
    """Part 3: an idle pad's memory with and without the engine; the report's lines."""
    lines = [
        "## 3. memory of an idle pad on a new match, after HeapProfiler.collectGarbage",
        "| pad | page JSHeapUsedSize | page JSHeapTotalSize "
        "| renderer RSS (page and engine worker) | renderer PSS |",
        "|---|--:|--:|--:|--:|",
    ]
    mib = 1024 * 1024
    ua_memory = ""
    for label, scripts, engine in (
        ("engine", [], True),
        ("server", [NO_WASM], False),
    ):
        before = set(renderers())
        page = bench.signed_in(scripts)
        bench.open_match(page, engine)
        page.wait_for_timeout(1000)  # let the page go idle
        cdp = page.context.new_cdp_session(page)
        cdp.send("HeapProfiler.enable")
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("Performance.enable")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        proc = page_renderer(page, before)
        if proc is None:
            rss = pss = "?"
        else:
            info = proc.memory_full_info()
            rss, pss = f"{info.rss / mib:.1f} MiB", f"{info.pss / mib:.1f} MiB"
        lines.append(
            f"| {label} | {metrics['JSHeapUsedSize'] / mib:.1f} MiB "
            f"| {metrics['JSHeapTotalSize'] / mib:.1f} MiB | {rss} | {pss} |"
        )
        ua_memory = page.evaluate(
            "`measureUserAgentSpecificMemory: ${typeof performance.measureUserAgentSpecificMemory}"
            ", crossOriginIsolated: ${self.crossOriginIsolated}`"
        )
        page.context.close()
    lines.append(ua_memory + " (it needs cross-origin isolation: not measured)")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60, help="taps timed a side")
    parser.add_argument("--warmup", type=int, default=5, help="untimed taps a side first")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--down-mbit", type=float, default=20.0)
    parser.add_argument("--up-mbit", type=float, default=5.0)
    parser.add_argument("--latency-ms", type=int, default=40)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    served = serve_for_the_pad()
    server, port, token, players = served.process, served.port, served.token, served.players
    started = time.perf_counter()
    try:
        with (
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
            sync_playwright() as pw,
        ):
            chromium_args = [
                "--no-sandbox",
                "--disable-gpu",
                "--host-resolver-rules=MAP club.test 127.0.0.1",
            ]
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=chromium_args)
            bench = Bench(browser, http, f"http://club.test:{port}", token, players)
            print(f"Chromium {browser.version}, 390 px via http://club.test, matchlog serve")
            lines = taps(bench, args, server.pid)
            profile = pw.chromium.launch_persistent_context(
                scratch_dir("matchlog-bench-profile-"),
                executable_path=CHROMIUM,
                args=chromium_args,
                viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]},
            )
            lines += first_load(bench, args, profile)
            lines += memory(bench)
            browser.close()
    finally:
        stop_server(server)
    print("\n".join(lines))
    print(f"run: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
