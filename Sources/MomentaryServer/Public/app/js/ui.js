// Tiny DOM helpers: h() builds elements without innerHTML (so no markup injection from survey text).
import { t, formatTime, formatWeekday, formatSpan } from './i18n.js';

export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = v;
    else if (k in el && k !== 'list' && k !== 'form' && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  return add(el, ...kids);
}

// append() that skips null/false, so optional parts can be written inline.
export function add(el, ...kids) {
  for (const kid of kids.flat(9)) if (kid != null && kid !== false) el.append(kid);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

export function announce(text) {
  const a = $('#announcer');
  if (!a) return;
  a.textContent = '';
  setTimeout(() => { a.textContent = text; }, 50);
}

// A heading the router focuses when the screen appears.
export const heading = (text, id) => h('h1', { tabindex: '-1', id, text });

// An error paragraph tied to its control with aria-describedby; call show(msg) / show('') to clear.
export function errorFor(control, id = control.id + '-error') {
  const p = h('p', { id, class: 'error', role: 'alert', hidden: true });
  const described = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  if (!described.includes(id)) control.setAttribute('aria-describedby', [...described, id].join(' '));
  p.show = msg => {
    p.textContent = msg || '';
    p.hidden = !msg;
    if (msg) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
  };
  return p;
}

export const link = (href, text, props = {}) => h('a', { href, 'data-link': '', ...props }, text);

export function field(labelText, control, hint) {
  const hintEl = hint ? h('p', { class: 'hint', id: control.id + '-hint', text: hint }) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  const err = errorFor(control);
  return { el: h('div', { class: 'field' }, h('label', { for: control.id, text: labelText }), hintEl, control, err), err };
}

// "today at 09:12", or "Tue 09:12" for another day, in the app's language.
export function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return '';
  const time = formatTime(d);
  return d.toDateString() === new Date().toDateString() ? t('time.today_at', { time }) : t('time.day_at', { day: formatWeekday(d), time });
}

// How long is left until `iso`, in words: "12 minutes", "1 hour, 5 minutes"; '' once it has passed.
export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (!(ms > 0)) return '';
  const minutes = Math.ceil(ms / 60000);
  if (minutes < 90) return formatSpan({ minutes });
  return formatSpan({ hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

// Asks the service worker to close the notifications of beeps whose time to answer is over.
export async function closeExpiredNotifications() {
  try { (await navigator.serviceWorker?.ready)?.active?.postMessage({ type: 'close-expired' }); } catch { /* no worker */ }
}
