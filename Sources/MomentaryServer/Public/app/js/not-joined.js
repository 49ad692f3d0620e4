// /app on a device that has not joined. On an iPhone this is where the home-screen app opens when
// it was added from /app, and its storage is not Safari's (docs/iphone.md), so the participant
// must be able to carry on from here: paste the study link they were sent, or type the study's
// code, and go on to joining.
import { h, heading, field } from './ui.js';
import { api } from './api.js';
import { t } from './i18n.js';

const APP_NAME = 'Momentary'; // a name, the same in every language
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])$/; // StudySlug's rule
const KEPT = 'start-draft'; // what was typed, kept for Back from the join page (sessionStorage)

// What was typed → {slug, code} or {problem, host}. `here` is this page's location.
// Accepts a full link (https://host/join/slug?code=X), a link without its scheme (host/join/slug),
// the part after the host (/join/slug?code=X, join/slug), a link inside other words (pasted from
// an email), or the study's code alone (its slug, in any case).
export function readStudyLink(typed, here = location) {
  let text = String(typed || '').trim();
  if (!text) return { problem: 'empty' };
  const inWords = text.match(/[a-z][a-z0-9+.-]*:\/\/[^\s<>"]+/i);
  if (inWords) text = inWords[0].replace(/[.,;:!?)\]]+$/, '');
  let url;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) url = new URL(text);
    else if (/^[^\s/?#]+\.[^\s/?#]*\/|^localhost(:\d+)?\//i.test(text)) url = new URL('https://' + text);
    else if (/[/?#]/.test(text)) url = new URL(text.startsWith('/') ? text : '/' + text, here.origin);
  } catch {
    return { problem: 'not_a_link' };
  }
  if (!url) {
    const slug = text.toLowerCase();
    return SLUG.test(slug) ? { slug, code: '' } : { problem: 'no_such_study', slug: text };
  }
  // The scheme may have been guessed above, so the host alone decides.
  if (url.host.toLowerCase() !== here.host.toLowerCase()) return { problem: 'other_host', host: url.host };
  const path = url.pathname.match(/^\/join\/([^/]+)\/?$/);
  let slug = '';
  try { slug = path ? decodeURIComponent(path[1]).toLowerCase() : ''; } catch { /* a broken escape */ }
  if (!SLUG.test(slug)) return { problem: 'not_a_link' };
  return { slug, code: (url.searchParams.get('code') || '').trim() };
}

export function render(main, { go }) {
  const kept = JSON.parse(sessionStorage.getItem(KEPT) || 'null') || {};
  const example = `${location.host}/join/city-moods`;
  const linkInput = h('input', { id: 'study-link', name: 'study-link', type: 'text', value: kept.link || '', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', inputmode: 'url', enterkeyhint: 'go' });
  const codeInput = h('input', { id: 'start-code', name: 'start-code', type: 'text', value: kept.code || '', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false' });
  const linkField = field(t('start.link.label'), linkInput, t('start.link.hint', { example, code: 'city-moods' }));
  const codeField = field(t('start.code.label'), codeInput, t('start.code.hint'));
  const keep = () => sessionStorage.setItem(KEPT, JSON.stringify({ link: linkInput.value, code: codeInput.value }));
  linkInput.addEventListener('input', () => { linkField.err.show(''); keep(); });
  codeInput.addEventListener('input', () => { codeField.err.show(''); keep(); });
  const button = h('button', { type: 'submit', id: 'start-continue', text: t('start.continue') });
  const form = h('form', { id: 'start-form', novalidate: true }, linkField.el, codeField.el, button);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const found = readStudyLink(linkInput.value);
    const refuse = message => { linkField.err.show(message); linkInput.focus(); };
    if (found.problem === 'empty') return refuse(t('start.error.empty'));
    if (found.problem === 'other_host') return refuse(t('start.error.other_host', { host: found.host }));
    if (found.problem === 'not_a_link') return refuse(t('start.error.not_a_link', { example }));
    if (found.problem === 'no_such_study') return refuse(t('start.error.no_such_study', { slug: found.slug }));
    button.disabled = true;
    try {
      await api('GET', '/studies/' + encodeURIComponent(found.slug), { auth: false });
    } catch (err) {
      return refuse(err.status === 404 ? t('start.error.no_such_study', { slug: found.slug })
        : err.status === 0 ? t('start.error.offline') : err.message);
    } finally {
      button.disabled = false;
    }
    const code = codeInput.value.trim() || found.code;
    go(`/join/${encodeURIComponent(found.slug)}` + (code ? '?code=' + encodeURIComponent(code) : ''));
  });
  main.append(h('section', { id: 'not-joined', class: 'screen' }, heading(APP_NAME),
    h('p', { text: t('not_joined.about') }),
    h('p', { text: t('start.how') }),
    form,
    // `/` leads here, so researchers need a way on to their website.
    h('p', { class: 'note' }, t('not_joined.researchers'), ' ', h('a', { href: '/signin', text: t('not_joined.sign_in') }))));
}
