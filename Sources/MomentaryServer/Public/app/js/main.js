// The router: one shell, screens chosen by location.pathname, History API navigation.
import { h, heading, link, announce } from './ui.js';
import { setCredentials } from './api.js';
import { get } from './store.js';
import { start, enqueue } from './queue.js';
import * as answer from './answer.js';

// Screens load on first use, so opening a beep fetches only what answering needs.
const lazy = (load, name = 'render') => async (...args) => (await load())[name](...args);
const routes = [
  [/^\/join\/([^/]+)\/?$/, lazy(() => import('./join.js')), 'Join', false],
  [/^\/app\/?$/, lazy(() => import('./home.js')), 'Home', true],
  [/^\/app\/beep\/([^/]+)\/?$/, answer.render, 'Beep', true],
  [/^\/app\/answer\/?$/, answer.render, 'How do you feel?', true],
  [/^\/app\/settings\/?$/, lazy(() => import('./settings.js')), 'Settings', true],
  [/^\/app\/leave\/?$/, lazy(() => import('./leave.js')), 'Leave the study', true],
  [/^\/app\/my-happiness\/?$/, lazy(() => import('./my-happiness.js')), 'My happiness', true],
  [/^\/app\/my-data\/?$/, lazy(() => import('./my-data.js')), 'My data', true],
];

const main = document.getElementById('app');
let cleanup = null, active = null, generation = 0, stale = false;

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
  const path = location.pathname;
  const match = routes.map(([re, ...rest]) => [path.match(re), ...rest]).find(([m]) => m);
  const creds = await get('creds').catch(() => null);
  setCredentials(creds);
  if (g !== generation) return;
  main.replaceChildren();
  main.setAttribute('aria-busy', 'true');
  let [m, render, title, needsCreds] = match || [null, notFound, 'Not found', false];
  if (needsCreds && !creds) [render, title] = [notJoined, 'Momentary'];
  document.title = `${title} · Momentary`;
  const params = m ? m.slice(1).map(decodeURIComponent) : [];
  try {
    const c = await render(main, { params, creds, go, setActive: a => { active = a; } });
    if (g === generation) cleanup = typeof c === 'function' ? c : null; else c?.();
  } catch (e) {
    main.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', role: 'alert', textContent: 'Something went wrong: ' + e.message }));
  }
  if (g !== generation) return;
  main.removeAttribute('aria-busy');
  // Focus the new screen's heading (unless the screen already moved focus), and say where we are.
  const h1 = main.querySelector('h1');
  if (h1 && !main.contains(document.activeElement)) h1.focus();
  announce(h1?.textContent || title);
}

function notJoined(main) {
  main.append(h('section', { id: 'not-joined', class: 'screen' }, heading('Momentary'),
    h('p', { text: 'This app asks you, a few times a day, how you feel and what you are doing, for research studies.' }),
    h('p', { text: 'To take part, open the study link the researchers sent you (it looks like …/join/study-name). This device has not joined a study yet.' }),
    // `/` leads here, so researchers need a way on to their website.
    h('p', { class: 'note' }, 'Running a study? ', h('a', { href: '/signin', text: 'Researchers sign in here' }), '.')));
}

function notFound(main) {
  main.append(h('section', { class: 'screen' }, heading('There is nothing here'), h('p', { text: 'This part of the app does not exist (yet).' }), link('/app', 'Go to the home screen', { class: 'button' })));
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
addEventListener('popstate', route);

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
