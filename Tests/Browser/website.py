"""Driving the researcher website as a researcher would: the browser plumbing of the test_website_* files.

`Website` wraps one harness.Chromium at laptop size (1280×1000) with its performance log on, so a
test can read the HTTP statuses of the pages it loads (a redirect, a 422) that the page itself
does not show, and a downloads folder of its own for the exports. Every wait fails with a message
naming what was expected and what the browser shows instead (an error page by its status line).
"""
import contextlib
import json
import os
import re
import urllib.parse
import uuid

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import harness

LAPTOP = (1280, 1000)
TIMEOUT = 20  # seconds to wait for any one page or download


class Website:
    def __init__(self, server, downloads):
        self.server = server
        self.base_url = server.base_url
        self.downloads = downloads
        os.makedirs(downloads, exist_ok=True)
        self.chromium = harness.Chromium(server.origin, performance_log=True)
        self.driver = self.chromium.driver
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": LAPTOP[0], "height": LAPTOP[1], "deviceScaleFactor": 1, "mobile": False})
        # Attachments land in the downloads folder without asking.
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {
            "behavior": "allow", "downloadPath": downloads, "eventsEnabled": False})

    def quit(self):
        self.chromium.quit()
        self.chromium.remove_profile()

    # ---- pages -------------------------------------------------------------------------------

    def wait(self, timeout=TIMEOUT):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.1)

    def url(self, path):
        return self.base_url + path

    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    def path_of(self, url):
        return urllib.parse.urlsplit(urllib.parse.urljoin(self.driver.current_url, url)).path

    def open(self, path, heading):
        self.driver.get(self.url(path))
        self.expect_page(heading)

    def error_page(self):
        """The status line of the site's error page when the browser shows one, else None."""
        title = self.driver.title
        if re.match(r"^\d{3} ", title):
            message = self.texts("p")
            return "%s — %s" % (title.split(" · ")[0], message[0] if message else "")
        return None

    def expect_page(self, heading):
        """Waits for a page whose <h1> contains `heading`; fails naming an error page if one came instead."""
        def arrived(driver):
            # Right after a click or a redirect the old document may still be going away: an
            # element found in it vanishes while it is read. That is "not yet", not a failure.
            try:
                if driver.execute_script("return document.readyState") != "complete":
                    return False
                if self.error_page():
                    return True
                headings = driver.find_elements(By.TAG_NAME, "h1")
                return bool(headings) and heading in headings[0].text
            except WebDriverException:
                return False

        try:
            self.wait().until(arrived)
        except TimeoutException:
            raise AssertionError("expected a page headed “%s” at %s, found “%s”"
                                 % (heading, self.driver.current_url, self.heading())) from None
        problem = self.error_page()
        assert not problem, "%s answered with an error page: %s" % (self.driver.current_url, problem)

    def heading(self):
        headings = self.driver.find_elements(By.TAG_NAME, "h1")
        return headings[0].text if headings else "(no heading)"

    def texts(self, selector):
        return [element.text for element in self.driver.find_elements(By.CSS_SELECTOR, selector)]

    def problems_shown(self):
        return " ".join(self.texts(".problems"))

    def field(self, selector):
        elements = self.driver.find_elements(By.CSS_SELECTOR, selector)
        assert elements, "%s has no %s" % (self.driver.current_url, selector)
        return elements[0]

    def fill(self, selector, text):
        element = self.field(selector)
        element.clear()
        element.send_keys(text)

    def set_value(self, selector, text):
        # Long texts (survey JSON) are put in place at once, as pasted; typing them would be slow.
        self.driver.execute_script("arguments[0].value = arguments[1];", self.field(selector), text)

    # ---- clicks that load a page -------------------------------------------------------------

    def click_to_leave(self, element, what):
        """Clicks `element` and waits until the browser has left the page it was on.

        The page is marked with a script variable before the click; a new document does not have
        it. (Waiting for the old <html> element to go stale raced with Chromium: a lookup of the
        old element while the new document came in sometimes failed with "Node with given id does
        not belong to the document" instead of reporting it stale.)
        """
        token = uuid.uuid4().hex
        self.driver.execute_script("window.__websiteTestPage = arguments[0];", token)
        element.click()

        def left(driver):
            try:
                return driver.execute_script("return window.__websiteTestPage || null;") != token
            except WebDriverException:  # the old document is going away: not yet
                return False

        try:
            self.wait().until(left)
        except TimeoutException:
            raise AssertionError("%s on %s did not load a page within %ss"
                                 % (what, self.driver.current_url, TIMEOUT)) from None

    def submit(self, form_selector):
        """Clicks the form's submit button and waits until the browser has left the old page."""
        form = self.field(form_selector)
        self.click_to_leave(form.find_element(By.CSS_SELECTOR, "button[type=submit]"), "submitting " + form_selector)

    def follow(self, link_text, heading):
        """Clicks the first link whose text is `link_text` (a researcher's click), and waits for the page."""
        links = self.driver.find_elements(By.LINK_TEXT, link_text)
        assert links, "%s has no link “%s”" % (self.driver.current_url, link_text)
        self.click_to_leave(links[0], "following the link “%s”" % link_text)
        self.expect_page(heading)

    # ---- HTTP exchanges, from Chromium's performance log -------------------------------------

    def forget_exchanges(self):
        """Drops the performance log gathered so far, so `document_exchanges` sees only what follows."""
        self.driver.get_log("performance")

    def document_exchanges(self):
        """(method, url, status, Location header) of each page (document) request since the last call.

        A redirect shows as its own exchange, followed by the request it led to. Documents loaded
        into frames (the survey editor's preview) are not pages and are left out.
        """
        exchanges, methods = [], {}
        page = self.driver.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            event, params = message.get("method"), message.get("params", {})
            if params.get("frameId", page) != page:
                continue
            if event == "Network.requestWillBeSent" and params.get("type") == "Document":
                redirect = params.get("redirectResponse")
                if redirect:
                    headers = {key.lower(): value for key, value in redirect.get("headers", {}).items()}
                    exchanges.append((methods.get(params["requestId"], "?"), redirect["url"],
                                      redirect["status"], headers.get("location")))
                methods[params["requestId"]] = params["request"]["method"]
            elif event == "Network.responseReceived" and params.get("type") == "Document":
                response = params["response"]
                exchanges.append((methods.get(params["requestId"], "?"), response["url"], response["status"], None))
        return exchanges

    # ---- tables ------------------------------------------------------------------------------

    def table_column(self, heading):
        """The index of the column whose header reads `heading` in the page's first table."""
        headings = [cell.text.strip() for cell in self.driver.find_elements(By.CSS_SELECTOR, "table tr th")]
        assert heading in headings, "the table has no “%s” column (%s)" % (heading, ", ".join(headings))
        return headings.index(heading)

    def table_rows(self):
        """The body rows of the page's tables, as lists of cell texts (header rows left out)."""
        rows = []
        for row in self.driver.find_elements(By.CSS_SELECTOR, "table tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            if cells:
                rows.append([cell.text.strip() for cell in cells])
        return rows

    # ---- downloads ---------------------------------------------------------------------------

    def forget_download(self, path):
        """Removes an earlier file of that name: Chromium would save "name (1).csv" beside it."""
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)

    def wait_for_download(self, path):
        """Waits until Chromium has finished writing `path` (its partial file is gone)."""
        def finished(_):
            if not os.path.exists(path):
                return False
            return not any(name.endswith(".crdownload") for name in os.listdir(self.downloads))

        try:
            self.wait().until(finished)
        except TimeoutException:
            raise AssertionError("no download %s after %ss (the folder holds %s; the browser shows %s)"
                                 % (os.path.basename(path), TIMEOUT, sorted(os.listdir(self.downloads)),
                                    self.driver.current_url)) from None
        # A download leaves the page in place; an error would have replaced it.
        problem = self.error_page()
        assert problem is None, "downloading %s showed an error page: %s" % (os.path.basename(path), problem)
