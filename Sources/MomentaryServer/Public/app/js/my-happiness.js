// "My happiness": the participant's own charts. The server draws them (SVG, the same page it
// serves at /api/v1/feedback for text/html), so the app only fetches and shows them.
import { h, heading, link } from './ui.js';
import { api } from './api.js';

export async function render(main, { creds }) {
  const body = h('div', { id: 'feedback-body' }, h('p', { class: 'loading', text: 'Loading your charts…' }));
  main.append(h('section', { id: 'my-happiness-screen', class: 'screen' }, link('/app', '← Home', { class: 'back' }),
    heading('My happiness'), body));
  try {
    const page = await api('GET', '/feedback', { creds, accept: 'text/html' });
    const charts = new DOMParser().parseFromString(page, 'text/html').querySelector('section.feedback');
    if (!charts) throw new Error('The server sent no charts.');
    body.replaceChildren(document.adoptNode(charts));
  } catch (e) {
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: e.status === 0
      ? 'You are offline. Your charts need a connection: try again when you are online.'
      : e.status === 404 ? 'This study does not show charts of your answers.' : e.message }));
  }
}
