#!/usr/bin/env python3
"""Drives catalogd's web console in real Chromium (Debian's chromium and chromium-driver,
through selenium) and prints what it saw as one JSON report; CatalogdConsoleTests asserts it.

  console_browser.py open   --port P --cli CATALOG --catalogd CATALOGD --screenshots DIR
      catalogd on P serves the demo catalog with no tokens. The demo catalog, the chips,
      two browser contexts and the CLI on one shared filter, collapse and expand, categories
      created, refused and deleted (with the dry run's counts), the four states of the Items
      screen (its error state on a catalogd of its own that is stopped and started again),
      screenshots and the accessibility tree.
  console_browser.py tokens --port P --reader R --writer W --admin A
      catalogd on P has tokens: the sign-in form, and what each role may do.
"""
import argparse
import base64
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 15
# Where a timed-out wait leaves a screenshot of what the page showed (the --screenshots folder).
failure_shots = None


def browser(width=1100, height=900):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def until(driver, condition, what):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.02).until(lambda d: condition(d))
    except TimeoutException:
        if failure_shots:
            shoot(driver, failure_shots, "failure-" + "".join(c if c.isalnum() else "-" for c in what))
        raise AssertionError(f"timed out waiting for {what}")


def attribute(driver, selector, name):
    """An attribute of the first element matching `selector`, read in the page in one go."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null", selector, name)


def texts(driver, selector):
    """The text of each element matching `selector`, read in the page in one go: a list that
    re-renders between finding an element and reading it would leave it stale. So do the
    helpers around it."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent.trim())", selector)


def connect(port, method, message, token=None):
    """A Connect unary call with Python's own HTTP client: the truth the page is compared with."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/{method}", data=json.dumps(message).encode(),
                                     headers={"content-type": "application/json"})
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def cli(args, *arguments):
    result = subprocess.run([args.cli, *arguments, "--server", f"127.0.0.1:{args.port}", "-o", "json"],
                            capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise AssertionError(f"catalog {' '.join(arguments)} failed: {result.stderr}")
    return json.loads(result.stdout)


def pressed(driver, selector):
    """The option ids of the pressed chips or cards, read in the page in one go."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => e.getAttribute('aria-pressed') === 'true')"
        ".map(e => e.dataset.optionId)", selector)


def severe_logs(driver):
    """The page's errors, but for the refusals and lost connections the scenario provokes on purpose."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]


INTERACTIVE = {"button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox",
               "menuitem", "tab", "switch", "slider", "spinbutton", "option"}


def unnamed_controls(driver):
    """Interactive nodes of the accessibility tree (Chrome DevTools) that have no name."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    unnamed = []
    for node in tree["nodes"]:
        if node.get("ignored"):
            continue
        role = node.get("role", {}).get("value")
        if role in INTERACTIVE and not (node.get("name", {}).get("value") or "").strip():
            unnamed.append(role)
    return unnamed


def focus_order(driver, steps=40):
    """Tabs on from where focus is (the page's start after a load, a dialog's first control):
    each focused element's tag, name and whether it is visible."""
    order = []
    for _ in range(steps):
        entry = driver.execute_script("""
            const e = document.activeElement;
            if (!e || e === document.body) return null;
            const labelled = e.labels && e.labels.length ? e.labels[0].textContent : "";
            const rect = e.getBoundingClientRect();
            return {tag: e.tagName.toLowerCase(), name: (e.getAttribute('aria-label') || labelled || e.textContent || e.title || '').trim(),
                    visible: rect.width > 0 && rect.height > 0};""")
        if entry is None:
            break
        order.append(entry)
        driver.switch_to.active_element.send_keys(Keys.TAB)
    return order


def accessibility(driver, screen):
    """The unnamed controls of the screen shown, and its focus order from the start of a fresh load."""
    unnamed = unnamed_controls(driver)
    driver.refresh()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".results[data-state='loaded'], .filter-card[data-state='loaded']"),
          f"the {screen} screen loaded again")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    return {"screen": screen, "unnamed": unnamed, "focus": focus_order(driver)}


