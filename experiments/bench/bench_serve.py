"""The browser's speed: a bot's action shown in the page, and a long run's report loading.

    python experiments/bench/bench_serve.py [--hands 200] [--report-hands 10000] [--loads 5]
    python experiments/bench/bench_serve.py --smoke

**Latency.** Headless Chromium (Debian's, through Selenium) plays seat 0 of a no-limit table
against ``heuristic`` and ``call`` at pace 0, checking or calling whenever its turn comes, for
``--hands`` hands. The server stamps each bot step with the moment the bot returned
(``time.time()``); the page writes that stamp on the table it draws. An observer installed
before the page's own scripts (CDP ``Page.addScriptToEvaluateOnNewDocument``) records, each
time the stamp changes, ``Date.now()`` minus the stamp: from the bot's return to the page's
table showing its action, on this machine's one wall clock. The bot's thinking is not in it,
and neither is a pacing delay. Goal: median 50 ms or less.

**Anchor.** The same page fetching a small static file from the server, 50 times: the
browser's bare round trip to this server, measured in the same run. The ratio says how many
round trips the latency is worth.

**Report.** ``holdem run`` plays ``--report-hands`` hands (heads-up limit, ``call`` against
``random``); the time from navigating to its report page to the chart drawn, median over
``--loads``. Goal: under 1 s.

The server runs in this process (uvicorn in a thread), as ``holdem serve`` runs it. The exit
code is 0 whatever the figures (a busy machine is slower), 2 without Chromium.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

OBSERVER = """
window.__shown = [];
let last = "";
new MutationObserver(records => {
  for (const r of records) {
    const stamp = r.target.dataset ? r.target.dataset.returned : "";
    if (r.target.id === "table" && stamp && stamp !== last) {
      last = stamp;
      window.__shown.push(Date.now() - Number(stamp) * 1000);
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-returned"] });
"""
ROUND_TRIPS = """
const done = arguments[arguments.length - 1];
(async () => {
  const times = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    await (await fetch("/static/common.js", { cache: "no-store" })).text();
    times.push(performance.now() - start);
  }
  done(times);
})();
"""
RUN = """
game: {variant: limit, blinds: [1, 2], small_bet: 2, stack: 200, reset_stacks: true}
seats:
  - {name: station, bot: call}
  - {name: wild, bot: random}
hands: HANDS
seed: 7
duplicate: false
block_size: BLOCK
workers: 1
output: {dir: DIR, plots: false}
"""


@contextmanager
def serving(results: Path, sessions: Path) -> Iterator[str]:
    """The web app on a free local port, in a thread; yields its address."""
    import uvicorn

    from simulator.web.app import WebApp

    web = WebApp([results], sessions, token="tok")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(web.asgi(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium() -> Iterator[Any]:
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


def _turn(driver: Any, timeout: float = 60.0) -> str:
    """Wait for the page to hand the table back ("yours" or "over") and return which."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = driver.execute_script("return document.body.dataset.state || ''")
        if state:
            return str(state)
        time.sleep(0.002)
    raise TimeoutError("the page did not hand the table back")


def _click(driver: Any, button: str) -> None:
    # The state is cleared in the same script as the click, so the next _turn waits for the
    # page's answer to this click, not the one before.
    driver.execute_script(
        "document.body.dataset.state = ''; document.getElementById(arguments[0]).click()",
        button)


def latency(driver: Any, base: str, hands: int) -> tuple[list[float], list[float]]:
    """Play ``hands`` hands; the milliseconds from each bot's return to the page showing it,
    and the anchor's round trips."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVER})
    driver.get(f"{base}/play?token=tok&pace=0&variant=nolimit&opponents=heuristic,call"
               "&seed=11")
    played = 0
    while played < hands:
        if _turn(driver) == "over":
            played += 1
            if played < hands:
                _click(driver, "btn-next")
        else:
            _click(driver, "btn-call")
    shown = [float(x) for x in driver.execute_script("return window.__shown")]
    trips = [float(x) for x in driver.execute_async_script(ROUND_TRIPS)]
    return shown, trips


def make_run(results: Path, hands: int) -> float:
    """A ``hands``-hand run made by ``holdem run``; its seconds."""
    from simulator.cli import main as holdem

    config = results.parent / "run.yaml"
    block = max(1, min(1000, hands // 10))
    config.write_text(RUN.replace("HANDS", str(hands)).replace("BLOCK", str(block))
                      .replace("DIR", str(results / "run")))
    start = time.perf_counter()
    if holdem(["run", str(config), "--quiet"]) != 0:
        raise RuntimeError("holdem run failed")
    return time.perf_counter() - start


def report_loads(driver: Any, base: str, loads: int) -> list[float]:
    """Seconds from navigating to the run's report page to its chart drawn."""
    times = []
    for _ in range(loads):
        start = time.perf_counter()
        driver.get(f"{base}/report?ref=0/run")
        while not driver.execute_script(
                "return !!document.querySelector('#chart svg, #chart canvas')"):
            time.sleep(0.002)
        times.append(time.perf_counter() - start)
    return times


def _quantile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--report-hands", type=int, default=10_000)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="3 hands, a 200-hand report, 1 load")
    args = parser.parse_args(argv)
    if args.smoke:
        args.hands, args.report_hands, args.loads = 3, 200, 1
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        print("bench_serve: no chromium/chromedriver (apt-get install chromium chromium-driver)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results"
        results.mkdir()
        made = make_run(results, args.report_hands)
        with serving(results, Path(tmp) / "sessions") as base, chromium() as driver:
            start = time.perf_counter()
            shown, trips = latency(driver, base, args.hands)
            played = time.perf_counter() - start
            loads = report_loads(driver, base, args.loads)
    median, anchor = statistics.median(shown), statistics.median(trips)
    print(f"bot action to page, {args.hands} hands at pace 0 against heuristic and call "
          f"({played:.1f} s): {len(shown)} bot actions")
    print(f"  median {median:.2f} ms, p90 {_quantile(shown, 0.9):.2f} ms, "
          f"max {max(shown):.2f} ms (goal: median <= 50 ms)")
    print(f"  anchor: the page's round trip for a static file, median {anchor:.2f} ms; "
          f"ratio = {median / anchor:.2f}x")
    print(f"report page of a {args.report_hands}-hand run (made in {made:.1f} s), navigation "
          f"to chart drawn: median {statistics.median(loads):.3f} s over {len(loads)} "
          f"(goal < 1 s); {', '.join(f'{t:.3f}' for t in loads)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
