"""Every question type answered through the page ends up in the export with the right value."""
import csv
import io
import os
import struct

import pytest

from harness import assert_fits_width, jpeg_file, wait_until
from participant import import_study, study_document

SLUG = "every-type"

SURVEY = {
    "survey_type": "tracking_survey",
    "settings": {},
    "content": [
        {"question_id": "intro", "question_type": "info_text_box", "question_text": "A question of every kind follows."},
        {"question_id": "mood", "question_type": "slider", "question_text": "How do you feel?", "min": 0, "max": 10,
         "step": 1, "min_label": "Awful", "max_label": "Great", "required": True},
        {"question_id": "place", "question_type": "radio_button", "question_text": "Where are you?",
         "answers": [{"text": "At home", "value": "home"}, {"text": "At work", "value": "work"},
                     {"text": "Elsewhere", "value": "elsewhere"}]},
        # Asked only away from home: `place` compares as its option's position, home being 0.
        {"question_id": "vehicle", "question_type": "yes_no", "question_text": "Are you in a vehicle?",
         "display_if": {"!=": ["place", 0]}},
        {"question_id": "outside", "question_type": "yes_no", "question_text": "Are you outdoors?"},
        {"question_id": "company", "question_type": "checkbox", "question_text": "Who is with you?",
         "answers": [{"text": "Nobody", "value": "alone"}, {"text": "Friends", "value": "friends"},
                     {"text": "Family", "value": "family"}]},
        {"question_id": "who", "question_type": "people", "question_text": "Anyone in particular?",
         "answers": [{"text": "My partner", "value": "partner"}, {"text": "A colleague", "value": "colleague"}]},
        {"question_id": "note", "question_type": "free_response", "question_text": "In a few words?",
         "text_field_type": "SINGLE_LINE_TEXT"},
        {"question_id": "diary", "question_type": "free_response", "question_text": "Tell us more",
         "text_field_type": "MULTI_LINE_TEXT"},
        {"question_id": "count", "question_type": "free_response", "question_text": "How many steps so far?",
         "text_field_type": "NUMERIC"},
        {"question_id": "cups", "question_type": "number", "question_text": "Cups of tea today?", "min": 0, "max": 20,
         "step": 1},
        {"question_id": "day", "question_type": "date", "question_text": "When did it start?"},
        {"question_id": "at", "question_type": "time", "question_text": "At what time?"},
        {"question_id": "when", "question_type": "date_time", "question_text": "When exactly?"},
        {"question_id": "tags", "question_type": "tokens", "question_text": "Pick or add words",
         "suggested_tokens": ["coffee", "tea", "cake"], "allows_free_entry": True},
        {"question_id": "where", "question_type": "location", "question_text": "Where is this?"},
        {"question_id": "snap", "question_type": "photo", "question_text": "Take a photo of what is in front of you"},
        {"question_id": "noise", "question_type": "sound_level", "question_text": "How loud is it?"},
        {"question_id": "voice", "question_type": "audio_recording", "question_text": "Say something"},
    ],
}

NOTE = 'Café, with "quotes"'
DIARY = "First line\nSecond line"


def answers(photo):
    return {
        "outside": ("yes_no", True),
        "company": ("checkbox", ["friends", "alone"]),
        "who": ("people", ["colleague"]),
        "note": ("free_response", NOTE),
        "diary": ("free_response", DIARY),
        "count": ("free_response", 4200),
        "cups": ("number", 3),
        "day": ("date", "2026-03-14"),
        "at": ("time", "08:30"),
        "when": ("date_time", "2026-03-14T08:30"),
        "tags": ("tokens", {"choose": ["tea"], "add": ["biscuits"]}),
        "where": ("location", {"latitude": 51.5074, "longitude": -0.1278, "place": "Office"}),
        "snap": ("photo", photo),
        "noise": ("sound_level", None),
    }


@pytest.fixture(scope="module")
def every_type_study(server):
    import_study(server, study_document(server, SLUG, "Every question type", SURVEY))
    return SLUG


