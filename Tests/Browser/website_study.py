"""The study the test_website_* files make on the researcher website, and the steps that make it.

Each step is what a researcher does in the browser, checked as it goes: sign in, create an
invitation-only study, add an experience-sampling survey through the new-survey form, save a
survey document in its editor, create invitation codes. `respond_through_api` then registers a
participant with one of the codes through the participant JSON API (outside the browser) and
submits one response and a passive stream batch. Each step is the subject of a test in
test_website_studies.py or test_website_responses.py; a file whose subject comes later runs the
steps before it to make a study of its own.
"""
import base64
import datetime
import json
import re
import time
import urllib.error
import urllib.request
import uuid

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

# The survey saved in the editor and answered through the API. It has one question of each common
# kind, an info text box (recorded NOT_PRESENTED) and an optional question left unanswered
# (NO_ANSWER_SELECTED), so the exports show every answer status.
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

# What the participant answers (question id → answer sent). The note has a comma and quotes, so
# CSV quoting matters; the checkbox answer is sent out of option order.
ANSWERS = {
    "happy": 72,
    "where": "work",
    "with_whom": ["friends", "alone"],
    "outdoors": False,
    "note": 'Walking, "testing" the export',
    "coffees": None,
}

# A proximity batch in Beiwe's format (rows out of order: the export sorts them).
PROXIMITY_CSV = "timestamp,event\n1764064800500,NotNearUser\n1764064800000,NearUser\n"

# The survey added through the new-survey form.
SURVEY_NAME = "Right now"

INVITEE_COUNT = 3

# Not UTC, so that the exports' local times differ from their UTC times.
TIME_ZONE = "Europe/Berlin"


class Study:
    """What the steps have made so far, for the checks that follow."""

    def __init__(self, slug):
        self.slug = slug
        self.survey_name = None
        self.survey_editor = None  # path of the survey's editor, /studies/SLUG/surveys/ID
        self.survey_version = None
        self.codes = []
        self.participant_code = None
        self.participant_label = None
        self.response_id = None
        self.time_zone = TIME_ZONE


def new_slug(prefix):
    return "%s-%s" % (prefix, time.strftime("%Y%m%d-%H%M%S"))


def sign_in(site):
    site.open("/signin", "Sign in")
    site.fill("#email", site.email)
    site.fill("#password", site.password)
    site.submit("form[action='/signin']")
    assert site.path() != "/signin", "the sign-in form came back: %s" % (site.problems_shown() or site.heading())
    site.expect_page("Studies")
    assert site.path() == "/studies", "signing in led to %s, not /studies" % site.driver.current_url
    buttons = [button.text for button in site.driver.find_elements(By.CSS_SELECTOR, "header form button")]
    assert "Sign out" in buttons, "the page header offers no Sign out button after signing in"


def create_study(site, slug):
    """The new-study form, reached from the studies list: an invitation-only study, listed."""
    site.follow("New study", "New study")
    assert site.path() == "/studies/new", "“New study” led to %s" % site.driver.current_url
    site.fill("#slug", slug)
    site.fill("#name", "Browser test study")
    checkbox = site.field("input[name=invitationOnly]")
    if not checkbox.is_selected():
        checkbox.click()
    # Every other field keeps the defaults the form shows; they must be a valid study.
    site.submit("form[action='/studies']")
    problems = site.problems_shown()
    assert not problems, "the new-study form was refused: %s" % problems
    site.expect_page("Settings")
    settings = "/studies/%s/settings" % slug
    assert site.path() == settings, "creating the study led to %s, not %s" % (site.driver.current_url, settings)
    assert site.field("input[name=invitationOnly]").is_selected(), \
        "the new study's settings do not show it as invitation-only"
    site.open("/studies", "Studies")
    slugs = [row[1] for row in site.table_rows() if len(row) > 1]
    assert slug in slugs, "the studies list does not show %s (it shows %s)" % (slug, slugs)
    return Study(slug)


# ---- surveys ---------------------------------------------------------------------------------

def listed_surveys(site):
    """(name, kind, version, editor link) of each survey on the surveys page the browser is on."""
    rows = []
    for row in site.driver.find_elements(By.CSS_SELECTOR, "table tr"):
        cells = row.find_elements(By.TAG_NAME, "td")
        if len(cells) < 3:
            continue
        link = cells[0].find_element(By.CSS_SELECTOR, "a")
        rows.append((link.text.strip(), cells[1].text.strip(), int(cells[2].text.strip()), link.get_attribute("href")))
    return rows


