"""A participant using the web app: joining, answering surveys, leaving — through the page only.

Selectors are those of the DOM contract the app keeps for these tests (see Tests/Browser/README.md).
"""
import json
import os
import re
import tempfile
import urllib.parse

from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        StaleElementReferenceException, WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import wait_until

TIMEOUT = 15

# What the demo study's registration survey is answered with (Sources/MomentaryCore/Surveys/SampleSurveys.swift).
DEMO_REGISTRATION = {
    "age_band": ("radio_button", "25-34"),
    "gender": ("radio_button", "not_stated"),
    "country": ("free_response", "United Kingdom"),
    "employment": ("radio_button", "education"),
}


def demo_answers(happy=72, where="work"):
    """Answers to the demo study's experience-sampling survey (in a vehicle: asked when not at home)."""
    answers = {
        "happy": ("slider", happy),
        "relaxed": ("slider", 40),
        "awake": ("slider", 90),
        "with_whom": ("checkbox", ["friends", "alone"]),
        "where": ("radio_button", where),
        "setting": ("radio_button", "indoors"),
        "doing": ("checkbox", ["working"]),
        "anything_else": ("free_response", "Nothing much."),
    }
    if where != "home":
        answers["in_vehicle"] = ("yes_no", False)
    return answers


class App:
    """Drives the participant web app in one browser (harness.Chromium or webkit.WebKit)."""

    def __init__(self, browser, server, screenshot=None):
        self.browser = browser
        self.server = server
        self.screenshot = screenshot or (lambda name: None)

    @property
    def driver(self):
        return self.browser.driver  # changes when the browser restarts

    # ---- looking at the page ------------------------------------------------------------

    def open(self, path):
        # The browser's own address of the server (WebKit reaches it through a relay that can cut it).
        self.driver.get(self.browser.origin + path)

    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    def visible(self, selector, within=None):
        """The displayed elements matching `selector` (stale ones, from a re-render, left out)."""
        found = []
        for element in (within or self.driver).find_elements(By.CSS_SELECTOR, selector):
            try:
                if element.is_displayed():
                    found.append(element)
            except StaleElementReferenceException:
                pass
        return found

    def wait_visible(self, selector, timeout=TIMEOUT, within=None):
        def first():
            try:
                elements = self.visible(selector, within)
            except WebDriverException:  # the document is being replaced
                return None
            return elements[0] if elements else None
        try:
            return wait_until(first, timeout, "%s to be shown" % selector)
        except TimeoutError:
            raise AssertionError("%s is not shown on %s (title “%s”, page text: %.400s)"
                                 % (selector, self.driver.current_url, self.driver.title, self.page_text())) from None

    def wait_hidden(self, selector, timeout=TIMEOUT):
        wait_until(lambda: not self.visible(selector), timeout, "%s to be hidden" % selector)

    def page_text(self):
        try:
            return self.driver.find_element(By.TAG_NAME, "body").text.replace("\n", " | ")
        except WebDriverException:
            return "(unreadable)"

    def text(self, selector):
        # A screen may draw an element anew between finding it and reading it (My data does, on
        # a new link): then read the new one.
        for _ in range(3):
            try:
                return self.wait_visible(selector).text.strip()
            except StaleElementReferenceException:
                continue
        return self.wait_visible(selector).text.strip()

    def click(self, selector_or_element, within=None):
        element = (self.wait_visible(selector_or_element, within=within)
                   if isinstance(selector_or_element, str) else selector_or_element)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        try:
            element.click()
        except (ElementClickInterceptedException, ElementNotInteractableException):
            # A styled choice hides its input under its label: click the label, as a finger would.
            label = self.driver.execute_script(
                "const e = arguments[0]; return (e.labels && e.labels[0]) || e.closest('label');", element)
            if label is None:
                raise
            label.click()

    def type(self, selector_or_element, text, clear=True):
        element = (self.wait_visible(selector_or_element)
                   if isinstance(selector_or_element, str) else selector_or_element)
        if clear:
            element.clear()
        # A line break is the Enter key, as on a keyboard: WebKitWebDriver types a bare "\n" as nothing.
        element.send_keys(text.replace("\n", Keys.ENTER))

    def set_value(self, element, value):
        """Sets an input the way a picker would (date/time pickers and sliders are not typed into)."""
        self.driver.execute_script("""
            const element = arguments[0];
            const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
            setter.call(element, arguments[1]);
            element.dispatchEvent(new Event("input", {bubbles: true}));
            element.dispatchEvent(new Event("change", {bubbles: true}));
        """, element, str(value))

    def select(self, selector, value):
        Select(self.wait_visible(selector)).select_by_value(value)

    # ---- joining ------------------------------------------------------------------------

    def step(self, name):
        return self.wait_visible('section[data-step="%s"]' % name)

    def join(self, slug="demo", registration=None, settings=None, notifications=True, each_step=None):
        """Joins `slug` through the join pages; returns the new participant's id (from the database).

        `registration` answers the registration survey (None: the study has none).
        `settings` may hold beeps_per_day, start, end, timezone (as the selects' values).
        `each_step(name)` is called on every step once it is filled in (screenshots, axe).
        """
        before = self.server.participant_ids()
        self.open("/join/%s" % slug)
        self.consent(each_step=each_step)
        self.register(registration, each_step=each_step)
        self.settings(settings, each_step=each_step)
        self.notifications(notifications, each_step=each_step)
        self.click("#join-submit")
        self.wait_home()
        new = wait_until(lambda: self.server.participant_ids() - before, TIMEOUT, "the new participant in the database")
        assert len(new) == 1, "joining made %d participants" % len(new)
        return new.pop()

    def consent(self, code=None, each_step=None):
        self.step("consent")
        if code is not None:
            self.type("#invitation-code", code)
        self.shot(each_step, "join-consent")
        checkbox = self.wait_visible("#consent-checkbox")
        if not checkbox.is_selected():
            self.click(checkbox)
        self.click("#consent-next")

    def register(self, registration, each_step=None):
        """Answers the registration survey, if the study has one (the step is skipped otherwise)."""
        if registration is None:
            return
        self.step("registration")
        self.shot(each_step, "join-registration")
        self.answer_survey(registration, finish="#registration-next")

    def settings(self, settings, each_step=None):
        self.step("settings")
        for key, selector in (("beeps_per_day", "#beeps-per-day"), ("start", "#start-time"), ("end", "#end-time")):
            if settings and key in settings:
                self.select(selector, str(settings[key]))
        if settings and "timezone" in settings:
            self.type("#timezone", settings["timezone"])
        self.shot(each_step, "join-settings")
        self.click("#settings-next")

    def notifications(self, enable, each_step=None):
        self.step("notifications")
        if enable:
            self.click("#enable-notifications")
            # The words say "on", and neither "off" nor "not" (as in "not on yet").
            def on():
                words = set(re.findall(r"[a-z]+", self.text("#push-status").lower()))
                return "on" in words and not words & {"off", "not"}
            try:
                wait_until(on, TIMEOUT, "#push-status to say notifications are on")
            except TimeoutError:
                raise AssertionError("#push-status says “%s”" % self.text("#push-status")) from None
        self.shot(each_step, "join-notifications")

    def wait_home(self):
        wait_until(lambda: self.path() == "/app", TIMEOUT, "the app to go home after joining")
        return self.wait_visible("#home")

    def shot(self, each_step, name):
        if each_step is not None:
            each_step(name)

    # ---- surveys ----------------------------------------------------------------------------

    def current_question(self, timeout=TIMEOUT):
        """(question id, container) of the question on screen."""
        element = self.wait_visible("[data-question-id]", timeout)
        return element.get_attribute("data-question-id"), element

    def answer_survey(self, answers, finish="#survey-submit", each=None, stop_before=None):
        """Answers question after question (answers: id → (type, value)) and presses the last button.

        Questions not in `answers` are passed over unanswered. Returns the ids shown, in order.
        `each(question_id)` is called on every question once it is answered (screenshots, axe).
        With `stop_before`, stops (without answering) when that question comes up.
        """
        shown = []
        while True:
            question_id, container = self.current_question()
            if question_id == stop_before:
                return shown
            assert question_id not in shown, "question %s came up twice (shown so far: %s)" % (question_id, shown)
            shown.append(question_id)
            if question_id in answers:
                kind, value = answers[question_id]
                self.answer(container, question_id, kind, value)
            if each:
                each(question_id)
            last = self.visible(finish)
            if last:
                self.click(last[0])
                return shown
            self.click("#survey-next")
            self.wait_for_question_after(question_id)

    def wait_for_question_after(self, question_id):
        """Waits until the survey has moved on from `question_id` (next question, or the end)."""
        def moved():
            try:
                for element in self.visible("[data-question-id]"):
                    if element.get_attribute("data-question-id") != question_id:
                        return True
                errors = self.visible('[data-error-for="%s"]' % question_id)
                if errors:
                    raise AssertionError("question %s refused to move on: %s" % (question_id, errors[0].text))
            except StaleElementReferenceException:
                return False
            return False
        wait_until(moved, TIMEOUT, "the survey to move on from %s" % question_id)

    def answer(self, container, question_id, kind, value):
        """Answers one question shown in `container`, as a participant would."""
        name = question_id
        if kind == "slider":
            self.set_value(container.find_element(By.CSS_SELECTOR, "input[type=range]"), value)
        elif kind in ("radio_button", "yes_no"):
            key = ("true" if value else "false") if kind == "yes_no" else value
            self.click('input[type=radio][value="%s"]' % key, within=container)
        elif kind in ("checkbox", "people"):
            for key in value:
                self.click('input[type=checkbox][value="%s"]' % key, within=container)
        elif kind in ("free_response", "number"):
            field = self.visible("input, textarea", within=container)[0]
            self.type(field, str(value))
        elif kind in ("date", "time", "date_time"):
            input_type = {"date": "date", "time": "time", "date_time": "datetime-local"}[kind]
            self.set_value(container.find_element(By.CSS_SELECTOR, "input[type=%s]" % input_type), value)
        elif kind == "tokens":
            for token in value.get("choose", []):
                self.click('input[type=checkbox][value="%s"]' % token, within=container)
            for token in value.get("add", []):
                self.type(self.wait_visible('input[name="%s-new"]' % name, within=container), token)
                self.click("[data-action=add-token]", within=container)
                wait_until(lambda: self.visible('input[type=checkbox][value="%s"]' % token, within=container)
                           or token in container.text, TIMEOUT, "the new token %s to be listed" % token)
        elif kind == "location":
            self.browser.set_geolocation(value["latitude"], value["longitude"])
            self.click("[data-action=locate]", within=container)
            wait_until(lambda: self.located(container), TIMEOUT, "the location question to say it found a position")
            if value.get("place"):
                self.type(self.wait_visible('input[name="%s-place"]' % name, within=container), value["place"])
        elif kind == "photo":
            field = container.find_element(By.CSS_SELECTOR, "input[type=file]")
            field.send_keys(value)
            self.wait_visible("img", within=container)
        elif kind == "sound_level":
            self.click("[data-action=measure]", within=container)
            wait_until(lambda: "dB" in container.text, 20, "the sound level to be measured")
        elif kind in ("info_text_box", "audio_recording"):
            pass
        else:
            raise ValueError("no way to answer a %s question" % kind)

    def located(self, container):
        """True once a location question shows a position: its words gain a number (coordinates or accuracy)."""
        return any(character.isdigit() for character in container.text)

    def wait_survey_kept(self):
        """Waits until home has kept a copy of the survey on the device (it fetches one after the
        status), which is what lets a participant answer without a network."""
        script = """
            const done = arguments[arguments.length - 1];
            import('/app/js/store.js').then((store) => store.get('survey:/survey')).then((s) => done(!!s), () => done(false));
        """
        wait_until(lambda: self.driver.execute_async_script(script), TIMEOUT, "the survey to be kept on the device",
                   interval=0.2)

    def finish_survey(self):
        """Waits for the thank-you screen after Submit."""
        return self.wait_visible("#survey-done")


