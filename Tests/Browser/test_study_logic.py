"""Study logic in the participant web app, in Chromium and in WebKit: a question names an earlier
answer, a score and a participant variable set from the registration answers; a group of
questions comes in a random order, which is sent with the response; a question shows only when a
score calls for it. The wide export, read with pandas, has the score, the order shown and the
variable."""
import io
import json

import pandas

from participant import DEMO_REGISTRATION, import_study, study_document, wait_for_rows

SLUG = "study-logic"

SURVEY = {
    "content": [
        {"question_id": "pa1", "question_type": "slider", "question_text": "How cheerful do you feel?", "min": 1, "max": 5},
        {"question_id": "pa2", "question_type": "slider", "question_text": "How tired do you feel?", "min": 1, "max": 5},
        {"question_id": "pa3", "question_type": "slider", "question_text": "How relaxed do you feel?", "min": 1, "max": 5},
        {"question_id": "with_whom", "question_type": "radio_button", "question_text": "Who are you with?",
         "answers": [{"text": "your partner", "value": "partner"}, {"text": "colleagues", "value": "colleagues"}]},
        {"question_id": "close", "question_type": "slider", "min": 0, "max": 10,
         "question_text": "You are with {{answer:with_whom|label}}, mood {{score:pa_mean}}, far from {{var:home|else:home}}. How close do you feel?"},
        {"question_id": "low", "question_type": "free_response", "question_text": "What is weighing on you?",
         "display_if": {"<": ["pa_mean", 3]}},
    ],
    "scores": [{"id": "pa_mean", "mean": ["pa1", "pa2", "pa3"], "reverse": ["pa2"], "label": "Positive affect"}],
    "randomize_groups": [["pa1", "pa2", "pa3"]],
}


# A registration survey of its own: other tests change the demo study's (its languages, for one).
REGISTRATION = {"content": [{"question_id": "country", "question_type": "free_response",
                             "question_text": "Which country do you live in?"}]}


def logic_study(server):
    document = study_document(server, SLUG, "Study logic", SURVEY, registration=REGISTRATION)
    # In English only, whatever other tests have done to the demo study this document starts from.
    document.pop("languages", None)
    document["consent_text"] = "I agree to take part."
    document["participant_variables"] = [
        {"id": "home", "type": "text", "label": "Country of residence", "from_registration": "country"},
    ]
    import_study(server, document)


def test_piped_texts_random_order_and_scores_reach_the_export(any_app, server):
    if not server.rows("studies", slug=SLUG):
        logic_study(server)
    app = any_app
    participant_id = app.join(SLUG, registration={"country": DEMO_REGISTRATION["country"]}, notifications=False)

    app.click("#volunteer")
    answers = {"pa1": ("slider", 4), "pa2": ("slider", 2), "pa3": ("slider", 5),
               "with_whom": ("radio_button", "partner"), "close": ("slider", 8)}
    texts = {}

    def note(question_id):
        texts[question_id] = app.text('[data-question-id="%s"] h1' % question_id)

    shown = app.answer_survey(answers, each=note)
    app.finish_survey()
    # The group comes first in some order; then the rest in the survey's order. Cheerful 4, tired 2
    # reversed to 4, relaxed 5: a mean of 4.33, so "low" stays hidden.
    assert sorted(shown[:3]) == ["pa1", "pa2", "pa3"] and shown[3:] == ["with_whom", "close"], shown
    assert texts["close"] == "You are with your partner, mood 4.33, far from United Kingdom. How close do you feel?", texts

    response = wait_for_rows(server, "responses", 1, participant_id=participant_id, kind="esm")[0]
    assert json.loads(response["presented_order"]) == shown + ["low"]
    assert abs(json.loads(response["scores"])["pa_mean"] - 13 / 3) < 1e-12

    wide = pandas.read_csv(io.StringIO(server.cli("export", "--study", SLUG, "--format", "wide").stdout),
                           dtype=str, keep_default_na=False)
    row = wide[wide["participant_id"] == participant_id.lower()].iloc[0]
    assert abs(float(row["pa_mean"]) - 13 / 3) < 1e-9
    assert json.loads(row["presented_order"]) == shown + ["low"]
    assert row["var_home"] == "United Kingdom"
    assert row["low_status"] == "NOT_PRESENTED"
