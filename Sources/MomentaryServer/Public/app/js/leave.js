// Leaving the study: withdraw on the server (optionally deleting the data), then forget the
// credentials on this device.
import { h, heading, link, errorFor } from './ui.js';
import { api, setCredentials } from './api.js';
import { clear, del } from './store.js';
import { unsubscribe } from './push.js';
import { drain } from './queue.js';

export async function forget() {
  setCredentials(null);
  await unsubscribe();
  await clear(['queue', 'acks']);
  await Promise.all(['creds', 'status', 'study', 'settings', 'push', 'download'].map(del));
}

export function render(main, { creds }) {
  const box = h('input', { type: 'checkbox', id: 'delete-data' });
  const err = errorFor(h('button'), 'leave-error');
  const confirm = h('button', { type: 'button', id: 'withdraw-confirm', class: 'danger', text: 'Leave the study', async onclick() {
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
        return err.show(e.status === 0 ? 'You are offline. Leaving needs a connection: try again when you are online.' : e.message);
      }
    }
    await forget();
    main.replaceChildren(h('section', { id: 'left', class: 'screen' }, heading('You have left the study'),
      h('p', { text: box.checked ? 'Thank you for taking part. We have asked the researchers’ server to delete your answers.' : 'Thank you for taking part. You will not be asked any more questions.' }),
      h('p', { text: 'You can close this page, and remove the app from your Home Screen if you added it.' })));
    document.title = 'You have left · Momentary';
    main.querySelector('h1').focus();
  } });
  confirm.setAttribute('aria-describedby', 'leave-error');
  main.append(h('section', { class: 'screen' }, link('/app', '← Home', { class: 'back' }), heading('Leave the study'),
    h('p', { text: `You will get no more beeps from “${creds.study?.name || 'this study'}”, and this device forgets that it took part.` }),
    h('div', { class: 'check' }, box, h('label', { for: 'delete-data', text: 'Also delete the answers I have given' })),
    h('p', { class: 'hint', text: 'If you leave this unticked, the answers you already gave stay with the researchers.' }),
    err, confirm));
}