def survey_rows(site, study):
    site.open("/studies/%s/surveys" % study.slug, "Surveys")
    return listed_surveys(site)


def submit_new_survey(site, study, name, kind):
    """Fills in and submits the surveys page's new-survey form; returns the page exchanges it caused."""
    form = site.field("form#new-survey")
    assert (form.get_attribute("method") or "").lower() == "post", "the new-survey form does not POST"
    assert site.path_of(form.get_attribute("action")) == "/studies/%s/surveys" % study.slug, \
        "the new-survey form posts to %s" % form.get_attribute("action")
    assert site.field("form#new-survey input[type=hidden][name=_csrf]").get_attribute("value"), \
        "the new-survey form has no CSRF token"
    kinds = Select(site.field("form#new-survey select[name=kind]"))
    offered = sorted(option.get_attribute("value") for option in kinds.options)
    assert offered == ["esm", "registration"], "the new-survey form offers the kinds %s" % offered
    site.fill("form#new-survey input[name=name]", name)
    kinds.select_by_value(kind)
    site.forget_exchanges()
    site.submit("form#new-survey")
    return site.document_exchanges()


def editor_version(site):
    """The version the survey editor's heading names ("Name version 3"), or None."""
    match = re.search(r"version (\d+)$", site.heading().strip())
    return int(match.group(1)) if match else None


def editor_questions(site):
    """How many questions the survey editor's table lists (one Edit link each)."""
    return len(site.driver.find_elements(By.CSS_SELECTOR, "a[aria-label^='Edit question']"))


def editor_document(site):
    return json.loads(site.field("#document").get_attribute("value"))


def expect_app_preview(site, first_text):
    """The editor's preview frame draws the survey with the participant app's own screen, starting at `first_text`."""
    frames = site.driver.find_elements(By.CSS_SELECTOR, "iframe.app-preview")
    assert frames, "the survey editor has no preview frame"
    site.driver.switch_to.frame(frames[0])
    try:
        try:
            site.wait().until(lambda driver: first_text in driver.find_element(By.ID, "preview").text
                              and driver.find_elements(By.ID, "survey-progress"))
        except TimeoutException:
            shown = site.driver.find_elements(By.ID, "preview")
            raise AssertionError("the preview frame shows “%.200s”, not the app's survey screen starting at “%s”"
                                 % (shown[0].text if shown else "(nothing)", first_text)) from None
    finally:
        site.driver.switch_to.default_content()


def add_survey(site, study):
    """From the study page's Surveys link, adds SURVEY_NAME: it opens in its editor at version 1."""
    site.open("/studies/%s" % study.slug, "")
    site.follow("Surveys", "Surveys")
    listing = "/studies/%s/surveys" % study.slug
    assert site.path() == listing, "the Surveys link led to %s, not %s" % (site.driver.current_url, listing)
    rows = listed_surveys(site)
    assert rows == [], "the new study %s already lists surveys: %s" % (study.slug, rows)

    exchanges = submit_new_survey(site, study, SURVEY_NAME, "esm")
    site.expect_page(SURVEY_NAME)
    editor = re.fullmatch(r"/studies/%s/surveys/([0-9A-Fa-f-]{36})" % re.escape(study.slug), site.path())
    assert editor, "adding the survey led to %s, not to its editor /studies/%s/surveys/ID" % (
        site.driver.current_url, study.slug)
    study.survey_editor = editor.group(0)
    posts = [exchange for exchange in exchanges if exchange[0] == "POST"]
    assert len(posts) == 1 and posts[0][2] in (302, 303) and posts[0][3] \
        and site.path_of(posts[0][3]) == study.survey_editor, \
        "adding the survey was answered %s, expected one redirect (302/303) to %s" % (posts or exchanges, study.survey_editor)
    assert exchanges[-1][2] == 200, "the survey editor answered %d after the redirect" % exchanges[-1][2]
    assert editor_version(site) == 1, "the new survey's editor heading “%s” does not say version 1" % site.heading()
    problems = site.problems_shown()
    assert not problems, "the new survey's editor shows problems: %s" % problems
    starter = site.field("#document").get_attribute("value")
    try:
        starter_questions = json.loads(starter)["content"]
    except (ValueError, KeyError, TypeError) as error:
        raise AssertionError("the new survey does not start from a survey document (%s): %.200s" % (error, starter))
    listed = editor_questions(site)
    assert starter_questions and listed == len(starter_questions), \
        "the new survey starts with %d questions and the editor lists %d" % (len(starter_questions), listed)
    expect_app_preview(site, starter_questions[0]["question_text"])
    study.survey_name = SURVEY_NAME
    study.survey_version = 1

    rows = survey_rows(site, study)
    assert [row[:3] for row in rows] == [(SURVEY_NAME, "esm", 1)], \
        "after adding the survey the list shows %s, expected only (%s, esm, 1)" % ([row[:3] for row in rows], SURVEY_NAME)
    assert site.path_of(rows[0][3]) == study.survey_editor, \
        "the listed survey links to %s, not %s" % (rows[0][3], study.survey_editor)


