// Survey skip logic (`display_if`) and answer validation: the JavaScript twin of MomentaryCore's
// DisplayCondition, SurveyQuestion.comparableValues and AnswerValidator. The two must agree on
// every case in Tests/Shared/survey-cases.json, which both test suites run; change them together.
// Pure functions on the survey JSON as the API serves it: no DOM; the only dependency is i18n.js,
// for the words of the messages (the reasons are what the two implementations agree on).
import { t } from './i18n.js';

export const MAX_TEXT_LENGTH = 10000;
export const MAX_TOKEN_LENGTH = 200;
export const MAX_REFERENCE_LENGTH = 256;

/** AnswerValidationError.Reason raw values. */
export const REASONS = Object.freeze({
  unknownQuestion: 'unknown_question',
  duplicateAnswer: 'duplicate_answer',
  notPresented: 'not_presented',
  wrongType: 'wrong_type',
  outOfRange: 'out_of_range',
  unknownOption: 'unknown_option',
  duplicateChoice: 'duplicate_choice',
  tooManyTokens: 'too_many_tokens',
  tooLong: 'too_long',
  requiredSkipped: 'required_skipped',
  malformedDate: 'malformed_date',
});

export const ANSWERED = 'answered';
export const NO_ANSWER_SELECTED = 'NO_ANSWER_SELECTED';
export const NOT_PRESENTED = 'NOT_PRESENTED';

// ---------------------------------------------------------------------------------------------
// JSON values as Swift's JSONValue sees them: a bool is never a number, and vice versa.

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const isString = (v) => typeof v === 'string';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// Exactly the characters Foundation's `.whitespacesAndNewlines` trims on Linux (checked by
// scanning every scalar): unlike JavaScript's \s it includes U+0085 and U+200B, not U+FEFF.
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]*$/;
// The scalars for which Swift's Character.isNewline holds (all are graphemes of their own,
// except CR LF, which is one newline grapheme).
const NEWLINE = /[\n\v\f\r\u0085\u2028\u2029]/;

const segmenter = typeof Intl !== 'undefined' && Intl.Segmenter
  ? new Intl.Segmenter('en', { granularity: 'grapheme' })
  : null;

/** The length of `text` as Swift's `String.count` gives it: extended grapheme clusters. */
export function characterCount(text) {
  if (!segmenter) return [...text].length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

// Graphemes never outnumber UTF-16 code units, so short texts need no segmentation.
function isLongerThan(text, limit) {
  return text.length > limit && characterCount(text) > limit;
}

/** A skipped answer: null or absent, an empty array, or text of only whitespace. */
export function isSkipped(value) {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isString(value)) return BLANK.test(value);
  return false;
}

