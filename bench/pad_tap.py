"""Time from a tap on the scorer's pad to the answered move drawn, p50 and p95.

``matchlog serve`` runs as a process of its own on an embedded PostgreSQL (or
``MATCHLOG_DATABASE_URL``); headless Debian Chromium opens the pad through a made-up
LAN host name (``club.test``, mapped to 127.0.0.1: not a secure context, as at a
club) and taps the moves of quick server-dealt Cuttle matches, a seeded pick among
the buttons. A tap is timed inside the page (``performance.now``): from the click to
the pad showing the new version with nothing pending, so it covers the write (with
If-Match and Idempotency-Key) and the four reads that redraw the table and the next
moves. The server's CPU seconds per tap are printed too (wall-clock is noisy here).

    .venv/bin/python bench/pad_tap.py --taps 200
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import serve_for_the_pad, stop_server  # noqa: E402

CHROMIUM = os.environ.get("MATCHLOG_CHROMIUM", "/usr/bin/chromium")

# Click the index-th move button; resolve with the milliseconds until the pad shows a
# new version with nothing queued (null when there is no move to tap).
TAP = """(index) => new Promise((resolve) => {
  const buttons = document.querySelectorAll('#moves button.move');
  if (!buttons.length) return resolve(null);
  const before = document.body.dataset.version;
  const start = performance.now();
  const watch = new MutationObserver(() => {
    const body = document.body.dataset;
    if (body.version !== before && body.pending === '0') {
      watch.disconnect();
      resolve(performance.now() - start);
    }
  });
  watch.observe(document.body, {attributes: true});
  buttons[index % buttons.length].click();
})"""


def percentile(values: list[float], fraction: float) -> float:
    """Return the nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, round(fraction * len(ordered)) - 1)]


def server_cpu(pid: int) -> float:
    """Return the CPU seconds of a process and its children (the workers)."""
    proc = psutil.Process(pid)
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        times = p.cpu_times()
        total += times.user + times.system
    return total


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=200, help="taps timed")
    parser.add_argument("--warmup", type=int, default=20, help="untimed taps first")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    served = serve_for_the_pad()
    server, port, token, players = served.process, served.port, served.token, served.players
    rng = random.Random(args.seed)
    timed: list[float] = []
    try:
        with (
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
            sync_playwright() as pw,
        ):
            browser = pw.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--host-resolver-rules=MAP club.test 127.0.0.1",
                ],
            )
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.set_default_timeout(30_000)
            club = f"http://club.test:{port}"
            page.goto(club + "/score")
            page.fill("#token", token)
            page.click("#sign-in-button")
            page.wait_for_selector("#new-match")
            cpu_before = 0.0
            taps = 0
            while len(timed) < args.taps:
                body = {
                    "game": "cuttle",
                    "variant": "standard",
                    "format": "quick",
                    "players": players[:2],
                    "dealing": "server",
                }
                answer = http.post(
                    "/matches", json=body, headers={"Authorization": f"Bearer {token}"}
                )
                assert answer.status_code == 201, answer.text
                page.goto(f"{club}/matches/{answer.json()['id']}/score")
                page.wait_for_selector("body[data-version]")
                while len(timed) < args.taps:
                    if page.evaluate("document.body.dataset.status") != "live":
                        break
                    if taps == args.warmup:
                        cpu_before = server_cpu(server.pid)
                    ms = page.evaluate(TAP, rng.randrange(1000))
                    if ms is None:
                        break
                    taps += 1
                    if taps > args.warmup:
                        timed.append(ms)
            cpu = server_cpu(server.pid) - cpu_before
            browser.close()
    finally:
        stop_server(server)
    print(
        f"taps timed: {len(timed)} (after {args.warmup} untimed), Chromium 390 px via http://club.test"
    )
    p50, p95 = statistics.median(timed), percentile(timed, 0.95)
    print(
        f"tap to answered move drawn: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(timed):.1f} ms"
    )
    print(f"server CPU per tap: {1000 * cpu / len(timed):.1f} ms (its process and workers)")


if __name__ == "__main__":
    main()