def open_editor_from_list(site, study):
    """Follows the survey list's link to the study's survey; returns the version the list shows."""
    rows = survey_rows(site, study)
    mine = [row for row in rows if row[0] == study.survey_name]
    assert len(mine) == 1 and mine[0][1] == "esm", \
        "the study %s does not list one esm survey “%s”: %s" % (study.slug, study.survey_name, rows)
    _, _, version, link = mine[0]
    assert site.path_of(link) == study.survey_editor, "the survey list links %s, not %s" % (link, study.survey_editor)
    site.driver.get(link)
    site.expect_page(study.survey_name)
    assert editor_version(site) == version, "the editor heading “%s” does not say version %d" % (site.heading(), version)
    return version


def save_survey(site, study):
    """Pastes SURVEY into the editor: saved as the next version, listed and previewed."""
    version = open_editor_from_list(site, study)
    editor = study.survey_editor
    # Indented, as a researcher pastes it: a few KB, like any real survey.
    document = json.dumps(SURVEY, indent=2)
    site.set_value("#document", document)
    site.forget_exchanges()
    site.submit("form[action='%s']" % editor)
    try:
        site.expect_page(study.survey_name)
    except AssertionError as error:
        raise AssertionError("saving the valid survey (%d characters of JSON): %s" % (len(document), error)) from None
    exchanges = site.document_exchanges()
    posts = [exchange for exchange in exchanges if exchange[0] == "POST"]
    assert len(posts) == 1 and posts[0][2] in (302, 303) and site.path_of(posts[0][3] or "") == editor, \
        "saving the valid survey was answered %s, expected one redirect (302/303) to %s?saved=1" % (posts or exchanges, editor)
    problems = site.problems_shown()
    assert not problems, "the valid survey was refused: %s" % problems
    study.survey_version = version + 1
    assert editor_version(site) == study.survey_version, \
        "after saving, the heading says “%s”, not version %d" % (site.heading(), study.survey_version)
    notices = " ".join(site.texts(".notice"))
    assert "Saved as version %d" % study.survey_version in notices, \
        "after saving, the page says “%s”, not “Saved as version %d”" % (notices or "(nothing)", study.survey_version)
    listed = editor_questions(site)
    assert listed == len(SURVEY["content"]), "the editor lists %d questions, the survey has %d" % (listed, len(SURVEY["content"]))
    expect_app_preview(site, SURVEY["content"][0]["question_text"])
    listed = {name: v for name, _, v, _ in survey_rows(site, study)}
    assert listed.get(study.survey_name) == study.survey_version, \
        "the survey list shows version %s after saving, not %d" % (listed.get(study.survey_name), study.survey_version)


# ---- invitees and a participant ----------------------------------------------------------------

