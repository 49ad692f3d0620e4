// Piped texts and randomised question order: the JavaScript twin of MomentaryCore's PipedText,
// SurveyDocument+Piping and SurveyDocument+Order. Both run Tests/Shared/survey-cases.json
// ("piped" and "orders" expectations); change them together.
import {
  choiceOptions, questionID, questionsOf, questionWithID, scoresOf, scoreValue,
} from './survey-logic.js';

const SOURCES = ['answer', 'score', 'var'];
const trimSpaces = (text) => text.replace(/^ +| +$/g, '');

function readPlaceholder(inner, written) {
  const parts = inner.split('|').map(trimSpaces);
  const head = parts[0];
  const colon = head.indexOf(':');
  const source = colon < 0 ? '' : head.slice(0, colon);
  if (!SOURCES.includes(source)) return { unreadable: written };
  const name = trimSpaces(head.slice(colon + 1));
  if (name === '') return { unreadable: written };
  const placeholder = { source, name, usesLabel: false, fallback: '' };
  let hasFallback = false;
  for (const part of parts.slice(1)) {
    if (part === 'label' && !placeholder.usesLabel) {
      placeholder.usesLabel = true;
    } else if (part.startsWith('else:') && !hasFallback) {
      placeholder.fallback = trimSpaces(part.slice('else:'.length));
      hasFallback = true;
    } else {
      return { unreadable: written };
    }
  }
  return { placeholder, written };
}

/** A text's pieces: {text} as written, {placeholder, written}, or {unreadable} (`{{…}}` shown as is). */
export function textPieces(text) {
  const pieces = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    const close = open < 0 ? -1 : text.indexOf('}}', open + 2);
    if (close < 0) break;
    if (open > at) pieces.push({ text: text.slice(at, open) });
    pieces.push(readPlaceholder(text.slice(open + 2, close), text.slice(open, close + 2)));
    at = close + 2;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

/**
 * A number as piped text (PipedText.number): at most two decimals, whole numbers without a
 * decimal point; from 1e15 on whole numbers written out, from 1e21 in exponent notation.
 * Halves round away from zero, as in Swift.
 */
export function pipedNumber(value) {
  const sign = value < 0 ? -1 : 1;
  if (Math.abs(value) >= 1e21) return String(value);
  if (Math.abs(value) >= 1e15) return (Math.round(Math.abs(value)) * sign).toFixed(0);
  const rounded = (Math.round(Math.abs(value) * 100) / 100) * sign;
  return String(rounded === 0 ? 0 : rounded);
}

const CHOICES = ['radio_button', 'checkbox', 'people'];
// Answers that are not words (SurveyQuestion.canBePiped).
const NOT_PIPED = ['yes_no', 'location', 'photo', 'audio_recording', 'info_text_box'];
const pipeable = (question) => !NOT_PIPED.includes(question?.question_type);

function pipedAnswer(question, answer, label) {
  if (!pipeable(question) || answer === undefined || answer === null) return null;
  if (typeof answer === 'number') return pipedNumber(answer);
  const keys = typeof answer === 'string' ? [answer] : (Array.isArray(answer) ? answer.filter((k) => typeof k === 'string') : null);
  if (!keys || keys.length === 0) return null;
  const options = CHOICES.includes(question.question_type) ? choiceOptions(question) : [];
  const words = label && options.length > 0
    ? keys.map((key) => options.find((option) => option.key === key)?.text ?? key)
    : keys;
  return words.join(', ');
}

const own = (object, key) => object instanceof Map ? object.get(key) : (Object.prototype.hasOwnProperty.call(object ?? {}, key) ? object[key] : undefined);

function placeholderValue(document, { source, name, usesLabel }, answers, variables) {
  switch (source) {
    case 'answer': {
      const question = questionWithID(document, name);
      return question ? pipedAnswer(question, own(answers, name), usesLabel) : null;
    }
    case 'score': {
      const score = scoresOf(document).find((item) => item.id === name);
      const value = score ? scoreValue(document, score, answers) : null;
      return value === null ? null : pipedNumber(value);
    }
    default: {
      const value = own(variables, name);
      if (typeof value === 'string') return value === '' ? null : value;
      return typeof value === 'number' && Number.isFinite(value) ? pipedNumber(value) : null;
    }
  }
}

/**
 * `text` with its placeholders replaced from canonical answers (a Map or object: id → answer,
 * as acceptedAnswers gives them) and the participant's variables (name → text or number).
 */
export function pipeText(document, text, answers, variables = {}) {
  if (typeof text !== 'string' || !text.includes('{{')) return text;
  return textPieces(text).map((piece) => {
    if (piece.placeholder) return placeholderValue(document, piece.placeholder, answers, variables) ?? piece.placeholder.fallback;
    return piece.text ?? piece.unreadable ?? piece.written;
  }).join('');
}

/** The question with its text and option texts piped (stored option values unchanged). */
export function pipedQuestion(document, question, answers, variables = {}) {
  const piped = { ...question, question_text: pipeText(document, question.question_text, answers, variables) };
  if (CHOICES.includes(question.question_type) && Array.isArray(question.answers)) {
    const keys = choiceOptions(question).map((option) => option.key);
    piped.answers = question.answers.map((option, index) => (option !== null && typeof option === 'object'
      ? { ...option, value: keys[index], text: pipeText(document, option.text, answers, variables) }
      : option));
  }
  return piped;
}

// ---------------------------------------------------------------------------------------------
// Randomised order (`randomize_groups`): lists of consecutive question ids shown in random order.

/** The survey's groups as lists of question ids (unreadable entries left out). */
export function randomizedGroups(document) {
  const groups = Array.isArray(document?.randomize_groups) ? document.randomize_groups : [];
  return groups.filter((group) => Array.isArray(group) && group.every((id) => typeof id === 'string'));
}

/**
 * Whether `order` (question ids) is the survey's order with, at most, each group's questions
 * shuffled among the places the group takes, as SurveyDocument.presentedOrderIssue decides.
 */
export function isPresentableOrder(document, order) {
  const ids = questionsOf(document).map(questionID);
  if (!Array.isArray(order) || order.length !== ids.length) return false;
  const groupOf = new Map();
  for (const group of randomizedGroups(document)) for (const id of group) if (!groupOf.has(id)) groupOf.set(id, group);
  if (new Set(order).size !== order.length) return false;
  return ids.every((id, index) => {
    const group = groupOf.get(id);
    return group ? group.includes(order[index]) : order[index] === id;
  });
}

/** The survey's question ids with each group shuffled in place (`random` gives [0, 1)). */
export function presentationOrder(document, random = Math.random) {
  const ids = questionsOf(document).map(questionID);
  for (const group of randomizedGroups(document)) {
    const places = ids.map((id, index) => (group.includes(id) ? index : -1)).filter((index) => index >= 0);
    const members = places.map((index) => ids[index]);
    for (let i = members.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [members[i], members[j]] = [members[j], members[i]];
    }
    places.forEach((place, k) => { ids[place] = members[k]; });
  }
  return ids;
}
