// The survey preview of the researcher website (/studies/<slug>/surveys/<id>/preview): the app's
// own survey screen, drawn from the document on the page. Inside the survey editor it follows
// the editor's JSON as it is typed. Nothing is saved or sent: Submit says so and starts again.
import { h } from './ui.js';
import { surveyView } from './survey-view.js';

const main = document.getElementById('preview');
const note = h('p', { id: 'preview-note', class: 'note', 'aria-live': 'polite' });
const say = text => { note.textContent = text; };
let shown = parse(main.dataset.document);

function parse(text) {
  try { return JSON.parse(text); } catch { return null; }
}

function draw() {
  const screen = h('section', { class: 'screen' });
  main.replaceChildren(note, screen);
  if (!shown || !Array.isArray(shown.content) || shown.content.length === 0) {
    screen.append(h('p', { id: 'preview-empty', text: 'This survey has no questions to show yet.' }));
    return;
  }
  surveyView(screen, {
    doc: shown, lastId: 'survey-submit', lastText: 'Submit',
    onSubmit() {
      screen.replaceChildren(
        h('p', { id: 'preview-done', text: 'In the app the answers would be sent now. This is a preview: nothing was sent.' }),
        h('button', { type: 'button', id: 'preview-again', text: 'Start again', onclick: draw }));
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
      say('The JSON cannot be read as it is; the preview shows the last survey that could.');
      return;
    }
    say('');
    shown = typed;
    draw();
  }, 400);
});
