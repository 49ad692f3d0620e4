"""A researcher makes a study on the website: signs in, creates an invitation-only study, adds a
survey through the new-survey form and writes it in the survey editor.

The tests run in file order, each going on with the study the one before left, as a researcher
would; HTTP statuses (the redirect after a save, the 422 of a refusal) come from Chromium's
performance log.
"""
import json

import pytest

import website_study as steps
from website_study import SURVEY_NAME

# The problem the new-survey form shows when a second survey gets the same name.
DUPLICATE_NAME_PROBLEM = "This study already has a survey called “%s”." % SURVEY_NAME

# Two documents the editor must refuse: one that is not JSON at all, and one that parses but
# reuses a question id (the editor lists the problem naming the question).
NOT_JSON = '{"content": [ this is not JSON'
DUPLICATE_ID = {
    "content": [
        {"question_id": "mood", "question_type": "yes_no", "question_text": "Good mood?"},
        {"question_id": "mood", "question_type": "yes_no", "question_text": "Still a good mood?"},
    ]
}


@pytest.fixture(scope="module")
def made():
    """What the tests have made so far (the study, once created)."""
    return {}


def test_signing_in_leads_to_the_studies(website):
    steps.sign_in(website)


def test_new_study_form_makes_an_invitation_only_study(website, made):
    made["study"] = steps.create_study(website, steps.new_slug("studies"))


def test_new_survey_opens_in_its_editor_and_a_second_of_the_same_name_is_refused(website, made):
    study = made["study"]
    steps.add_survey(website, study)

    # A second survey with the same name: 422, the problem shown, the name kept, nothing added.
    listing = "/studies/%s/surveys" % study.slug
    exchanges = steps.submit_new_survey(website, study, SURVEY_NAME, "esm")
    website.expect_page("Surveys")
    assert exchanges and exchanges[-1][:3] == ("POST", website.url(listing), 422), \
        "adding a second “%s” was answered %s, expected POST %s 422" % (SURVEY_NAME, exchanges, listing)
    problem = " ".join(website.texts("p.problem"))
    assert problem == DUPLICATE_NAME_PROBLEM, "adding a second “%s” shows the problem “%s”, expected “%s”" % (
        SURVEY_NAME, problem or "(none)", DUPLICATE_NAME_PROBLEM)
    kept = website.field("form#new-survey input[name=name]").get_attribute("value")
    assert kept == SURVEY_NAME, "the refused form shows the name “%s”, not “%s”" % (kept, SURVEY_NAME)
    rows = steps.listed_surveys(website)
    assert [row[:3] for row in rows] == [(SURVEY_NAME, "esm", 1)], \
        "after the refused duplicate the list shows %s" % [row[:3] for row in rows]


def test_survey_editor_refuses_invalid_documents_and_keeps_their_text(website, made):
    study = made["study"]
    version = steps.open_editor_from_list(website, study)
    editor = study.survey_editor
    for document, expected_problem in (
        (NOT_JSON, "not valid JSON"),
        (json.dumps(DUPLICATE_ID, indent=2), "already used by question 1"),
    ):
        website.set_value("#document", document)
        website.forget_exchanges()
        website.submit("form[action='%s']" % editor)
        website.expect_page(study.survey_name)
        exchanges = website.document_exchanges()
        assert exchanges and exchanges[-1][:3] == ("POST", website.url(editor), 422), \
            "an invalid survey was answered %s, expected POST %s 422" % (exchanges, editor)
        problems = website.problems_shown()
        assert expected_problem in problems, \
            "after an invalid survey the page shows problems “%s”, expected one containing “%s”" % (
                problems or "(none)", expected_problem)
        assert steps.editor_version(website) == version, \
            "after an invalid survey the heading says “%s”, not version %d" % (website.heading(), version)
        shown = website.field("#document").get_attribute("value")
        assert shown == document, "the editor did not keep the refused text for correcting"
    after_invalid = {name: v for name, _, v, _ in steps.survey_rows(website, study)}
    assert after_invalid.get(study.survey_name) == version, \
        "invalid surveys changed the version on the survey list to %s (was %d)" % (
            after_invalid.get(study.survey_name), version)


def test_survey_editor_saves_a_valid_document_as_the_next_version(website, made):
    steps.save_survey(website, made["study"])
