#!/usr/bin/env python3
"""Walk the researcher website in a headless browser, as a researcher would, asserting each step.

usage: browser_walk.py --base-url URL --email EMAIL --password PASSWORD --downloads DIR
                       [--timeout SECONDS]

Drives Debian's Chromium (/usr/bin/chromium) through Debian's chromedriver (/usr/bin/chromedriver)
with Selenium 4:

  a. sign in at /signin;
  b. create an invitation-only study through the new-study form;
  b2. on that study's surveys page, add an experience-sampling survey through the new-survey form
     (it must redirect to the new survey's editor at version 1), then try to add a second survey
     with the same name (it must be answered 422 with the problem shown and nothing added);
  c. in that survey's editor, submit invalid survey JSON (the problems must be shown and no
     version saved), then a valid survey (saved as the next version);
  d. create invitation codes on the invitees page and read them off the page;
  e. outside the browser, register a participant with one of the codes through the participant
     JSON API (the study has no registration survey, so no registration answers are sent) and
     submit one response;
  f. find that response on the responses page and open it;
  g. on the export page, download every export through the browser (the workbook through the
     export form, the rest through their quick links) and open each as a researcher would:
     the long CSV with Python's csv (values, statuses, UTC and local times), the wide, beeps and
     codebook CSVs with pandas, the workbook with openpyxl (check_xlsx), the JSON with json and
     the whole-study ZIP with zipfile; then the participant's passive streams (a proximity batch
     uploaded in step e, sent twice) through the stream form: one stream as a CSV, two as a ZIP.

Every step works on the study made in step b. HTTP statuses of the pages the browser loads (the
redirect after adding a survey, the 422 of a refused one) are read from Chromium's performance log.

Prints `ok  STEP` per step. On the first failure prints `FAILED  STEP: why` with the page the
browser was on, saves a screenshot and the page source into the downloads folder, and exits 1.
"""
import argparse
import base64
import contextlib
import csv
import datetime
import io
import json
import os
import re
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, SCRIPTS)
sys.dont_write_bytecode = True  # no scripts/__pycache__ left in the working tree
import check_xlsx  # noqa: E402  (beside this file; its `check` is the workbook check CI uses)

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# A proximity batch in Beiwe's format (rows out of order: the export sorts them).
PROXIMITY_CSV = "timestamp,event\n1764064800500,NotNearUser\n1764064800000,NearUser\n"

# The CSV header of the answers export (Sources/MomentaryServer/Exports/AnswerTable.swift).
ANSWER_HEADER = check_xlsx.ANSWER_HEADER

# The survey saved in step c and answered in step e. It has one question of each common kind, an
# info text box (recorded NOT_PRESENTED) and an optional question left unanswered
# (NO_ANSWER_SELECTED), so the export shows every answer status.
SURVEY = {
    "survey_type": "tracking_survey",
    "settings": {},
    "content": [
        {"question_id": "intro", "question_type": "info_text_box",
         "question_text": "A few quick questions about this moment."},
        {"question_id": "happy", "question_type": "slider", "question_text": "How happy do you feel?",
         "min": 0, "max": 100, "step": 1, "min_label": "Not at all", "max_label": "Extremely", "required": True},
        {"question_id": "where", "question_type": "radio_button", "question_text": "Where are you?",
         "answers": [{"text": "At home", "value": "home"}, {"text": "At work", "value": "work"},
                     {"text": "Elsewhere", "value": "elsewhere"}]},
        {"question_id": "with_whom", "question_type": "checkbox", "question_text": "Who are you with?",
         "answers": [{"text": "Nobody", "value": "alone"}, {"text": "Friends", "value": "friends"},
                     {"text": "Family", "value": "family"}]},
        {"question_id": "outdoors", "question_type": "yes_no", "question_text": "Are you outdoors?"},
        {"question_id": "note", "question_type": "free_response", "question_text": "Anything else?",
         "text_field_type": "SINGLE_LINE_TEXT"},
        {"question_id": "coffees", "question_type": "number", "question_text": "How many coffees so far today?",
         "min": 0, "max": 20, "step": 1},
    ],
}

# What the participant answers (question id → answer sent), and how the answers CSV must show each
# question: (answer cell, answer_status). The note has a comma and quotes, so CSV quoting matters;
# the checkbox answer is sent out of option order and comes back in option order.
ANSWERS = {
    "happy": 72,
    "where": "work",
    "with_whom": ["friends", "alone"],
    "outdoors": False,
    "note": 'Walking, "testing" the export',
    "coffees": None,
}
EXPECTED_CELLS = {
    "intro": ("", "NOT_PRESENTED"),
    "happy": ("72", "answered"),
    "where": ("work", "answered"),
    "with_whom": ("alone;friends", "answered"),
    "outdoors": ("false", "answered"),
    "note": ('Walking, "testing" the export', "answered"),
    "coffees": ("", "NO_ANSWER_SELECTED"),
}

# How the response page shows each answer: choices by their labels (with the stored value),
# yes/no in words, texts as written, and why an answer is missing.
PAGE_ANSWERS = {
    "intro": "not shown",
    "happy": "72",
    "where": "At work (work)",
    "with_whom": "Nobody (alone); Friends (friends)",
    "outdoors": "No",
    "note": 'Walking, "testing" the export',
    "coffees": "skipped",
}

# Two documents the editor must refuse: one that is not JSON at all, and one that parses but
# reuses a question id (the editor lists the problem naming the question).
NOT_JSON = '{"content": [ this is not JSON'
DUPLICATE_ID = {
    "content": [
        {"question_id": "mood", "question_type": "yes_no", "question_text": "Good mood?"},
        {"question_id": "mood", "question_type": "yes_no", "question_text": "Still a good mood?"},
    ]
}

INVITEE_COUNT = 3

# The survey added through the new-survey form in step b2, and the problem the form must show when
# a second survey with the same name is added (Website/Surveys/SurveyEditorRoutes.swift).
SURVEY_NAME = "Right now"
DUPLICATE_NAME_PROBLEM = "This study already has a survey called “%s”." % SURVEY_NAME

# The survey the builder step makes: one question of every type through the forms (fields by the
# form's input names), one of them shown only when the radio button's "work" is chosen.
BUILT_SURVEY_NAME = "Built with forms"
BUILT_QUESTIONS = [
    ("info_text_box", {}),
    ("slider", {"min": "0", "max": "10", "min_label": "Not at all", "max_label": "Very"}),
    ("radio_button", {"options": "At home = home\nAt work = work"}),
    ("yes_no", {"condition_question": "built_3", "condition_operator": "==", "condition_value": "work"}),
    ("checkbox", {"options": "Eating\nWorking"}),
    ("people", {"options": "Partner\nFriends"}),
    ("free_response", {"text_field_type": "MULTI_LINE_TEXT"}),
    ("number", {"min": "0", "max": "100"}),
    ("tokens", {"suggestions": "alone\nfriends"}),
    ("date", {}), ("time", {}), ("date_time", {}),
    ("location", {}), ("photo", {}), ("sound_level", {}),
    ("audio_recording", {"max_duration_seconds": "30"}),
]


