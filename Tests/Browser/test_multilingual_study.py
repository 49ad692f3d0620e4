"""A study in two languages, walked end to end in a browser that prefers another language.

German (Chromium set to de-AT, study ["en", "de"]): the join page, consent and app words in
German; the registration and experience-sampling surveys' questions in German; a beep whose Web
Push notification carries the German alert; the long export's `language` column and the
codebook's `question_text_de`; then English chosen in the app's settings, after which the next
survey and the status are English.

Arabic (Chromium set to ar, study ["en", "ar"]): the same walk right to left, axe-core on every
screen.

Every screen is photographed at 390×844 into MOMENTARY_SCREENSHOTS (multilingual-de-…,
multilingual-ar-…) for a person to look at. The study is imported with `momentary studies import`,
as a researcher would.
"""
import io
import json
import uuid
from datetime import datetime, timedelta, timezone

import pandas
import pytest

from harness import assert_fits_width, catalogue, page_language, wait_until
from participant import App, import_study, study_document, wait_for_rows

TIMEOUT = 15


def both(en, other, tag):
    return {"en": en, tag: other}


# The study's texts: English, German and Arabic. Options carry a `value`, so what is stored does
# not depend on the participant's language.
TEXTS = {
    "name": ("Moments of the day", {"de": "Momente des Tages", "ar": "لحظات اليوم"}),
    # A line break within a paragraph is the researchers' and stays one on the phone.
    "consent": ("Taking part is voluntary.\nYou can leave at any time from the app.",
                {"de": "Die Teilnahme ist freiwillig.\nSie können jederzeit in der App aussteigen.",
                 "ar": "المشاركة طوعية.\nيمكنك المغادرة في أي وقت من التطبيق."}),
    "alert": ("How are you right now?", {"de": "Wie geht es Ihnen gerade?", "ar": "كيف حالك الآن؟"}),
    "age": ("How old are you?", {"de": "Wie alt sind Sie?", "ar": "كم عمرك؟"}),
    "young": ("Under 30", {"de": "Unter 30", "ar": "أقل من ٣٠"}),
    "old": ("30 or over", {"de": "30 oder älter", "ar": "٣٠ أو أكثر"}),
    "happy": ("How happy do you feel?", {"de": "Wie glücklich fühlen Sie sich?", "ar": "ما مدى سعادتك؟"}),
    "not_at_all": ("Not at all", {"de": "Gar nicht", "ar": "إطلاقًا"}),
    "extremely": ("Extremely", {"de": "Äußerst", "ar": "للغاية"}),
    "where": ("Where are you?", {"de": "Wo sind Sie?", "ar": "أين أنت؟"}),
    "home": ("At home", {"de": "Zu Hause", "ar": "في المنزل"}),
    "work": ("At work", {"de": "Bei der Arbeit", "ar": "في العمل"}),
    "with_whom": ("Who is with you?", {"de": "Wer ist bei Ihnen?", "ar": "من معك؟"}),
    "alone": ("Nobody", {"de": "Niemand", "ar": "لا أحد"}),
    "friends": ("Friends", {"de": "Freunde", "ar": "أصدقاء"}),
    "outside": ("Are you outdoors?", {"de": "Sind Sie im Freien?", "ar": "هل أنت في الخارج؟"}),
    "note": ("Anything else?", {"de": "Sonst noch etwas?", "ar": "هل من شيء آخر؟"}),
}


def text(key, tag):
    english, others = TEXTS[key]
    return both(english, others[tag], tag)


def word(key, tag):
    """The text as a participant in `tag` reads it."""
    english, others = TEXTS[key]
    return english if tag == "en" else others[tag]


