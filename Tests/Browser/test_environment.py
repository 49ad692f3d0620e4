"""The air and pollen card on home: a located answer gains the demo's weather and air quality on the
server, and home shows the risk the status gives for it."""
import json
import math

from harness import assert_fits_width, wait_until
from participant import DEMO_REGISTRATION, demo_answers


def test_home_shows_air_and_pollen_where_the_participant_last_answered(fresh_app, server, chromium, screenshot, axe_check):
    app = fresh_app
    participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    assert not app.visible("#environment"), "home shows air and pollen before any located answer"
    app.click("#settings-link")
    app.wait_visible("#settings-save")
    assert not app.driver.find_elements("css selector", "#pollen-sensitivity"), \
        "settings offer a pollen sensitivity before the study has given any answer environment data"
    app.open("/app")

    chromium.set_geolocation(51.5072, -0.1276)  # London
    try:
        app.click("#volunteer")
        app.answer_survey(demo_answers(where="home"))
        app.finish_survey()
    finally:
        chromium.clear_geolocation()

    def filled():
        rows = server.query(
            "SELECT r.participant_id, c.latitude, e.weather, e.air_quality FROM response_contexts c"
            " JOIN responses r ON r.id = c.response_id"
            " JOIN environment_readings e ON e.id = c.environment_reading_id WHERE e.status = 'ready'")
        return next((row for row in rows if row["participant_id"] == participant_id), None)
    row = wait_until(filled, 30, "the server to attach the environment to the located answer")
    assert abs(row["latitude"] - 51.5072) < 1e-6
    weather, air = json.loads(row["weather"]), json.loads(row["air_quality"])

    app.open("/app")
    app.wait_visible("#environment")
    wait_until(lambda: app.text("#environment-temperature") not in ("", "…"), 15, "the card's figures")
    assert app.text("#environment-temperature") == "%d °C" % math.floor(weather["temperature_c"] + 0.5)
    shown_air = app.text("#environment-air")
    assert shown_air == "%s (AQI %d, US EPA)" % (air["epa_category"], math.floor(air["aqi"] + 0.5)), shown_air
    assert app.text("#environment-pollen-label") == "Pollen (grass)"
    assert app.text("#environment-pollen") in ("Low", "Medium", "High", "—")
    assert "Who should take care: " in app.text("#environment-advice"), "the card gives the air quality's advice"
    screenshot("home-environment")
    axe_check(app.driver, "home-environment")
    assert_fits_width(app.driver, "home-environment")

    # A participant who reacts to tree pollen says so in Settings; home's pollen risk follows.
    app.click("#settings-link")
    app.select("#pollen-sensitivity", "tree")
    app.click("#settings-save")
    app.wait_visible("#settings-saved")
    assert server.rows("participants", id=participant_id)[0]["pollen_sensitivity"] == "tree"
    app.open("/app")
    wait_until(lambda: app.text("#environment-pollen-label") == "Pollen (tree)", 15, "home to show the tree pollen risk")
    app.click("#settings-link")
    assert app.wait_visible("#pollen-sensitivity").get_attribute("value") == "tree", "settings show the choice again"
