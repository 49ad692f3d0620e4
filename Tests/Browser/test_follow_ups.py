"""A follow-up questionnaire end to end: an answer above a survey's threshold brings a beep of the
follow-up survey through the local Web Push service; the participant answers it in the app; the
researcher's beeps export (read with pandas) links the follow-up to the response that asked for it."""
import io
import json

import pandas

from harness import wait_until
from participant import DEMO_REGISTRATION, demo_answers, import_study, wait_for_rows

SLUG = "follow-ups"

COPING = {
    "content": [
        {"question_id": "coping", "question_type": "slider", "question_text": "How well are you coping?",
         "min": 0, "max": 100, "min_label": "Badly", "max_label": "Well"},
    ],
}


def follow_up_study(server):
    """The demo study whose beep survey asks for "Coping" at once when happy ≥ 80, whatever the hours
    (the test runs at any time of day)."""
    document = json.loads(server.cli("studies", "export", "demo").stdout)
    document.update(slug=SLUG, name="Follow-ups")
    surveys = document["surveys"]
    moment = next(survey for survey in surveys if survey["kind"] == "esm")
    moment["document"]["follow_ups"] = [
        {"when": {">=": ["happy", 80]}, "survey": "Coping", "after_minutes": 0, "respect_hours": False},
    ]
    surveys.append({"name": "Coping", "kind": "esm", "position": max(s["position"] for s in surveys) + 1,
                    "active": True, "document": COPING})
    import_study(server, document)


def test_an_answer_above_the_threshold_brings_the_follow_up_which_is_answered_and_linked(
        fresh_app, server, push_service, chromium, screenshot):
    follow_up_study(server)
    app = fresh_app
    subscription = push_service.subscribe(server.web_push_key())
    chromium.install_push_seam(subscription)
    participant_id = app.join(SLUG, registration=DEMO_REGISTRATION, notifications=True)

    # A beep of the study's survey, answered below the threshold: no follow-up.
    calm = server.beep_now(participant_id)
    chromium.deliver_push(push_service.wait_for_payload(subscription["id"], calm))
    app.open("/app/beep/%s?via=notification" % calm)
    app.answer_survey(demo_answers(happy=40))
    app.finish_survey()
    wait_for_rows(server, "responses", 1, participant_id=participant_id, beep_id=calm)

    # Answered above it: the follow-up survey is beeped at once.
    beep_id = server.beep_now(participant_id)
    chromium.deliver_push(push_service.wait_for_payload(subscription["id"], beep_id))
    app.open("/app/beep/%s?via=notification" % beep_id)
    app.answer_survey(demo_answers(happy=90))
    app.finish_survey()
    trigger = wait_for_rows(server, "responses", 1, participant_id=participant_id, beep_id=beep_id)[0]
    follow_up = wait_for_rows(server, "beeps", 1, participant_id=participant_id, origin="follow_up")[0]
    assert follow_up["trigger_response_id"] == trigger["id"]
    coping_id = server.rows("surveys", name="Coping")[0]["id"]
    assert follow_up["survey_id"] == coping_id

    payload = push_service.wait_for_payload(subscription["id"], follow_up["id"])
    chromium.deliver_push(payload)
    shown = wait_until(lambda: [n for n in chromium.notifications() if n.get("tag") == follow_up["id"]], 15,
                       "the follow-up's notification")
    app.open(shown[0]["data"]["url"])
    asked = app.answer_survey({"coping": ("slider", 65)})
    assert asked == ["coping"], "the follow-up survey is asked, not the study's beep survey: %s" % asked
    app.finish_survey()
    screenshot("follow-up-answered")

    answer = wait_for_rows(server, "responses", 1, participant_id=participant_id, beep_id=follow_up["id"])[0]
    assert answer["survey_id"] == coping_id
    assert server.rows("beeps", id=follow_up["id"])[0]["status"] == "answered"
    assert len(server.rows("beeps", participant_id=participant_id, origin="follow_up")) == 1, \
        "only the answer above the threshold asked for a follow-up"

    beeps = pandas.read_csv(io.StringIO(server.cli("export", "--study", SLUG, "--format", "beeps").stdout),
                            dtype=str, keep_default_na=False)
    assert "trigger_response_id" in beeps.columns
    followed = beeps[beeps["origin"] == "follow_up"]
    assert len(followed) == 1
    row = followed.iloc[0]
    assert row["trigger_response_id"] == trigger["id"].lower()
    assert row["survey"] == "Coping" and row["status"] == "answered"
    assert row["response_id"] == answer["id"].lower()
    others = beeps[beeps["origin"] != "follow_up"]
    assert (others["trigger_response_id"] == "").all()
