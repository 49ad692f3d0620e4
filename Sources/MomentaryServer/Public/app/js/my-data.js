// "My data": a secret link to download everything this participant has answered. The server keeps
// only a hash of the link, so the app remembers the one it was given (IndexedDB `download`).
import { h, heading, link } from './ui.js';
import { api } from './api.js';
import { get, set, del } from './store.js';

const FORMATS = [['', 'My answers, charts and photos (web page)'], ['/responses.csv', 'Spreadsheet (CSV)'],
  ['/responses.json', 'JSON'], ['/responses.kmz', 'Map for Google Earth (KMZ)'], ['/responses.ics', 'Calendar (iCalendar)']];

export async function render(main, { creds }) {
  const body = h('div', { id: 'my-data-body', 'aria-live': 'polite' }, h('p', { class: 'loading', text: 'Loading…' }));
  main.append(h('section', { id: 'my-data-screen', class: 'screen' }, link('/app', '← Home', { class: 'back' }),
    heading('My data'),
    h('p', { text: 'You can download everything you have answered, with your photos, through a secret link. Anyone with the link can see your data, so keep it to yourself. You can turn it off, or make a new one, at any time.' }),
    body));

  const status = (await get('status').catch(() => null))?.data;
  let enabled = !!status?.data_download_enabled;
  let saved = await get('download').catch(() => null);
  try {
    const fresh = await api('GET', '/status', { creds });
    enabled = fresh.data_download_enabled;
    if (!fresh.data_download_available) return show(h('p', { text: 'This study does not offer a download of your data.' }));
  } catch (e) {
    if (e.status === 0) return show(h('p', { class: 'error', role: 'alert', text: 'You are offline. Try again when you are online.' }));
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
        error.textContent = e.status === 0 ? 'You are offline. Try again when you are online.' : e.message;
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
        h('p', {}, 'Your link: ', h('a', { id: 'my-data-link', href: saved.path, text: saved.url })),
        h('p', { class: 'hint' }, 'Code: ', h('strong', { id: 'my-data-code', text: saved.code })),
        h('h2', { text: 'Download' }),
        h('ul', { class: 'my-downloads' }, FORMATS.map(([suffix, label]) =>
          h('li', {}, h('a', { href: saved.path + suffix, ...(suffix ? { download: '' } : {}), text: label })))),
        error,
        act('Make a new link', 'my-data-renew', 'secondary', turnOn),
        h('p', { class: 'hint', text: 'A new link replaces this one: the old link stops working at once.' }),
        act('Turn off my link', 'my-data-off', 'secondary', turnOff));
    }
    if (enabled) {
      return show(h('p', { text: 'Your link is on, but this device does not know it (it was made on another device). Make a new link to see it here; the old one will stop working.' }),
        error, act('Make a new link', 'my-data-renew', '', turnOn), act('Turn off my link', 'my-data-off', 'secondary', turnOff));
    }
    show(h('p', { text: 'Your link is off.' }), error, act('Turn on my data link', 'my-data-on', '', turnOn));
  }
}