def study_document(server, slug, name, survey, registration=None, invitation_only=False, alert="Time for a moment"):
    """A study document (`momentary studies import`) based on the demo study's, with these surveys."""
    document = json.loads(server.cli("studies", "export", "demo").stdout)
    document.update(slug=slug, name=name, invitation_only=invitation_only, alert_text=alert)
    surveys = [{"name": "Moment", "kind": "esm", "position": 1, "active": True, "document": survey}]
    if registration is not None:
        surveys.insert(0, {"name": "Registration", "kind": "registration", "position": 0, "active": True,
                           "document": registration})
    document["surveys"] = surveys
    return document


def import_study(server, document):
    """Imports a study document through the command line (as a researcher would)."""
    handle, path = tempfile.mkstemp(suffix=".json", prefix="study-")
    with os.fdopen(handle, "w") as file:
        json.dump(document, file)
    try:
        server.cli("studies", "import", path)
    finally:
        os.remove(path)


def wait_for_rows(server, table, count, timeout=30, order_by="rowid", **equal):
    """Waits until `table` has exactly `count` matching rows (fails at once on more); returns them."""
    def enough():
        rows = server.rows(table, order_by=order_by, **equal)
        assert len(rows) <= count, "%s has %d matching rows, expected %d: %s" % (table, len(rows), count, rows)
        return rows if len(rows) == count else None
    return wait_until(enough, timeout, "%d rows in %s matching %s" % (count, table, equal), interval=0.2)