def surveys(tag):
    registration = {"content": [
        {"question_id": "age", "question_type": "radio_button", "required": True, "question_text": text("age", tag),
         "answers": [{"text": text("young", tag), "value": "under30"}, {"text": text("old", tag), "value": "30plus"}]},
    ]}
    esm = {"content": [
        {"question_id": "happy", "question_type": "slider", "min": 0, "max": 100, "step": 1, "required": True,
         "question_text": text("happy", tag), "min_label": text("not_at_all", tag), "max_label": text("extremely", tag)},
        {"question_id": "where", "question_type": "radio_button", "question_text": text("where", tag),
         "answers": [{"text": text("home", tag), "value": "home"}, {"text": text("work", tag), "value": "work"}]},
        {"question_id": "with_whom", "question_type": "checkbox", "question_text": text("with_whom", tag),
         "answers": [{"text": text("alone", tag), "value": "alone"}, {"text": text("friends", tag), "value": "friends"}]},
        {"question_id": "outside", "question_type": "yes_no", "question_text": text("outside", tag)},
        {"question_id": "note", "question_type": "free_response", "question_text": text("note", tag)},
    ]}
    return registration, esm


# What each question should show (its text and, for choices, its options' words), by question id.
SHOWN = {
    "age": ["age", "young", "old"],
    "happy": ["happy", "not_at_all", "extremely"],
    "where": ["where", "home", "work"],
    "with_whom": ["with_whom", "alone", "friends"],
    "outside": ["outside"],
    "note": ["note"],
}
ANSWERS = {
    "happy": ("slider", 61),
    "where": ("radio_button", "work"),
    "with_whom": ("checkbox", ["friends"]),
    "outside": ("yes_no", True),
    "note": ("free_response", "Alles gut."),
}


def import_multilingual_study(server, slug, tag):
    registration, esm = surveys(tag)
    document = study_document(server, slug, word("name", "en"), esm, registration=registration)
    document.update(languages=["en", tag], name=text("name", tag), consent_text=text("consent", tag),
                    alert_text=text("alert", tag))
    import_study(server, document)
    exported = json.loads(server.cli("studies", "export", slug).stdout)
    assert exported.get("languages") == ["en", tag], "the study's languages after import: %s" % exported.get("languages")


@pytest.fixture(scope="module")
def german_study(server):
    import_multilingual_study(server, "momente-de", "de")
    return "momente-de"


@pytest.fixture(scope="module")
def arabic_study(server):
    import_multilingual_study(server, "lahazat-ar", "ar")
    return "lahazat-ar"


def stored(driver, key):
    """A value the app keeps in IndexedDB (momentary/kv), through its own store.js."""
    return driver.execute_async_script("""
        const [key, done] = arguments;
        import('/app/js/store.js').then((s) => s.get(key)).then(done, (e) => done({error: String(e)}));""", key)


