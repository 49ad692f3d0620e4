"""Every screen of the app, photographed at 390×844 and checked with axe-core, as a participant walks it."""
from selenium.webdriver.support.ui import Select

from harness import Chromium, assert_fits_width, wait_until
from participant import DEMO_REGISTRATION, demo_answers


def test_every_screen_is_accessible(any_app, server, push_service, axe_check):
    app = any_app
    driver = app.driver

    def look(name):
        app.screenshot(name)
        axe_check(driver, name)
        assert_fits_width(driver, name)
        assert driver.title.strip(), "the %s screen has no document title" % name

    # WebKitGTK has no Web Push (no PushManager; iOS Safari has it only for a Home Screen app), so
    # there the participant joins with notifications off and home says so.
    push = isinstance(app.browser, Chromium)
    if push:
        app.browser.install_push_seam(push_service.subscribe(server.web_push_key()))
    participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=push,
                              each_step=lambda step: look(step))
    look("home")
    assert app.wait_visible("#stat-responses")
    if push:
        assert not app.visible("#push-warning"), "home warns about notifications that are on"
    else:
        app.wait_visible("#push-warning")
        assert app.visible("#push-enable"), "home warns that notifications are off without offering to turn them on"

    app.click("#volunteer")
    app.answer_survey(demo_answers(where="home"), each=lambda question: question == "happy" and look("survey-question"))
    app.finish_survey()
    look("survey-done")
    app.click("#done-home")
    app.wait_visible("#home")
    wait_until(lambda: app.text("#stat-responses").strip() not in ("", "0"), 20, "home to count the answer")
    look("home-after-an-answer")

    # Settings: a participant changes how often they are beeped.
    app.click("#settings-link")
    beeps = Select(app.wait_visible("#beeps-per-day"))
    look("settings")
    current = beeps.first_selected_option.get_attribute("value")
    other = next(option.get_attribute("value") for option in beeps.options if option.get_attribute("value") != current)
    beeps.select_by_value(other)
    app.click("#settings-save")
    app.wait_visible("#settings-saved")
    look("settings-saved")
    wait_until(lambda: str(server.rows("participants", id=participant_id)[0]["beeps_per_day"]) == other, 10,
               "the new number of beeps per day to be stored")

    app.open("/app")
    app.click("#leave-link")
    app.wait_visible("#withdraw-confirm")
    look("leave")
    app.click("#withdraw-confirm")
    app.wait_visible("#left")
    look("left")

    app.open("/app")
    app.wait_visible("#not-joined")
    look("not-joined")