def dialog_accessibility(driver, name):
    """The unnamed controls of an open dialog, and its focus order from its first control."""
    driver.execute_script("document.querySelector('dialog[open]').querySelector('input, select, button').focus()")
    return {"screen": name, "unnamed": unnamed_controls(driver), "focus": focus_order(driver, steps=12)}


def shoot(driver, directory, name):
    """A screenshot of the whole page, beyond the window, to DIRECTORY/NAME.png."""
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    with open(os.path.join(directory, f"{name}.png"), "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def open_screen(driver, port, screen):
    driver.get(f"http://127.0.0.1:{port}/#/{screen}")
    until(driver, lambda d: attribute(d, "#main", "data-screen") == screen, f"the {screen} screen")


def item_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('.item')].map(e => e.dataset.itemId)")]


def wait_loaded_items(driver):
    until(driver, lambda d: attribute(d, ".results", "data-state") in ("loaded", "empty")
          and attribute(d, ".results", "aria-busy") is None, "the items list")


def click(driver, element):
    """Clicks `element` as a user would, once it is scrolled into view (the chips scroll sideways)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    element.click()


def click_chip(driver, option):
    click(driver, driver.find_element(By.CSS_SELECTOR, f'.chip[data-option-id="{option}"]'))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_catalogd(binary, port, database):
    process = subprocess.Popen([binary, "--address", f"127.0.0.1:{port}", "--database", database, "--seed-demo"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if "catalogd ready on" in line:
            break
    else:
        raise AssertionError("catalogd exited before it was ready")
    return process


def four_states(args, report):
    """The Items screen's loading, loaded, empty and error states, on a catalogd of its own that
    is stopped and started again."""
    port = free_port()
    database = os.path.join(tempfile.mkdtemp(), "catalog.sqlite")
    server = start_catalogd(args.catalogd, port, database)
    driver = browser()
    states = {}
    try:
        # Loading: with 400 ms of latency the skeleton is up long enough to be seen.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                               {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.get(f"http://127.0.0.1:{port}/#/items")
        until(driver, lambda d: attribute(d, ".results", "data-state") == "loading", "the loading state")
        states["loading"] = {"busy": attribute(driver, ".results", "aria-busy"),
                             "skeletons": len(driver.find_elements(By.CSS_SELECTOR, ".results .skeleton"))}
        driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                               {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait_loaded_items(driver)
        states["loaded"] = {"state": attribute(driver, ".results", "data-state"), "items": len(item_ids(driver))}
        click_chip(driver, "1")  # Family: a default category the demo leaves empty
        until(driver, lambda d: attribute(d, ".results", "data-state") == "empty", "the empty state")
        states["empty"] = {"text": driver.find_element(By.CSS_SELECTOR, ".results .state").text}
        click_chip(driver, "all")
        until(driver, lambda d: attribute(d, ".results", "data-state") == "loaded", "all items again")

        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        until(driver, lambda d: attribute(d, ".live-status", "data-watch") == "reconnecting", "the Watch reconnecting")
        states["reconnecting"] = {"status": driver.find_element(By.CSS_SELECTOR, ".live-status").text}
        search = driver.find_element(By.CSS_SELECTOR, 'input[name="query"]')
        search.send_keys("données")
        until(driver, lambda d: attribute(d, ".results", "data-state") == "error", "the error state")
        error = driver.find_element(By.CSS_SELECTOR, ".results .state.error")
        states["error"] = {"message": error.find_element(By.CSS_SELECTOR, ".message").text,
                           "role": error.get_attribute("role"),
                           "retry": error.find_element(By.TAG_NAME, "button").text}
        shoot(driver, args.screenshots, "items-error")
        server = start_catalogd(args.catalogd, port, database)
        error.find_element(By.TAG_NAME, "button").click()
        until(driver, lambda d: attribute(d, ".results", "data-state") == "loaded", "the list after Retry")
        expected = connect(port, "catalog.v1.Catalog/ListItems", {"query": "données", "pageSize": 20, "sort": "title"})
        states["retried"] = {"shown": item_ids(driver), "expected": [i["id"] for i in expected["items"]]}
        # The Watch is back: a change made now reaches the page.
        changed = connect(port, "catalog.v1.Filters/Select", {"filterId": "categories", "optionId": 7})
        until(driver, lambda d: pressed(d, ".chip") == ["7"], "a change after the restart")
        until(driver, lambda d: attribute(d, ".live-status", "data-watch") == "live", "the Watch live again")
        states["resumed"] = {"revision": int(attribute(driver, ".chips", "data-revision")), "expected": changed["revision"],
                             "status": driver.find_element(By.CSS_SELECTOR, ".live-status").text}
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=30)
    report["states"] = states


def open_scenario(args):
    report = {}
    a = browser()
    b = browser()
    try:
        # The demo catalog and its chips.
        open_screen(a, args.port, "items")
        wait_loaded_items(a)
        truth = connect(args.port, "catalog.v1.Catalog/ListItems", {"pageSize": 20, "sort": "title"})
        state = connect(args.port, "catalog.v1.Filters/Get", {"filterId": "categories"})
        report["render"] = {
            "shown": item_ids(a), "expected": [i["id"] for i in truth["items"]],
            "range": a.find_element(By.CSS_SELECTOR, ".pager .range").text, "total": truth["totalCount"],
            "chips": a.execute_script("return [...document.querySelectorAll('.chip')].map(e => e.dataset.optionId)"),
            "options": ["all"] + [str(o["id"]) for o in state["options"]],
            "firstPrice": a.find_elements(By.CSS_SELECTOR, ".item .price")[0].text,
            "firstPriceAmount": truth["items"][0]["price"]["amount"],
        }
        shoot(a, args.screenshots, "items")
        # The next page, as ListItems pages.
        click(a, a.find_element(By.XPATH, '//nav[@class="pager"]/button[text()="Next"]'))
        until(a, lambda d: texts(d, ".pager .range") == [f"21–40 of {truth['totalCount']}"], "the second page")
        second = connect(args.port, "catalog.v1.Catalog/ListItems", {"pageSize": 20, "sort": "title", "pageToken": truth["nextPageToken"]})
        report["paging"] = {"shown": item_ids(a), "expected": [i["id"] for i in second["items"]]}
        click(a, a.find_element(By.XPATH, '//nav[@class="pager"]/button[text()="Previous"]'))
        until(a, lambda d: texts(d, ".pager .range") == [f"1–20 of {truth['totalCount']}"], "the first page again")

        # A chip filters the list; the second context, on Filters, follows.
        open_screen(b, args.port, "filters")
        until(b, lambda d: attribute(d, ".filter-card", "data-state") == "loaded", "the filter grid")
        click_chip(a, "8")  # Design
        until(a, lambda d: pressed(d, ".chip") == ["8"], "the Design chip pressed")
        wait_loaded_items(a)
        until(a, lambda d: set(item_ids(d)) == {i["id"] for i in connect(args.port, "catalog.v1.Catalog/ListItems",
              {"categoryId": 8, "pageSize": 20, "sort": "title"})["items"]}, "the Design items")
        design = connect(args.port, "catalog.v1.Catalog/ListItems", {"categoryId": 8, "pageSize": 20, "sort": "title"})
        until(b, lambda d: pressed(d, ".option") == ["8"], "the Design card pressed in the second context")
        report["chipSelect"] = {
            "shown": item_ids(a), "expected": [i["id"] for i in design["items"]],
            "secondContext": pressed(b, ".option"),
            "revision": int(attribute(b, ".filter-card", "data-revision")),
            "serverSelected": connect(args.port, "catalog.v1.Filters/Get", {"filterId": "categories"}).get("selectedId"),
        }
        # Tapping the selected chip again clears it.
        click_chip(a, "8")
        until(a, lambda d: pressed(d, ".chip") == ["all"], "All pressed after tapping Design again")
        until(b, lambda d: pressed(d, ".option") == ["all"], "All in the second context")
        report["chipToggle"] = {"first": pressed(a, ".chip"), "second": pressed(b, ".option")}

        # A card selected in the second context reaches the first; then the CLI reaches both.
        b.find_element(By.CSS_SELECTOR, '.option[data-option-id="7"]').click()
        until(a, lambda d: pressed(d, ".chip") == ["7"], "Data pressed in the first context")
        report["cardSelect"] = {"first": pressed(a, ".chip"), "revision": int(attribute(b, ".filter-card", "data-revision"))}
        selected = cli(args, "filter", "select", "categories", "Design")
        until(a, lambda d: pressed(d, ".chip") == ["8"], "the CLI's Design in the first context")
        until(b, lambda d: pressed(d, ".option") == ["8"], "the CLI's Design in the second context")
        # Both live regions say what changed, though neither page made the change.
        until(a, lambda d: d.find_element(By.ID, "announcer").text == "Showing Design", "the first page's announcement")
        until(b, lambda d: d.find_element(By.ID, "announcer").text == "Categories: Design selected", "the second page's announcement")
        report["cliSelect"] = {"first": pressed(a, ".chip"), "second": pressed(b, ".option"), "revision": selected["revision"],
                               "pageRevision": int(attribute(b, ".filter-card", "data-revision")),
                               "announced": [a.find_element(By.ID, "announcer").text, b.find_element(By.ID, "announcer").text],
                               "liveRegion": [attribute(a, "#announcer", "aria-live"), attribute(a, "#announcer", "role")]}
        shoot(b, args.screenshots, "filters")

        # Collapse in one page; the other follows; the CLI expands both.
        open_screen(a, args.port, "filters")
        until(a, lambda d: attribute(d, ".filter-card", "data-state") == "loaded", "the first context's grid")
        b.find_element(By.CSS_SELECTOR, ".filter-header").click()
        until(a, lambda d: attribute(d, ".filter-header", "aria-expanded") == "false", "collapsed in the first context")
        report["collapse"] = {"first": attribute(a, ".filter-header", "aria-expanded"), "gridHidden": attribute(a, "#filter-grid", "hidden") is not None,
                              "second": attribute(b, ".filter-header", "aria-expanded"),
                              "header": a.find_element(By.CSS_SELECTOR, ".filter-header .selection").text}
        shoot(a, args.screenshots, "filters-collapsed")
        cli(args, "filter", "expand", "categories")
        until(a, lambda d: attribute(d, ".filter-header", "aria-expanded") == "true", "expanded by the CLI in the first context")
        until(b, lambda d: attribute(d, ".filter-header", "aria-expanded") == "true", "expanded by the CLI in the second context")
        report["expand"] = {"first": attribute(a, ".filter-header", "aria-expanded"), "second": attribute(b, ".filter-header", "aria-expanded")}
        report["accessibility"] = [accessibility(a, "filters")]
        b.quit()
        b = None

        # Categories: a name the server refuses, a creation, a delete's dry run, a delete.
        open_screen(a, args.port, "categories")
        until(a, lambda d: attribute(d, ".results", "data-state") == "loaded", "the categories")
        shoot(a, args.screenshots, "categories")
        report["accessibility"].append(accessibility(a, "categories"))
        form = a.find_element(By.CSS_SELECTOR, "form.create")
        name = form.find_element(By.CSS_SELECTOR, 'input[name="name"]')
        name.send_keys("design")
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        until(a, lambda d: name.get_attribute("aria-invalid") == "true", "the refused name marked")
        error_line = a.find_element(By.ID, name.get_attribute("aria-describedby"))
        report["refused"] = {"message": error_line.text, "invalid": name.get_attribute("aria-invalid")}
        shoot(a, args.screenshots, "categories-refused")
        name.clear()
        name.send_keys("Photographie")
        form.find_element(By.CSS_SELECTOR, 'input[name="icon"]').send_keys("photo")
        form.find_element(By.CSS_SELECTOR, 'label[for="color-009688"]').click()
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        until(a, lambda d: "Photographie" in texts(d, ".category .name"), "the new category")
        listed = cli(args, "category", "list")
        created = [c for c in listed["categories"] if c["name"] == "Photographie"]
        report["created"] = {"cli": created, "fieldCleared": name.get_attribute("aria-invalid")}

        design_row = a.find_element(By.CSS_SELECTOR, '.category[data-category-id="8"]')
        design_row.find_element(By.CSS_SELECTOR, '[data-action="delete"]').click()
        dialog = until(a, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), "the delete dialog")
        until(a, lambda d: dialog.find_element(By.CSS_SELECTOR, ".counts").get_attribute("data-counts") == "ready", "the dry run")
        unassign = dialog.find_element(By.CSS_SELECTOR, ".counts").text
        dialog.find_element(By.CSS_SELECTOR, 'input[value="delete"]').click()
        until(a, lambda d: "deletes" in dialog.find_element(By.CSS_SELECTOR, ".counts").text, "the dry run of deleting the items")
        delete_items = dialog.find_element(By.CSS_SELECTOR, ".counts").text
        report["accessibility"].append(dialog_accessibility(a, "delete dialog"))
        shoot(a, args.screenshots, "categories-delete")
        dialog.find_element(By.XPATH, './/button[text()="Cancel"]').click()
        until(a, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the dialog closed")
        after_cancel = connect(args.port, "catalog.v1.Categories/Get", {"id": 8})
        report["deleteDryRun"] = {"unassign": unassign, "deleteItems": delete_items, "itemCountAfterCancel": after_cancel["itemCount"]}

        photo = created[0]["id"]
        a.find_element(By.CSS_SELECTOR, f'.category[data-category-id="{photo}"] [data-action="delete"]').click()
        dialog = until(a, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), "the delete dialog")
        until(a, lambda d: dialog.find_element(By.CSS_SELECTOR, ".counts").get_attribute("data-counts") == "ready", "the dry run")
        counts = dialog.find_element(By.CSS_SELECTOR, ".counts").text
        dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        until(a, lambda d: not d.find_elements(By.CSS_SELECTOR, f'.category[data-category-id="{photo}"]'), "the category gone")
        report["deleted"] = {"counts": counts, "cli": [c["name"] for c in cli(args, "category", "list")["categories"]]}
        manage(a, args, report)

        # Items, in a narrow (phone) window too; then its accessibility.
        open_screen(a, args.port, "items")
        wait_loaded_items(a)
        report["accessibility"].append(accessibility(a, "items"))
        a.set_window_size(390, 844)
        for screen in ["items", "filters", "categories"]:
            open_screen(a, args.port, screen)
            shoot(a, args.screenshots, f"{screen}-narrow")
        report["narrow"] = {"scrollWidth": a.execute_script("return document.documentElement.scrollWidth"),
                            "innerWidth": a.execute_script("return window.innerWidth")}
        report["errors"] = severe_logs(a)
    finally:
        a.quit()
        if b:
            b.quit()
    four_states(args, report)
    return report


def page_category_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('.category')].map(e => e.dataset.categoryId)")]


def open_dialog(driver, row_id, action):
    click(driver, driver.find_element(By.CSS_SELECTOR, f'.category[data-category-id="{row_id}"] [data-action="{action}"]'))
    return until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), f"the {action} dialog")


def dialog_closed(driver):
    until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the dialog closed")


def manage(a, args, report):
    """Reorder, edit (a refused name, then a rename), merge (a refused one, then one), assign
    items and the statistics chart, each checked against what the server then lists."""
    def listed():
        return connect(args.port, "catalog.v1.Categories/List", {})["categories"]

    before = [c["id"] for c in listed()]
    click(a, a.find_element(By.CSS_SELECTOR, '.category[data-category-id="7"] [data-action="up"]'))
    until(a, lambda d: page_category_ids(d) != before, "the new order")
    report["moved"] = {"before": before, "after": [c["id"] for c in listed()], "page": page_category_ids(a),
                       "focus": a.execute_script("return document.activeElement.dataset.action + ' ' + document.activeElement.closest('.category').dataset.categoryId")}

    dialog = open_dialog(a, 9, "edit")
    name = dialog.find_element(By.CSS_SELECTOR, 'input[name="name"]')
    name.clear()
    name.send_keys("Data")
    dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    until(a, lambda d: name.get_attribute("aria-invalid") == "true", "the rename refused")
    refused = a.find_element(By.ID, name.get_attribute("aria-describedby")).text
    name.clear()
    name.send_keys("Management & RH")
    dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    dialog_closed(a)
    until(a, lambda d: "Management & RH" in texts(d, ".category .name"), "the renamed category")
    renamed = connect(args.port, "catalog.v1.Categories/Get", {"id": 9})
    report["edited"] = {"refused": refused, "name": renamed["name"], "revision": renamed["revision"]}

    for category_id in (1, 7):
        click(a, a.find_element(By.CSS_SELECTOR, f'.category[data-category-id="{category_id}"] input[type="checkbox"]'))
    click(a, a.find_element(By.XPATH, '//div[@class="bulk"]/button[starts-with(text(), "Merge selected")]'))
    dialog = until(a, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), "the merge dialog")
    until(a, lambda d: dialog.find_element(By.CSS_SELECTOR, ".counts").get_attribute("data-counts") == "refused", "the refused dry run")
    merge_refused = {"message": dialog.find_element(By.CSS_SELECTOR, ".form-error").text,
                     "confirmDisabled": dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').get_attribute("disabled")}
    dialog.find_element(By.XPATH, './/button[text()="Cancel"]').click()
    dialog_closed(a)
    click(a, a.find_element(By.CSS_SELECTOR, '.category[data-category-id="1"] input[type="checkbox"]'))
    click(a, a.find_element(By.CSS_SELECTOR, '.category[data-category-id="6"] input[type="checkbox"]'))
    click(a, a.find_element(By.XPATH, '//div[@class="bulk"]/button[starts-with(text(), "Merge selected")]'))
    dialog = until(a, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), "the merge dialog")
    target = dialog.find_element(By.CSS_SELECTOR, 'select[name="targetId"]')
    a.execute_script("arguments[0].value = '5'; arguments[0].dispatchEvent(new Event('change'))", target)
    until(a, lambda d: dialog.find_element(By.CSS_SELECTOR, ".counts").get_attribute("data-counts") == "ready"
          and "deletes 2" in dialog.find_element(By.CSS_SELECTOR, ".counts").text, "the merge's dry run")
    merge_counts = dialog.find_element(By.CSS_SELECTOR, ".counts").text
    dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    dialog_closed(a)
    until(a, lambda d: 7 not in page_category_ids(d) and 6 not in page_category_ids(d), "the merged categories gone")
    report["merged"] = {"refused": merge_refused, "counts": merge_counts, "ids": [c["id"] for c in listed()],
                        "target": connect(args.port, "catalog.v1.Categories/Get", {"id": 5})["itemCount"]}

    click(a, a.find_element(By.XPATH, '//div[@class="bulk"]/button[text()="Assign items…"]'))
    dialog = until(a, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"), "the assign dialog")
    dialog.find_element(By.CSS_SELECTOR, 'input[name="itemQuery"]').send_keys("pandas")
    until(a, lambda d: len(dialog.find_elements(By.CSS_SELECTOR, ".item-picks input")) == 1, "the search's one item")
    pick = dialog.find_element(By.CSS_SELECTOR, ".item-picks input")
    item_id = int(pick.get_attribute("value"))
    click(a, pick)
    target = dialog.find_element(By.CSS_SELECTOR, 'select[name="categoryId"]')
    a.execute_script("arguments[0].value = '8'; arguments[0].dispatchEvent(new Event('change'))", target)
    until(a, lambda d: dialog.find_element(By.CSS_SELECTOR, ".counts").text == "This changes 1 item.", "the assignment's dry run")
    dialog.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    dialog_closed(a)
    report["assigned"] = {"categoryId": connect(args.port, "catalog.v1.Catalog/GetItem", {"id": item_id}).get("categoryId")}

    stats = connect(args.port, "catalog.v1.Categories/Stats", {})
    until(a, lambda d: any(t.startswith("Design: 9 items") for t in texts(d, ".bar-chart title")), "the chart after the assignment")
    report["chart"] = {"bars": texts(a, ".bar-chart title"), "expected": [f"{c['name']}: {c['itemCount']} items" for c in stats["categories"]],
                       "summary": a.find_element(By.ID, "stats-summary").text, "itemCount": stats["itemCount"]}
    shoot(a, args.screenshots, "categories-managed")


def sign_in(driver, token):
    field = until(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form.sign-in input[name="token"]'), "the sign-in form")
    field.clear()
    field.send_keys(token)
    driver.find_element(By.CSS_SELECTOR, 'form.sign-in button[type="submit"]').click()


def tokens_scenario(args):
    report = {}
    driver = browser()
    try:
        driver.get(f"http://127.0.0.1:{args.port}/#/items")
        sign_in(driver, "not-a-token")
        field = driver.find_element(By.CSS_SELECTOR, 'form.sign-in input[name="token"]')
        until(driver, lambda d: field.get_attribute("aria-invalid") == "true", "the unknown token refused")
        report["unknown"] = driver.find_element(By.ID, field.get_attribute("aria-describedby")).text
        report["roles"] = {}
        for role, token in [("reader", args.reader), ("writer", args.writer), ("admin", args.admin)]:
            driver.get(f"http://127.0.0.1:{args.port}/#/items")
            sign_in(driver, token)
            until(driver, lambda d: attribute(d, ".session .role", "data-role") == role, f"signed in as {role}")
            wait_loaded_items(driver)
            before = connect(args.port, "catalog.v1.Filters/Get", {"filterId": "categories"}, token=args.admin)["revision"]
            chip = '.chip[data-option-id="7"]'
            seen = {"label": driver.find_element(By.CSS_SELECTOR, ".session .role").text,
                    "items": len(item_ids(driver)),
                    "chipDisabled": attribute(driver, chip, "aria-disabled"), "chipReason": attribute(driver, chip, "data-disabled-reason")}
            click(driver, driver.find_element(By.CSS_SELECTOR, chip))
            if role == "reader":
                # The click was refused in the page; a read now shows the revision did not move.
                seen["announced"] = until(driver, lambda d: d.find_element(By.ID, "announcer").text, "the refusal announced")
            else:
                until(driver, lambda d: pressed(d, ".chip") == ["7"], f"{role} selects Data")
                click_chip(driver, "7")
                until(driver, lambda d: pressed(d, ".chip") == ["all"], f"{role} clears Data")
            seen["revisionMoved"] = connect(args.port, "catalog.v1.Filters/Get", {"filterId": "categories"}, token=args.admin)["revision"] - before
            open_screen(driver, args.port, "categories")
            until(driver, lambda d: attribute(d, ".results", "data-state") == "loaded", "the categories")
            create = driver.find_element(By.CSS_SELECTOR, 'form.create button[type="submit"]')
            seen["createDisabled"] = create.get_attribute("aria-disabled")
            seen["createReason"] = create.get_attribute("data-disabled-reason")
            seen["categories"] = len(driver.find_elements(By.CSS_SELECTOR, ".category"))
            name = driver.find_element(By.CSS_SELECTOR, 'form.create input[name="name"]')
            name.send_keys(f"Made by {role}")
            create.click()
            if role == "admin":
                until(driver, lambda d: "Made by admin" in texts(d, ".category .name"), "the admin's category")
            names = [c["name"] for c in connect(args.port, "catalog.v1.Categories/List", {}, token=args.admin)["categories"]]
            seen["created"] = f"Made by {role}" in names
            shoot(driver, args.screenshots, f"categories-{role}")
            seen["tokenKept"] = driver.execute_script("return sessionStorage.getItem('catalog.token')") == token
            click(driver, driver.find_element(By.XPATH, '//header//button[text()="Sign out"]'))
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.sign-in"), "the sign-in form after signing out")
            seen["tokenAfterSignOut"] = driver.execute_script("return sessionStorage.getItem('catalog.token')")
            report["roles"][role] = seen
        report["errors"] = severe_logs(driver)
    finally:
        driver.quit()
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["open", "tokens"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cli")
    parser.add_argument("--catalogd")
    parser.add_argument("--screenshots")
    parser.add_argument("--reader")
    parser.add_argument("--writer")
    parser.add_argument("--admin")
    args = parser.parse_args()
    global failure_shots
    failure_shots = args.screenshots
    report = open_scenario(args) if args.scenario == "open" else tokens_scenario(args)
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
