// The router: one shell, screens chosen by location.pathname, History API navigation.
import { h, heading, link, announce } from './ui.js';
import { setCredentials } from './api.js';
import { get } from './store.js';
import { start, enqueue } from './queue.js';
import * as answer from './answer.js';
import { t, useLanguage, pickLanguage } from './i18n.js';

// Screens load on first use, so opening a beep fetches only what answering needs.
// Titles are functions: they are read in the language chosen when the screen opens.
const lazy = (load, name = 'render') => async (...args) => (await load())[name](...args);
const routes = [
  [/^\/join\/([^/]+)\/?$/, lazy(() => import('./join.js')), () => t('title.join'), false],
  [/^\/app\/?$/, lazy(() => import('./home.js')), () => t('title.home'), true],
  [/^\/app\/beep\/([^/]+)\/?$/, answer.render, () => t('title.beep'), true],
  [/^\/app\/answer\/?$/, answer.render, () => t('title.volunteer'), true],
  [/^\/app\/settings\/?$/, lazy(() => import('./settings.js')), () => t('title.settings'), true],
  [/^\/app\/leave\/?$/, lazy(() => import('./leave.js')), () => t('title.leave'), true],
  [/^\/app\/my-happiness\/?$/, lazy(() => import('./my-happiness.js')), () => t('title.my_happiness'), true],
  [/^\/app\/my-data\/?$/, lazy(() => import('./my-data.js')), () => t('title.my_data'), true],
  [/^\/app\/messages\/?$/, lazy(() => import('./messages.js')), () => t('title.messages'), true],
];
const APP_NAME = 'Momentary'; // a name, the same in every language

const main = document.getElementById('app');
let cleanup = null, active = null, generation = 0, stale = false;
// A screen that moves through history entries of its own (the join steps) handles Back and
// Forward between them itself: {path, fn(state)}.
let popHandler = null;

export function go(path, replace = false) {
  // After an app update, the next move loads the new files instead of mixing old and new code.
  if (stale) return location[replace ? 'replace' : 'assign'](path);
  history[replace ? 'replaceState' : 'pushState'](null, '', path);
  route();
}

async function route() {
  const g = ++generation;
  try { cleanup?.(); } catch { /* a screen failing to clean up must not block the next */ }
  cleanup = null;
  active = null;
  popHandler = null;
  const path = location.pathname;
  const match = routes.map(([re, ...rest]) => [path.match(re), ...rest]).find(([m]) => m);
  const creds = await get('creds').catch(() => null);
  setCredentials(creds);
  // Joined: the participant's language (none stored: a study from a server without languages,
  // which is English). Not joined: the browser's; the join page then follows the study's choice.
  const stored = creds ? await get('language').catch(() => null) : null;
  await useLanguage(creds ? stored || 'en' : pickLanguage(navigator.languages || []));
  if (g !== generation) return;
  main.replaceChildren();
  main.setAttribute('aria-busy', 'true');
  let [m, render, titleOf, needsCreds] = match || [null, notFound, () => t('title.not_found'), false];
  if (needsCreds && !creds) [render, titleOf] = [lazy(() => import('./not-joined.js')), () => APP_NAME];
  const title = titleOf();
  document.title = `${title} · ${APP_NAME}`;
  const params = m ? m.slice(1).map(decodeURIComponent) : [];
  try {
    const where = location.pathname + location.search;
    const onPop = fn => { if (g === generation) popHandler = { where, fn }; };
    const c = await render(main, { params, creds, go, onPop, setActive: a => { active = a; } });
    if (g === generation) cleanup = typeof c === 'function' ? c : null; else c?.();
  } catch (e) {
    main.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', role: 'alert', textContent: t('error.unexpected', { message: e.message }) }));
  }
  if (g !== generation) return;
  main.removeAttribute('aria-busy');
  // Focus the new screen's heading (unless the screen already moved focus), and say where we are.
  const h1 = main.querySelector('h1');
  if (h1 && !main.contains(document.activeElement)) h1.focus();
  announce(h1?.textContent || title);
}

function notFound(main) {
  main.append(h('section', { class: 'screen' }, heading(t('not_found.title')), h('p', { text: t('not_found.text') }), link('/app', t('not_found.home'), { class: 'button' })));
}

// Links inside the app change the screen without reloading the page.
document.addEventListener('click', e => {
  const a = e.target.closest?.('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
addEventListener('popstate', () => {
  if (popHandler && popHandler.where === location.pathname + location.search && !stale) popHandler.fn(history.state);
  else route();
});

if ('serviceWorker' in navigator) {
  // Checking for a new version each time the app opens keeps a participant's copy current.
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(r => r.update()).catch(() => { /* the app still works online */ });
  // A new version took over: reload now unless the participant is in the middle of something.
  const hadController = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController) return;
    if ((!active || active.closed) && !location.pathname.startsWith('/join/')) location.reload();
    else stale = true;
  });
  navigator.serviceWorker.addEventListener('message', async ({ data }) => {
    if (data?.type === 'navigate' && data.url) return go(data.url);
    // A message from the researchers arrived: the inbox and home's count catch up.
    if (data?.type === 'message') return dispatchEvent(new Event('momentary-message'));
    if (data?.type !== 'beep' || !data.beep_id) return;
    // A beep that arrives mid-survey (for another beep or a volunteered answer) is reported ignored.
    if (active && !active.closed && active.beepId !== data.beep_id) {
      const creds = await get('creds');
      if (creds) await enqueue({ kind: 'ignored', creds, beep_id: data.beep_id });
      answer.closeNotification(data.beep_id);
    } else {
      dispatchEvent(new Event('momentary-beep'));
    }
  });
}

start();
route();
