"""A researcher invites participants on the website and reads what one of them answered.

The invitees page makes codes; a participant registers with one through the participant API
(without one the invitation-only study refuses) and answers the survey; the responses page lists
the answer and its page shows each answer as a researcher reads it. The tests run in file order.
"""
import pytest
from selenium.webdriver.common.by import By

import website_study as steps
from website_study import SURVEY

# How the response page shows each answer of steps.ANSWERS: choices by their labels (with the
# stored value), yes/no in words, texts as written, and why an answer is missing.
PAGE_ANSWERS = {
    "intro": "not shown",
    "happy": "72",
    "where": "At work (work)",
    "with_whom": "Nobody (alone); Friends (friends)",
    "outdoors": "No",
    "note": 'Walking, "testing" the export',
    "coffees": "skipped",
}


@pytest.fixture(scope="module")
def study(website):
    """An invitation-only study whose survey is steps.SURVEY, saved in the editor."""
    steps.sign_in(website)
    made = steps.create_study(website, steps.new_slug("responses"))
    steps.add_survey(website, made)
    steps.save_survey(website, made)
    return made


def test_invitees_page_makes_codes_with_join_links(website, study):
    steps.create_invitees(website, study)


def test_a_participant_registers_with_a_code_and_answers(server, study):
    steps.respond_through_api(server, study)


def test_the_response_is_listed_and_its_page_shows_each_answer(website, study):
    website.open("/studies/%s" % study.slug, "")
    website.follow("Responses", "Responses")
    link = None
    for candidate in website.driver.find_elements(By.CSS_SELECTOR, "table a"):
        if candidate.get_attribute("href").lower().endswith("/responses/" + study.response_id):
            link = candidate
    assert link is not None, "the responses page has no link to response %s" % study.response_id
    cells = [cell.text.strip() for cell in link.find_element(By.XPATH, "./ancestor::tr").find_elements(By.TAG_NAME, "td")]
    assert cells[1] == study.participant_code, \
        "the response is listed for participant “%s”, not %s" % (cells[1], study.participant_code)
    assert cells[2] == study.survey_name, "the response is listed for survey “%s”, not %s" % (cells[2], study.survey_name)

    website.click_to_leave(link, "opening response %s" % study.response_id)
    website.expect_page("Response")
    summary = " ".join(website.texts("main p"))
    assert "Participant %s" % study.participant_code in summary, "the response page says “%s”" % summary[:200]
    assert "%s v%d" % (study.survey_name, study.survey_version) in summary, \
        "the response page does not name %s v%d: “%s”" % (study.survey_name, study.survey_version, summary[:200])
    assert study.time_zone in summary, "the response page gives no time in %s: “%s”" % (study.time_zone, summary[:300])
    # Rows are: question text with its id, the answer as read, the type.
    shown = {}
    for row in website.table_rows():
        for question in SURVEY["content"]:
            if len(row) == 3 and row[0] == "%s %s" % (question["question_text"], question["question_id"]):
                shown[question["question_id"]] = row[1]
    for question_id, expected in PAGE_ANSWERS.items():
        assert question_id in shown, "the response page lists no answer to %s (rows: %s)" % (question_id, website.table_rows())
        assert shown[question_id] == expected, "the page shows %s = %r, expected %r" % (question_id, shown[question_id], expected)
    context = dict(context_rows(website))
    assert context.get("Connection") == "wifi" and context.get("Steps") == "1234", \
        "the response page's context is %s, expected Connection wifi and Steps 1234" % context


def context_rows(website):
    """(heading, value) of each table row with one header cell and one data cell: the response's context."""
    rows = []
    for row in website.driver.find_elements(By.CSS_SELECTOR, "table tr"):
        header, cells = row.find_elements(By.TAG_NAME, "th"), row.find_elements(By.TAG_NAME, "td")
        if len(header) == 1 and len(cells) == 1:
            rows.append((header[0].text.strip(), cells[0].text.strip()))
    return rows