def test_every_question_type_reaches_the_export(any_app, server, every_type_study, work_dir, axe_check):
    app = any_app
    participant_id = app.join(every_type_study, notifications=False)
    photo = jpeg_file(app.driver, os.path.join(work_dir, "camera.jpg"))

    def look(question_id):  # every kind of question screen, answered, photographed and checked
        app.screenshot("survey-type-%s" % question_id)
        axe_check(app.driver, "the %s question" % question_id)
        assert_fits_width(app.driver, "%s question" % question_id)
        if question_id == "snap":  # the phone's camera opens, and only JPEG comes back
            field = app.driver.find_element("css selector", '[data-question-id="snap"] input[type=file]')
            assert (field.get_attribute("accept"), field.get_attribute("capture")) == ("image/jpeg", "environment")

    def go_on(question_id):
        app.click("#survey-next")
        app.wait_for_question_after(question_id)
        return app.current_question()

    app.click("#volunteer")
    assert app.answer_survey({}, each=look, stop_before="mood") == ["intro"]

    # A required question cannot be passed over.
    question_id, container = app.current_question()
    app.click("#survey-next")
    error = app.wait_visible('[data-error-for="mood"]')
    assert error.text.strip() and error.get_attribute("role") == "alert"
    assert app.current_question()[0] == "mood"
    app.screenshot("survey-required-refused")
    app.answer(container, "mood", "slider", 7)
    look("mood")

    # Skip logic: at home the vehicle question stays out; away from home it comes in.
    question_id, container = go_on("mood")
    assert question_id == "place"
    app.answer(container, "place", "radio_button", "home")
    assert go_on("place")[0] == "outside"
    app.click("#survey-back")
    wait_until(lambda: app.current_question()[0] == "place", 10, "Back to return to the place question")
    question_id, container = app.current_question()
    app.answer(container, "place", "radio_button", "work")
    look("place")
    question_id, container = go_on("place")
    assert question_id == "vehicle"
    app.answer(container, "vehicle", "yes_no", False)
    look("vehicle")
    go_on("vehicle")

    shown = app.answer_survey(answers(photo), each=look)
    assert shown == [question["question_id"] for question in SURVEY["content"]][4:]
    app.finish_survey()

    responses = wait_until(lambda: server.rows("responses", participant_id=participant_id, kind="esm"), 20,
                           "the response to be uploaded")
    response_id = responses[0]["id"]
    photos = wait_until(lambda: server.rows("blobs", response_id=response_id, kind="photo"), 20, "the photo upload")
    assert len(photos) == 1
    width, height = jpeg_size(stored_file(server.data_dir, photos[0]["storage_path"]))
    assert max(width, height) <= 1600, "the photo was stored at %d×%d, not scaled to 1600 px" % (width, height)

    exported = server.cli("export", "--study", SLUG, "--format", "csv").stdout
    rows = [row for row in csv.DictReader(io.StringIO(exported)) if row["response_id"].lower() == response_id]
    cells = {row["question_id"]: (row["answer"], row["answer_status"]) for row in rows}
    assert list(cells) == [question["question_id"] for question in SURVEY["content"]]

    assert cells["intro"] == ("", "NOT_PRESENTED")
    expected = {"mood": "7", "place": "work", "vehicle": "false", "outside": "true", "company": "alone;friends",
                "who": "colleague", "note": NOTE, "diary": DIARY, "count": "4200", "cups": "3", "day": "2026-03-14",
                "at": "08:30", "when": "2026-03-14T08:30"}
    for question_id, cell in expected.items():
        assert cells[question_id] == (cell, "answered"), "%s exported as %r" % (question_id, cells[question_id])
    assert sorted(cells["tags"][0].split(";")) == ["biscuits", "tea"], cells["tags"]
    coordinates, place = cells["where"][0].split(";")
    latitude, longitude = (float(part) for part in coordinates.split(","))
    assert (round(latitude, 4), round(longitude, 4), place) == (51.5074, -0.1278, "Office"), cells["where"]
    assert cells["snap"][1] == "answered" and cells["snap"][0], cells["snap"]
    assert cells["noise"][1] == "answered"
    float(cells["noise"][0])  # a number of decibels
    assert cells["voice"][0] == "", "the web app cannot record, yet exported %r" % (cells["voice"],)


def stored_file(data_dir, storage_path):
    """The stored photo: `storage_path` is relative to a folder inside the data folder."""
    for folder, _, names in os.walk(data_dir):
        candidate = os.path.join(folder, os.path.basename(storage_path))
        if os.path.basename(storage_path) in names and candidate.endswith(storage_path):
            return candidate
    raise AssertionError("no file %s under %s" % (storage_path, data_dir))


def jpeg_size(path):
    """(width, height) from a JPEG's start-of-frame segment."""
    with open(path, "rb") as file:
        data = file.read()
    assert data[:2] == b"\xff\xd8", "%s is not a JPEG" % path
    position = 2
    while position < len(data):
        marker, length = data[position + 1], struct.unpack(">H", data[position + 2:position + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[position + 5:position + 9])
            return width, height
        position += 2 + length
    raise AssertionError("%s has no frame header" % path)
