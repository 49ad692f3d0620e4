"""The iPhone path (docs/iphone.md): the app added to the home screen opens with nothing stored, so
its start URL must lead to joining; /app unjoined takes the study link or code; the invitation code
is checked at the first step; Back and Forward walk the join steps; a reload mid-survey keeps the
answers; the time-zone picker at joining and in settings. Each new screen passes axe-core."""
import json
import shutil
import tempfile
import urllib.error
import urllib.request
import uuid

import pytest
from selenium.webdriver.support.ui import Select

import harness
from harness import wait_until
from participant import DEMO_REGISTRATION, demo_answers


def invitation_study(server):
    """A new invitation-only study (a copy of the demo) and one code for it."""
    slug = "invited-" + uuid.uuid4().hex[:8]
    server.cli("studies", "create", "--slug", slug, "--name", "By invitation", "--copy-from", "demo", "--invitation-only")
    return slug, server.cli("invitees", "create", "--study", slug).stdout.split()[0]


def fetch_json(app, path):
    """GET `path` from the page, as the browser would read a manifest; returns the parsed JSON."""
    script = """
        const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(r => r.json()).then(j => done(JSON.stringify(j)), e => done('error: ' + e));
    """
    text = app.driver.execute_async_script(script, path)
    assert not text.startswith("error"), "fetching %s: %s" % (path, text)
    return json.loads(text)


def look(app, axe_check, name):
    app.screenshot(name)
    axe_check(app.driver, name)


def test_the_home_screen_apps_start_url_leads_to_joining_with_nothing_stored(any_app, server, axe_check):
    app = any_app
    slug, code = invitation_study(server)
    app.open("/join/%s?code=%s" % (slug, code))
    app.step("consent")
    href = app.driver.execute_script("return document.querySelector('link[rel=manifest]').getAttribute('href')")
    manifest = fetch_json(app, href)
    assert manifest["start_url"] == "/join/%s?code=%s" % (slug, code), manifest
    assert manifest["id"] == "/join/%s" % slug, manifest

    # The installed app has storage of its own: nothing from the page it was added from.
    app.browser.clear_site_data()
    before = server.participant_ids()
    app.open(manifest["start_url"])
    app.step("consent")
    assert app.wait_visible("#invitation-code").get_attribute("value") == code
    look(app, axe_check, "home-screen-start")
    join_from_consent(app)
    new = wait_until(lambda: server.participant_ids() - before, 15, "the participant to be registered")
    participant = server.rows("participants", id=new.pop())[0]
    invitee = [row for row in server.rows("invitees", id=participant["invitee_id"])]
    assert invitee and invitee[0]["code"] == code, invitee


def test_app_unjoined_takes_a_pasted_link_and_a_typed_study_code(any_app, server, axe_check):
    app = any_app
    slug, code = invitation_study(server)
    app.open("/app")
    app.wait_visible("#not-joined")
    look(app, axe_check, "not-joined-form")

    def refused(text):
        app.type("#study-link", text)
        app.click("#start-continue")
        error = app.wait_visible("#study-link-error")
        assert "study-link-error" in app.wait_visible("#study-link").get_attribute("aria-describedby").split()
        return error.text

    assert "elsewhere.example" in refused("https://elsewhere.example/join/%s?code=%s" % (slug, code))
    look(app, axe_check, "not-joined-other-host")
    assert "no-such-study" in refused("no-such-study")
    assert app.path() == "/app"

    # A link as sent (this app's own address), pasted with the words around it.
    app.type("#study-link", "Please join: %s/join/%s?code=%s" % (app.browser.origin, slug, code))
    app.click("#start-continue")
    app.step("consent")
    assert app.path() == "/join/%s" % slug
    assert app.wait_visible("#invitation-code").get_attribute("value") == code

    # Back returns to the form, with what was pasted kept; then the study's code typed instead.
    app.driver.back()
    app.wait_visible("#start-form")
    assert slug in app.wait_visible("#study-link").get_attribute("value")
    app.type("#study-link", "DEMO")
    app.click("#start-continue")
    app.step("consent")
    assert app.path() == "/join/demo"
    before = server.participant_ids()
    join_from_consent(app)
    wait_until(lambda: server.participant_ids() - before, 15, "the participant to be registered")


