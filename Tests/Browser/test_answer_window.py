"""A study of 2026 in the app: hours fixed by the study, the time left to answer, and a beep that
expires (its banner and notification go, its link says it has passed)."""
import json
import re

from harness import wait_until
from participant import DEMO_REGISTRATION, import_study


def protocol_study(server, slug, **settings):
    """The demo study under another slug, with these settings of a study document."""
    document = json.loads(server.cli("studies", "export", "demo").stdout)
    document.update(slug=slug, name="Protocol " + slug, **settings)
    import_study(server, document)


def test_fixed_hours_are_shown_not_offered(fresh_app, server, screenshot):
    protocol_study(server, "fixed-hours", hours_policy="fixed",
                   default_hours={"start": "09:00", "end": "21:00"},
                   beeps_per_day={"min": 6, "max": 6, "default": 6}, min_gap_minutes=30)
    app = fresh_app
    app.open("/join/fixed-hours")
    app.consent()
    app.register(DEMO_REGISTRATION)
    app.step("settings")
    fixed = app.wait_visible("#fixed-hours")
    assert "09:00" in fixed.text and "21:00" in fixed.text and "cannot be changed" in fixed.text
    assert not app.visible("#start-time") and not app.visible("#end-time"), "the hours are not offered for change"
    screenshot("join-fixed-hours")
    app.click("#settings-next")
    app.notifications(False)
    app.click("#join-submit")
    app.wait_home()
    participant = wait_until(lambda: [row for row in server.rows("participants") if row["beeps_per_day"] == 6], 15,
                             "the participant of the fixed-hours study")[0]
    assert (participant["signal_start_minutes"], participant["signal_end_minutes"]) == (9 * 60, 21 * 60)

    app.click("#settings-link")
    app.wait_visible("#fixed-hours")
    assert not app.visible("#start-time")
    app.click("#settings-save")
    app.wait_visible("#settings-saved")


def test_a_beep_shows_its_time_left_then_expires(fresh_app, server, push_service, chromium, screenshot):
    protocol_study(server, "one-minute", answer_window_minutes=1)
    app = fresh_app
    subscription = push_service.subscribe(server.web_push_key())
    chromium.install_push_seam(subscription)
    participant_id = app.join("one-minute", registration=DEMO_REGISTRATION, notifications=True)

    beep_id = server.beep_now(participant_id)
    payload = push_service.wait_for_payload(subscription["id"], beep_id)
    assert payload.get("expires_at"), payload
    chromium.deliver_push(payload)
    wait_until(lambda: [n for n in chromium.notifications() if n.get("tag") == beep_id], 15, "the beep's notification")

    app.open("/app")
    banner = app.wait_visible("#pending-banner")
    assert re.search(r"within (1 minute|\d+ seconds)", app.text("#pending-when")), app.text("#pending-when")
    screenshot("home-time-left")

    # At the deadline the server expires the beep, the banner goes and the notification is closed.
    wait_until(lambda: server.rows("beeps", id=beep_id)[0]["status"] == "expired", 100, "the beep to expire")
    wait_until(lambda: not banner.is_displayed(), 30, "the banner to go at the deadline")
    wait_until(lambda: not [n for n in chromium.notifications() if n.get("tag") == beep_id], 30,
               "the expired beep's notification to be closed")

    app.open("/app/beep/%s" % beep_id)
    unavailable = app.wait_visible("#survey-unavailable")
    assert "has passed" in app.page_text() and "tell us how you feel" in unavailable.text.lower()
    screenshot("beep-passed")

    # Opening a beep in time gives the study's time to finish (30 minutes), and the survey says so.
    second = server.beep_now(participant_id)
    chromium.deliver_push(push_service.wait_for_payload(subscription["id"], second))
    app.open("/app/beep/%s" % second)
    assert "Please answer within 30 minutes" in app.text("#time-left")
    opened = server.rows("beeps", id=second)[0]
    assert opened["opened_at"] is not None, "opening the survey marks the beep opened"
    screenshot("beep-time-left")
