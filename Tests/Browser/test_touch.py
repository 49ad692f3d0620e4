"""On a phone (a touch screen, no mouse) the app speaks of tapping and dragging, not of keys."""
from harness import catalogue
from participant import App, DEMO_REGISTRATION


def test_the_slider_hint_on_a_touch_screen_mentions_no_arrow_keys(own_chromium, server, screenshot):
    driver = own_chromium.driver
    # Chromium as a touch phone: `(hover: none) and (pointer: coarse)` hold, as on an iPhone.
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    app = App(own_chromium, server, lambda name: screenshot(name, driver))
    app.join(registration=DEMO_REGISTRATION, notifications=False)
    assert driver.execute_script("return matchMedia('(hover: none) and (pointer: coarse)').matches"), "not a touch screen"
    app.click("#volunteer")
    hint = app.wait_visible("#survey output.value.unset").text
    assert hint == catalogue("en")["survey.slider.untouched_touch"], hint
    app.screenshot("touch-slider-untouched")