def create_invitees(site, study):
    """INVITEE_COUNT new codes on the invitees page, each listed as Invited with its join link."""
    site.open("/studies/%s" % study.slug, "")
    site.follow("Invitees", "Invitees")
    before = {row[0] for row in site.table_rows()}
    site.fill("#count", str(INVITEE_COUNT))
    site.submit("form[action='/studies/%s/invitees']" % study.slug)
    site.expect_page("Invitees")
    shown = " ".join(site.texts(".notice .codes")).split()
    assert len(shown) == INVITEE_COUNT, \
        "the page shows %d new codes (%s), expected %d" % (len(shown), " ".join(shown), INVITEE_COUNT)
    status, link = site.table_column("Status"), site.table_column("Join link")
    rows = {row[0]: row for row in site.table_rows() if len(row) > status}
    for code in shown:
        assert code not in before, "the “new” code %s was already listed before" % code
        row = rows.get(code, [])
        assert row and row[status] == "Invited", \
            "the new code %s is listed as %s, not Invited" % (code, row[status] if row else "missing")
        assert row and row[link].startswith(site.url("/join/%s?code=%s" % (study.slug, code))), \
            "the new code %s has no join link, but %s" % (code, row[link] if row else "nothing")
    study.codes = shown


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def respond_through_api(server, study):
    """Registers a participant with the first code and submits one response and a proximity batch (twice)."""
    info = api(server, "GET", "/api/v1/studies/%s" % study.slug)
    assert info.get("invitation_only") is True, "the API says %s is not invitation-only" % study.slug
    registration = {
        "study": study.slug,
        "consent": True,
        "timezone": study.time_zone,
        "settings": info["default_settings"],
        "push": {"channel": "none"},
        "device": {"model": "browser-test", "os": "Linux", "app_version": "browser-test"},
    }
    # The study has only the experience-sampling survey, so registration needs no registration answers.
    assert info.get("registration_survey") is None, \
        "the API offers a registration survey for %s, which has none: %.200s" % (
            study.slug, json.dumps(info.get("registration_survey")))

    # Without a code an invitation-only study refuses; with one of the new codes it registers.
    refused = api(server, "POST", "/api/v1/participants", registration, expect_status=(403,))
    assert refused["error"]["code"] == "invitation_required", \
        "registering without a code was refused with %s, not invitation_required" % refused["error"]
    study.participant_code = study.codes[0]
    # A participant who joined with an invitation code is labelled by it everywhere.
    study.participant_label = study.participant_code
    registration["invitation_code"] = study.participant_code
    registered = api(server, "POST", "/api/v1/participants", registration, expect_status=(201,))
    credentials = (registered["participant_id"], registered["secret"])

    delivery = api(server, "GET", "/api/v1/survey", credentials=credentials)
    assert delivery["version"] == study.survey_version, \
        "the API delivers survey version %s, the editor saved %d" % (delivery["version"], study.survey_version)
    delivered = [question["question_id"] for question in delivery["document"]["content"]]
    expected = [question["question_id"] for question in SURVEY["content"]]
    assert delivered == expected, "the API delivers questions %s, the editor saved %s" % (delivered, expected)

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    submission = {
        "idempotency_key": "browser-test-" + str(uuid.uuid4()),
        "survey_id": delivery["survey_id"],
        "survey_version": delivery["version"],
        "started_at": iso(now - datetime.timedelta(seconds=90)),
        "submitted_at": iso(now - datetime.timedelta(seconds=30)),
        "answers": [{"question_id": key, "answer": value} for key, value in ANSWERS.items()],
        "context": {"battery": 0.8, "connection": "wifi", "steps": 1234, "impetus": "button"},
    }
    receipt = api(server, "POST", "/api/v1/responses", submission, credentials=credentials, expect_status=(201,))
    study.response_id = receipt["response_id"].lower()

    # A passive stream batch, sent twice as a phone retrying would: stored once.
    for _ in range(2):
        upload_stream(server, "proximity", PROXIMITY_CSV, "browser-test-proximity-" + study.slug, credentials)


def upload_stream(server, stream, csv_text, key, credentials):
    status, text = send(server, "POST", "/api/v1/uploads/" + stream, csv_text.encode("utf-8"),
                        {"Content-Type": "text/csv", "Idempotency-Key": key}, credentials)
    assert status in (200, 201), "POST /api/v1/uploads/%s answered %d: %s" % (stream, status, text[:300])


def api(server, method, path, body=None, credentials=None, expect_status=(200,)):
    """The parsed JSON answer of a participant API request that must answer one of `expect_status`."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    status, text = send(server, method, path, data, headers, credentials)
    assert status in expect_status, "%s %s answered %d (expected %s): %s" % (
        method, path, status, "/".join(map(str, expect_status)), text[:500])
    return json.loads(text) if text else None


def send(server, method, path, data, headers, credentials=None):
    """(status, text) of one request to the server, with HTTP Basic credentials if given.

    harness.MomentaryServer.api takes any success alike; these checks tell 200 from 201.
    """
    request = urllib.request.Request(server.base_url + path, data=data, method=method, headers=headers)
    if credentials:
        token = base64.b64encode(("%s:%s" % credentials).encode("utf-8")).decode("ascii")
        request.add_header("Authorization", "Basic " + token)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