// Own properties only, so an id such as "constructor" never finds Object.prototype's.
function lookUp(answers, id) {
  if (answers instanceof Map) return answers.get(id);
  if (answers && Object.prototype.hasOwnProperty.call(answers, id)) return answers[id];
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Question parameters, read as SurveyQuestion+JSON reads them (null counts as absent).

// Foundation's `.whitespaces` (tab and space separators), which Swift trims before Double(text).
const EDGE_SPACES = /^[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+|[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+$/g;
// Decimal notation only: Swift's Double(text) also reads hex and "inf", which no editor writes.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A survey parameter number; a numeric string counts too, as Beiwe's editor writes `"max": "5"`. */
function parameterNumber(value) {
  if (isNumber(value)) return value;
  if (!isString(value)) return undefined;
  const text = value.replace(EDGE_SPACES, '');
  const number = DECIMAL.test(text) ? Number(text) : NaN;
  return Number.isFinite(number) ? number : undefined;
}

export function questionID(question) {
  return isString(question?.question_id) ? question.question_id : '';
}

/** Choice options with the key an answer stores: the option's `value` if set, else its `text`. */
export function choiceOptions(question) {
  const answers = Array.isArray(question?.answers) ? question.answers : [];
  return answers.filter(isObject).map((option) => ({
    text: isString(option.text) ? option.text : '',
    key: isString(option.value) ? option.value : (isString(option.text) ? option.text : ''),
  }));
}

export function textFieldType(question) {
  return isString(question?.text_field_type) ? question.text_field_type : 'SINGLE_LINE_TEXT';
}

/** The slider scale; the step defaults to 1. */
export function sliderScale(question) {
  return {
    min: parameterNumber(question?.min),
    max: parameterNumber(question?.max),
    step: parameterNumber(question?.step) ?? 1,
  };
}

/** A number question's bounds, each optional (undefined when absent). */
export function numberRange(question) {
  return {
    min: parameterNumber(question?.min),
    max: parameterNumber(question?.max),
    step: parameterNumber(question?.step),
  };
}

/** A tokens question: free entry allowed unless `allows_free_entry` is false; no limit without `max_count`. */
export function tokenList(question) {
  const suggestions = Array.isArray(question?.suggested_tokens) ? question.suggested_tokens.filter(isString) : [];
  const free = question?.allows_free_entry;
  return {
    suggestions,
    allowsFreeEntry: typeof free === 'boolean' ? free : true,
    maxCount: parameterNumber(question?.max_count),
  };
}

// ---------------------------------------------------------------------------------------------
// Skip logic.

const COMPARISONS = {
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
};

/**
 * The numbers an answer compares as in skip logic: the number (slider, number, numeric text,
 * sound level); yes 1 / no 0; the positions (from 0) of the chosen options or suggested tokens;
 * nothing for other kinds or a missing answer.
 */
export function comparableValues(question, answer) {
  if (answer === undefined || answer === null) return [];
  switch (question?.question_type) {
    case 'slider': case 'number': case 'sound_level':
      return isNumber(answer) ? [answer] : [];
    case 'free_response':
      return textFieldType(question) === 'NUMERIC' && isNumber(answer) ? [answer] : [];
    case 'yes_no':
      return typeof answer === 'boolean' ? [answer ? 1 : 0] : [];
    case 'radio_button': case 'checkbox': case 'people': case 'tokens':
      return positions(answer, comparableKeys(question));
    default:
      return [];
  }
}

function positions(answer, keys) {
  const chosen = Array.isArray(answer) ? answer.filter(isString) : (isString(answer) ? [answer] : []);
  return chosen.map((key) => keys.indexOf(key)).filter((index) => index >= 0);
}

/**
 * The values a condition may name a question's options by: each option's stored value, or each
 * suggested token; empty for other kinds.
 */
export function comparableKeys(question) {
  switch (question?.question_type) {
    case 'radio_button': case 'checkbox': case 'people':
      return choiceOptions(question).map((option) => option.key);
    case 'tokens':
      return tokenList(question).suggestions;
    default:
      return [];
  }
}

/**
 * Whether a `display_if` node holds. `valuesOf(id)` gives the numbers a question's answer
 * compares as; `positionOf(id, value)` the position of the option stored as `value` (a target
 * given as a string names an option by its value; an unknown value is never chosen). A node that
 * cannot be read is false; a comparison with a question that has no usable answer is false,
 * `!=` included; `!=` holds when no value equals the target.
 */
export function conditionHolds(node, valuesOf, positionOf = () => -1, textOf = () => undefined) {
  if (!isObject(node)) return false;
  const keys = Object.keys(node);
  if (keys.length !== 1) return false;
  const [key] = keys;
  const payload = node[key];
  const holds = (item) => conditionHolds(item, valuesOf, positionOf, textOf);
  switch (key) {
    case 'and': return Array.isArray(payload) && payload.every(holds);
    case 'or': return Array.isArray(payload) && payload.some(holds);
    case 'not': return isObject(payload) && !holds(payload);
    default: return comparisonHolds(key, payload, valuesOf, positionOf, textOf);
  }
}

// `textOf(id)` is undefined for ids that are not compared as texts; for a participant variable
// (`var:name`) it is its text, or null when it has none (ParticipantVariableReference).
function comparisonHolds(operator, payload, valuesOf, positionOf, textOf) {
  const known = operator === '!=' || Object.prototype.hasOwnProperty.call(COMPARISONS, operator);
  if (!known || !Array.isArray(payload) || payload.length !== 2) return false;
  const [id, given] = payload;
  if (!isString(id) || !(isNumber(given) || isString(given))) return false;
  const text = isString(given) ? textOf(id) : undefined;
  if (text !== undefined) {
    if (text === null) return false;
    return operator === '==' ? text === given : (operator === '!=' ? text !== given : false);
  }
  const target = isString(given) ? positionOf(id, given) : given;
  const numbers = valuesOf(id);
  if (numbers.length === 0) return false;
  if (operator === '!=') return !numbers.some((number) => number === target);
  return numbers.some((number) => COMPARISONS[operator](number, target));
}

export function questionsOf(document) {
  return Array.isArray(document?.content) ? document.content.filter(isObject) : [];
}

export function questionWithID(document, id) {
  return questionsOf(document).find((question) => questionID(question) === id);
}

/**
 * Whether `question` is shown given `answers` (question id → answer, as an object or a Map;
 * skipped and not-presented questions absent). Without `display_if` a question is shown.
 */
export function isDisplayed(document, question, answers, variables = {}) {
  const condition = question?.display_if;
  if (condition === undefined || condition === null) return true;
  return answersMeet(document, answers, condition, variables);
}

const VARIABLE = 'var:';

/**
 * Whether answers (question id → answer) meet a condition in the `display_if` language, which
 * may also name a score (computed from these answers) or a participant variable (`var:name`,
 * from `variables`: name → text or number), as SurveyDocument.answers(_:meet:variables:).
 */
export function answersMeet(document, answers, condition, variables = {}) {
  return conditionHolds(condition, (id) => {
    const target = questionWithID(document, id);
    if (target) return comparableValues(target, lookUp(answers, id));
    if (id.startsWith(VARIABLE)) {
      const value = lookUp(variables, id.slice(VARIABLE.length));
      return isNumber(value) ? [value] : [];
    }
    const score = scoresOf(document).find((item) => item.id === id);
    const value = score ? scoreValue(document, score, answers) : null;
    return value === null ? [] : [value];
  }, (id, value) => comparableKeys(questionWithID(document, id)).indexOf(value), (id) => {
    if (!id.startsWith(VARIABLE)) return undefined;
    const value = lookUp(variables, id.slice(VARIABLE.length));
    return isString(value) && value !== '' ? value : null;
  });
}

// ---------------------------------------------------------------------------------------------
// Scores (`scores`), as SurveyScore and SurveyDocument+Scores: read leniently (the editor
// reports what is wrong), computed from canonical answers in item order.

const SCORE_OPERATIONS = ['sum', 'mean', 'count', 'min', 'max'];

const stringListOrNull = (value) => (Array.isArray(value) && value.every(isString) ? value : null);

/** The survey's readable scores: {id, operation, items, reversed, minAnswered}. */
export function scoresOf(document) {
  const entries = Array.isArray(document?.scores) ? document.scores : [];
  return entries.flatMap((entry) => {
    if (!isObject(entry) || !isString(entry.id) || entry.id === '') return [];
    // A key given as null still counts, as in Swift (where it is present, and no list).
    const operations = SCORE_OPERATIONS.filter((name) => entry[name] !== undefined);
    if (operations.length !== 1) return [];
    const items = stringListOrNull(entry[operations[0]]);
    if (!items || items.length === 0) return [];
    const given = entry.min_answered;
    const minAnswered = isNumber(given) && Number.isInteger(given) && Math.abs(given) < 1e9
      ? given : (operations[0] === 'count' ? 0 : items.length);
    return [{ id: entry.id, operation: operations[0], items, reversed: stringListOrNull(entry.reverse) ?? [], minAnswered }];
  });
}

const SCORABLE = ['slider', 'number', 'sound_level', 'yes_no', 'radio_button'];

function isScorable(question) {
  const type = question?.question_type;
  return SCORABLE.includes(type) || (type === 'free_response' && textFieldType(question) === 'NUMERIC');
}

/** The lowest and highest number an answer can count as, or null (SurveyQuestion.scoreRange). */
function scoreRange(question) {
  switch (question.question_type) {
    case 'slider': case 'number': {
      const { min, max } = question.question_type === 'slider' ? sliderScale(question) : numberRange(question);
      return min !== undefined && max !== undefined ? [min, max] : null;
    }
    case 'radio_button': {
      const count = choiceOptions(question).length;
      return count > 0 ? [0, count - 1] : null;
    }
    case 'yes_no': return [0, 1];
    default: return null;
  }
}

/** A score of canonical answers (id → answer), or null when too few items were answered. */
export function scoreValue(document, score, answers) {
  const numbers = [];
  for (const item of score.items) {
    const question = questionWithID(document, item);
    if (!question || !isScorable(question)) continue;
    const [number] = comparableValues(question, lookUp(answers, item));
    if (number === undefined) continue;
    const range = score.reversed.includes(item) ? scoreRange(question) : null;
    numbers.push(range ? range[0] + range[1] - number : number);
  }
  if (numbers.length < score.minAnswered) return null;
  const sum = () => numbers.reduce((total, number) => total + number, 0);
  switch (score.operation) {
    case 'count': return numbers.length;
    case 'sum': return sum();
    case 'mean': return numbers.length === 0 ? null : sum() / numbers.length;
    case 'min': return numbers.length === 0 ? null : Math.min(...numbers);
    default: return numbers.length === 0 ? null : Math.max(...numbers);
  }
}

/** Every score of canonical answers: id → number or null. */
export function scoreValues(document, answers) {
  return Object.fromEntries(scoresOf(document).map((score) => [score.id, scoreValue(document, score, answers)]));
}

// ---------------------------------------------------------------------------------------------
// Answer checks, one question at a time. Each returns {value} (canonical) or {error}.

function failure(question, reason, message) {
  return { error: { question_id: questionID(question), reason, message } };
}

function checkNumber(question, value, { min, max, step, origin }) {
  if (!isNumber(value)) return failure(question, REASONS.wrongType, t('answer.error.number'));
  if (min !== undefined && value < min) {
    return failure(question, REASONS.outOfRange, t('answer.error.number_min', { min }));
  }
  if (max !== undefined && value > max) {
    return failure(question, REASONS.outOfRange, t('answer.error.number_max', { max }));
  }
  if (step !== undefined && step > 0 && !isWholeMultiple(value - origin, step)) {
    return failure(question, REASONS.outOfRange,
      t('answer.error.number_step', { step, origin }));
  }
  return { value };
}

// As QuestionKind.isWholeMultiple: a tolerance relative to the ratio absorbs binary rounding
// (0.3 / 0.1 is 2.9999999999999996). Swift rounds halves away from zero; so does this.
function isWholeMultiple(value, step) {
  const ratio = value / step;
  const nearest = Math.sign(ratio) * Math.round(Math.abs(ratio));
  return Math.abs(ratio - nearest) <= 1e-9 * Math.max(1, Math.abs(ratio));
}

function checkText(question, value, singleLine) {
  if (!isString(value)) return failure(question, REASONS.wrongType, t('answer.error.text'));
  if (isLongerThan(value, MAX_TEXT_LENGTH)) {
    return failure(question, REASONS.tooLong,
      t('answer.error.text_too_long', { max: MAX_TEXT_LENGTH, count: characterCount(value) }));
  }
  if (singleLine && NEWLINE.test(value)) {
    return failure(question, REASONS.wrongType, t('answer.error.single_line'));
  }
  return { value };
}

function checkChoice(question, value) {
  if (!isString(value)) return failure(question, REASONS.wrongType, t('answer.error.choice'));
  if (!choiceOptions(question).some((option) => option.key === value)) return unknownOption(question);
  return { value };
}

function checkChoices(question, value) {
  const strings = stringList(question, value, t('answer.error.choices'));
  if (strings.error) return strings;
  const keys = choiceOptions(question).map((option) => option.key);
  if (strings.value.some((key) => !keys.includes(key))) return unknownOption(question);
  const repeated = firstRepeat(strings.value);
  if (repeated !== undefined) return duplicateChoice(question, repeated);
  return { value: keys.filter((key) => strings.value.includes(key)) };  // option order
}

function checkTokens(question, value) {
  const list = tokenList(question);
  const strings = stringList(question, value, t('answer.error.tokens'));
  if (strings.error) return strings;
  const tokens = strings.value;
  if (list.maxCount !== undefined && tokens.length > list.maxCount) {
    return failure(question, REASONS.tooManyTokens,
      t('answer.error.too_many_tokens', { max: list.maxCount, count: tokens.length }));
  }
  for (const token of tokens) {
    if (BLANK.test(token)) return failure(question, REASONS.wrongType, t('answer.error.empty_token'));
    if (isLongerThan(token, MAX_TOKEN_LENGTH)) {
      return failure(question, REASONS.tooLong, t('answer.error.token_too_long', { count: MAX_TOKEN_LENGTH }));
    }
    if (!list.allowsFreeEntry && !list.suggestions.includes(token)) {
      return failure(question, REASONS.unknownOption, t('answer.error.unknown_token', { token }));
    }
  }
  const repeated = firstRepeat(tokens);
  if (repeated !== undefined) return duplicateChoice(question, repeated);
  return { value: tokens };  // kept in the order given, unlike choices
}

const LOCATION_FIELDS = ['latitude', 'longitude', 'place'];

function checkLocation(question, value) {
  const unreadable = () => failure(question, REASONS.wrongType, t('answer.error.location_unreadable'));
  if (!isObject(value) || Object.keys(value).some((key) => !LOCATION_FIELDS.includes(key))) return unreadable();
  const { latitude, longitude, place } = value;
  if (!isNumber(latitude) || !isNumber(longitude)) return unreadable();
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) {
    return failure(question, REASONS.outOfRange, t('answer.error.location_off_earth'));
  }
  const result = { latitude, longitude };
  if (place === undefined || place === null) return { value: result };
  if (!isString(place)) return failure(question, REASONS.wrongType, t('answer.error.place_text'));
  if (isLongerThan(place, MAX_TEXT_LENGTH)) {
    return failure(question, REASONS.tooLong, t('answer.error.place_too_long', { count: MAX_TEXT_LENGTH }));
  }
  return { value: { ...result, place } };
}

// The messages are functions: they are read in the language of the moment.
const DATE_FORMATS = {
  date: { test: isLocalDate, missing: () => t('answer.error.date'), invalid: () => t('answer.error.date_invalid') },
  time: { test: isLocalTime, missing: () => t('answer.error.time'), invalid: () => t('answer.error.time_invalid') },
  date_time: { test: isLocalDateTime, missing: () => t('answer.error.date_time'), invalid: () => t('answer.error.date_time_invalid') },
};

function checkDateOrTime(question, value) {
  const format = DATE_FORMATS[question.question_type];
  if (!isString(value)) return failure(question, REASONS.wrongType, format.missing());
  if (!format.test(value)) return failure(question, REASONS.malformedDate, format.invalid());
  return { value };
}

/** `YYYY-MM-DD`, a real Gregorian date, years 0001–9999. */
export function isLocalDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year);
}