def test_an_invalid_invitation_code_is_refused_at_the_first_step(any_app, server, axe_check):
    app = any_app
    slug, code = invitation_study(server)
    before = server.participant_ids()
    app.open("/join/%s" % slug)
    app.consent(code="WRONG-CODE-42")

    app.step("consent")
    error = app.wait_visible("#invitation-code-error")
    assert "WRONG-CODE-42" in error.text, error.text  # the server's own words, naming the code
    field = app.wait_visible("#invitation-code")
    assert "invitation-code-error" in field.get_attribute("aria-describedby").split()
    assert field.get_attribute("aria-invalid") == "true"
    assert not app.visible('section[data-step="registration"]')
    look(app, axe_check, "join-code-refused-at-consent")
    assert server.participant_ids() == before

    app.type("#invitation-code", code)
    app.click("#consent-next")
    app.step("registration")
    assert server.participant_ids() == before


@pytest.fixture
def other_server():
    """A server of its own, whose limit on invitation checks this test may use up (the shared
    server's must last the whole run)."""
    folder = tempfile.mkdtemp(prefix="momentary-limit-")
    running = harness.MomentaryServer(harness.executable("MOMENTARY_BINARY", ".build/debug/momentary"), folder)
    yield running
    running.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_too_many_invitation_checks_are_refused_with_the_servers_words(fresh_app, other_server):
    app = fresh_app
    slug, _ = invitation_study(other_server)
    check = "%s/api/v1/studies/%s/invitations/NOPE" % (other_server.base_url, slug)

    def status():
        try:
            with urllib.request.urlopen(check, timeout=10) as answer:
                return answer.status, ""
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}").get("error", {}).get("message", "")
    for _ in range(40):  # the limit is 30 checks per address in ten minutes
        code, message = status()
        if code == 429:
            break
        assert code == 403, (code, message)
    assert code == 429, "40 checks and still no 429"
    app.driver.get("%s/join/%s" % (other_server.base_url, slug))
    app.consent(code="ANOTHER1")
    error = app.wait_visible("#invitation-code-error")
    assert error.text.strip() == message, (error.text, message)
    app.step("consent")
    app.screenshot("join-code-too-many-checks")


def test_back_and_forward_walk_the_join_steps(any_app, server):
    app = any_app
    driver = app.driver
    app.open("/join/demo")
    app.consent()
    app.register(DEMO_REGISTRATION)
    app.step("settings")
    beeps = Select(app.wait_visible("#beeps-per-day"))
    chosen = beeps.options[-1].get_attribute("value")
    app.settings({"beeps_per_day": chosen})
    app.step("notifications")

    driver.back()
    app.step("settings")
    assert Select(app.wait_visible("#beeps-per-day")).first_selected_option.get_attribute("value") == chosen
    driver.back()
    app.step("registration")
    _, container = app.current_question()
    assert container.find_element("css selector", 'input[value="25-34"]').is_selected()
    driver.back()
    app.step("consent")
    assert app.wait_visible("#consent-checkbox").is_selected()
    app.screenshot("join-back-to-consent")

    driver.forward()
    app.step("registration")
    driver.forward()
    app.step("settings")
    driver.forward()
    app.step("notifications")
    # A reload stays on the step; the page's own Back is the browser's Back.
    driver.refresh()
    app.step("notifications")
    app.click("#survey-back-notifications")
    app.step("settings")
    driver.forward()
    app.step("notifications")

    before = server.participant_ids()
    app.click("#join-submit")
    app.wait_home()
    new = wait_until(lambda: server.participant_ids() - before, 15, "the participant to be registered")
    assert str(server.rows("participants", id=new.pop())[0]["beeps_per_day"]) == chosen


def test_forward_cannot_skip_a_step_left_unfinished(fresh_app):
    app = fresh_app
    app.open("/join/demo")
    app.consent()
    app.step("registration")
    app.driver.back()
    app.step("consent")
    app.click("#consent-checkbox")  # untick
    app.driver.forward()
    app.step("consent")


