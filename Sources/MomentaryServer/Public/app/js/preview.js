// The survey preview of the researcher website (/studies/<slug>/surveys/<id>/preview): the app's
// own survey screen, drawn from the document on the page. Inside the survey editor it follows
// the editor's JSON as it is typed. Nothing is saved or sent: Submit says so and starts again.
import { h } from './ui.js';
import { surveyView } from './survey-view.js';
import { t, useLanguage } from './i18n.js';

// The researcher website's page says which language it is in; the survey screen's words follow it.
await useLanguage(document.documentElement.lang || 'en');

const main = document.getElementById('preview');
const note = h('p', { id: 'preview-note', class: 'note', 'aria-live': 'polite' });
const say = text => { note.textContent = text; };
let shown = parse(main.dataset.document);

function parse(text) {
  try { return JSON.parse(text); } catch { return null; }
}

// The editor's typed JSON may give texts by language ({"en": …, "de": …}); the preview shows the
// language the server chose for it (an exact study tag), else the default's. Stored versions come
// already resolved by the server (MomentaryCore's LocalizedText).
const previewLanguage = main.dataset.language || 'en';
const studyLanguages = parse(main.dataset.languages || '[]') || [];
function pick(text) {
  if (!text || typeof text !== 'object' || Array.isArray(text)) return text;
  return text[previewLanguage] ?? text[studyLanguages[0]] ?? Object.values(text)[0] ?? '';
}
function inLanguage(doc) {
  if (!doc || !Array.isArray(doc.content)) return doc;
  return { ...doc, content: doc.content.map(q => ({
    ...q,
    question_text: pick(q.question_text), min_label: pick(q.min_label), max_label: pick(q.max_label),
    labels: Array.isArray(q.labels) ? q.labels.map(pick) : q.labels,
    answers: Array.isArray(q.answers) ? q.answers.map(o => ({ ...o, text: pick(o.text) })) : q.answers,
  })) };
}

function draw() {
  const screen = h('section', { class: 'screen' });
  main.replaceChildren(note, screen);
  if (!shown || !Array.isArray(shown.content) || shown.content.length === 0) {
    screen.append(h('p', { id: 'preview-empty', text: t('preview.empty') }));
    return;
  }
  surveyView(screen, {
    doc: shown, lastId: 'survey-submit', lastText: t('survey.submit'),
    onSubmit() {
      screen.replaceChildren(
        h('p', { id: 'preview-done', text: t('preview.done') }),
        h('button', { type: 'button', id: 'preview-again', text: t('preview.again'), onclick: draw }));
    },
  });
}

draw();

// In the editor's frame: redraw from its JSON a moment after typing stops.
const editor = window.parent !== window ? window.parent.document.getElementById('document') : null;
let timer = 0;
editor?.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    const typed = parse(editor.value);
    if (!typed) {
      say(t('preview.unreadable'));
      return;
    }
    say('');
    shown = inLanguage(typed);
    draw();
  }, 400);
});
