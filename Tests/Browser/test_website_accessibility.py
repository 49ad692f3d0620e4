"""The researcher website's pages, signed in as a Developer, checked with axe-core at phone width.

The participant app's screens are checked in test_accessibility.py; these are the pages a
researcher uses to run the demo study (sign-in, studies, the study's pages, accounts and roles).
"""
import io
import json
import secrets

import pandas
from selenium.webdriver.common.by import By

from harness import assert_fits_width, wait_until
from participant import DEMO_REGISTRATION, import_study, study_document

EMAIL = "axe-walker@example.org"


def test_every_website_page_is_accessible(chromium, server, screenshot, axe_check):
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, EMAIL, "Axe Walker", before_signing_in=lambda: axe_check(driver, "sign-in"))

    survey_path = None
    for path in ["/studies", "/studies/new", "/studies/demo", "/studies/demo/settings", "/studies/demo/surveys",
                 "/studies/demo/invitees", "/studies/demo/participants", "/studies/demo/responses",
                 "/studies/demo/export", "/studies/demo/end", "/studies/demo/streams", "/studies/demo/webhooks", "/studies/demo/alerts", "/studies/demo/participant-dates", "/researchers", "/roles", "/account", "/audit",
                 "/docs", "/docs/study-document", "/docs/surveys", "/docs/schedules", "/docs/environment"]:
        driver.get(server.origin + path)
        name = "website" + path.replace("/", "-")
        screenshot(name)
        axe_check(driver, name)
        if path == "/studies/demo/surveys":
            links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "main a[href*='/surveys/']")]
            survey_path = next((link for link in links if not link.endswith("/new")), None)
    assert survey_path, "the demo study's surveys page links no survey"
    driver.get(survey_path)
    screenshot("website-survey-editor")
    axe_check(driver, "survey editor")

    # The builder: a new slider question through its form, then the form of an existing question.
    driver.get(survey_path + "/questions/new?type=slider")
    screenshot("website-question-new")
    axe_check(driver, "question builder (new)")
    driver.find_element(By.ID, "question_id").send_keys("energy")
    driver.find_element(By.ID, "text").send_keys("How energetic do you feel?")
    driver.find_element(By.ID, "min").send_keys("0")
    driver.find_element(By.ID, "max").send_keys("10")
    driver.find_element(By.ID, "min_label").send_keys("Drained")
    driver.find_element(By.ID, "max_label").send_keys("Full of beans")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save as a new version']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the new question to be saved")
    assert "energy" in driver.page_source and "Full of beans" in driver.page_source
    screenshot("website-survey-editor-with-builder")
    axe_check(driver, "survey editor with the new question")
    driver.get(survey_path + "/questions/1")
    screenshot("website-question-edit")
    axe_check(driver, "question builder (edit)")
    driver.get(survey_path)

    # A second version, so the versions pages have a change to show.
    area = driver.find_element(By.ID, "document")
    document = json.loads(area.get_attribute("value"))
    document["content"][0]["question_text"] += " (reworded)"
    driver.execute_script("arguments[0].value = arguments[1]", area, json.dumps(document, indent=2))
    driver.find_element(By.XPATH, "//button[normalize-space()='Save as a new version']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the survey to be saved")
    for path, name in [("/versions", "website-survey-versions"), ("/versions/3", "website-survey-version-changes")]:
        driver.get(survey_path + path)
        screenshot(name)
        axe_check(driver, name)
    assert "From version 2 to version 3" in driver.page_source
    assert "(reworded)" in driver.page_source

    # The preview is the participant app's own survey screen in a frame, and follows the JSON.
    driver.get(survey_path)
    frame = driver.find_element(By.CSS_SELECTOR, "iframe.app-preview")
    driver.switch_to.frame(frame)
    wait_until(lambda: "(reworded)" in driver.find_element(By.ID, "preview").text, 15,
               "the preview to show the current version's first question")
    assert driver.find_element(By.ID, "survey-progress").text == "Question 1"
    driver.switch_to.default_content()
    area = driver.find_element(By.ID, "document")
    document["content"][0]["question_text"] = "Typed just now, not saved"
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                          area, json.dumps(document, indent=2))
    driver.switch_to.frame(frame)
    wait_until(lambda: "Typed just now, not saved" in driver.find_element(By.ID, "preview").text, 15,
               "the preview to follow the JSON as it is typed")
    driver.switch_to.default_content()
    driver.execute_script("arguments[0].value = '{ not json'; arguments[0].dispatchEvent(new Event('input'))", area)
    driver.switch_to.frame(frame)
    wait_until(lambda: "cannot be read" in driver.find_element(By.ID, "preview-note").text, 15,
               "the preview to say the JSON cannot be read")
    assert "Typed just now, not saved" in driver.find_element(By.ID, "preview").text, "the last readable survey stays"
    driver.switch_to.default_content()
    screenshot("website-survey-editor-preview")
    driver.get(survey_path + "/preview")
    wait_until(lambda: driver.find_elements(By.ID, "survey-progress"), 15, "the preview page to draw the survey")
    screenshot("website-survey-preview")
    axe_check(driver, "survey preview (the app's survey screen)")

    # Translations (docs/languages.md): the demo offers German for a while; the settings and the
    # builder show German fields beside the English, the overview lists what is missing, and the
    # preview shows German. English only again at the end, as the session's other tests expect.
    set_languages(driver, server, "en, de")
    screenshot("website-settings-two-languages")
    axe_check(driver, "settings with a second language")
    assert driver.find_elements(By.ID, "translation_de_consent_text"), "no German consent field"
    driver.get(survey_path + "/questions/1")
    driver.find_element(By.ID, "translation_de_text").send_keys("Wie energiegeladen fühlen Sie sich?")
    screenshot("website-question-translations")
    axe_check(driver, "question builder with translations")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save as a new version']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the translated question to be saved")
    driver.get(server.origin + "/studies/demo")
    assert "A translation is missing" in driver.page_source, "the overview does not list missing translations"
    axe_check(driver, "study overview listing missing translations")
    driver.get(survey_path + "/preview?lang=de")
    wait_until(lambda: "Wie energiegeladen" in driver.find_element(By.ID, "preview").text, 15, "the German preview")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    screenshot("website-survey-preview-de")
    axe_check(driver, "survey preview in German")
    set_languages(driver, server, "en")


