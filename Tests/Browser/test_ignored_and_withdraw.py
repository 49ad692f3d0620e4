"""A beep that arrives while another survey is open is reported ignored; leaving stops the beeps."""
from harness import wait_until
from participant import DEMO_REGISTRATION, demo_answers


def join_with_push(app, server, push_service, chromium):
    subscription = push_service.subscribe(server.web_push_key())
    chromium.install_push_seam(subscription)
    return app.join("demo", registration=DEMO_REGISTRATION, notifications=True), subscription


def test_a_beep_arriving_mid_survey_is_reported_ignored(fresh_app, server, push_service, chromium, screenshot):
    app = fresh_app
    participant_id, subscription = join_with_push(app, server, push_service, chromium)

    app.click("#volunteer")
    app.answer_survey({"happy": ("slider", 30)}, stop_before="relaxed")

    beep_id = server.beep_now(participant_id)
    chromium.deliver_push(push_service.wait_for_payload(subscription["id"], beep_id))
    wait_until(lambda: server.rows("beeps", id=beep_id)[0]["status"] == "ignored", 20,
               "beep %s to be reported ignored" % beep_id)
    wait_until(lambda: not [n for n in chromium.notifications() if n.get("tag") == beep_id], 10,
               "the ignored beep's notification to be closed")

    # The survey the participant was answering is untouched and still counts as volunteered.
    assert app.current_question()[0] == "relaxed"
    screenshot("survey-after-ignored-beep")
    rest = {key: value for key, value in demo_answers(where="home").items() if key != "happy"}
    app.answer_survey(rest)
    app.finish_survey()
    responses = wait_until(lambda: server.rows("responses", participant_id=participant_id, kind="esm"), 20,
                           "the volunteered response")
    assert len(responses) == 1
    assert responses[0]["volunteered"] and responses[0]["beep_id"] is None


def test_leaving_the_study_stops_the_beeps(fresh_app, server, push_service, chromium, screenshot):
    app = fresh_app
    participant_id, _ = join_with_push(app, server, push_service, chromium)

    app.click("#leave-link")
    wait_until(lambda: app.path() == "/app/leave", 10, "the leave page")
    assert not app.wait_visible("#delete-data").is_selected(), "deleting the data is chosen before the participant asks"
    app.click("#withdraw-confirm")
    app.wait_visible("#left")
    screenshot("leave-done")

    participant = wait_until(
        lambda: [row for row in server.rows("participants", id=participant_id) if row["status"] == "withdrawn"], 10,
        "the participant to be withdrawn")[0]
    assert participant["withdrawn_at"] is not None
    assert server.rows("beeps", participant_id=participant_id, status="pending") == []
    refused = server.cli("beep", "now", "--participant", participant_id, check=False)
    assert refused.returncode != 0 and "withdrawn" in (refused.stdout + refused.stderr)

    # The app no longer acts as if the participant were taking part.
    app.open("/app")
    app.wait_visible("#not-joined")
