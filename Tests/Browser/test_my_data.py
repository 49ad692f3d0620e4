"""What participants get back: "My happiness" and "My data" from the home screen, and every
download format opened with the tools people use (csv, json, zipfile + fastkml, icalendar)."""
import csv
import io
import json
import urllib.error
import urllib.request
import uuid
import zipfile
from datetime import datetime, timedelta, timezone

import icalendar
from fastkml import kml

from harness import wait_until
from participant import DEMO_REGISTRATION

READ_CREDENTIALS = """
const done = arguments[arguments.length - 1];
const open = indexedDB.open('momentary');
open.onsuccess = () => {
  const get = open.result.transaction('kv').objectStore('kv').get('creds');
  get.onsuccess = () => done(get.result ? [get.result.participant_id, get.result.secret] : null);
};
"""


def submit(server, credentials, happy, place, minutes_ago, located):
    started = datetime.now(timezone.utc) - timedelta(minutes=minutes_ago)
    body = {
        "idempotency_key": str(uuid.uuid4()), "survey_version": 1,
        "started_at": started.isoformat().replace("+00:00", "Z"),
        "submitted_at": (started + timedelta(seconds=20)).isoformat().replace("+00:00", "Z"),
        "answers": [{"question_id": "happy", "answer": happy}, {"question_id": "relaxed", "answer": 50},
                    {"question_id": "awake", "answer": 50}, {"question_id": "where", "answer": place},
                    {"question_id": "anything_else", "answer": "Tea, then more tea; fine"}],
    }
    if located:
        body["context"] = {"location": {"latitude": 51.5007, "longitude": -0.1246, "horizontal_accuracy": 20,
                                        "timestamp": body["started_at"]}}
    server.api("POST", "/api/v1/responses", body, credentials=credentials)


def fetch(url):
    with urllib.request.urlopen(url, timeout=15) as answer:
        return answer.status, answer.headers.get("Content-Type"), answer.read()


def test_my_happiness_and_my_data(fresh_app, server, chromium, screenshot, axe_check):
    app = fresh_app
    app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    credentials = tuple(app.driver.execute_async_script(READ_CREDENTIALS))
    for index, (happy, place) in enumerate([(60, "work"), (70, "work"), (80, "work"), (95, "home")]):
        submit(server, credentials, happy, place, minutes_ago=40 - index * 10, located=index != 3)

    # My happiness: the server's SVG charts inside the app.
    app.open("/app")
    app.click(app.wait_visible("#my-happiness"))
    chart = app.wait_visible("section.feedback svg[role=img]")
    assert "At work: 70 (3 answers)" in chart.get_attribute("aria-label")
    screenshot("my-happiness")
    axe_check(app.driver, "my happiness")

    # My data: turn the link on, follow it, open every format.
    app.open("/app")
    app.click(app.wait_visible("#my-data"))
    app.click(app.wait_visible("#my-data-on"))
    link = app.wait_visible("#my-data-link")
    code = app.text("#my-data-code")
    assert link.get_attribute("href").endswith("/my/" + code)
    screenshot("my-data-link")
    axe_check(app.driver, "my data")
    app.driver.get(link.get_attribute("href"))
    app.wait_visible("table.my-answers")
    assert "Tea, then more tea; fine" in app.page_text()
    screenshot("my-data-page")
    axe_check(app.driver, "my data page")

    base = server.base_url + "/my/" + code
    status, kind, body = fetch(base + "/responses.csv")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8"))))
    assert kind.startswith("text/csv") and [row["sequence"] for row in rows] == ["5", "4", "3", "2", "1"]
    # Newest first by submission: the registration answers (given on joining, just now) lead.
    assert [row["happy"] for row in rows] == ["", "95", "80", "70", "60"]

    _, _, body = fetch(base + "/responses.json?after_sequence=3")
    assert [item["sequence"] for item in json.loads(body)] == [5, 4]

    _, kind, body = fetch(base + "/responses.kmz")
    assert kind == "application/vnd.google-earth.kmz"
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        document = kml.KML.from_string(archive.read("doc.kml"))
    placemarks = list(document.features[0].features)
    assert len(placemarks) == 3, "the three located responses"
    assert placemarks[0].geometry.x == -0.1246 and placemarks[0].geometry.y == 51.5007
    assert "Where are you?: At work" in placemarks[0].description

    _, kind, body = fetch(base + "/responses.ics")
    assert kind.startswith("text/calendar")
    events = icalendar.Calendar.from_ical(body).walk("VEVENT")
    assert len(events) == 5
    assert [str(event["SUMMARY"]) for event in events] == [
        "Registration", "Do you feel happy? 95", "Do you feel happy? 80", "Do you feel happy? 70", "Do you feel happy? 60"]
    assert "GEO" not in events[1] and "GEO" in events[2], "the 95 was given without a location"
    assert events[2]["DTSTART"].dt.tzinfo is not None

    # A new link replaces the old one at once; turning it off ends the new one too.
    app.open("/app/my-data")
    app.click(app.wait_visible("#my-data-renew"))
    wait_until(lambda: app.text("#my-data-code") != code, 10, "a new code")
    new_code = app.text("#my-data-code")
    try:
        fetch(base)
        raise AssertionError("the old link still works")
    except urllib.error.HTTPError as error:
        assert error.code == 404
    assert fetch(server.base_url + "/my/" + new_code)[0] == 200
    app.click("#my-data-off")
    app.wait_visible("#my-data-on")
    try:
        fetch(server.base_url + "/my/" + new_code)
        raise AssertionError("the link still works after turning it off")
    except urllib.error.HTTPError as error:
        assert error.code == 404


def test_public_statistics_page(fresh_app, server, chromium, screenshot, axe_check):
    app = fresh_app
    app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    credentials = tuple(app.driver.execute_async_script(READ_CREDENTIALS))
    for index in range(12):
        submit(server, credentials, 50 + index * 4, "work", minutes_ago=5 + index, located=True)
    print(server.cli("statistics", "refresh", "--study", "demo").stdout)
    app.driver.get(server.base_url + "/studies/demo/public")
    chart = app.wait_visible("svg[role=img]")
    assert "United Kingdom" in chart.get_attribute("aria-label")
    screenshot("public-statistics")
    axe_check(app.driver, "public statistics")
    statistics = server.api("GET", "/api/v1/studies/demo/statistics")
    assert statistics["responses"] >= 12 and statistics["hedonimeter"]["overall"]["mean"] is not None