class Walk:
    """One participant in one language: looks at each screen (screenshot, language, width, axe)."""

    def __init__(self, app, tag, screenshot, axe_check=None):
        self.app, self.tag, self.screenshot, self.axe_check = app, tag, screenshot, axe_check
        self.words = catalogue(tag)

    def look(self, name, tag=None):
        tag = tag or self.tag
        driver = self.app.driver
        wait_until(lambda: page_language(driver)[0] == tag, TIMEOUT, "the page to be in %s" % tag)
        self.screenshot("multilingual-%s-%s" % (self.tag, name), driver)
        assert page_language(driver) == [tag, "rtl" if tag == "ar" else "ltr"], (
            "%s: the page says lang/dir %s" % (name, page_language(driver)))
        assert_fits_width(driver, name)
        if self.axe_check:
            self.axe_check(driver, "%s %s" % (self.tag, name))

    def question_shows(self, question_id, tag=None):
        """Checks the question on screen shows its texts (and options) in `tag`."""
        tag = tag or self.tag
        _, container = self.app.current_question()
        shown = container.text
        for key in SHOWN[question_id]:
            assert word(key, tag) in shown, "question %s: “%s” not shown in %s; it shows: %s" % (
                question_id, word(key, tag), tag, shown.replace("\n", " | "))
        if tag != "en":
            for key in SHOWN[question_id]:
                assert word(key, "en") not in shown, "question %s still shows the English “%s”" % (
                    question_id, word(key, "en"))

    def answer(self, answers, name, finish="#survey-submit"):
        def each(question_id):
            self.question_shows(question_id)
            self.look("%s-%s" % (name, question_id))
        return self.app.answer_survey(answers, finish=finish, each=each)

    def join(self, slug, server, push_service, chromium):
        """Through consent, registration, settings and notifications, every step in `tag`."""
        app, tag = self.app, self.tag
        self.subscription = push_service.subscribe(server.web_push_key())
        chromium.install_push_seam(self.subscription)
        before = server.participant_ids()
        app.open("/join/%s" % slug)
        app.step("consent")
        consent = app.text("#consent-text")
        assert consent == word("consent", tag), "the consent shows “%s”" % consent
        assert word("name", tag) in app.page_text(), "the study's name in %s is not shown" % tag
        assert app.text("#consent-next") == self.words["join.continue"]
        assert self.words["join.consent.agree"] in app.page_text()
        select = app.wait_visible("#language-select")
        assert select.get_attribute("value") == tag, "the language switch says %s" % select.get_attribute("value")
        self.look("join-consent")
        app.click("#consent-checkbox")
        app.click("#consent-next")

        app.step("registration")
        assert self.answer({"age": ("radio_button", "30plus")}, "join-registration",
                           finish="#registration-next") == ["age"]

        app.step("settings")
        self.look("join-settings")
        app.click("#settings-next")

        app.step("notifications")
        app.click("#enable-notifications")
        wait_until(lambda: "ok" in (app.wait_visible("#push-status").get_attribute("class") or "").split(),
                   TIMEOUT, "#push-status to say notifications are on")
        assert app.text("#push-status") == self.words["push.on"]
        self.look("join-notifications")
        assert app.text("#join-submit") == self.words["join.submit"]
        app.click("#join-submit")
        app.wait_home()
        new = wait_until(lambda: server.participant_ids() - before, TIMEOUT, "the new participant")
        assert len(new) == 1
        participant_id = new.pop()
        self.home("home")
        return participant_id

    def home(self, name, tag=None, answers=None):
        """Home once its figures arrived (with `answers` counted, if given), in `tag`."""
        tag = tag or self.tag
        app = self.app
        app.wait_visible("#home")
        figure = lambda: app.text("#stat-responses").strip()  # noqa: E731
        wait_until(lambda: figure().isdigit() and (answers is None or int(figure()) == answers), 20,
                   "home's figures (#stat-responses says %r)" % figure())
        assert app.text("#volunteer") == catalogue(tag)["home.volunteer"]
        assert word("name", tag) in app.page_text(), "home does not show the study's name in %s" % tag
        if answers == 1 and tag != "en":
            # The server's status line, in the participant's language too. (Compared with English
            # only: the server writes it from the catalogues built into the binary, which may be
            # older or newer than the app's files under test.)
            message = app.text("#status-message")
            assert message and message != catalogue("en")["status.first_response"], (
                "home's status line is “%s” for a participant in %s" % (message, tag))
        self.look(name, tag)

    def beep(self, participant_id, server, push_service, chromium, tag=None):
        """A beep through Web Push: its alert and the notification's title in `tag`; returns the beep id."""
        tag = tag or self.tag
        beep_id = server.beep_now(participant_id)
        assert server.rows("participants", id=participant_id)[0]["push_token"] == self.subscription["endpoint"]
        payload = push_service.wait_for_payload(self.subscription["id"], beep_id)
        assert payload["alert"] == word("alert", tag), "the push carries the alert “%s”" % payload["alert"]
        chromium.deliver_push(payload)
        shown = wait_until(lambda: [n for n in chromium.notifications() if n.get("tag") == beep_id], TIMEOUT,
                           "the notification of beep %s" % beep_id)
        assert shown[0]["body"] == word("alert", tag)
        assert shown[0]["title"] == word("name", tag), "the notification's title is “%s”" % shown[0]["title"]
        return beep_id, shown[0]["data"]["url"]


def export(server, slug, kind):
    return pandas.read_csv(io.StringIO(server.cli("export", "--study", slug, "--format", kind).stdout))


def participant_status(server, driver):
    creds = stored(driver, "creds")
    assert creds and "secret" in creds, "the app keeps no credentials: %s" % creds
    return server.api("GET", "/api/v1/status", credentials=(creds["participant_id"], creds["secret"]))


