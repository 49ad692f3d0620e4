// "My happiness": the participant's own charts. The server draws them (SVG, the same page it
// serves at /api/v1/feedback for text/html), so the app only fetches and shows them.
import { h, heading, link } from './ui.js';
import { api } from './api.js';
import { t } from './i18n.js';

export async function render(main, { creds }) {
  const body = h('div', { id: 'feedback-body' }, h('p', { class: 'loading', text: t('my_happiness.loading') }));
  main.append(h('section', { id: 'my-happiness-screen', class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }),
    heading(t('title.my_happiness')), body));
  try {
    const page = await api('GET', '/feedback', { creds, accept: 'text/html' });
    const charts = new DOMParser().parseFromString(page, 'text/html').querySelector('section.feedback');
    if (!charts) throw new Error(t('my_happiness.no_charts'));
    body.replaceChildren(document.adoptNode(charts));
  } catch (e) {
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: e.status === 0
      ? t('my_happiness.offline')
      : e.status === 404 ? t('my_happiness.not_offered') : e.message }));
  }
}
