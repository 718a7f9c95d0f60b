"""The web app in a real browser (Debian's headless Chromium through Selenium): a no-limit
hand played to showdown against two bots by clicking, an out-of-range amount refused, a hint,
a run's hand replayed forward and back with the pot checked against pokerkit at each step and
the agent's reasoning (its row summing to 1, its 13x13 range grid), a league's cell read, and
no request leaving the origin."""

from __future__ import annotations

import csv
import json
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")
if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
    pytest.skip("no chromium/chromedriver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

import uvicorn  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from simulator.cli import main as holdem  # noqa: E402
from simulator.web.app import WebApp  # noqa: E402

RUN = """
game: {variant: nolimit, blinds: [1, 2], stack: 200, reset_stacks: true}
seats:
  - {name: agent, bot: heuristic, params: {trace: true}}
  - {name: loki, bot: loki}
  - {name: station, bot: call}
hands: 12
seed: 5
duplicate: false
block_size: 6
workers: 1
output: {dir: DIR, hand_histories: true, plots: false}
"""
LEAGUE = """
game: {variant: limit, blinds: [1, 2], small_bet: 2, stack: 200, reset_stacks: true}
bots:
  - {name: wild, bot: random}
  - {name: station, bot: call}
  - {name: rock, bot: rock}
hands: 40
block_size: 20
seed: 9
duplicate: true
workers: 1
output: {dir: DIR, plots: false}
"""


def _results(base: Path) -> Path:
    """A traced run with its hands, and a small league, made by the command line."""
    root = base / "results"
    for name, text, verb in (("run", RUN, "run"), ("league", LEAGUE, "league")):
        config = base / f"{name}.yaml"
        config.write_text(text.replace("DIR", str(root / name)))
        assert holdem([verb, str(config), "--quiet"]) == 0
    return root


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _results(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def server(results: Path):  # type: ignore[no-untyped-def]
    web = WebApp([results], results.parent / "sessions", token="tok")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(web.asgi(), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(0)  # every wait is explicit (_wait): an absent element is an answer
    yield driver
    driver.quit()


def _until(found, what: str, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    """What ``found()`` returns once it is truthy; an AssertionError naming ``what`` if it
    never is."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = found()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{what} did not appear")


def _wait(driver, css: str, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    def shown():  # type: ignore[no-untyped-def]
        found = driver.find_elements(By.CSS_SELECTOR, css)
        return found[0] if found and found[0].is_displayed() else None
    return _until(shown, css, timeout)


def test_a_no_limit_hand_to_showdown_by_clicking(server, browser):  # type: ignore[no-untyped-def]
    browser.get(f"{server}/play?token=tok&opponents=call,call&pace=0&seed=3")
    refused = False
    for _ in range(40):
        _wait(browser, "#btn-call, #btn-next")
        if browser.find_elements(By.CSS_SELECTOR, "#btn-next"):
            break
        if not refused and browser.find_elements(By.CSS_SELECTOR, "#amount"):
            amount = browser.find_element(By.CSS_SELECTOR, "#amount")
            top = int(amount.get_attribute("max"))
            amount.clear()
            amount.send_keys(str(top + 1))
            pot = browser.find_element(By.CSS_SELECTOR, "#pot").text
            browser.find_element(By.CSS_SELECTOR, "#btn-raise").click()
            error = _wait(browser, "#error")
            assert "out of the legal range" in error.text
            assert browser.find_element(By.CSS_SELECTOR, "#pot").text == pot
            refused = True
        browser.find_element(By.CSS_SELECTOR, "#btn-call").click()
        time.sleep(0.05)
    assert refused
    shown = browser.find_elements(By.CSS_SELECTOR, ".shown")
    assert len(shown) == 3  # everyone called down: three hands at the showdown
    sums = [float(x.text.rsplit(" ", 1)[-1])
            for x in browser.find_elements(By.CSS_SELECTOR, ".row-sum")]
    assert sums and all(abs(s - 1) < 1e-3 for s in sums)
    _no_outside_request(browser, server)


def _no_outside_request(browser, server: str) -> None:  # type: ignore[no-untyped-def]
    origin = server.rstrip("/")
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            assert url.startswith(origin) or url.startswith("data:"), url


def test_a_hint_states_a_row_that_sums_to_one(server, browser):  # type: ignore[no-untyped-def]
    browser.get(f"{server}/play?token=tok&opponents=call&pace=0&seed=4")
    _wait(browser, "#btn-hint").click()
    box = _wait(browser, "#hint")
    probs = [float(x.text) for x in box.find_elements(By.CSS_SELECTOR, ".prob")]
    assert len(probs) >= 2 and abs(sum(probs) - 1) < 1e-3
    assert "heuristic" in box.text


LIVE_PANEL = """
const bots = document.querySelectorAll('#seat-1 .card, #seat-2 .card');
return {bots: [...bots].map(c => c.textContent),
        decisions: document.querySelectorAll('#reasoning .decision').length,
        state: document.body.dataset.state || ''};
"""


def test_a_live_hand_shows_the_agents_reasoning_only_after_it(  # type: ignore[no-untyped-def]
        server, browser):
    browser.get(f"{server}/play?token=tok&opponents=heuristic,call&pace=0&seed=8")
    for _ in range(40):
        _wait(browser, "#btn-call, #btn-next")
        if browser.find_elements(By.CSS_SELECTOR, "#btn-next"):
            break
        live = browser.execute_script(LIVE_PANEL)
        assert live["decisions"] == 0, "a bot's reasoning shown during the hand"
        assert set(live["bots"]) == {"??"}, f"a bot's card shown during the hand: {live}"
        browser.find_element(By.CSS_SELECTOR, "#btn-call").click()
        time.sleep(0.05)
    panels = browser.find_elements(By.CSS_SELECTOR, "#reasoning .decision")
    agent = [p for p in panels if p.text.startswith("heuristic")]
    assert agent, "no reasoning of the agent after the hand"
    for panel in agent:
        probs = [float(x.text) for x in panel.find_elements(By.CSS_SELECTOR, ".prob")]
        assert probs and abs(sum(probs) - 1) < 1e-3
        assert "EHS" in panel.text or "income rate" in panel.text  # its trace is attached
    grids = browser.find_elements(By.CSS_SELECTOR, "#reasoning .grid.range")
    assert grids and all(len(g.find_elements(By.CSS_SELECTOR, ".range-cell")) == 169
                         for g in grids)
    _no_outside_request(browser, server)


def _pokerkit_pots(history) -> list[int]:  # type: ignore[no-untyped-def]
    """The pot (bets included) after each player action of a PHH hand, by pokerkit."""
    states = iter(history)
    next(states)  # the blinds posted
    return [int(state.total_pot_amount)
            for line, state in zip(history.actions, states, strict=True)
            if line.split()[1] in ("f", "cc", "cbr")]


def test_a_run_hand_replays_forward_and_back_with_the_reasoning(  # type: ignore[no-untyped-def]
        server, browser, results):
    from pokerkit import HandHistory

    expected = list(HandHistory.loads_all((results / "run" / "hands.phhs").read_text()))
    browser.get(f"{server}/replay?ref=0/run")
    options = _wait(browser, "#picker").find_elements(By.TAG_NAME, "option")
    assert len(options) == len(expected) == 12
    reasoned = 0
    for option in options[:6]:  # half of them: each step is a few round trips
        option.click()
        index = int(option.get_attribute("value"))
        _wait_text(browser, "#where", f"step 0 of {len(_pokerkit_pots(expected[index]))}:")
        forward = [int(browser.find_element(By.CSS_SELECTOR, "#pot").text)]
        while browser.find_element(By.CSS_SELECTOR, "#forward").is_enabled():
            browser.find_element(By.CSS_SELECTOR, "#forward").click()
            forward.append(int(browser.find_element(By.CSS_SELECTOR, "#pot").text))
            reasoned += _check_reasoning(browser)
        back = [forward[-1]]
        while browser.find_element(By.CSS_SELECTOR, "#back").is_enabled():
            browser.find_element(By.CSS_SELECTOR, "#back").click()
            back.append(int(browser.find_element(By.CSS_SELECTOR, "#pot").text))
        assert back == forward[::-1]
        assert forward == [3, *_pokerkit_pots(expected[index])]
    assert reasoned >= 6  # the agent acts at least once a hand
    _no_outside_request(browser, server)


def _wait_text(driver, css: str, start: str) -> None:  # type: ignore[no-untyped-def]
    _until(lambda: any(e.text.startswith(start)
                       for e in driver.find_elements(By.CSS_SELECTOR, css)[:1]),
           f"{css} starting {start!r}")


READ_PANEL = """
const panel = document.querySelector('#step-reasoning .reasoning');
if (!panel) return null;
return {probs: [...panel.querySelectorAll('.prob')].map(x => x.textContent),
        grids: [...panel.querySelectorAll('.grid.range')].map(g =>
          [...g.querySelectorAll('.range-cell')].map(c => [c.textContent, c.title]))};
"""


def _check_reasoning(browser) -> int:  # type: ignore[no-untyped-def]
    """1 if this step shows the agent's reasoning, checked: a row summing to 1 and a 13x13
    grid per live opponent, AA in its first cell and 22 in its last."""
    panel = browser.execute_script(READ_PANEL)  # one round trip: 169 cells a grid
    if panel is None:
        return 0
    probs = [float(x) for x in panel["probs"]]
    assert probs and abs(sum(probs) - 1) < 1e-3
    assert panel["grids"]
    for cells in panel["grids"]:
        assert len(cells) == 169 and cells[0][0] == "AA" and cells[-1][0] == "22"
        weights = [float(title.split(": ")[1]) for _, title in cells]
        assert max(weights) > 0 and all(0 <= w <= 1 for w in weights)
    return 1


def test_a_league_page_shows_its_cells_linked_to_their_pairs(  # type: ignore[no-untyped-def]
        server, browser, results):
    rows = list(csv.DictReader((results / "league" / "crosstable.csv").open()))
    browser.get(f"{server}/report?ref=0/league")
    cell = _wait(browser, '#crosstable td[data-row="station"][data-column="wild"]')
    link = cell.find_element(By.TAG_NAME, "a")
    row = next(r for r in rows if (r["row"], r["column"]) == ("station", "wild"))
    shown = [float(x) for x in link.text.replace("[", " ").replace("]", " ").replace(",", " ")
             .split()]
    # the page rounds to two decimals
    assert shown == pytest.approx([float(row[k]) for k in ("mean", "ci_low", "ci_high")],
                                  abs=0.0051)
    link.click()
    _wait(browser, "#chart")
    assert "station" in browser.find_element(By.TAG_NAME, "body").text
    _no_outside_request(browser, server)