def sign_in_as_new_developer(chromium, server, email, name, before_signing_in=lambda: None):
    """Makes a Developer account with `momentary researchers create` and signs in on a clean slate."""
    password = secrets.token_urlsafe(18)
    # "--password=…": a random password may start with "-", which would read as an option.
    server.cli("researchers", "create", "--email", email, "--role", "developer", "--name", name, "--password=" + password)
    driver = chromium.driver
    chromium.clear_site_data()
    driver.get(server.origin + "/signin")
    before_signing_in()
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "sign-in to lead to the studies")


def set_languages(driver, server, languages):
    driver.get(server.origin + "/studies/demo/settings")
    field = driver.find_element(By.ID, "languages")
    field.clear()
    field.send_keys(languages)
    driver.find_element(By.XPATH, "//main//form//button[normalize-space()='Save']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the languages to be saved")


def test_participants_table_fits_a_laptop_screen(chromium, server, fresh_app, screenshot):
    """At 1,280 px the participants table shows every column, its actions included, without scrolling."""
    fresh_app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "laptop@example.org", "Laptop User")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        driver.get(server.origin + "/studies/demo/participants")
        assert driver.find_elements(By.XPATH, "//button[normalize-space()='Erase']"), "the row has its actions"
        widths = driver.execute_script(
            "const s = document.querySelector('.scroll'); return [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth]")
        screenshot("website-participants-1280")
        assert widths[0] <= widths[1] and widths[2] <= 1280, "the table is cut off at 1,280 px: %s" % widths
    finally:
        chromium.emulate_phone()


def test_participant_dates_pages(chromium, server, fresh_app, screenshot, axe_check):
    """A study names its participant dates, a researcher sets one participant's; both pages pass axe-core."""
    fresh_app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "dates@example.org", "Dates User")
    driver.get(server.origin + "/studies/demo/participant-dates")
    axe_check(driver, "participant date names")
    names = driver.find_element(By.ID, "names")
    names.clear()
    names.send_keys("Baseline\nbaseline")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save names']").click()
    wait_until(lambda: driver.find_elements(By.ID, "names-problem"), 15, "the repeated name to be refused")
    assert "named twice" in driver.find_element(By.ID, "names-problem").text
    axe_check(driver, "participant date names with a problem")
    names = driver.find_element(By.ID, "names")
    names.clear()
    names.send_keys("Baseline\nSurgery")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save names']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the names to be saved")
    screenshot("website-participant-date-names")
    try:
        driver.get(server.origin + "/studies/demo/participants")
        links = driver.find_elements(By.CSS_SELECTOR, "main table a[href$='/dates']")
        assert links, "the participants table links each participant's dates"
        driver.get(links[0].get_attribute("href"))
        axe_check(driver, "a participant's dates")
        # A date field's typing order depends on the locale; its value is what the form sends.
        driver.execute_script("document.getElementById('date1').value = '2026-03-08'")
        driver.find_element(By.XPATH, "//button[normalize-space()='Save dates']").click()
        wait_until(lambda: "saved=1" in driver.current_url, 15, "the dates to be saved")
        assert driver.find_element(By.ID, "date1").get_attribute("value") == "2026-03-08"
        assert "beeps follow the new dates" in driver.page_source
        screenshot("website-participant-dates")
        axe_check(driver, "a participant's dates, saved")
        # The same pages on a laptop screen.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        try:
            screenshot("website-participant-dates-1280")
            driver.get(server.origin + "/studies/demo/participant-dates")
            screenshot("website-participant-date-names-1280")
            driver.get(server.origin + "/studies/demo/streams")
            screenshot("website-streams-1280")
        finally:
            chromium.emulate_phone()
    finally:
        driver.get(server.origin + "/studies/demo/participant-dates")
        driver.find_element(By.ID, "names").clear()
        driver.find_element(By.XPATH, "//button[normalize-space()='Save names']").click()
        wait_until(lambda: "saved=1" in driver.current_url, 15, "the names to be cleared for the other tests")


