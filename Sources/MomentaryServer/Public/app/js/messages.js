// The inbox: the researchers' messages, oldest first (each marked read once shown), and, where the
// study takes them, the participant's replies. Works offline from the last inbox it saw.
import { h, heading, link, when, errorFor, announce } from './ui.js';
import { api } from './api.js';
import { get, set } from './store.js';
import { t } from './i18n.js';

export async function render(main, { creds }) {
  const note = h('p', { id: 'messages-note', class: 'note', role: 'status', hidden: true });
  const list = h('ol', { id: 'messages', class: 'messages' });
  const replyArea = h('div', { id: 'reply-area' });
  main.append(h('section', { id: 'messages-screen', class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }),
    heading(t('title.messages')), h('p', { class: 'hint', text: t('messages.intro') }), note, list, replyArea));

  // A reply keeps its key until the server has it, so sending again after a lost answer stores it once.
  let replyKey = null;
  let inbox = await get('inbox').catch(() => null);
  if (inbox) draw(inbox);

  async function load() {
    try {
      inbox = await api('GET', '/messages', { creds });
      note.hidden = true;
      await set('inbox', inbox);
      draw(inbox);
      await markRead(inbox);
    } catch (e) {
      note.hidden = false;
      note.textContent = e.status === 0 ? t('messages.offline') : t('messages.failed', { reason: e.message });
      if (!inbox) list.replaceChildren();
    }
  }

  function draw(box) {
    list.replaceChildren(...box.messages.map(m => {
      const mine = m.from === 'participant';
      const unread = !mine && !m.read_at;
      return h('li', { class: mine ? 'from-participant' : 'from-researchers' },
        h('p', { class: 'meta' }, h('strong', { text: mine ? t('messages.from_you') : t('messages.from_researchers') }), ' · ', when(m.sent_at),
          unread ? h('span', { class: 'new', text: ' · ' + t('messages.new') }) : null),
        h('p', { class: 'text', dir: 'auto', text: m.text }));
    }));
    if (!box.messages.length) list.replaceChildren(h('li', { class: 'empty', text: t('messages.none') }));
    drawReply(box);
  }

  function drawReply(box) {
    if (!box.replies_allowed) {
      replyArea.replaceChildren(box.messages.length ? h('p', { class: 'hint', id: 'no-replies', text: t('messages.no_replies') }) : '');
      return;
    }
    if (replyArea.querySelector('form')) return; // keep what the participant is typing
    const text = h('textarea', { id: 'reply-text', name: 'text', rows: 4, maxlength: 2000, dir: 'auto' });
    const err = errorFor(text);
    const button = h('button', { type: 'submit', id: 'reply-send', text: t('messages.send') });
    const form = h('form', { id: 'reply-form', novalidate: true, async onsubmit(ev) {
      ev.preventDefault();
      const body = text.value.trim();
      if (!body) return err.show(t('messages.reply_empty'));
      err.show('');
      button.disabled = true;
      button.textContent = t('messages.sending');
      replyKey = replyKey || crypto.randomUUID?.() || `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      const last = [...inbox.messages].reverse().find(m => m.from === 'researchers');
      try {
        await api('POST', '/messages', { creds, body: { text: body, in_reply_to: last?.id ?? null }, headers: { 'Idempotency-Key': replyKey } });
        replyKey = null;
        text.value = '';
        announce(t('messages.sent'));
        await load();
      } catch (e) {
        err.show(t('messages.reply_failed', { reason: e.message }));
      } finally {
        button.disabled = false;
        button.textContent = t('messages.send');
      }
    } },
    h('div', { class: 'field' }, h('label', { for: text.id, text: t('messages.reply_label') }), text, err), button);
    replyArea.replaceChildren(form);
  }

  // Shown is read: each unread message is marked once, and the inbox kept on the phone follows.
  async function markRead(box) {
    let changed = false;
    for (const m of box.messages.filter(m => m.from === 'researchers' && !m.read_at)) {
      try {
        const read = await api('POST', `/messages/${encodeURIComponent(m.id)}/read`, { creds });
        m.read_at = read.read_at;
        changed = true;
      } catch { break; /* offline: marked on the next visit */ }
    }
    if (changed) await set('inbox', box);
  }

  await load();
  addEventListener('momentary-message', load);
  return () => removeEventListener('momentary-message', load);
}