def test_a_reload_mid_survey_keeps_the_answers(any_app, server):
    app = any_app
    participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    answers = demo_answers(happy=33, where="work")
    app.click("#volunteer")
    shown = app.answer_survey(answers, stop_before="with_whom")
    assert shown == ["happy", "relaxed", "awake"]
    app.driver.refresh()

    app.wait_visible("#survey-resumed")
    question, _ = app.current_question()
    assert question == "with_whom"
    app.screenshot("survey-resumed")
    app.click("#survey-back")
    question, container = app.current_question()
    assert question == "awake"
    assert container.find_element("css selector", "input[type=range]").get_attribute("value") == "90"
    app.click("#survey-next")
    app.wait_for_question_after("awake")
    app.answer_survey({k: v for k, v in answers.items() if k not in ("happy", "relaxed", "awake")})
    app.finish_survey()

    responses = wait_until(lambda: [r for r in server.rows("responses", participant_id=participant_id)
                                    if r["kind"] != "registration"], 20, "the answer to arrive")
    assert len(responses) == 1
    stored = {row["question_id"]: json.loads(row["value"]) for row in server.rows("answers", response_id=responses[0]["id"])
              if row["value"] is not None}
    assert stored["happy"] == 33 and stored["relaxed"] == 40 and stored["awake"] == 90
    assert stored["where"] == "work"

    # Sent: the next survey starts afresh.
    app.open("/app/answer")
    app.current_question()
    assert not app.visible("#survey-resumed")
    assert app.current_question()[0] == "happy"


def test_a_reload_mid_beep_keeps_the_answers_for_that_beep_only(fresh_app, server, push_service, chromium):
    app = fresh_app
    chromium.install_push_seam(push_service.subscribe(server.web_push_key()))  # a beep needs a channel
    participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=True)
    beep_id = server.beep_now(participant_id)
    app.open("/app/beep/%s" % beep_id)
    app.answer_survey(demo_answers(happy=12), stop_before="awake")
    app.driver.refresh()
    app.wait_visible("#survey-resumed")
    assert app.current_question()[0] == "awake"

    # Another survey (volunteering) does not take up this beep's answers.
    app.open("/app/answer")
    assert app.current_question()[0] == "happy"
    assert not app.visible("#survey-resumed")


def test_the_time_zone_picker_at_joining_and_in_settings(any_app, server, axe_check):
    app = any_app
    before = server.participant_ids()
    app.open("/join/demo")
    app.consent()
    app.register(DEMO_REGISTRATION)
    app.step("settings")
    zone = app.wait_visible("#timezone")
    browser_zone = app.driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert zone.get_attribute("value") == browser_zone
    names = app.driver.execute_script(
        "const l = document.getElementById(arguments[0].getAttribute('list'));"
        "return l ? [...l.options].map(o => o.value) : [];", zone)
    assert len(names) > 50 and "Europe/Berlin" in names and browser_zone in names, names[:5]

    app.type("#timezone", "Mars/Olympus_Mons")
    app.click("#settings-next")
    error = app.wait_visible("#timezone-error")
    assert "Mars/Olympus_Mons" in error.text
    assert app.step("settings")
    look(app, axe_check, "join-timezone-unknown")
    app.type("#timezone", "europe/berlin")  # the case is put right
    app.click("#settings-next")
    app.step("notifications")
    app.notifications(False)
    app.click("#join-submit")
    app.wait_home()
    new = wait_until(lambda: server.participant_ids() - before, 15, "the participant to be registered")
    participant_id = new.pop()
    assert server.rows("participants", id=participant_id)[0]["timezone"] == "Europe/Berlin"

    app.open("/app/settings")
    zone = app.wait_visible("#timezone")
    assert zone.get_attribute("value") == "Europe/Berlin"
    assert zone.get_attribute("list")
    app.type("#timezone", "Nowhere/Atlantis")
    app.click("#settings-save")
    assert "Nowhere/Atlantis" in app.wait_visible("#timezone-error").text
    look(app, axe_check, "settings-timezone-unknown")
    app.type("#timezone", "Asia/Tokyo")
    app.click("#settings-save")
    app.wait_visible("#settings-saved")
    wait_until(lambda: server.rows("participants", id=participant_id)[0]["timezone"] == "Asia/Tokyo", 10,
               "the new time zone to be stored")


def join_from_consent(app):
    """The demo's join steps from the consent screen on, without notifications, to home."""
    app.consent()
    app.register(DEMO_REGISTRATION)
    app.settings(None)
    app.notifications(False)
    app.click("#join-submit")
    app.wait_home()
