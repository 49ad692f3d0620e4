"""The app in the participant's language: German (Chromium set to de-AT) and Arabic (right to left).

Every screen is photographed at 390×844 and checked with axe-core. The study's own texts follow
the server (`languages` / `language` in the StudyInfo); where the server does not send them yet,
or the demo study is not offered in the language, the join steps stay English (a single-language
study) and the test stores the language before each screen, so the app's own words are still
walked in every screen.
"""
import json
import os
import urllib.request

import pytest

from harness import assert_fits_width, catalogue, page_language, wait_until
from participant import App, DEMO_REGISTRATION, demo_answers


LANGUAGE_CASES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Shared",
                              "language-cases.json")


def study_info(server, accept_language):
    request = urllib.request.Request(server.base_url + "/api/v1/studies/demo",
                                     headers={"Accept-Language": accept_language, "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def store_language(driver, tag):
    """What registration stores for a study in `tag` (IndexedDB momentary/kv "language")."""
    driver.execute_async_script("""
        const [tag, done] = arguments;
        const open = indexedDB.open('momentary');
        open.onsuccess = () => { const t = open.result.transaction('kv', 'readwrite');
          t.objectStore('kv').put(tag, 'language'); t.oncomplete = () => done(true); };""", tag)


def walk(app, server, push_service, chromium, tag, screenshot, axe_check):
    driver = app.driver
    words = catalogue(tag)
    info = study_info(server, chromium.language)
    speaks = tag in (info.get("languages") or [])

    def look(name, expect_tag=tag):
        screenshot("%s-%s" % (tag, name), driver)
        axe_check(driver, "%s %s" % (tag, name))
        assert_fits_width(driver, name)
        assert page_language(driver) == [expect_tag, "rtl" if expect_tag == "ar" else "ltr"], (
            "%s: the page says lang/dir %s" % (name, page_language(driver)))

    # Not joined yet: the browser's language.
    app.open("/app")
    app.wait_visible("#not-joined")
    assert words["not_joined.about"] in app.page_text().replace(" | ", "\n")
    look("not-joined")

    chromium.install_push_seam(push_service.subscribe(server.web_push_key()))
    join_tag = tag if speaks else "en"
    participant_id = app.join("demo", registration=DEMO_REGISTRATION, notifications=True,
                              each_step=lambda step: look(step, join_tag))
    def keep_language():
        # A study without `tag`: the server rightly answers the study's language in /status, which
        # the app adopts; the test stores `tag` again before each screen so the app's own words are
        # walked in it all the same (a stand-in for a study offered in `tag`).
        if not speaks:
            store_language(driver, tag)

    if speaks:
        assert server.rows("participants", id=participant_id)[0].get("language", tag) == tag
    # Home, where joining ends, stores the study's language from /status before it shows the
    # counts; wait for that, or its write can land after keep_language's and undo it.
    wait_until(lambda: app.text("#stat-responses") not in ("", "…"), 20, "home to show the status")
    keep_language()
    app.open("/app")
    app.wait_visible("#home")
    assert app.text("#volunteer") == words["home.volunteer"]
    look("home")

    keep_language()
    app.open("/app/answer")  # straight there: home's /status may store the study's language meanwhile
    app.answer_survey(demo_answers(where="home"), each=lambda q: q == "happy" and look("survey-question"))
    app.finish_survey()
    assert app.text("#survey-done h1") == words["done.title"]
    look("survey-done")
    keep_language()
    app.click("#done-home")
    app.wait_visible("#home")
    wait_until(lambda: app.text("#stat-responses").strip() not in ("", "0", "٠"), 20, "home to count the answer")
    look("home-after-an-answer")

    keep_language()
    app.open("/app/settings")
    app.wait_visible("#beeps-per-day")
    assert app.text("#settings-save") == words["settings.save"]
    look("settings")
    app.click("#settings-save")
    app.wait_visible("#settings-saved")
    look("settings-saved")

    # Straight to the page: home would fetch /status (and the study's language) meanwhile.
    keep_language()
    app.open("/app/leave")
    app.wait_visible("#withdraw-confirm")
    look("leave")
    app.click("#withdraw-confirm")
    app.wait_visible("#left")
    assert app.text("#left h1") == words["leave.done.title"]
    look("left")


def test_the_app_speaks_german(server, push_service, chromium_in, screenshot, axe_check):
    chromium = chromium_in("de-AT")
    walk(App(chromium, server, screenshot), server, push_service, chromium, "de", screenshot, axe_check)


def test_the_app_speaks_arabic_right_to_left(server, push_service, chromium_in, screenshot, axe_check):
    chromium = chromium_in("ar")
    walk(App(chromium, server, screenshot), server, push_service, chromium, "ar", screenshot, axe_check)


def test_language_choice_plurals_and_formats(server, browser):
    """i18n.js itself: which catalogue a tag gets, plural forms, and Intl formatting per language."""
    browser.get(server.base_url + "/app")
    result = browser.execute_async_script("""
        const done = arguments[0];
        import('/app/js/i18n.js').then(async (i) => {
          const picks = ['de-AT', 'zh-CN', 'zh', 'zh-TW', 'fr-CA', 'pt-BR', 'AR', 'nl-BE'].map(i.catalogueFor);
          const out = { picks, german: await i.useLanguage('de-AT') };
          out.one = i.t('home.queue', { count: 1 }); out.many = i.t('home.queue', { count: 1234 });
          out.span = i.formatSpan({ hours: 1, minutes: 5 });
          out.lang = document.documentElement.lang;
          out.arabic = await i.useLanguage('ar-EG');
          out.two = i.t('home.queue', { count: 2 }); out.dir = document.documentElement.dir;
          await i.useLanguage('en');
          done(out);
        }).catch(e => done({ error: String(e) }));""")
    assert "error" not in result, result
    assert result["picks"] == ["de", "zh-Hans", "zh-Hans", "zh-Hans", "fr", None, "ar", "nl"]
    assert result["german"] == "de" and result["lang"] == "de"
    assert result["one"] == "1 Antwort wartet auf das Hochladen"
    assert result["many"] == "1.234 Antworten warten auf das Hochladen"
    assert "Stunde" in result["span"] and "Minuten" in result["span"]
    assert result["arabic"] == "ar" and result["dir"] == "rtl"
    assert result["two"] == "إجابتان بانتظار الرفع"


def test_the_study_language_switch(server, chromium_in, screenshot):
    """A study in more than one language offers a switch on the join page; choosing re-fetches it."""
    chromium = chromium_in("de-AT")
    info = study_info(server, "de-AT")
    languages = info.get("languages")
    if not languages:
        pytest.skip("the server's StudyInfo has no `languages` yet (server side not built)")
    app = App(chromium, server, screenshot)
    app.open("/join/demo")
    app.step("consent")
    if len(languages) < 2:
        assert not app.visible("#language-select"), "a single-language study shows a language switch"
        return
    other = next(tag for tag in languages if tag != info["language"])
    app.select("#language-select", other)
    wait_until(lambda: app.visible("#language-select")
               and app.visible("#language-select")[0].get_attribute("value") == other, 15, "the study in " + other)
    screenshot("join-consent-switched-to-" + other, app.driver)


def test_the_shared_language_cases_choose_as_momentary_core_does(server, browser):
    """Tests/Shared/language-cases.json's `choose` cases through i18n.js's chooseLanguage, the rule
    the app picks a study's language by (join page, settings) and builds catalogueFor on;
    SharedLanguageCasesTests.swift runs the same cases in MomentaryCore. A case that disagrees fails
    here, so the two cannot drift apart. (No eval: the page's Content-Security-Policy forbids it.)"""
    with open(LANGUAGE_CASES, encoding="utf-8") as file:
        cases = json.load(file)["choose"]
    assert cases, "language-cases.json has no `choose` cases"
    browser.get(server.base_url + "/app")
    outcome = browser.execute_async_script("""
        const [cases, done] = arguments;
        import(new URL('/app/js/i18n.js', location.href).href).then((i) => {
          if (typeof i.chooseLanguage !== 'function') return done({ error: 'i18n.js exports no chooseLanguage' });
          done({ got: cases.map((c) => {
            try { return i.chooseLanguage(c.available, c.preferences); } catch (e) { return 'threw ' + e; }
          }) });
        }).catch((e) => done({ error: String(e && e.stack || e) }));""", cases)
    assert "error" not in outcome, outcome["error"]
    wrong = ["- %s: available %s, preferences %s: chose %r, expected %r"
             % (case["name"], case["available"], case["preferences"], got, case["expect"])
             for case, got in zip(cases, outcome["got"]) if got != case["expect"]]
    assert not wrong, "%d of %d shared language cases disagree with i18n.js's chooseLanguage:\n%s" % (
        len(wrong), len(cases), "\n".join(wrong))