def test_a_german_participant_walks_a_study_in_english_and_german(server, push_service, chromium_in, screenshot,
                                                                   axe_check, german_study):
    slug = german_study
    chromium = chromium_in("de-AT")
    app = App(chromium, server, screenshot)
    walk = Walk(app, "de", screenshot, axe_check)

    participant_id = walk.join(slug, server, push_service, chromium)
    participant = server.rows("participants", id=participant_id)[0]
    assert participant["language"] == "de", "the participant was registered in %s" % participant["language"]
    registration = [row for row in server.rows("responses", participant_id=participant_id) if row["kind"] == "registration"]
    assert len(registration) == 1
    assert {row["question_id"]: json.loads(row["value"]) for row in server.rows("answers", response_id=registration[0]["id"])} \
        == {"age": "30plus"}
    assert participant_status(server, app.driver).get("language") == "de"

    # A beep: German alert in the push and the notification; tapping it opens the German survey.
    beep_id, url = walk.beep(participant_id, server, push_service, chromium)
    app.open(url)
    asked = walk.answer(ANSWERS, "survey")
    assert asked == ["happy", "where", "with_whom", "outside", "note"]
    app.finish_survey()
    assert app.text("#survey-done h1") == walk.words["done.title"]
    walk.look("survey-done")
    app.click("#done-home")
    walk.home("home-after-an-answer", answers=1)
    response = wait_until(lambda: server.rows("responses", beep_id=beep_id), 20, "the answer to the beep")[0]
    stored_answers = {row["question_id"]: json.loads(row["value"]) for row in server.rows("answers", response_id=response["id"])
                      if row["value"] is not None}
    assert stored_answers == {"happy": 61, "where": "work", "with_whom": ["friends"], "outside": True,
                              "note": "Alles gut."}

    # The exports: the answer's language, and the German texts beside the English in the codebook.
    long = export(server, slug, "long")
    assert "language" in long.columns, "the long export has no language column: %s" % list(long.columns)
    mine = long[long["beep_id"].astype(str).str.lower() == beep_id]
    assert len(mine) >= 5, "the long export has %d rows for the beep" % len(mine)
    assert set(mine["language"]) == {"de"}, "the beep's rows say language %s" % set(mine["language"])
    assert set(mine.loc[mine["question_id"] == "happy", "question_text"]) == {word("happy", "en")}, (
        "the long table's question_text is the default language's")
    codebook = export(server, slug, "codebook")
    assert "question_text_de" in codebook.columns, "the codebook's columns: %s" % list(codebook.columns)
    happy = codebook[codebook["question_id"] == "happy"]
    assert set(happy["question_text"]) == {word("happy", "en")}
    assert set(happy["question_text_de"]) == {word("happy", "de")}

    # English chosen in the app's settings: the app, the status and the next survey follow.
    app.open("/app/settings")
    app.wait_visible("#beeps-per-day")
    walk.look("settings")
    app.select("#language-select", "en")
    app.click("#settings-save")
    wait_until(lambda: page_language(app.driver)[0] == "en", TIMEOUT, "the app to switch to English")
    app.wait_visible("#settings-saved")
    english = catalogue("en")
    assert app.text("#settings-save") == english["settings.save"]
    assert app.text("#settings-saved") == english["settings.saved"]
    walk.look("settings-saved-english", tag="en")
    assert wait_until(lambda: server.rows("participants", id=participant_id)[0]["language"] == "en", TIMEOUT,
                      "the server to keep English")
    assert participant_status(server, app.driver).get("language") == "en"

    app.open("/app")
    walk.home("home-english", tag="en")
    app.click("#volunteer")

    def each(question_id):
        walk.question_shows(question_id, tag="en")
        walk.look("survey-english-%s" % question_id, tag="en")
    app.answer_survey({"happy": ("slider", 30), "where": ("radio_button", "home")}, each=each)
    app.finish_survey()
    assert app.text("#survey-done h1") == english["done.title"]
    volunteered = wait_for_rows(server, "responses", 1, participant_id=participant_id, volunteered=1)
    long = export(server, slug, "long")
    rows = long[long["response_id"].astype(str).str.lower() == volunteered[0]["id"]]
    assert len(rows) and set(rows["language"]) == {"en"}, "the English answer's rows say %s" % set(rows["language"])

    # The next beep comes in English too: the push's alert, and the notification's title (the
    # study's name, which the app took in English when the language changed).
    beep_id, url = walk.beep(participant_id, server, push_service, chromium, tag="en")
    app.open(url)
    _, container = app.current_question()
    assert word("happy", "en") in container.text


