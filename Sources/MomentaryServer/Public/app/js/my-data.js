// "My data": a secret link to download everything this participant has answered. The server keeps
// only a hash of the link, so the app remembers the one it was given (IndexedDB `download`).
import { h, heading, link } from './ui.js';
import { api } from './api.js';
import { get, set, del } from './store.js';
import { t } from './i18n.js';

// Read when drawn, so they are in the language of the moment.
const formats = () => [['', t('my_data.format.page')], ['/responses.csv', t('my_data.format.csv')],
  ['/responses.json', t('my_data.format.json')], ['/responses.kmz', t('my_data.format.kmz')], ['/responses.ics', t('my_data.format.ics')]];

export async function render(main, { creds }) {
  const body = h('div', { id: 'my-data-body', 'aria-live': 'polite' }, h('p', { class: 'loading', text: t('loading') }));
  main.append(h('section', { id: 'my-data-screen', class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }),
    heading(t('title.my_data')),
    h('p', { text: t('my_data.intro') }),
    body));

  const status = (await get('status').catch(() => null))?.data;
  let enabled = !!status?.data_download_enabled;
  let saved = await get('download').catch(() => null);
  try {
    const fresh = await api('GET', '/status', { creds });
    enabled = fresh.data_download_enabled;
    if (!fresh.data_download_available) return show(h('p', { text: t('my_data.not_offered') }));
  } catch (e) {
    if (e.status === 0) return show(h('p', { class: 'error', role: 'alert', text: t('my_data.offline') }));
  }
  if (!enabled && saved) { await del('download'); saved = null; }
  draw();

  function show(...kids) { body.replaceChildren(...kids); }

  function draw() {
    const error = h('p', { id: 'my-data-error', class: 'error', role: 'alert', hidden: true });
    const act = (label, id, cls, fn) => h('button', { type: 'button', id, class: cls, text: label, async onclick(ev) {
      ev.currentTarget.disabled = true;
      try { await fn(); draw(); } catch (e) {
        ev.currentTarget.disabled = false;
        error.hidden = false;
        error.textContent = e.status === 0 ? t('my_data.offline') : e.message;
      }
    } });
    const turnOn = async () => {
      const made = await api('POST', '/data-download', { creds });
      saved = { url: made.url, code: made.code, path: new URL(made.url, location.href).pathname };
      await set('download', saved);
      enabled = true;
    };
    const turnOff = async () => {
      await api('DELETE', '/data-download', { creds });
      await del('download');
      saved = null;
      enabled = false;
    };
    if (saved) {
      return show(
        h('p', {}, t('my_data.your_link'), ' ', h('a', { id: 'my-data-link', href: saved.path, text: saved.url })),
        h('p', { class: 'hint' }, t('my_data.code'), ' ', h('strong', { id: 'my-data-code', text: saved.code })),
        h('h2', { text: t('my_data.download') }),
        h('ul', { class: 'my-downloads' }, formats().map(([suffix, label]) =>
          h('li', {}, h('a', { href: saved.path + suffix, ...(suffix ? { download: '' } : {}), text: label })))),
        error,
        act(t('my_data.renew'), 'my-data-renew', 'secondary', turnOn),
        h('p', { class: 'hint', text: t('my_data.renew_hint') }),
        act(t('my_data.turn_off'), 'my-data-off', 'secondary', turnOff));
    }
    if (enabled) {
      return show(h('p', { text: t('my_data.on_elsewhere') }),
        error, act(t('my_data.renew'), 'my-data-renew', '', turnOn), act(t('my_data.turn_off'), 'my-data-off', 'secondary', turnOff));
    }
    show(h('p', { text: t('my_data.off') }), error, act(t('my_data.turn_on'), 'my-data-on', '', turnOn));
  }
}
