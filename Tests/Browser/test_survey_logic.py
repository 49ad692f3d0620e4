"""The web app's skip logic and answer validation agree with MomentaryCore's.

Runs every case of Tests/Shared/survey-cases.json through /app/js/survey-logic.js and
/app/js/survey-piping.js in Chromium;
Tests/MomentaryCoreTests/Surveys/SharedSurveyCasesTests.swift runs the same file in Swift. A case
that fails in either language fails its test, so the two implementations cannot drift apart.
"""
import json
import os

CASES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Shared", "survey-cases.json")

# The body of a function of (logic, piping, data) returning [{name, problems}] for the cases that do not
# match. Kept free of eval so the page's Content-Security-Policy (no 'unsafe-eval') allows it.
RUN_CASES_JS = r"""
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// {"$repeat": text, "times": n} stands for text repeated n times (see the file's "about").
const expand = (value) => {
  if (Array.isArray(value)) return value.map(expand);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 2 && own(value, '$repeat') && own(value, 'times')) return value.$repeat.repeat(value.times);
  return Object.fromEntries(keys.map((key) => [key, expand(value[key])]));
};

// JSON equality: objects regardless of key order, and a bool never equals a number.
const same = (a, b) => {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => own(b, key) && same(a[key], b[key]));
  }
  return a === b;
};

const show = (value) => {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 300 ? text.slice(0, 300) + '…' : text;
};

// Reasons that belong to one answer alone, which validateAnswer must give as well.
const PER_ANSWER = new Set(['wrong_type', 'out_of_range', 'unknown_option', 'duplicate_choice',
  'too_many_tokens', 'too_long', 'malformed_date', 'required_skipped']);

const problemsOf = (survey, answers, expect, variables) => {
  const problems = [];
  const questions = new Map();
  for (const question of survey.content) if (!questions.has(question.question_id)) questions.set(question.question_id, question);
  // The first answer per known question counts, as on the server.
  const firstAnswers = {};
  for (const entry of answers) {
    if (questions.has(entry.question_id) && !own(firstAnswers, entry.question_id)) firstAnswers[entry.question_id] = entry.answer;
  }

  const visible = logic.visibleQuestionIDs(survey, firstAnswers, variables);
  if (!same(visible, expect.visible)) problems.push(`visible ${show(visible)}, expected ${show(expect.visible)}`);

  // Scores and piped texts from the answers accepted so far; presented orders.
  const accepted = logic.acceptedAnswers(survey, firstAnswers, variables);
  for (const [id, value] of Object.entries(expect.scores ?? {})) {
    const score = logic.scoresOf(survey).find((item) => item.id === id);
    const got = score ? logic.scoreValue(survey, score, accepted) : null;
    if (!same(got, value)) problems.push(`score ${id} ${show(got)}, expected ${show(value)}`);
  }
  for (const [id, texts] of Object.entries(expect.piped ?? {})) {
    const question = questions.get(id);
    const piped = piping.pipedQuestion(survey, question, accepted, variables);
    const got = { text: piped.question_text };
    if (Array.isArray(piped.answers) && piped.answers.length > 0) got.options = piped.answers.map((option) => option.text);
    if (!same(got, texts)) problems.push(`piped ${id} ${show(got)}, expected ${show(texts)}`);
  }
  for (const { order, valid } of expect.orders ?? []) {
    const got = piping.isPresentableOrder(survey, order);
    if (got !== valid) problems.push(`order ${show(order)} allowed: ${got}, expected ${valid}`);
  }
  if (piping.randomizedGroups(survey).length > 0) {
    // Every order the app draws is one the server accepts, and the draws differ.
    const drawn = new Set();
    for (let draw = 0; draw < 50; draw += 1) {
      const order = piping.presentationOrder(survey);
      if (!piping.isPresentableOrder(survey, order)) problems.push(`drew ${show(order)}, which is not allowed`);
      drawn.add(order.join(' '));
    }
    if (drawn.size < 2) problems.push(`50 draws gave one order only: ${[...drawn]}`);
  }

  const outcome = logic.validateAnswers(survey, answers, variables);
  if (outcome.ok !== expect.valid) problems.push(`ok ${outcome.ok}, expected ${expect.valid}`);
  const errors = outcome.errors.map(({ question_id, reason }) => ({ question_id, reason }));
  if (!same(errors, expect.errors)) problems.push(`errors ${show(errors)}, expected ${show(expect.errors)}`);
  for (const error of outcome.errors) {
    if (typeof error.message !== 'string' || error.message.trim() === '') problems.push(`no message for ${show(error)}`);
  }
  if (expect.results) {
    const results = outcome.results.map((result) => {
      const shown = { question_id: result.question_id, status: result.status };
      if (own(result, 'value')) shown.value = result.value;
      return shown;
    });
    if (!same(results, expect.results)) problems.push(`results ${show(results)}, expected ${show(expect.results)}`);
  }

  // The one-question API gives the same verdict as the whole-survey one.
  for (const error of expect.errors) {
    if (!PER_ANSWER.has(error.reason)) continue;
    const single = logic.validateAnswer(questions.get(error.question_id), firstAnswers[error.question_id]);
    if (single === null || single.reason !== error.reason) {
      problems.push(`validateAnswer(${error.question_id}) gave ${show(single)}, expected ${error.reason}`);
    }
  }
  for (const result of expect.results ?? []) {
    if (result.status !== 'answered') continue;
    const single = logic.checkAnswer(questions.get(result.question_id), firstAnswers[result.question_id]);
    if (!same(single, { value: result.value })) problems.push(`checkAnswer(${result.question_id}) gave ${show(single)}`);
  }
  return problems;
};

const mismatches = [];
for (const testCase of data.cases) {
  let problems;
  try {
    problems = problemsOf(testCase.survey, expand(testCase.answers), expand(testCase.expect), testCase.variables ?? {});
  } catch (error) {
    problems = [`threw ${error && error.stack || error}`];
  }
  if (problems.length > 0) mismatches.push({ name: testCase.name, problems });
}
return mismatches;
"""

# Selenium's async script: loads the module the app serves, runs the cases, reports back.
SCRIPT = (
    "const [data, done] = arguments;\n"
    "Promise.all(['/app/js/survey-logic.js', '/app/js/survey-piping.js'].map((path) => import(new URL(path, location.href).href)))\n"
    "  .then(([logic, piping]) => { const run = (logic, piping, data) => {" + RUN_CASES_JS + "};\n"
    "    done({ran: data.cases.length, mismatches: run(logic, piping, data)}); })\n"
    "  .catch((error) => done({error: String(error && error.stack || error)}));\n"
)


def test_survey_logic_agrees_with_the_shared_cases(server, browser):
    with open(CASES, encoding="utf-8") as file:
        data = json.load(file)
    browser.get(server.base_url + "/app")
    browser.set_script_timeout(120)
    outcome = browser.execute_async_script(SCRIPT, data)
    assert "error" not in outcome, f"survey-logic.js could not run: {outcome['error']}"
    assert outcome["ran"] == len(data["cases"])
    report = "\n".join(
        f"- {mismatch['name']}:\n    " + "\n    ".join(mismatch["problems"]) for mismatch in outcome["mismatches"])
    assert not outcome["mismatches"], (
        f"{len(outcome['mismatches'])} of {len(data['cases'])} shared survey cases disagree with "
        f"survey-logic.js:\n{report}")