def test_an_arabic_participant_walks_a_study_right_to_left(server, push_service, chromium_in, screenshot, axe_check,
                                                           arabic_study):
    slug = arabic_study
    chromium = chromium_in("ar")
    app = App(chromium, server, screenshot)
    walk = Walk(app, "ar", screenshot, axe_check)

    participant_id = walk.join(slug, server, push_service, chromium)
    assert server.rows("participants", id=participant_id)[0]["language"] == "ar"

    beep_id, url = walk.beep(participant_id, server, push_service, chromium)
    app.open(url)
    assert walk.answer(dict(ANSWERS, note=("free_response", "كل شيء بخير")), "survey") == [
        "happy", "where", "with_whom", "outside", "note"]
    app.finish_survey()
    assert app.text("#survey-done h1") == walk.words["done.title"]
    walk.look("survey-done")
    wait_until(lambda: server.rows("responses", beep_id=beep_id), 20, "the answer to the beep")
    app.click("#done-home")
    walk.home("home-after-an-answer", answers=1)

    app.open("/app/settings")
    app.wait_visible("#beeps-per-day")
    assert app.wait_visible("#language-select").get_attribute("value") == "ar"
    walk.look("settings")

    long = export(server, slug, "long")
    mine = long[long["beep_id"].astype(str).str.lower() == beep_id]
    assert len(mine) and set(mine["language"]) == {"ar"}
    assert "question_text_ar" in export(server, slug, "codebook").columns


def test_the_join_pages_language_switch_fetches_the_study_in_the_other_language(server, chromium_in, screenshot,
                                                                                  german_study):
    chromium = chromium_in("de-AT")
    app = App(chromium, server, screenshot)
    walk = Walk(app, "de", screenshot)
    app.open("/join/%s" % german_study)
    app.step("consent")
    assert app.text("#consent-text") == word("consent", "de")
    for tag in ("en", "de"):
        app.select("#language-select", tag)
        wait_until(lambda: app.visible("#consent-text") and app.text("#consent-text") == word("consent", tag), TIMEOUT,
                   "the consent in %s" % tag)
        assert app.text("#consent-next") == catalogue(tag)["join.continue"]
        assert app.wait_visible("#language-select").get_attribute("value") == tag
        walk.look("join-consent-switched-to-%s" % tag, tag)


def test_a_german_participants_charts_summarise_a_score_named_in_german(server, chromium_in, screenshot, axe_check):
    """A study whose feedback subject is a score (the mean of two sliders): "My happiness" titles
    and draws it with the score's German label, at phone width, with axe-core."""
    registration, esm = surveys("de")
    esm["content"].insert(1, {"question_id": "calm", "question_type": "slider", "min": 0, "max": 100, "step": 1,
                              "question_text": both("How calm do you feel?", "Wie ruhig fühlen Sie sich?", "de")})
    esm["scores"] = [{"id": "mood", "mean": ["happy", "calm"], "label": both("Mood", "Stimmung", "de")}]
    document = study_document(server, "stimmung-de", word("name", "en"), esm, registration=registration)
    document.update(languages=["en", "de"], name=text("name", "de"), consent_text=text("consent", "de"),
                    alert_text=text("alert", "de"), feedback_enabled=True, feedback_question="mood")
    import_study(server, document)

    chromium = chromium_in("de-AT")
    app = App(chromium, server, screenshot)
    walk = Walk(app, "de", screenshot, axe_check)
    app.join("stimmung-de", registration={"age": ("radio_button", "30plus")}, notifications=False)
    creds = stored(app.driver, "creds")
    # Mood is the mean of the two sliders: 60, 70 and 80 at work; one at home.
    for minutes, (happy, calm, place) in enumerate([(50, 70, "work"), (60, 80, "work"), (90, 70, "work"), (40, 40, "home")]):
        started = datetime.now(timezone.utc) - timedelta(minutes=10 - minutes)
        server.api("POST", "/api/v1/responses", {
            "idempotency_key": str(uuid.uuid4()), "survey_version": 1,
            "started_at": started.isoformat().replace("+00:00", "Z"),
            "submitted_at": (started + timedelta(seconds=20)).isoformat().replace("+00:00", "Z"),
            "answers": [{"question_id": "happy", "answer": happy}, {"question_id": "calm", "answer": calm},
                        {"question_id": "where", "answer": place}]}, credentials=(creds["participant_id"], creds["secret"]))

    app.open("/app")
    app.click(app.wait_visible("#my-happiness"))
    chart = app.wait_visible("section.feedback svg[role=img]")
    work = "%s: 70" % word("work", "de")
    charts = [figure.get_attribute("aria-label") for figure in app.driver.find_elements("css selector", "section.feedback svg[role=img]")]
    assert any(work in label for label in charts), "no chart says “%s”: %s" % (work, charts)
    page = app.page_text()
    assert "Stimmung" in page and "Mood" not in page, "the charts are not titled with the German label: %s" % page
    assert chart.is_displayed()
    walk.look("my-happiness-score")