/** `HH:MM`, 00:00–23:59. */
export function isLocalTime(text) {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  return match !== null && Number(match[1]) < 24 && Number(match[2]) < 60;
}

/** `YYYY-MM-DDTHH:MM`, local, without seconds or zone. */
export function isLocalDateTime(text) {
  const parts = text.split('T');
  return parts.length === 2 && isLocalDate(parts[0]) && isLocalTime(parts[1]);
}

function daysIn(month, year) {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function checkReference(question, value) {
  if (!isString(value)) return failure(question, REASONS.wrongType, t('answer.error.file'));
  if (isLongerThan(value, MAX_REFERENCE_LENGTH)) {
    return failure(question, REASONS.tooLong, t('answer.error.file'));
  }
  return { value };
}

// A list of strings, else wrong_type (the first non-string item decides, as in Swift).
function stringList(question, value, message) {
  if (!Array.isArray(value) || !value.every(isString)) return failure(question, REASONS.wrongType, message);
  return { value };
}

function firstRepeat(items) {
  const seen = new Set();
  for (const item of items) {
    if (seen.has(item)) return item;
    seen.add(item);
  }
  return undefined;
}

function unknownOption(question) {
  return failure(question, REASONS.unknownOption, t('answer.error.unknown_option'));
}

function duplicateChoice(question, item) {
  return failure(question, REASONS.duplicateChoice, t('answer.error.duplicate_choice', { item }));
}

// The canonical answer of a non-skipped value, as AnswerValidator.canonicalAnswer.
function canonicalAnswer(question, value) {
  switch (question.question_type) {
    case 'info_text_box':
      return failure(question, REASONS.notPresented, t('answer.error.info_only'));
    case 'slider': {
      const scale = sliderScale(question);
      return checkNumber(question, value, { ...scale, origin: scale.min });
    }
    case 'number': {
      const range = numberRange(question);
      return checkNumber(question, value, { ...range, origin: range.min ?? 0 });
    }
    case 'sound_level':
      return checkNumber(question, value, { origin: 0 });
    case 'free_response': {
      const type = textFieldType(question);
      if (type === 'NUMERIC') return checkNumber(question, value, { origin: 0 });
      return checkText(question, value, type === 'SINGLE_LINE_TEXT');
    }
    case 'yes_no':
      return typeof value === 'boolean' ? { value } : failure(question, REASONS.wrongType, t('answer.error.yes_no'));
    case 'radio_button': return checkChoice(question, value);
    case 'checkbox': case 'people': return checkChoices(question, value);
    case 'tokens': return checkTokens(question, value);
    case 'location': return checkLocation(question, value);
    case 'date': case 'time': case 'date_time': return checkDateOrTime(question, value);
    case 'photo': case 'audio_recording': return checkReference(question, value);
    default:
      return failure(question, REASONS.wrongType, t('answer.error.unsupported'));
  }
}

/**
 * One answer against its question, ignoring skip logic: `{value}` with the canonical answer
 * (choices in option order; `null` for a skip), or `{error: {question_id, reason, message}}`.
 * A skip is an error only for a required question (an info text box never needs an answer).
 */
export function checkAnswer(question, value) {
  if (isSkipped(value)) {
    return question?.required === true && question.question_type !== 'info_text_box'
      ? failure(question, REASONS.requiredSkipped, t('answer.error.required'))
      : { value: null };
  }
  return canonicalAnswer(question, value);
}

/** The error of `checkAnswer`, or null when the answer is fine. */
export function validateAnswer(question, value) {
  return checkAnswer(question, value).error ?? null;
}

// ---------------------------------------------------------------------------------------------
// Whole surveys, in survey order, as AnswerValidator.validate.

// Each question with whether it is shown and what became of its answer. Skip logic sees only
// answers accepted so far, so a hidden or invalid answer counts as missing for later questions.
function walk(document, given, variables = {}) {
  const accepted = new Map();
  return questionsOf(document).map((question) => {
    const id = questionID(question);
    const answer = given.get(id);
    const displayed = isDisplayed(document, question, accepted, variables);
    if (question.question_type === 'info_text_box' || !displayed) {
      const why = question.question_type === 'info_text_box'
        ? t('answer.error.info_only')
        : t('answer.error.not_shown');
      const error = answer === undefined ? null : failure(question, REASONS.notPresented, why).error;
      return { question, displayed, status: NOT_PRESENTED, error };
    }
    if (answer === undefined) {
      const error = question.required === true ? checkAnswer(question, null).error : null;
      return { question, displayed, status: NO_ANSWER_SELECTED, error };
    }
    const result = canonicalAnswer(question, answer);
    if (result.error) return { question, displayed, status: NO_ANSWER_SELECTED, error: result.error };
    accepted.set(id, result.value);
    return { question, displayed, status: ANSWERED, value: result.value, error: null };
  });
}

// Non-skipped answers by question id, from an object or a Map.
function givenAnswers(answers) {
  const given = new Map();
  const entries = answers instanceof Map ? answers.entries() : Object.entries(answers ?? {});
  for (const [id, value] of entries) {
    if (!isSkipped(value)) given.set(id, value);
  }
  return given;
}

/** The answers accepted so far (shown, valid, not skipped), canonical: a Map of id → answer. */
export function acceptedAnswers(document, answers, variables = {}) {
  const accepted = new Map();
  for (const step of walk(document, givenAnswers(answers), variables)) {
    if (step.status === ANSWERED) accepted.set(questionID(step.question), step.value);
  }
  return accepted;
}

/**
 * The ids of the questions shown, in survey order (info text boxes included when shown),
 * given answers as question id → answer.
 */
export function visibleQuestionIDs(document, answers, variables = {}) {
  return walk(document, givenAnswers(answers), variables)
    .filter((step) => step.displayed)
    .map((step) => questionID(step.question));
}

/**
 * Checks submitted answers `[{question_id, answer}]` against a survey, as the server does.
 * Returns `{ok, results, errors}`: one result per question in survey order
 * (`{question_id, question_type, status, value?}`), and every error (answers to unknown or
 * repeated questions first, then in survey order).
 */
export function validateAnswers(document, answers, variables = {}) {
  const errors = [];
  const known = new Set(questionsOf(document).map(questionID));
  const seen = new Set();
  const given = new Map();
  for (const entry of answers ?? []) {
    const id = isString(entry?.question_id) ? entry.question_id : '';
    if (!known.has(id)) {
      errors.push({ question_id: id, reason: REASONS.unknownQuestion, message: t('answer.error.unknown_question', { id }) });
    } else if (seen.has(id)) {
      errors.push({ question_id: id, reason: REASONS.duplicateAnswer, message: t('answer.error.answered_twice', { id }) });
    } else {
      seen.add(id);
      if (!isSkipped(entry.answer)) given.set(id, entry.answer);
    }
  }
  const results = walk(document, given, variables).map((step) => {
    if (step.error) errors.push(step.error);
    const result = { question_id: questionID(step.question), question_type: step.question.question_type, status: step.status };
    if (step.status === ANSWERED) result.value = step.value;
    return result;
  });
  return { ok: errors.length === 0, results, errors };
}
