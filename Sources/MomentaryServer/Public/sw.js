// Momentary service worker. The server fills in the version (a hash of every app file) and the file
// list, so any change to the app makes a new worker, a new cache, and the old cache goes.
const VERSION = '__APP_VERSION__';
let FILES, CATALOGUES;
try { FILES = __APP_FILES__; } catch { FILES = ['/app']; }
// Every message catalogue's tag; only English is in FILES.
try { CATALOGUES = __APP_CATALOGUES__; } catch { CATALOGUES = ['en']; }
const SHELL = 'momentary-shell-' + VERSION;
const DATA = 'momentary-data'; // surveys and study pages: kept across versions, for offline use

// The participant's own catalogue is not precached with English: the app's first fetch of it
// (cacheFirst below) keeps it for offline use.
self.addEventListener('install', e => {
  e.waitUntil(caches.open(SHELL).then(c => c.addAll(FILES.map(f => new Request(f, { cache: 'no-cache' })))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', e => {
  e.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith('momentary-shell-') && k !== SHELL).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function networkFirst(req, cacheName, fallback) {
  try {
    const res = await fetch(req);
    if (res.ok && cacheName) (await caches.open(cacheName)).put(req, res.clone());
    return res;
  } catch (err) {
    const hit = await caches.match(fallback || req, cacheName ? { cacheName } : undefined);
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(req) {
  const hit = await caches.match(req, { cacheName: SHELL });
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) (await caches.open(SHELL)).put(req, res.clone());
  return res;
}

self.addEventListener('fetch', e => {
  const req = e.request;
  if (req.method !== 'GET') return; // uploads always go to the network, never through a cache
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  const p = url.pathname;
  if (req.mode === 'navigate' && (p === '/app' || p.startsWith('/app/') || p.startsWith('/join/'))) {
    e.respondWith(networkFirst(req, null, '/app').catch(() => caches.match('/app')));
  } else if ((p.startsWith('/app/') && /\.[a-z0-9]+$/i.test(p)) || p === '/manifest.webmanifest') {
    e.respondWith(cacheFirst(req));
  } else if (p === '/api/v1/survey' || /^\/api\/v1\/beeps\/[^/]+\/survey$/.test(p)
    // An invitation code's check is never answered from a copy: the code may have been used since.
    || (p.startsWith('/api/v1/studies/') && !p.includes('/invitations/'))) {
    e.respondWith(networkFirst(req, DATA));
  }
});

const basic = c => 'Basic ' + btoa(`${c.participant_id}:${c.secret}`);

// The study name and credentials the app stored at join (IndexedDB "momentary", store "kv").
function stored(key) {
  return new Promise(resolve => {
    const open = indexedDB.open('momentary');
    // The app creates the database; if it does not exist yet, do not create an empty one.
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('kv')) { db.close(); return resolve(null); }
      const r = db.transaction('kv').objectStore('kv').get(key);
      r.onsuccess = () => { db.close(); resolve(r.result ?? null); };
      r.onerror = () => { db.close(); resolve(null); };
    };
  });
}

// The catalogue of the language the app stored (exact tag, then the same base language, then
// English).
async function catalogueTag() {
  const wanted = String((await stored('language')) || 'en').toLowerCase();
  return CATALOGUES.find(x => x.toLowerCase() === wanted) || CATALOGUES.find(x => x.split('-')[0].toLowerCase() === wanted.split('-')[0]) || 'en';
}

// The worker's own words (a push without text) in the participant's language.
async function t(key) {
  const tag = await catalogueTag();
  for (const candidate of [tag, 'en']) {
    try {
      const res = await caches.match(`/app/i18n/${candidate}.json`) || await fetch(`/app/i18n/${candidate}.json`);
      const words = await res.json();
      if (typeof words[key] === 'string') return words[key];
    } catch { /* try English */ }
  }
  return '';
}

// A beep's notification is worth nothing once its time to answer is over: closed on the worker's
// next wake (a push, or the app asking when it opens), since no event fires at the deadline itself.
async function closeExpired() {
  for (const n of await self.registration.getNotifications()) {
    const until = Date.parse(n.data?.expires_at || '');
    if (until && until <= Date.now()) n.close();
  }
}

self.addEventListener('message', e => {
  if (e.data?.type === 'close-expired') e.waitUntil(closeExpired());
});

self.addEventListener('push', e => {
  let data = {};
  try { data = e.data ? e.data.json() : {}; } catch { data = { alert: e.data?.text() }; }
  if (data.kind === 'message') return e.waitUntil(showMessage(data));
  const beep = data.beep_id;
  e.waitUntil((async () => {
    await closeExpired();
    const creds = await stored('creds');
    const title = creds?.study?.name || 'Momentary';
    await self.registration.showNotification(title, {
      body: data.alert || await t('notification.body'),
      tag: beep || 'momentary', renotify: false, icon: '/app/icons/icon-192.png', badge: '/app/icons/icon-192.png',
      data: { url: beep ? `/app/beep/${beep}?via=notification` : '/app', expires_at: data.expires_at || null },
    });
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    windows.forEach(w => w.postMessage({ type: 'beep', beep_id: beep }));
    // Fetch the beep's survey now, so a tap opens it at once, even if the network is gone by then.
    // prefetch=true: fetching is not opening, so the beep's reminders and deadline stay as they are.
    if (beep && creds) {
      const url = `/api/v1/beeps/${beep}/survey`;
      try {
        const res = await fetch(url + '?prefetch=true', { headers: { Authorization: basic(creds), Accept: 'application/json' }, cache: 'no-store' });
        if (res.ok) await (await caches.open(DATA)).put(url, res);
      } catch { /* offline: the app falls back on the last survey it saw */ }
    }
  })());
});

// A message from the researchers: its start as the notification, the inbox on a tap.
async function showMessage(data) {
  const creds = await stored('creds');
  await self.registration.showNotification(creds?.study?.name || 'Momentary', {
    body: data.alert || await t('notification.message'),
    tag: 'message-' + (data.message_id || ''), icon: '/app/icons/icon-192.png', badge: '/app/icons/icon-192.png',
    data: { url: '/app/messages?via=notification' },
  });
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  windows.forEach(w => w.postMessage({ type: 'message', message_id: data.message_id }));
}

// The push service replaced the subscription: hand the new one to the server.
self.addEventListener('pushsubscriptionchange', e => {
  e.waitUntil((async () => {
    const creds = await stored('creds');
    const key = e.oldSubscription?.options?.applicationServerKey;
    const sub = e.newSubscription || (key && await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
    if (!creds || !sub) return;
    await fetch('/api/v1/push-token', {
      method: 'PUT', body: JSON.stringify({ channel: 'webpush', subscription: sub.toJSON() }),
      headers: { Authorization: basic(creds), 'Content-Type': 'application/json' },
    });
  })().catch(() => {}));
});

self.addEventListener('notificationclick', e => {
  e.notification.close();
  const url = e.notification.data?.url || '/app';
  e.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find(w => new URL(w.url).pathname.startsWith('/app')) || windows[0];
    if (open) {
      await open.focus().catch(() => {});
      open.postMessage({ type: 'navigate', url });
      return;
    }
    await self.clients.openWindow(url);
  })());
});