def test_participant_variables_and_arms_pages(chromium, server, fresh_app, screenshot, axe_check):
    """A study with arms and a participant variable: the participant is allocated at registration and
    the variable set from their registration answer; the Arms, arm, variables and a participant's
    variables pages pass axe-core; the long export, read with pandas, carries the arm."""
    slug = "arms-and-variables"
    if not server.rows("studies", slug=slug):
        # A registration survey of its own: other tests change the demo study's (its languages, for one).
        registration = {"content": [{"question_id": "country", "question_type": "free_response",
                                     "question_text": "Which country do you live in?"}]}
        moment = {"content": [{"question_id": "mood", "question_type": "slider", "min": 0, "max": 10,
                               "question_text": "How is life in {{var:home|else:your country}}?"}]}
        document = study_document(server, slug, "Arms and variables", moment, registration=registration)
        # In English only, whatever other tests have done to the demo study this document starts from.
        document.pop("languages", None)
        document["consent_text"] = "I agree to take part."
        document["arms"] = [{"name": "control", "weight": 1, "surveys": ["Moment"]},
                            {"name": "practice", "weight": 1, "surveys": ["Moment"]}]
        document["allocation"] = {"method": "blocked", "block_size": 2}
        document["participant_variables"] = [
            {"id": "home", "type": "text", "label": "Country of residence", "from_registration": "country"}]
        import_study(server, document)
    participant_id = fresh_app.join(slug, registration={"country": DEMO_REGISTRATION["country"]}, notifications=False)
    participant = server.rows("participants", id=participant_id)[0]
    assert participant["arm"] in ("control", "practice")
    assert json.loads(participant["variables"]) == {"home": "United Kingdom"}

    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "logic@example.org", "Logic User")
    for path, name in [("/studies/%s/arms" % slug, "arms"), ("/studies/%s/participant-variables" % slug, "participant-variables"),
                       ("/studies/%s/participants/%s/arm" % (slug, participant_id), "participant-arm"),
                       ("/studies/%s/participants/%s/variables" % (slug, participant_id), "participant-variables-one")]:
        driver.get(server.origin + path)
        screenshot("website-" + name)
        axe_check(driver, name)
        assert_fits_width(driver, name)

    # A label left empty is refused next to the table, and nothing is stored.
    driver.get(server.origin + "/studies/%s/participant-variables" % slug)
    label = driver.find_element(By.ID, "label0")
    label.clear()
    label.send_keys(" ")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save variables']").click()
    wait_until(lambda: driver.find_elements(By.ID, "variables-problem"), 15, "the empty label to be refused")
    assert "its label must be 1–200 characters" in driver.find_element(By.ID, "variables-problem").text
    axe_check(driver, "participant variables with a problem")

    # The participant's value, changed by a researcher.
    driver.get(server.origin + "/studies/%s/participants/%s/variables" % (slug, participant_id))
    field = driver.find_element(By.ID, "value0")
    field.clear()
    field.send_keys("Ireland")
    driver.find_element(By.XPATH, "//button[normalize-space()='Save variables']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the value to be saved")
    assert json.loads(server.rows("participants", id=participant_id)[0]["variables"]) == {"home": "Ireland"}

    long = pandas.read_csv(io.StringIO(server.cli("export", "--study", slug, "--format", "csv").stdout),
                           dtype=str, keep_default_na=False)
    assert "arm" in long.columns
    mine = long[long["participant_id"] == participant_id.lower()]
    assert len(mine) > 0 and (mine["arm"] == participant["arm"]).all()