class StepFailed(Exception):
    """A step's expectation did not hold; the message says what was expected and what was found."""


def fail(message):
    raise StepFailed(message)


def expect(condition, message):
    if not condition:
        fail(message)


class Walk:
    def __init__(self, arguments):
        self.base_url = arguments.base_url.rstrip("/")
        self.email = arguments.email
        self.password = arguments.password
        self.downloads = os.path.abspath(arguments.downloads)
        self.timeout = arguments.timeout
        self.current_step = "start the browser"
        self.driver = None
        # Filled in as the walk goes on.
        self.new_slug = "walk-" + time.strftime("%Y%m%d-%H%M%S")
        self.slug = None  # the study made in step b, once it exists
        self.survey_name = None
        self.survey_editor = None  # path of the survey's editor, /studies/SLUG/surveys/ID
        self.survey_version = None
        self.codes = []
        self.participant_code = None
        self.response_id = None

    # ---- browser plumbing ----------------------------------------------------------------

    def start_browser(self):
        os.makedirs(self.downloads, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--no-first-run", "--disable-extensions"):
            options.add_argument(flag)
        options.add_experimental_option("prefs", {
            "download.default_directory": self.downloads,
            "download.prompt_for_download": False,
            "download.directory_upgrade": True,
            "safebrowsing.enabled": False,
        })
        # The performance log carries the Network events, so the walk can see HTTP statuses
        # (a redirect, a 422) that the page itself does not show.
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        # Naming both binaries keeps Selenium Manager from looking for (and downloading) others.
        self.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(self.timeout)
        # Headless Chromium ignores the download preference in some versions; this makes sure
        # attachments land in the downloads folder without asking.
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {
            "behavior": "allow", "downloadPath": self.downloads, "eventsEnabled": False})

    def wait(self, timeout=None):
        return WebDriverWait(self.driver, timeout or self.timeout, poll_frequency=0.1)

    def url(self, path):
        return self.base_url + path

    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    def open(self, path, heading):
        self.driver.get(self.url(path))
        self.expect_page(heading)

    def error_page(self):
        """The status line of the site's error page (error.leaf) when the browser shows one."""
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
            fail("expected a page headed “%s” at %s, found “%s”" % (heading, self.driver.current_url, self.heading()))
        problem = self.error_page()
        if problem:
            fail("%s answered with an error page: %s" % (self.driver.current_url, problem))

    def heading(self):
        headings = self.driver.find_elements(By.TAG_NAME, "h1")
        return headings[0].text if headings else "(no heading)"

    def editor_version(self):
        """The version the survey editor's heading names ("Name version 3"), or None."""
        match = re.search(r"version (\d+)$", self.heading().strip())
        return int(match.group(1)) if match else None

    def texts(self, selector):
        return [element.text for element in self.driver.find_elements(By.CSS_SELECTOR, selector)]

    def editor_questions(self):
        """How many questions the survey editor's table lists (one Edit link each)."""
        return len(self.driver.find_elements(By.CSS_SELECTOR, "a[aria-label^='Edit question']"))

    def expect_app_preview(self, first_text):
        """The editor's preview frame draws the survey with the participant app's own screen,
        starting at `first_text`."""
        frames = self.driver.find_elements(By.CSS_SELECTOR, "iframe.app-preview")
        expect(frames, "the survey editor has no preview frame")
        self.driver.switch_to.frame(frames[0])
        try:
            try:
                self.wait().until(lambda driver: first_text in driver.find_element(By.ID, "preview").text
                                  and driver.find_elements(By.ID, "survey-progress"))
            except TimeoutException:
                shown = self.driver.find_elements(By.ID, "preview")
                fail("the preview frame shows “%.200s”, not the app's survey screen starting at “%s”"
                     % (shown[0].text if shown else "(nothing)", first_text))
        finally:
            self.driver.switch_to.default_content()

    def field(self, selector):
        elements = self.driver.find_elements(By.CSS_SELECTOR, selector)
        expect(elements, "%s has no %s" % (self.driver.current_url, selector))
        return elements[0]

    def fill(self, selector, text):
        element = self.field(selector)
        element.clear()
        element.send_keys(text)

    def set_value(self, selector, text):
        # Long texts (survey JSON) are put in place at once: typing them key by key is slow, and
        # textarea typing would be no more realistic for a pasted document.
        self.driver.execute_script("arguments[0].value = arguments[1];", self.field(selector), text)

    def click_to_leave(self, element, what):
        """Clicks `element` and waits until the browser has left the page it was on.

        The page is marked with a script variable before the click; a new document does not have
        it. (Waiting for the old <html> element to go stale raced with Chromium: a lookup of the
        old element while the new document came in sometimes failed with "Node with given id does
        not belong to the document" instead of reporting it stale.)
        """
        token = uuid.uuid4().hex
        self.driver.execute_script("window.__browserWalkPage = arguments[0];", token)
        element.click()

        def left(driver):
            try:
                return driver.execute_script("return window.__browserWalkPage || null;") != token
            except WebDriverException:  # the old document is going away: not yet
                return False

        try:
            self.wait().until(left)
        except TimeoutException:
            fail("%s on %s did not load a page within %ss" % (what, self.driver.current_url, self.timeout))

    def submit(self, form_selector):
        """Clicks the form's submit button and waits until the browser has left the old page."""
        form = self.field(form_selector)
        self.click_to_leave(form.find_element(By.CSS_SELECTOR, "button[type=submit]"), "submitting " + form_selector)

    def follow(self, link_text, heading):
        """Clicks the first link whose text is `link_text` (a researcher's click), and waits for the page."""
        links = self.driver.find_elements(By.LINK_TEXT, link_text)
        expect(links, "%s has no link “%s”" % (self.driver.current_url, link_text))
        self.click_to_leave(links[0], "following the link “%s”" % link_text)
        self.expect_page(heading)

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

    def table_column(self, heading):
        """The index of the column whose header reads `heading` in the page's first table."""
        headings = [cell.text.strip() for cell in self.driver.find_elements(By.CSS_SELECTOR, "table tr th")]
        expect(heading in headings, "the table has no “%s” column (%s)" % (heading, ", ".join(headings)))
        return headings.index(heading)

    def problems_shown(self):
        return " ".join(self.texts(".problems"))

    def table_rows(self):
        """The body rows of the page's first table, as lists of cell texts (header row left out)."""
        rows = []
        for row in self.driver.find_elements(By.CSS_SELECTOR, "table tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            if cells:
                rows.append([cell.text.strip() for cell in cells])
        return rows

    def save_evidence(self):
        """Screenshot and page source of where the walk failed, for the CI log's reader."""
        if not self.driver:
            return []
        saved = []
        with contextlib.suppress(Exception):
            os.makedirs(self.downloads, exist_ok=True)
            screenshot = os.path.join(self.downloads, "failure.png")
            self.driver.save_screenshot(screenshot)
            saved.append(screenshot)
            source = os.path.join(self.downloads, "failure.html")
            with open(source, "w", encoding="utf-8") as file:
                file.write(self.driver.page_source)
            saved.append(source)
        return saved

    def quit(self):
        if self.driver:
            with contextlib.suppress(Exception):
                self.driver.quit()

    # ---- the participant API, outside the browser ------------------------------------------

    def send(self, method, path, data=None, headers=(), credentials=None):
        """(status, text) of one request to the server, with HTTP Basic credentials if given."""
        request = urllib.request.Request(self.url(path), data=data, method=method)
        for name, value in headers:
            request.add_header(name, value)
        if credentials:
            token = base64.b64encode(("%s:%s" % credentials).encode("utf-8")).decode("ascii")
            request.add_header("Authorization", "Basic " + token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
        except urllib.error.URLError as error:
            fail("%s %s could not reach the server: %s" % (method, path, error.reason))

    def api(self, method, path, body=None, credentials=None, expect_status=(200,)):
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = [("Accept", "application/json")] + ([("Content-Type", "application/json")] if data is not None else [])
        status, text = self.send(method, path, data, headers, credentials)
        expect(status in expect_status, "%s %s answered %d (expected %s): %s" % (
            method, path, status, "/".join(map(str, expect_status)), text[:500]))
        return json.loads(text) if text else None

    # ---- the steps -----------------------------------------------------------------------

    def sign_in(self):
        self.open("/signin", "Sign in")
        self.fill("#email", self.email)
        self.fill("#password", self.password)
        self.submit("form[action='/signin']")
        if self.path() == "/signin":
            fail("the sign-in form came back: %s" % (self.problems_shown() or self.heading()))
        self.expect_page("Studies")
        expect(self.path() == "/studies", "signing in led to %s, not /studies" % self.driver.current_url)
        buttons = [button.text for button in self.driver.find_elements(By.CSS_SELECTOR, "header form button")]
        expect("Sign out" in buttons, "the page header offers no Sign out button after signing in")

    def create_study(self):
        # From the studies list, as a researcher would reach the form.
        self.follow("New study", "New study")
        expect(self.path() == "/studies/new", "“New study” led to %s" % self.driver.current_url)
        self.fill("#slug", self.new_slug)
        self.fill("#name", "Browser walk study")
        checkbox = self.field("input[name=invitationOnly]")
        if not checkbox.is_selected():
            checkbox.click()
        # Every other field keeps the defaults the form shows; they must be a valid study.
        self.submit("form[action='/studies']")
        problems = self.problems_shown()
        expect(not problems, "the new-study form was refused: %s" % problems)
        self.expect_page("Settings")
        settings = "/studies/%s/settings" % self.new_slug
        expect(self.path() == settings, "creating the study led to %s, not %s" % (self.driver.current_url, settings))
        expect(self.field("input[name=invitationOnly]").is_selected(),
               "the new study's settings do not show it as invitation-only")
        # The study is listed on the studies page.
        self.open("/studies", "Studies")
        slugs = [row[1] for row in self.table_rows() if len(row) > 1]
        expect(self.new_slug in slugs, "the studies list does not show %s (it shows %s)" % (self.new_slug, slugs))

    def survey_rows(self, slug):
        """(name, kind, version, editor link) of each survey on the study's survey list."""
        self.open("/studies/%s/surveys" % slug, "Surveys")
        return self.listed_surveys()

    def listed_surveys(self):
        """The survey table of the surveys page the browser is on."""
        rows = []
        for row in self.driver.find_elements(By.CSS_SELECTOR, "table tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            if len(cells) < 3:
                continue
            link = cells[0].find_element(By.CSS_SELECTOR, "a")
            rows.append((link.text.strip(), cells[1].text.strip(), int(cells[2].text.strip()), link.get_attribute("href")))
        return rows

    def submit_new_survey(self, name, kind):
        """Fills in and submits the surveys page's new-survey form; returns the page exchanges it caused."""
        form = self.field("form#new-survey")
        expect((form.get_attribute("method") or "").lower() == "post", "the new-survey form does not POST")
        expect(self.path_of(form.get_attribute("action")) == "/studies/%s/surveys" % self.slug,
               "the new-survey form posts to %s" % form.get_attribute("action"))
        expect(self.field("form#new-survey input[type=hidden][name=_csrf]").get_attribute("value"),
               "the new-survey form has no CSRF token")
        kinds = Select(self.field("form#new-survey select[name=kind]"))
        offered = sorted(option.get_attribute("value") for option in kinds.options)
        expect(offered == ["esm", "registration"], "the new-survey form offers the kinds %s" % offered)
        self.fill("form#new-survey input[name=name]", name)
        kinds.select_by_value(kind)
        self.forget_exchanges()
        self.submit("form#new-survey")
        return self.document_exchanges()

    def path_of(self, url):
        return urllib.parse.urlsplit(urllib.parse.urljoin(self.driver.current_url, url)).path

    def add_survey(self):
        self.slug = self.new_slug
        # From the study page's navigation, as a researcher would.
        self.open("/studies/%s" % self.slug, "")
        self.follow("Surveys", "Surveys")
        listing = "/studies/%s/surveys" % self.slug
        expect(self.path() == listing, "the Surveys link led to %s, not %s" % (self.driver.current_url, listing))
        rows = self.listed_surveys()
        expect(rows == [], "the new study %s already lists surveys: %s" % (self.slug, rows))

        # Adding an experience-sampling survey redirects to its editor, at version 1 of the example.
        exchanges = self.submit_new_survey(SURVEY_NAME, "esm")
        self.expect_page(SURVEY_NAME)
        editor = re.fullmatch(r"/studies/%s/surveys/([0-9A-Fa-f-]{36})" % re.escape(self.slug), self.path())
        expect(editor, "adding the survey led to %s, not to its editor /studies/%s/surveys/ID"
               % (self.driver.current_url, self.slug))
        self.survey_editor = editor.group(0)
        posts = [exchange for exchange in exchanges if exchange[0] == "POST"]
        expect(len(posts) == 1 and posts[0][2] in (302, 303) and posts[0][3]
               and self.path_of(posts[0][3]) == self.survey_editor,
               "adding the survey was answered %s, expected one redirect (302/303) to %s"
               % (posts or exchanges, self.survey_editor))
        expect(exchanges[-1][2] == 200, "the survey editor answered %d after the redirect" % exchanges[-1][2])
        expect(self.editor_version() == 1, "the new survey's editor heading “%s” does not say version 1" % self.heading())
        problems = self.problems_shown()
        expect(not problems, "the new survey's editor shows problems: %s" % problems)
        starter = self.field("#document").get_attribute("value")
        try:
            starter_questions = json.loads(starter)["content"]
        except (ValueError, KeyError, TypeError) as error:
            fail("the new survey does not start from a survey document (%s): %.200s" % (error, starter))
        listed = self.editor_questions()
        expect(starter_questions and listed == len(starter_questions),
               "the new survey starts with %d questions and the editor lists %d" % (len(starter_questions), listed))
        self.expect_app_preview(starter_questions[0]["question_text"])
        self.survey_name = SURVEY_NAME

        rows = self.survey_rows(self.slug)
        expect([row[:3] for row in rows] == [(SURVEY_NAME, "esm", 1)],
               "after adding the survey the list shows %s, expected only (%s, esm, 1)" % ([row[:3] for row in rows], SURVEY_NAME))
        expect(self.path_of(rows[0][3]) == self.survey_editor,
               "the listed survey links to %s, not %s" % (rows[0][3], self.survey_editor))

        # A second survey with the same name is refused: 422, the problem shown, the name kept.
        exchanges = self.submit_new_survey(SURVEY_NAME, "esm")
        self.expect_page("Surveys")
        expect(exchanges and exchanges[-1][:3] == ("POST", self.url(listing), 422),
               "adding a second “%s” was answered %s, expected POST %s 422" % (SURVEY_NAME, exchanges, listing))
        problem = " ".join(self.texts("p.problem"))
        expect(problem == DUPLICATE_NAME_PROBLEM,
               "adding a second “%s” shows the problem “%s”, expected “%s”" % (SURVEY_NAME, problem or "(none)", DUPLICATE_NAME_PROBLEM))
        kept = self.field("form#new-survey input[name=name]").get_attribute("value")
        expect(kept == SURVEY_NAME, "the refused form shows the name “%s”, not “%s”" % (kept, SURVEY_NAME))
        rows = self.listed_surveys()
        expect([row[:3] for row in rows] == [(SURVEY_NAME, "esm", 1)],
               "after the refused duplicate the list shows %s" % [row[:3] for row in rows])

    def edit_survey(self):
        # From the study's survey list, as a researcher would.
        rows = self.survey_rows(self.slug)
        mine = [row for row in rows if row[0] == self.survey_name]
        expect(len(mine) == 1 and mine[0][1] == "esm",
               "the study %s does not list one esm survey “%s”: %s" % (self.slug, self.survey_name, rows))
        _, _, version, link = mine[0]
        expect(self.path_of(link) == self.survey_editor, "the survey list links %s, not %s" % (link, self.survey_editor))
        self.driver.get(link)
        self.expect_page(self.survey_name)
        expect(self.editor_version() == version,
               "the editor heading “%s” does not say version %d" % (self.heading(), version))
        editor = self.path()
        form = "form[action='%s']" % editor

        # Invalid documents: answered 422; the page shows the problem, keeps the text, saves nothing.
        for document, expected_problem in (
            (NOT_JSON, "not valid JSON"),
            (json.dumps(DUPLICATE_ID, indent=2), "already used by question 1"),
        ):
            self.set_value("#document", document)
            self.forget_exchanges()
            self.submit(form)
            self.expect_page(self.survey_name)
            exchanges = self.document_exchanges()
            expect(exchanges and exchanges[-1][:3] == ("POST", self.url(editor), 422),
                   "an invalid survey was answered %s, expected POST %s 422" % (exchanges, editor))
            problems = self.problems_shown()
            expect(expected_problem in problems,
                   "after an invalid survey the page shows problems “%s”, expected one containing “%s”"
                   % (problems or "(none)", expected_problem))
            expect(self.editor_version() == version,
                   "after an invalid survey the heading says “%s”, not version %d" % (self.heading(), version))
            shown = self.field("#document").get_attribute("value")
            expect(shown == document, "the editor did not keep the refused text for correcting")
        after_invalid = {name: v for name, _, v, _ in self.survey_rows(self.slug)}
        expect(after_invalid.get(self.survey_name) == version,
               "invalid surveys changed the version on the survey list to %s (was %d)"
               % (after_invalid.get(self.survey_name), version))

        # A valid document is saved as the next version and previewed.
        self.driver.get(link)
        self.expect_page(self.survey_name)
        # Indented, as a researcher pastes it: a few KB, like any real survey.
        document = json.dumps(SURVEY, indent=2)
        self.set_value("#document", document)
        self.forget_exchanges()
        self.submit(form)
        try:
            self.expect_page(self.survey_name)
        except StepFailed as error:
            fail("saving the valid survey (%d characters of JSON): %s" % (len(document), error))
        exchanges = self.document_exchanges()
        posts = [exchange for exchange in exchanges if exchange[0] == "POST"]
        expect(len(posts) == 1 and posts[0][2] in (302, 303) and self.path_of(posts[0][3] or "") == editor,
               "saving the valid survey was answered %s, expected one redirect (302/303) to %s?saved=1"
               % (posts or exchanges, editor))
        problems = self.problems_shown()
        expect(not problems, "the valid survey was refused: %s" % problems)
        self.survey_version = version + 1
        expect(self.editor_version() == self.survey_version,
               "after saving, the heading says “%s”, not version %d" % (self.heading(), self.survey_version))
        notices = " ".join(self.texts(".notice"))
        expect("Saved as version %d" % self.survey_version in notices,
               "after saving, the page says “%s”, not “Saved as version %d”" % (notices or "(nothing)", self.survey_version))
        listed = self.editor_questions()
        expect(listed == len(SURVEY["content"]), "the editor lists %d questions, the survey has %d" % (listed, len(SURVEY["content"])))
        self.expect_app_preview(SURVEY["content"][0]["question_text"])
        listed = {name: v for name, _, v, _ in self.survey_rows(self.slug)}
        expect(listed.get(self.survey_name) == self.survey_version,
               "the survey list shows version %s after saving, not %d" % (listed.get(self.survey_name), self.survey_version))

    def create_invitees(self):
        self.open("/studies/%s" % self.slug, "")
        self.follow("Invitees", "Invitees")
        before = {row[0] for row in self.table_rows()}
        self.fill("#count", str(INVITEE_COUNT))
        self.submit("form[action='/studies/%s/invitees']" % self.slug)
        self.expect_page("Invitees")
        shown = " ".join(self.texts(".notice .codes")).split()
        expect(len(shown) == INVITEE_COUNT,
               "the page shows %d new codes (%s), expected %d" % (len(shown), " ".join(shown), INVITEE_COUNT))
        status, link = self.table_column("Status"), self.table_column("Join link")
        rows = {row[0]: row for row in self.table_rows() if len(row) > status}
        for code in shown:
            expect(code not in before, "the “new” code %s was already listed before" % code)
            row = rows.get(code, [])
            expect(row and row[status] == "Invited",
                   "the new code %s is listed as %s, not Invited" % (code, row[status] if row else "missing"))
            expect(row and row[link].startswith(self.url("/join/%s?code=%s" % (self.slug, code))),
                   "the new code %s has no join link, but %s" % (code, row[link] if row else "nothing"))
        self.codes = shown

    def respond_through_api(self):
        info = self.api("GET", "/api/v1/studies/%s" % self.slug)
        expect(info.get("invitation_only") is True, "the API says %s is not invitation-only" % self.slug)
        # Not UTC, so that the exports' local times differ from their UTC times.
        self.time_zone = "Europe/Berlin"
        registration = {
            "study": self.slug,
            "consent": True,
            "timezone": self.time_zone,
            "settings": info["default_settings"],
            "push": {"channel": "none"},
            "device": {"model": "browser-walk", "os": "Linux", "app_version": "browser-walk"},
        }
        # The study has only the experience-sampling survey added in step b2, so the API offers no
        # registration survey and registration needs no registration answers.
        expect(info.get("registration_survey") is None,
               "the API offers a registration survey for %s, which has none: %.200s"
               % (self.slug, json.dumps(info.get("registration_survey"))))

        # Without a code an invitation-only study refuses; with one of the new codes it registers.
        refused = self.api("POST", "/api/v1/participants", registration, expect_status=(403,))
        expect(refused["error"]["code"] == "invitation_required",
               "registering without a code was refused with %s, not invitation_required" % refused["error"])
        self.participant_code = self.codes[0]
        # A participant who joined with an invitation code is labelled by it everywhere.
        self.participant_label = self.participant_code
        registration["invitation_code"] = self.participant_code
        registered = self.api("POST", "/api/v1/participants", registration, expect_status=(201,))
        credentials = (registered["participant_id"], registered["secret"])

        delivery = self.api("GET", "/api/v1/survey", credentials=credentials)
        expect(delivery["version"] == self.survey_version,
               "the API delivers survey version %s, the editor saved %d" % (delivery["version"], self.survey_version))
        delivered = [question["question_id"] for question in delivery["document"]["content"]]
        expected = [question["question_id"] for question in SURVEY["content"]]
        expect(delivered == expected, "the API delivers questions %s, the editor saved %s" % (delivered, expected))

        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        submission = {
            "idempotency_key": "browser-walk-" + str(uuid.uuid4()),
            "survey_id": delivery["survey_id"],
            "survey_version": delivery["version"],
            "started_at": iso(now - datetime.timedelta(seconds=90)),
            "submitted_at": iso(now - datetime.timedelta(seconds=30)),
            "answers": [{"question_id": key, "answer": value} for key, value in ANSWERS.items()],
            "context": {"battery": 0.8, "connection": "wifi", "steps": 1234, "impetus": "button"},
        }
        receipt = self.api("POST", "/api/v1/responses", submission, credentials=credentials, expect_status=(201,))
        self.response_id = receipt["response_id"].lower()

        # A passive stream batch, sent twice as a phone retrying would: stored once.
        for _ in range(2):
            self.upload_stream("proximity", PROXIMITY_CSV, "browser-walk-proximity-1", credentials)

    def upload_stream(self, stream, csv_text, key, credentials):
        status, text = self.send("POST", "/api/v1/uploads/" + stream, csv_text.encode("utf-8"),
                                 [("Content-Type", "text/csv"), ("Idempotency-Key", key)], credentials)
        expect(status in (200, 201), "POST /api/v1/uploads/%s answered %d: %s" % (stream, status, text[:300]))

    def see_response(self):
        self.open("/studies/%s" % self.slug, "")
        self.follow("Responses", "Responses")
        link = None
        for candidate in self.driver.find_elements(By.CSS_SELECTOR, "table a"):
            if candidate.get_attribute("href").lower().endswith("/responses/" + self.response_id):
                link = candidate
        expect(link is not None, "the responses page has no link to response %s" % self.response_id)
        row = link.find_element(By.XPATH, "./ancestor::tr").find_elements(By.TAG_NAME, "td")
        cells = [cell.text.strip() for cell in row]
        expect(cells[1] == self.participant_code,
               "the response is listed for participant “%s”, not %s" % (cells[1], self.participant_code))
        expect(cells[2] == self.survey_name, "the response is listed for survey “%s”, not %s" % (cells[2], self.survey_name))

        self.click_to_leave(link, "opening response %s" % self.response_id)
        self.expect_page("Response")
        summary = " ".join(self.texts("main p"))
        expect("Participant %s" % self.participant_code in summary, "the response page says “%s”" % summary[:200])
        expect("%s v%d" % (self.survey_name, self.survey_version) in summary,
               "the response page does not name %s v%d: “%s”" % (self.survey_name, self.survey_version, summary[:200]))
        expect(self.time_zone in summary, "the response page gives no time in %s: “%s”" % (self.time_zone, summary[:300]))
        # Rows are: question text with its id, the answer as read, the type.
        shown = {}
        for row in self.table_rows():
            for question in SURVEY["content"]:
                if len(row) == 3 and row[0] == "%s %s" % (question["question_text"], question["question_id"]):
                    shown[question["question_id"]] = row[1]
        for question_id, expected in PAGE_ANSWERS.items():
            expect(question_id in shown, "the response page lists no answer to %s (rows: %s)" % (question_id, self.table_rows()))
            expect(shown[question_id] == expected, "the page shows %s = %r, expected %r" % (question_id, shown[question_id], expected))
        context = {row[0]: row[1] for row in self.context_rows()}
        expect(context.get("Connection") == "wifi" and context.get("Steps") == "1234",
               "the response page's context is %s, expected Connection wifi and Steps 1234" % context)

    def context_rows(self):
        rows = []
        for row in self.driver.find_elements(By.CSS_SELECTOR, "table tr"):
            header, cells = row.find_elements(By.TAG_NAME, "th"), row.find_elements(By.TAG_NAME, "td")
            if len(header) == 1 and len(cells) == 1:
                rows.append((header[0].text.strip(), cells[0].text.strip()))
        return rows

    # Export format (the form's radio value) → quick-link id and downloaded file name.
    EXPORTS = {
        "long": ("export-csv", "%s-answers.csv"),
        # One wide link per survey; `mark_wide_link` gives the walk's survey's this id.
        "wide": ("export-wide", "%s-responses-wide-" + "-".join(re.findall(r"[a-z0-9]+", SURVEY_NAME.lower())) + ".csv"),
        "beeps": ("export-beeps", "%s-beeps.csv"),
        "codebook": ("export-codebook", "%s-codebook.csv"),
        "context": ("export-context-csv", "%s-context.csv"),
        "xlsx": ("export-xlsx", "%s-responses.xlsx"),
        "json": ("export-json", "%s-responses.json"),
        "kmz": ("export-kmz", "%s-responses.kmz"),
        "ics": ("export-ics", "%s-responses.ics"),
        "archive": ("export-archive", "%s-study.zip"),
    }

    def mark_wide_link(self):
        """The wide table is one survey's: gives the walk's survey's wide link the id `export-wide`."""
        links = self.driver.find_elements(By.CSS_SELECTOR, "a.export-wide")
        mine = [link for link in links if self.survey_name in link.text]
        expect(len(mine) == 1, "the export page has no wide CSV link for the survey “%s” (%s)"
               % (self.survey_name, [link.text for link in links]))
        self.driver.execute_script("arguments[0].id = 'export-wide'", mine[0])

    def export(self):
        # The responses page links to the export page.
        self.open("/studies/%s/responses" % self.slug, "Responses")
        self.follow("Export these responses", "Export data")
        expect(self.path() == "/studies/%s/export" % self.slug, "the export link led to %s" % self.driver.current_url)
        formats = [radio.get_attribute("value") for radio in
                   self.driver.find_elements(By.CSS_SELECTOR, "#export-form input[type=radio][name=format]")]
        expect(sorted(formats) == sorted(self.EXPORTS), "the export form offers the formats %s" % formats)
        download = "/studies/%s/export/download?format=" % self.slug
        paths = {}
        self.mark_wide_link()
        for format_name, (link, file_name) in self.EXPORTS.items():
            query = "wide&survey=" + urllib.parse.quote(self.survey_name) if format_name == "wide" else format_name
            href = self.field("#" + link).get_attribute("href")
            expect(href == self.url(download + query), "the quick link #%s points to %s" % (link, href))
            # A file left from an earlier walk would make Chromium save "name (1).csv" and the
            # wait below find the stale one.
            paths[format_name] = os.path.join(self.downloads, file_name % self.slug)
            with contextlib.suppress(FileNotFoundError):
                os.remove(paths[format_name])

        # The workbook through the form: choose the format, press Download.
        self.field("#export-form input[name=format][value=xlsx]").click()
        self.field("#export-form button[type=submit]").click()
        self.wait_for_download(paths["xlsx"])
        # One response (no registration survey, so no registration response) of the survey's questions.
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # its "ok" line; this step prints its own
                problems = check_xlsx.check(paths["xlsx"], {"Responses": len(SURVEY["content"]), "Context": 1})
        except Exception as error:  # an unreadable workbook is a failed check, as in check_xlsx's main
            problems = ["cannot read %s: %s" % (paths["xlsx"], error)]
        expect(not problems, "the workbook fails check_xlsx: %s" % "; ".join(problems))

        # Everything else through the quick links.
        for format_name, (link, _) in self.EXPORTS.items():
            if format_name != "xlsx":
                self.field("#" + link).click()
                self.wait_for_download(paths[format_name])
        for format_name in ("long", "wide", "beeps", "context"):
            if format_name in paths:
                self.check_time_columns(paths[format_name])
        self.check_csv(paths["long"])
        self.check_wide(paths["wide"])
        self.check_beeps(paths["beeps"])
        self.check_codebook(paths["codebook"])
        with open(paths["json"], encoding="utf-8") as file:
            responses = json.load(file)
        expect([item["response_id"] for item in responses] == [self.response_id],
               "the JSON export holds %s" % [item.get("response_id") for item in responses])
        expect(responses[0]["timezone"] == self.time_zone, "the JSON export's timezone is %s" % responses[0]["timezone"])
        self.check_map_and_calendar(paths["kmz"], paths["ics"], located=bool(responses[0]["context"] and responses[0]["context"]["latitude"] is not None))
        with zipfile.ZipFile(paths["archive"]) as archive:
            names = set(archive.namelist())
        wanted = {name % self.slug for format_name, (_, name) in self.EXPORTS.items() if format_name != "archive"}
        expect(wanted | {"README.txt"} <= names, "the study archive lacks %s" % sorted(wanted | {"README.txt"} - names))
        self.export_streams()

    def export_streams(self):
        """The stream form: the participant's proximity stream as one CSV, then with reachability as a ZIP."""
        single = os.path.join(self.downloads, "%s-%s-proximity.csv" % (self.slug, self.participant_label))
        archive_path = os.path.join(self.downloads, "%s-streams.zip" % self.slug)
        for path in (single, archive_path):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
        participants = Select(self.field("#streams-form select[name='participant[]']"))
        choice = next((option for option in participants.options if option.text.startswith(self.participant_label)), None)
        expect(choice is not None, "the stream form does not offer participant %s" % self.participant_label)
        participants.select_by_value(choice.get_attribute("value"))
        self.field("#streams-form input[name='stream[]'][value=proximity]").click()
        self.field("#streams-form button[type=submit]").click()
        self.wait_for_download(single)
        with open(single, encoding="utf-8", newline="") as file:
            rows = list(csv.reader(file))
        expected = list(csv.reader(io.StringIO(PROXIMITY_CSV)))
        expect(rows == [expected[0]] + sorted(expected[1:]), "the proximity CSV holds %s" % rows)

        self.field("#streams-form input[name='stream[]'][value=reachability]").click()
        self.field("#streams-form button[type=submit]").click()
        self.wait_for_download(archive_path)
        with zipfile.ZipFile(archive_path) as archive:
            entries = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
        label = self.participant_label
        expect(sorted(entries) == ["%s/proximity.csv" % label, "%s/reachability.csv" % label],
               "the streams ZIP holds %s" % sorted(entries))
        expect(entries["%s/proximity.csv" % label] == "\n".join(",".join(row) for row in rows) + "\n",
               "the ZIP's proximity.csv differs from the single download")
        expect(entries["%s/reachability.csv" % label] == "timestamp,event\n",
               "the ZIP's reachability.csv is %r, expected the header alone" % entries["%s/reachability.csv" % label])

    def check_map_and_calendar(self, kmz_path, ics_path, located):
        """The map opens in fastkml and the calendar in icalendar, as Google Earth and calendar apps would."""
        import icalendar
        from fastkml import kml
        with zipfile.ZipFile(kmz_path) as archive:
            document = kml.KML.from_string(archive.read("doc.kml"))
        placemarks = list(document.features[0].features)
        expect(len(placemarks) == (1 if located else 0), "the map has %d placemarks" % len(placemarks))
        if placemarks:
            expect(placemarks[0].name.startswith(self.participant_label), "the placemark is named %r" % placemarks[0].name)
        with open(ics_path, "rb") as file:
            events = icalendar.Calendar.from_ical(file.read()).walk("VEVENT")
        expect(len(events) == 1 and str(events[0]["UID"]).startswith(self.response_id),
               "the calendar holds %s" % [str(event.get("UID")) for event in events])

    def local_text(self, utc_text):
        """The participant's wall-clock time of a UTC instant, as the exports write it (milliseconds always)."""
        instant = datetime.datetime.strptime(utc_text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        return instant.astimezone(zoneinfo.ZoneInfo(self.time_zone)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]

    def check_time_columns(self, path):
        """Every *_utc and *_local column of a CSV export parses in pandas without a format hint."""
        import pandas
        table = pandas.read_csv(path, dtype=str, keep_default_na=False)
        for column in [name for name in table.columns if name.endswith("_utc") or name.endswith("_local")]:
            values = table[column][table[column] != ""]
            try:
                parsed = pandas.to_datetime(values)
            except (ValueError, TypeError) as error:
                raise AssertionError("%s: pandas cannot read %s without a format: %s" % (os.path.basename(path), column, error))
            expect(len(parsed) == len(values), "%s: %s lost values" % (os.path.basename(path), column))

    def check_wide(self, path):
        import pandas  # only this step needs it
        table = pandas.read_csv(path, dtype=str, keep_default_na=False)
        expect(len(table) == 1, "the wide CSV has %d rows, expected one response" % len(table))
        row = table.iloc[0]
        expect(row["response_id"] == self.response_id, "the wide CSV's response is %s" % row["response_id"])
        expect(row["participant_label"] == self.participant_label,
               "the wide CSV's participant_label is %r, expected %r" % (row["participant_label"], self.participant_label))
        expect(row["happy"] == "72" and row["happy_status"] == "answered", "wide happy: %r %r" % (row["happy"], row["happy_status"]))
        options = {value: row["with_whom_" + value] for value in ("alone", "friends", "family")}
        expect(options == {"alone": "1", "friends": "1", "family": "0"}, "wide with_whom columns: %s" % options)
        expect(row["coffees"] == "" and row["coffees_status"] == "NO_ANSWER_SELECTED", "wide coffees: %r" % row["coffees"])
        expect("intro" not in table.columns, "the wide CSV has a column for the information screen")
        expect(row["submitted_at_local"] == self.local_text(row["submitted_at_utc"]),
               "wide submitted_at_local %s for %s in %s" % (row["submitted_at_local"], row["submitted_at_utc"], self.time_zone))
        parsed = pandas.read_csv(path, parse_dates=["submitted_at_utc", "submitted_at_local"])
        expect(str(parsed["submitted_at_local"].dtype).startswith("datetime64"),
               "pandas reads submitted_at_local as %s, not dates" % parsed["submitted_at_local"].dtype)

    def check_beeps(self, path):
        import pandas
        table = pandas.read_csv(path, dtype=str, keep_default_na=False)
        for column in ("participant_label", "beep_id", "response_id", "timezone", "scheduled_at_utc",
                       "scheduled_at_local", "channel", "status", "delay_seconds"):
            expect(column in table.columns, "the beeps CSV has no %s column (%s)" % (column, list(table.columns)))
        # The study beeps at random; whatever has been planned for the participant is theirs.
        expect(set(table["participant_label"]) <= {self.participant_label},
               "the beeps CSV names participants %s" % set(table["participant_label"]))
        for _, row in table.iterrows():
            expect(row["scheduled_at_local"] == self.local_text(row["scheduled_at_utc"]),
                   "beep scheduled_at_local %s for %s" % (row["scheduled_at_local"], row["scheduled_at_utc"]))

    def check_codebook(self, path):
        import pandas
        table = pandas.read_csv(path, dtype=str, keep_default_na=False)
        current = table[table["survey_version"] == str(self.survey_version)]
        expected = sum(max(1, len(question.get("answers", []))) for question in SURVEY["content"])
        expect(len(current) == expected, "the codebook has %d rows for version %s, expected %d"
               % (len(current), self.survey_version, expected))
        family = current[(current["question_id"] == "with_whom") & (current["option_value"] == "family")]
        expect(len(family) == 1 and family.iloc[0]["option_label"] == "Family", "the codebook's with_whom/family row: %s"
               % family.to_dict("records"))
        happy = current[current["question_id"] == "happy"].iloc[0]
        expect((happy["min"], happy["max"], happy["min_label"]) == ("0", "100", "Not at all"),
               "the codebook's happy scale: %s" % happy.to_dict())

    def wait_for_download(self, path):
        """Waits until Chromium has finished writing `path` (its partial file is gone)."""
        def finished(_):
            if not os.path.exists(path):
                return False
            return not any(name.endswith(".crdownload") for name in os.listdir(self.downloads))

        try:
            self.wait().until(finished)
        except TimeoutException:
            present = sorted(os.listdir(self.downloads))
            fail("no download %s after %ss (the folder holds %s; the browser shows %s)"
                 % (os.path.basename(path), self.timeout, present, self.driver.current_url))
        # A download leaves the export page in place; an error would have replaced it.
        problem = self.error_page()
        expect(problem is None, "downloading %s showed an error page: %s" % (os.path.basename(path), problem))

    def check_csv(self, path):
        with open(path, newline="", encoding="utf-8") as file:
            text = file.read()
        expect(not text.startswith("\ufeff"), "the CSV starts with a byte-order mark")
        rows = list(csv.reader(io.StringIO(text)))
        expect(rows and rows[0] == ANSWER_HEADER, "the CSV header is %s" % (rows[0] if rows else "(empty file)"))
        records = [dict(zip(ANSWER_HEADER, row)) for row in rows[1:]]
        widths = {len(row) for row in rows[1:]}
        expect(widths <= {len(ANSWER_HEADER)}, "CSV rows have %s fields, the header %d" % (sorted(widths), len(ANSWER_HEADER)))
        expect(len(records) == len(SURVEY["content"]),
               "the CSV has %d answer rows, expected %d" % (len(records), len(SURVEY["content"])))
        mine = [record for record in records if record["response_id"].lower() == self.response_id]
        expect(len(mine) == len(SURVEY["content"]),
               "the CSV has %d rows for response %s, the survey %d questions" % (len(mine), self.response_id, len(SURVEY["content"])))
        for position, (question, record) in enumerate(zip(SURVEY["content"], mine), start=1):
            question_id = question["question_id"]
            where = "CSV row for %s" % question_id
            expect(record["question_id"] == question_id, "CSV row %d is for %s, expected %s" % (position, record["question_id"], question_id))
            expect(record["question_position"] == str(position), "%s: question_position %s" % (where, record["question_position"]))
            expect(record["question_type"] == question["question_type"], "%s: question_type %s" % (where, record["question_type"]))
            expect(record["question_text"] == question["question_text"], "%s: question_text %r" % (where, record["question_text"]))
            expect(record["study"] == self.slug, "%s: study %s" % (where, record["study"]))
            expect(record["survey"] == self.survey_name, "%s: survey %s" % (where, record["survey"]))
            expect(record["survey_version"] == str(self.survey_version), "%s: survey_version %s" % (where, record["survey_version"]))
            cell, status = EXPECTED_CELLS[question_id]
            expect((record["answer"], record["answer_status"]) == (cell, status),
                   "%s: answer %r with status %s, expected %r with %s"
                   % (where, record["answer"], record["answer_status"], cell, status))
            for instant in ("started_at", "submitted_at"):
                utc = record[instant + "_utc"]
                expect(utc.endswith("Z"), "%s: %s_utc is %r, not a UTC instant" % (where, instant, utc))
                expect(record[instant + "_local"] == self.local_text(utc),
                       "%s: %s_local is %r for %s in %s" % (where, instant, record[instant + "_local"], utc, self.time_zone))
            expect(record["timezone"] == self.time_zone, "%s: timezone %s" % (where, record["timezone"]))
            expect(record["participant_label"] == self.participant_label, "%s: participant_label %r" % (where, record["participant_label"]))

    def build_survey(self):
        """A second survey built question by question with the builder's forms: every question
        type, one condition naming an option by its value, a move; then taken out of use."""
        self.open("/studies/%s/surveys" % self.slug, "Surveys")
        self.submit_new_survey(BUILT_SURVEY_NAME, "esm")
        self.expect_page(BUILT_SURVEY_NAME)
        editor = self.path()
        starter = len(json.loads(self.field("#document").get_attribute("value"))["content"])
        for number, (question_type, fields) in enumerate(BUILT_QUESTIONS, start=1):
            self.driver.get(self.url(editor))
            self.expect_page(BUILT_SURVEY_NAME)
            Select(self.field("#new-question-type")).select_by_value(question_type)
            self.submit("form[action$='/questions/new']")
            self.expect_page("A new %s question" % question_type)
            self.fill("#question_id", "built_%d" % number)
            self.fill("#text", "Built %s question?" % question_type)
            for name, value in fields.items():
                element = self.field("[name=%s]" % name)
                if element.tag_name == "select":
                    Select(element).select_by_value(value)
                elif element.tag_name == "textarea":
                    self.set_value("[name=%s]" % name, value)
                else:
                    self.fill("[name=%s]" % name, value)
            self.forget_exchanges()
            self.submit("form[action*='/questions']")
            try:
                self.expect_page(BUILT_SURVEY_NAME)
            except StepFailed as error:
                fail("adding the %s question: %s; problems shown: %s" % (question_type, error, self.problems_shown()))
            notices = " ".join(self.texts(".notice"))
            expect("Saved as version %d" % (number + 1) in notices,
                   "after adding the %s question the page says “%s”" % (question_type, notices or "(nothing)"))
        document = json.loads(self.field("#document").get_attribute("value"))
        built = [question for question in document["content"] if question["question_id"].startswith("built_")]
        expect([question["question_type"] for question in built] == [kind for kind, _ in BUILT_QUESTIONS],
               "the built survey holds the types %s" % [question["question_type"] for question in built])
        where = next(question for question in built if question["question_type"] == "radio_button")
        expect(where["answers"] == [{"text": "At home", "value": "home"}, {"text": "At work", "value": "work"}],
               "the radio button's options were stored as %s" % where["answers"])
        follow = next(question for question in built if question.get("display_if"))
        expect(follow["display_if"] == {"==": [where["question_id"], "work"]},
               "the condition was stored as %s" % follow["display_if"])
        slider = next(question for question in built if question["question_type"] == "slider")
        expect((slider["min"], slider["max"], slider.get("max_label")) == (0, 10, "Very"),
               "the slider was stored as %s" % slider)
        listed = self.editor_questions()
        expect(listed == starter + len(BUILT_QUESTIONS), "the editor lists %d questions" % listed)

        # The last question moves up one place.
        last = starter + len(BUILT_QUESTIONS)
        self.click_to_leave(self.field("button[aria-label='Move question %d up']" % last), "moving the last question up")
        self.expect_page(BUILT_SURVEY_NAME)
        order = [question["question_id"] for question in json.loads(self.field("#document").get_attribute("value"))["content"]]
        expected = "built_%d" % len(BUILT_QUESTIONS)
        expect(order[-2] == expected, "after moving it up, the last question %s is at %d" % (expected, order.index(expected) + 1))

        # Taken out of use: the list says so, and the study's first survey is still in use.
        self.open("/studies/%s/surveys" % self.slug, "Surveys")
        self.click_to_leave(self.field("button[aria-label='Deactivate %s']" % BUILT_SURVEY_NAME), "deactivating the built survey")
        self.expect_page("Surveys")
        states = {row.find_elements(By.TAG_NAME, "td")[0].find_element(By.CSS_SELECTOR, "a").text.strip():
                  row.find_elements(By.TAG_NAME, "td")[3].text for row in self.driver.find_elements(By.CSS_SELECTOR, "table tr")
                  if len(row.find_elements(By.TAG_NAME, "td")) >= 4}
        expect(states.get(BUILT_SURVEY_NAME, "").startswith("Deactivated") and states.get(self.survey_name, "").startswith("Active"),
               "after deactivating, the surveys list says %s" % states)
        expect(not self.driver.find_elements(By.CSS_SELECTOR, ".problems"), "the study still has a survey to answer")


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


STEPS = [
    ("sign in", Walk.sign_in),
    ("create an invitation-only study", Walk.create_study),
    ("add a survey (new-survey form; duplicate name refused)", Walk.add_survey),
    ("edit the survey (invalid refused, valid saved)", Walk.edit_survey),
    ("create invitees", Walk.create_invitees),
    ("register a participant and respond through the API", Walk.respond_through_api),
    ("see the response and open it", Walk.see_response),
    ("download every export and open each as a researcher would", Walk.export),
    ("build a survey with the question forms, every type; deactivate it", Walk.build_survey),
]


def main():
    parser = argparse.ArgumentParser(description="Walk the researcher website in headless Chromium.")
    parser.add_argument("--base-url", required=True, help="the server, e.g. http://127.0.0.1:8097")
    parser.add_argument("--email", required=True, help="a researcher who may create and edit studies")
    parser.add_argument("--password", required=True)
    parser.add_argument("--downloads", required=True, help="folder the browser downloads exports into")
    parser.add_argument("--timeout", type=float, default=20, help="seconds to wait for any one page or download")
    arguments = parser.parse_args()

    walk = Walk(arguments)
    try:
        try:
            walk.start_browser()
        except WebDriverException as error:
            fail("cannot start %s through %s: %s" % (CHROMIUM, CHROMEDRIVER, error.msg))
        for name, run in STEPS:
            walk.current_step = name
            started = time.monotonic()
            run(walk)
            print("ok  %-56s %5.1fs" % (name, time.monotonic() - started), flush=True)
    except (StepFailed, WebDriverException) as error:
        if isinstance(error, StepFailed):
            message = str(error)
        else:  # name the walk's line that met it: the browser's message alone rarely says
            frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == __file__]
            where = " (at %s line %d, %s)" % (os.path.basename(__file__), frames[-1].lineno, frames[-1].name) if frames else ""
            message = "browser error%s: %s" % (where, (error.msg or str(error)).strip())
        print("FAILED  %s: %s" % (walk.current_step, message), file=sys.stderr)
        if walk.driver:
            with contextlib.suppress(Exception):
                print("        browser at %s, heading “%s”" % (walk.driver.current_url, walk.heading()), file=sys.stderr)
        for path in walk.save_evidence():
            print("        saved %s" % path, file=sys.stderr)
        return 1
    finally:
        walk.quit()
    print("browser walk passed (study %s, response %s)" % (walk.slug, walk.response_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
