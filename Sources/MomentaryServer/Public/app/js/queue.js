// Persistent upload queue, MomentaryClient's order: push token, responses, photos, ignored reports;
// first in, first out within a kind. Each item carries the credentials it was made with and
// (responses) the idempotency key fixed at Submit, so a retry after a crash can never double a response;
// photos are deduplicated by the server by their bytes.
import { tx, req, all } from './store.js';
import { api, ApiError } from './api.js';

export const PRIORITY = { push_token: 0, response: 1, photo: 2, ignored: 3 };
const BASE = 5000, MAX = 300000;
let running = false, failures = 0, timer = 0;

const changed = () => dispatchEvent(new Event('queuechange'));

// items: [{kind, creds, body?, beep_id?, jpeg? (ArrayBuffer), response_key?}], stored in one transaction.
export async function enqueue(...items) {
  await tx('queue', 'readwrite', async q => {
    if (items.some(i => i.kind === 'push_token')) {
      // Only the newest push token matters.
      for (const old of await req(q.getAll())) if (old.kind === 'push_token') q.delete(old.seq);
    }
    for (const i of items) q.add({ ...i, prio: PRIORITY[i.kind], attempts: 0, notBefore: 0, created: Date.now() });
  });
  changed();
  drain();
}

export const pending = async kind => (await all('queue')).filter(i => !kind || i.kind === kind).length;
export const deadLetters = () => all('dead');
// True while the network (or the server) is failing and the queue waits to retry.
export const stalled = () => failures > 0;

export async function drain() {
  if (running) return;
  running = true;
  try {
    // Web Locks keep two tabs from sending the same item at once; the tab without the lock leaves it.
    if (navigator.locks) await navigator.locks.request('momentary-upload', { ifAvailable: true }, l => l && run());
    else await run();
  } finally {
    running = false;
    changed();
  }
}

function send(i, responseId) {
  const o = { creds: i.creds };
  switch (i.kind) {
    case 'push_token': return api('PUT', '/push-token', { ...o, body: i.body });
    case 'response': return api('POST', '/responses', { ...o, body: i.body });
    case 'photo': return api('POST', `/responses/${responseId}/photo?public=false`, { ...o, body: new Blob([i.jpeg], { type: 'image/jpeg' }), type: 'image/jpeg' });
    case 'ignored': return api('POST', `/beeps/${i.beep_id}/ignored`, o);
  }
}

async function next() {
  const [items, acks] = await tx(['queue', 'acks'], 'readonly', (q, a) => Promise.all([req(q.getAll()), req(a.getAll())]));
  items.sort((x, y) => x.prio - y.prio || x.seq - y.seq);
  const now = Date.now();
  for (const i of items) {
    if (i.notBefore > now) continue;
    if (i.kind !== 'photo') return { i };
    const ack = acks.find(a => a.key === i.response_key);
    if (ack) return { i, responseId: ack.response_id };
    if (!items.some(r => r.kind === 'response' && r.body.idempotency_key === i.response_key)) {
      await bury(i, 'Its response was never accepted by the server.');
      return next();
    }
  }
  return null;
}

async function bury(i, reason) {
  await tx(['queue', 'dead'], 'readwrite', (q, d) => {
    q.delete(i.seq);
    const { seq, ...rest } = i;
    d.add({ ...rest, reason, dropped: new Date().toISOString() });
  });
}

const backoff = n => Math.min(MAX, BASE * 2 ** (n - 1)) * (1 - Math.random() * 0.3);

async function run() {
  for (let step; (step = await next());) {
    const { i, responseId } = step;
    try {
      const result = await send(i, responseId);
      await tx(['queue', 'acks'], 'readwrite', (q, a) => {
        // The receipt is stored in the same transaction that removes the response.
        if (i.kind === 'response') a.put({ key: i.body.idempotency_key, response_id: result.response_id, at: Date.now() });
        q.delete(i.seq);
      });
      failures = 0;
      changed();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const s = e.status;
      if (i.kind === 'response' && i.body.beep_id && ['beep_not_answerable', 'beep_answered', 'beep_expired'].includes(e.code)) {
        // The beep expired, was answered or was replaced meanwhile: keep the answers, as a volunteered response
        // (a refused request stored nothing, so the same key is still unused).
        await tx('queue', 'readwrite', q => { q.put({ ...i, body: { ...i.body, beep_id: null }, lastError: e.message }); });
        continue;
      }
      if (s >= 400 && s < 500 && s !== 408 && s !== 429) {
        await bury(i, `${e.status} ${e.code}: ${e.message}`);
        continue;
      }
      const attempts = i.attempts + 1;
      if (s === 500) {
        // A server error may be this item's own: back it off alone and go on with the others.
        await tx('queue', 'readwrite', q => { q.put({ ...i, attempts, lastError: e.message, notBefore: Date.now() + backoff(attempts) }); });
        clearTimeout(timer);
        timer = setTimeout(drain, backoff(attempts));
        continue;
      }
      // No network, timeout, rate limit, server unavailable: every item would fail alike, so pause all.
      failures++;
      await tx('queue', 'readwrite', q => { q.put({ ...i, attempts, lastError: e.message }); });
      clearTimeout(timer);
      timer = setTimeout(drain, backoff(failures));
      return;
    }
  }
}

// A network that returns, a page shown again, or the app opening: try at once.
export function start() {
  addEventListener('online', () => { failures = 0; drain(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') drain(); });
  drain();
}
