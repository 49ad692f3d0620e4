// Web Push subscription. Every way it can fail is said in words; the caller then carries on with
// push channel "none" (the home screen shows a waiting beep whenever the app is opened).
import { api } from './api.js';
import { t } from './i18n.js';

const loopback = () => ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname);
export const insecure = () => location.protocol !== 'https:' && !loopback();
export const isIOS = () => /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
export const standalone = () => navigator.standalone === true || matchMedia('(display-mode: standalone)').matches;

function keyBytes(b64url) {
  const s = atob(b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - b64url.length % 4) % 4));
  return Uint8Array.from(s, c => c.charCodeAt(0));
}

// A browser without a reachable push service may never answer; give up after a while.
const within = (p, ms, why) => Promise.race([p, new Promise((_, r) => setTimeout(() => r(new Error(why)), ms))]);

// Each outcome is a reason (and a detail from the browser or server); pushWords() says it in
// the app's language when shown, so stored outcomes follow a change of language.
const fail = (reason, detail) => ({ push: { channel: 'none' }, ok: false, reason, detail });

export function pushWords({ reason, detail = '' }) {
  const why = {
    https: t('push.why.https'), ios: t('push.why.ios'), unsupported: t('push.why.unsupported'),
    no_server_key: t('push.why.no_server_key'), key_failed: t('push.why.key_failed', { detail }),
    blocked: t('push.why.blocked'), dismissed: t('push.why.dismissed'), unreachable: t('push.why.unreachable', { detail }),
  }[reason];
  if (reason === 'on') return t('push.on');
  return t('push.off_because', { why: why || detail });
}

export async function subscribe() {
  if (insecure()) return fail('https');
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return fail(isIOS() && !standalone() ? 'ios' : 'unsupported');
  }
  let key;
  try {
    key = (await api('GET', '/push/web-push-key', { auth: false })).public_key;
  } catch (e) {
    return fail(e.status === 404 ? 'no_server_key' : 'key_failed', e.message);
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return fail(permission === 'denied' ? 'blocked' : 'dismissed');
  try {
    const reg = await within(navigator.serviceWorker.ready, 8000, t('push.detail.no_worker'));
    const options = { userVisibleOnly: true, applicationServerKey: keyBytes(key) };
    let sub;
    try {
      sub = await within(reg.pushManager.subscribe(options), 10000, t('push.detail.timeout', { seconds: 10 }));
    } catch (e) {
      // A subscription made with another server key must go first.
      const old = await reg.pushManager.getSubscription();
      if (!old) throw e;
      await old.unsubscribe();
      sub = await within(reg.pushManager.subscribe(options), 10000, t('push.detail.timeout', { seconds: 10 }));
    }
    const subscription = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
    return { push: { channel: 'webpush', subscription }, ok: true, reason: 'on' };
  } catch (e) {
    return fail('unreachable', e.message || e.name);
  }
}

export async function unsubscribe() {
  try { await (await (await navigator.serviceWorker?.getRegistration())?.pushManager.getSubscription())?.unsubscribe(); } catch { /* nothing to undo */ }
}