# ---- the server's side, checked through the API alone -----------------------------------------

def register(server, slug, language):
    """A participant registered through the participant API in `language`; returns (id, secret)."""
    body = {"study": slug, "consent": True, "timezone": "Europe/Vienna", "idempotency_key": str(uuid.uuid4()),
            "settings": {"beeps_per_day": 2, "start": "08:00", "end": "22:00"}, "push": {"channel": "none"},
            "registration_answers": [{"question_id": "age", "answer": "under30"}], "language": language,
            "device": {"model": "test", "os": "test", "app_version": "momentary-web 1"}}
    answer = server.api("POST", "/api/v1/participants", body)
    return answer["participant_id"].lower(), answer["secret"]


def registration_rows(server, slug, participant_id):
    long = export(server, slug, "long")
    return long[(long["participant_id"].astype(str).str.lower() == participant_id) & (long["survey"] == "Registration")]


def test_the_long_exports_question_text_is_the_default_languages(server, german_study):
    participant_id, _ = register(server, german_study, "de")
    rows = registration_rows(server, german_study, participant_id)
    assert list(rows["question_text"]) == [word("age", "en")], (
        "docs/languages.md: “question_text in the long table is the default language's text”; got %s"
        % list(rows["question_text"]))


def test_registration_answers_carry_the_language_they_were_given_in(server, german_study):
    participant_id, _ = register(server, german_study, "de")
    assert server.rows("participants", id=participant_id)[0]["language"] == "de"
    rows = registration_rows(server, german_study, participant_id)
    assert list(rows["language"]) == ["de"], "the registration answer's language: %s" % list(rows["language"])


def test_the_status_message_is_in_the_participants_language(server, german_study):
    participant_id, secret = register(server, german_study, "de")
    status = server.api("GET", "/api/v1/status", credentials=(participant_id, secret))
    assert status["language"] == "de"
    # The server's words come from the catalogues built into the binary (not MOMENTARY_WEB_APP_DIR's).
    german = catalogue("de")["status.welcome"].format(start="08:00", end="22:00")
    assert status["message"] == german, "a German participant's status says “%s”" % status["message"]


def test_the_language_switch_works_in_webkit_too(webkit_app, german_study):
    """Safari's engine: the join page's switch re-fetches the study and redraws the app's own words
    and the page's language; WebKitGTK's automation browser prefers English."""
    app = webkit_app
    app.open("/join/%s" % german_study)
    app.step("consent")
    for tag in ("de", "en", "de"):
        app.select("#language-select", tag)
        wait_until(lambda: app.visible("#consent-text") and app.text("#consent-text") == word("consent", tag), TIMEOUT,
                   "the consent in %s" % tag)
        assert app.text("#consent-next") == catalogue(tag)["join.continue"]
        assert app.driver.find_element("css selector", "html").get_attribute("lang") == tag
    app.screenshot("multilingual-join-consent-de")
