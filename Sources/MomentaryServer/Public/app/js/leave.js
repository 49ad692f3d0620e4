// Leaving the study: withdraw on the server (optionally deleting the data), then forget the
// credentials on this device.
import { h, heading, link, errorFor } from './ui.js';
import { api, setCredentials } from './api.js';
import { clear, del } from './store.js';
import { unsubscribe } from './push.js';
import { drain } from './queue.js';
import { t } from './i18n.js';

export async function forget() {
  setCredentials(null);
  await unsubscribe();
  await clear(['queue', 'acks']);
  await Promise.all(['creds', 'status', 'study', 'settings', 'push', 'download', 'language'].map(del));
}

export function render(main, { creds }) {
  const box = h('input', { type: 'checkbox', id: 'delete-data' });
  const err = errorFor(h('button'), 'leave-error');
  const confirm = h('button', { type: 'button', id: 'withdraw-confirm', class: 'danger', text: t('title.leave'), async onclick() {
    confirm.disabled = true;
    err.show('');
    try {
      // Answers still waiting go first, so what was given before leaving arrives.
      if (!box.checked) await drain();
      await api('POST', '/withdraw', { body: { delete_data: box.checked }, creds });
    } catch (e) {
      // 401/403: this device was already withdrawn or removed; forgetting it is all that is left.
      if (e.status !== 401 && e.status !== 403) {
        confirm.disabled = false;
        return err.show(e.status === 0 ? t('leave.offline') : e.message);
      }
    }
    await forget();
    main.replaceChildren(h('section', { id: 'left', class: 'screen' }, heading(t('leave.done.title')),
      h('p', { text: box.checked ? t('leave.done.deleted') : t('leave.done.kept') }),
      h('p', { text: t('leave.done.close') })));
    document.title = `${t('leave.done.document_title')} · Momentary`;
    main.querySelector('h1').focus();
  } });
  confirm.setAttribute('aria-describedby', 'leave-error');
  main.append(h('section', { class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }), heading(t('title.leave')),
    h('p', { text: creds.study?.name ? t('leave.intro', { study: creds.study.name }) : t('leave.intro_unnamed') }),
    h('div', { class: 'check' }, box, h('label', { for: 'delete-data', text: t('leave.delete_data') })),
    h('p', { class: 'hint', text: t('leave.delete_data_hint') }),
    err, confirm));
}
