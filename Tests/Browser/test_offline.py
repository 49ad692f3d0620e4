"""Answers given offline survive a browser restart and arrive exactly once, in order."""
import json
import os

import pytest

from harness import jpeg_file, wait_until
from participant import App, import_study, study_document, wait_for_rows

SLUG = "offline-photos"
SURVEY = {
    "survey_type": "tracking_survey",
    "settings": {},
    "content": [
        {"question_id": "happy", "question_type": "slider", "question_text": "How happy do you feel?",
         "min": 0, "max": 100, "step": 1, "required": True},
        {"question_id": "snap", "question_type": "photo", "question_text": "A photo of where you are?"},
    ],
}


@pytest.fixture(scope="module")
def offline_study(server):
    import_study(server, study_document(server, SLUG, "Offline with photos", SURVEY))
    return SLUG


def answer_offline(app, happy, photo=None, waiting=None):
    """From home: volunteers an answer with the network cut; back home, `waiting` answers are said to wait."""
    app.click("#volunteer")
    answers = {"happy": ("slider", happy)}
    if photo:
        answers["snap"] = ("photo", photo)
    app.answer_survey(answers)
    app.finish_survey()
    # Where only the server is out of reach (navigator.onLine true) the app says so after a failed upload.
    try:
        wait_until(lambda: "online" in app.text("#survey-done").lower(), 10, "the done screen to say the answer waits")
    except TimeoutError:
        raise AssertionError("the done screen does not say the answer waits for the network: %r"
                             % app.text("#survey-done")) from None
    app.screenshot("offline-survey-done")
    app.click("#done-home")
    app.wait_visible("#home")
    if waiting is not None:
        wait_until(lambda: app.visible("#queue-count") and str(waiting) in app.text("#queue-count"), 10,
                   "home to say %d answers wait to upload" % waiting)


def happy_values(server, responses):
    return [json.loads(server.rows("answers", response_id=row["id"], question_id="happy")[0]["value"])
            for row in responses]


def test_answers_given_offline_survive_a_restart_and_arrive_once_in_order(
        own_chromium, server, offline_study, work_dir, screenshot):
    app = App(own_chromium, server, lambda name: screenshot(name, own_chromium.driver))
    participant_id = app.join(offline_study, notifications=False)
    photo = jpeg_file(app.driver, os.path.join(work_dir, "offline.jpg"))
    own_chromium.service_worker_registration()  # installed, so the app opens without a network
    app.wait_survey_kept()

    own_chromium.set_offline(True)
    answer_offline(app, 11, waiting=1)
    answer_offline(app, 22, photo=photo, waiting=2)
    answer_offline(app, 33, waiting=3)
    screenshot("offline-home-three-waiting", own_chromium.driver)
    assert server.rows("responses", participant_id=participant_id) == []

    # The participant closes the browser; when it opens again the network is back.
    own_chromium.restart()
    app.open("/app")
    expect_three_answers_and_a_photo_once(server, app, participant_id)


def test_a_reload_while_uploading_sends_nothing_twice(own_chromium, server, offline_study):
    app = App(own_chromium, server)
    participant_id = app.join(offline_study, notifications=False)
    own_chromium.service_worker_registration()
    app.wait_survey_kept()

    own_chromium.set_offline(True)
    answer_offline(app, 44)
    answer_offline(app, 55)
    # Back online on a slow network, so answers are still on their way when the page reloads.
    own_chromium.emulate_network(latency_ms=3000)
    wait_until(lambda: server.rows("responses", participant_id=participant_id), 30, "the first upload to arrive")
    app.driver.refresh()
    own_chromium.emulate_network()
    responses = wait_for_rows(server, "responses", 2, participant_id=participant_id)
    app.wait_visible("#home")
    app.wait_hidden("#queue-count", timeout=30)
    assert happy_values(server, server.rows("responses", order_by="rowid", participant_id=participant_id)) == [44, 55]
    assert len(responses) == 2


def test_webkit_answers_given_offline_survive_a_reload_and_arrive_once_in_order(
        webkit_app, webkit, server, offline_study, work_dir):
    """WebKit has no network emulation through WebDriver: the relay in front of the server cuts
    every connection instead (navigator.onLine stays true, as in a tunnel). Its automation
    sessions keep nothing on disk, so a reload offline stands in for closing the browser."""
    app = webkit_app
    participant_id = app.join(offline_study, notifications=False)
    photo = jpeg_file(app.driver, os.path.join(work_dir, "offline-webkit.jpg"))
    webkit.wait_for_service_worker()  # so the app opens without the server
    app.wait_survey_kept()

    webkit.set_offline(True)
    answer_offline(app, 11, waiting=1)
    answer_offline(app, 22, photo=photo, waiting=2)
    app.driver.refresh()  # served by the service worker; the queue is read back from IndexedDB
    app.wait_visible("#home")
    wait_until(lambda: app.visible("#queue-count") and "2" in app.text("#queue-count"), 10,
               "home, reloaded offline, to say 2 answers wait")
    answer_offline(app, 33, waiting=3)
    app.screenshot("offline-home-three-waiting")
    assert server.rows("responses", participant_id=participant_id) == []

    webkit.set_offline(False)
    app.driver.refresh()
    expect_three_answers_and_a_photo_once(server, app, participant_id)


def expect_three_answers_and_a_photo_once(server, app, participant_id):
    """The queued answers arrived in order with the photo of the second, and nothing more comes
    once the app's queue is empty."""
    responses = wait_for_rows(server, "responses", 3, participant_id=participant_id)
    assert happy_values(server, responses) == [11, 22, 33]
    photos = wait_for_rows(server, "blobs", 1, participant_id=participant_id, kind="photo")
    assert photos[0]["response_id"] == responses[1]["id"]
    app.wait_hidden("#queue-count", timeout=30)
    assert len(server.rows("responses", participant_id=participant_id)) == 3
    assert len(server.rows("blobs", participant_id=participant_id)) == 1
