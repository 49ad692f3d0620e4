"""The web app checks a participant's hours as MomentaryCore does.

Runs every case of Tests/Shared/hours-policy-cases.json through /app/js/hours-policy.js in Chromium;
Tests/MomentaryCoreTests/Schedules/SharedHoursPolicyCasesTests.swift runs the same file through
StudySignallingRules.participantSettings. A case either language gets wrong fails, so the settings
the app offers and the settings the server accepts cannot drift apart.
"""
import json
import os

from selenium.webdriver.support.ui import Select

from participant import DEMO_REGISTRATION

CASES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Shared", "hours-policy-cases.json")

# The case file names a study's fields as a study document does; the app reads them as the study
# information the API sends. The mapping is the server's (StudyInfoService).
SCRIPT = """
const [data, done] = arguments;
import(new URL('/app/js/hours-policy.js', location.href).href).then((rules) => {
  const info = (doc) => ({
    hours_policy: doc.hours_policy ?? 'participant', beeps_per_day: doc.beeps_per_day,
    default_settings: doc.default_hours, minimum_gap_minutes: doc.min_gap_minutes,
    earliest_start: doc.earliest_start ?? null, latest_end: doc.latest_end ?? null,
    minimum_window_minutes: doc.minimum_window_minutes ?? null,
  });
  done(data.cases.map((c) => {
    const study = { ...data.study };
    for (const [key, value] of Object.entries(c.study)) { if (value === null) delete study[key]; else study[key] = value; }
    try { return rules.participantSettings(info(study), c.request); } catch (e) { return { threw: String(e) }; }
  }));
}).catch((e) => done({ error: String(e && e.stack || e) }));
"""


def test_the_app_checks_hours_as_momentary_core_does(server, browser):
    with open(CASES, encoding="utf-8") as file:
        data = json.load(file)
    assert data["cases"], "hours-policy-cases.json has no cases"
    browser.get(server.base_url + "/app")
    outcome = browser.execute_async_script(SCRIPT, data)
    assert not (isinstance(outcome, dict) and "error" in outcome), outcome
    wrong = ["- %s: got %s, expected %s" % (case["name"], json.dumps(got), json.dumps(case["expect"]))
             for case, got in zip(data["cases"], outcome) if got != case["expect"]]
    assert not wrong, "%d of %d shared hours-policy cases disagree with hours-policy.js:\n%s" % (
        len(wrong), len(data["cases"]), "\n".join(wrong))


def test_settings_that_the_study_refuses_are_refused_on_the_phone_with_the_reason(fresh_app, server):
    """Five beeps an hour apart cannot fit two hours: the settings screen says so next to the number
    of beeps, in the study's words, and sends nothing."""
    app = fresh_app
    participant_id = app.join(registration=DEMO_REGISTRATION, notifications=False)
    stored = server.rows("participants", id=participant_id)[0]
    app.click("#settings-link")
    Select(app.wait_visible("#beeps-per-day")).select_by_value("5")
    Select(app.wait_visible("#start-time")).select_by_value("08:00")
    Select(app.wait_visible("#end-time")).select_by_value("10:00")
    app.click("#settings-save")
    message = app.wait_visible("#beeps-per-day-error").text
    assert "5 beeps a day" in message and "do not fit" in message, message
    assert not app.visible("#settings-saved")
    now = server.rows("participants", id=participant_id)[0]
    assert (now["beeps_per_day"], now["signal_start_minutes"], now["signal_end_minutes"]) == (
        stored["beeps_per_day"], stored["signal_start_minutes"], stored["signal_end_minutes"]), "nothing was sent"
