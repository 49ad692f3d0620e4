"""A researcher builds a survey question by question with the survey builder's forms: every question
type, one shown only on a radio button's answer, one moved up; then takes the survey out of use.
"""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import website_study as steps

BUILT_SURVEY_NAME = "Built with forms"

# One question of every type, with the form's fields by their input names. The yes/no question
# is shown only when the radio button (built_3) is answered "work".
BUILT_QUESTIONS = [
    ("info_text_box", {}),
    ("slider", {"min": "0", "max": "10", "min_label": "Not at all", "max_label": "Very"}),
    ("radio_button", {"options": "At home = home\nAt work = work"}),
    ("yes_no", {"condition_question": "built_3", "condition_operator": "==", "condition_value": "work"}),
    ("checkbox", {"options": "Eating\nWorking"}),
    ("people", {"options": "Partner\nFriends"}),
    ("free_response", {"text_field_type": "MULTI_LINE_TEXT"}),
    ("number", {"min": "0", "max": "100"}),
    ("tokens", {"suggestions": "alone\nfriends"}),
    ("date", {}), ("time", {}), ("date_time", {}),
    ("location", {}), ("photo", {}), ("sound_level", {}),
    ("audio_recording", {"max_duration_seconds": "30"}),
]


@pytest.fixture(scope="module")
def study(website):
    """A study with its first survey (SURVEY_NAME) added through the new-survey form."""
    steps.sign_in(website)
    made = steps.create_study(website, steps.new_slug("builder"))
    steps.add_survey(website, made)
    return made


@pytest.fixture(scope="module")
def built(website, study):
    """The built survey's editor path and how many questions it started with, once every question is added."""
    website.open("/studies/%s/surveys" % study.slug, "Surveys")
    steps.submit_new_survey(website, study, BUILT_SURVEY_NAME, "esm")
    website.expect_page(BUILT_SURVEY_NAME)
    editor = website.path()
    starter = len(steps.editor_document(website)["content"])
    for number, (question_type, fields) in enumerate(BUILT_QUESTIONS, start=1):
        add_question(website, editor, number, question_type, fields)
    return editor, starter


def add_question(website, editor, number, question_type, fields):
    """The editor's "new question" form for `question_type`, filled in and saved as the next version."""
    website.driver.get(website.url(editor))
    website.expect_page(BUILT_SURVEY_NAME)
    Select(website.field("#new-question-type")).select_by_value(question_type)
    website.submit("form[action$='/questions/new']")
    website.expect_page("A new %s question" % question_type)
    website.fill("#question_id", "built_%d" % number)
    website.fill("#text", "Built %s question?" % question_type)
    for name, value in fields.items():
        element = website.field("[name=%s]" % name)
        if element.tag_name == "select":
            Select(element).select_by_value(value)
        elif element.tag_name == "textarea":
            website.set_value("[name=%s]" % name, value)
        else:
            website.fill("[name=%s]" % name, value)
    website.forget_exchanges()
    website.submit("form[action*='/questions']")
    try:
        website.expect_page(BUILT_SURVEY_NAME)
    except AssertionError as error:
        raise AssertionError("adding the %s question: %s; problems shown: %s"
                             % (question_type, error, website.problems_shown())) from None
    notices = " ".join(website.texts(".notice"))
    assert "Saved as version %d" % (number + 1) in notices, \
        "after adding the %s question the page says “%s”" % (question_type, notices or "(nothing)")


def test_every_question_type_is_stored_as_its_form_said(website, built):
    editor, starter = built
    website.open(editor, BUILT_SURVEY_NAME)
    document = steps.editor_document(website)
    questions = [question for question in document["content"] if question["question_id"].startswith("built_")]
    assert [question["question_type"] for question in questions] == [kind for kind, _ in BUILT_QUESTIONS], \
        "the built survey holds the types %s" % [question["question_type"] for question in questions]
    where = next(question for question in questions if question["question_type"] == "radio_button")
    assert where["answers"] == [{"text": "At home", "value": "home"}, {"text": "At work", "value": "work"}], \
        "the radio button's options were stored as %s" % where["answers"]
    follow = next(question for question in questions if question.get("display_if"))
    assert follow["display_if"] == {"==": [where["question_id"], "work"]}, \
        "the condition was stored as %s" % follow["display_if"]
    slider = next(question for question in questions if question["question_type"] == "slider")
    assert (slider["min"], slider["max"], slider.get("max_label")) == (0, 10, "Very"), \
        "the slider was stored as %s" % slider
    listed = steps.editor_questions(website)
    assert listed == starter + len(BUILT_QUESTIONS), "the editor lists %d questions" % listed


def test_the_last_question_moves_up_one_place(website, built):
    editor, starter = built
    website.open(editor, BUILT_SURVEY_NAME)
    last = starter + len(BUILT_QUESTIONS)
    website.click_to_leave(website.field("button[aria-label='Move question %d up']" % last), "moving the last question up")
    website.expect_page(BUILT_SURVEY_NAME)
    order = [question["question_id"] for question in steps.editor_document(website)["content"]]
    expected = "built_%d" % len(BUILT_QUESTIONS)
    assert order[-2] == expected, "after moving it up, the last question %s is at %d" % (expected, order.index(expected) + 1)


def test_a_deactivated_survey_is_listed_so_and_the_first_stays_in_use(website, study, built):
    website.open("/studies/%s/surveys" % study.slug, "Surveys")
    website.click_to_leave(website.field("button[aria-label='Deactivate %s']" % BUILT_SURVEY_NAME),
                           "deactivating the built survey")
    website.expect_page("Surveys")
    states = {}
    for row in website.driver.find_elements(By.CSS_SELECTOR, "table tr"):
        cells = row.find_elements(By.TAG_NAME, "td")
        if len(cells) >= 4:
            states[cells[0].find_element(By.CSS_SELECTOR, "a").text.strip()] = cells[3].text
    assert states.get(BUILT_SURVEY_NAME, "").startswith("Deactivated") \
        and states.get(study.survey_name, "").startswith("Active"), "after deactivating, the surveys list says %s" % states
    assert not website.driver.find_elements(By.CSS_SELECTOR, ".problems"), "the study still has a survey to answer"
