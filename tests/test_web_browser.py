"""The web app in a real browser (Debian's headless Chromium through Selenium): a no-limit
hand played to showdown against two bots by clicking, an out-of-range amount refused, and no
request leaving the origin."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")
if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
    pytest.skip("no chromium/chromedriver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

import uvicorn  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from simulator.web.app import WebApp  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    base = tmp_path_factory.mktemp("web")
    (base / "results").mkdir()
    web = WebApp([base / "results"], base / "sessions", token="tok")
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
    driver.implicitly_wait(5)
    yield driver
    driver.quit()


def _wait(driver, css: str, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = driver.find_elements(By.CSS_SELECTOR, css)
        if found and found[0].is_displayed():
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"{css} did not appear")


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
    origin = server.rstrip("/")
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            assert url.startswith(origin) or url.startswith("data:"), url
