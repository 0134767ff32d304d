#!/usr/bin/env python3
"""The web console's timings in Debian's Chromium (selenium), against catalogd on --port:

- first paint of #/items: LOADS navigations, the browser's cache cleared before each; from the
  navigation's start, the first contentful paint and the first render of the items list (the
  page's `items-rendered` mark);
- a Select made by the `catalog` CLI reaching an open #/filters page, SELECTS times: from the
  moment the CLI is started to the page applying the change (the page stamps it with
  performance.timeOrigin + performance.now()), and from the CLI's exit to it.

Prints one JSON object."""
import argparse
import json
import statistics
import subprocess
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Resolves once the page has marked its first render of the items, without polling from here
# (polling would take CPU from the page being measured).
WAIT_RENDERED = """
const done = arguments[arguments.length - 1];
if (performance.getEntriesByName('items-rendered').length) return done();
new PerformanceObserver((list, observer) => {
  if (list.getEntriesByName('items-rendered').length) { observer.disconnect(); done(); }
}).observe({type: 'mark', buffered: true});
"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def summary(values):
    return {"median": round(statistics.median(values), 2), "p99": round(percentile(values, 0.99), 2),
            "min": round(min(values), 2), "max": round(max(values), 2), "n": len(values)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--selects", type=int, default=200)
    args = parser.parse_args()

    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(driver, 20, poll_frequency=0.005)
    base = f"http://127.0.0.1:{args.port}/"
    result = {}
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        paints, rendered = [], []
        for _ in range(args.loads):
            driver.get("about:blank")
            driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            driver.get(base + "#/items")
            driver.execute_async_script(WAIT_RENDERED)
            timing = driver.execute_script("""
                const paint = performance.getEntriesByName('first-contentful-paint')[0];
                return {paint: paint ? paint.startTime : null, rendered: performance.getEntriesByName('items-rendered')[0].startTime};""")
            paints.append(timing["paint"])
            rendered.append(timing["rendered"])
        result["firstContentfulPaintMs"] = summary(paints)
        result["itemsRenderedMs"] = summary(rendered)

        driver.get(base + "#/filters")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".filter-card").get_attribute("data-state") == "loaded")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".live-status").get_attribute("data-watch") == "live")
        card = driver.find_element(By.CSS_SELECTOR, ".filter-card")
        from_start, from_exit, cli_runs = [], [], []
        for index in range(args.selects):
            option = "Data" if index % 2 == 0 else "Design"
            started = time.time() * 1000
            answer = subprocess.run([args.cli, "filter", "select", "categories", option, "--server", f"127.0.0.1:{args.port}", "-o", "json"],
                                    capture_output=True, text=True, check=True)
            exited = time.time() * 1000
            revision = str(json.loads(answer.stdout)["revision"])
            wait.until(lambda d: card.get_attribute("data-revision") == revision)
            applied = float(card.get_attribute("data-applied-at"))
            from_start.append(applied - started)
            from_exit.append(applied - exited)
            cli_runs.append(exited - started)
        result["cliStartToPageMs"] = summary(from_start)
        result["cliExitToPageMs"] = summary(from_exit)
        result["cliRunMs"] = summary(cli_runs)
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
