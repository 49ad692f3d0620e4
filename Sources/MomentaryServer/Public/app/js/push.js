// Web Push subscription. Every way it can fail is said in words; the caller then carries on with
// push channel "none" (the home screen shows a waiting beep whenever the app is opened).
import { api } from './api.js';

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

const fail = why => ({ push: { channel: 'none' }, ok: false, words: `Notifications are off: ${why} You can still take part: open this app to see whether a beep is waiting.` });

export async function subscribe() {
  if (insecure()) return fail('notifications need a secure (https) address, and this page is not served over https.');
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return fail(isIOS() && !standalone()
      ? 'on iPhone and iPad, notifications work only after you add this app to your Home Screen (Share, then “Add to Home Screen”) and open it from there.'
      : 'this browser does not support web push notifications.');
  }
  let key;
  try {
    key = (await api('GET', '/push/web-push-key', { auth: false })).public_key;
  } catch (e) {
    return fail(e.status === 404 ? 'this server has not turned on web push.' : 'the server’s push key could not be fetched (' + e.message + ').');
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return fail(permission === 'denied' ? 'notifications are blocked for this site in your browser’s settings.' : 'you did not allow notifications.');
  try {
    const reg = await within(navigator.serviceWorker.ready, 8000, 'the app’s service worker did not start');
    const options = { userVisibleOnly: true, applicationServerKey: keyBytes(key) };
    let sub;
    try {
      sub = await within(reg.pushManager.subscribe(options), 10000, 'no answer within 10 seconds');
    } catch (e) {
      // A subscription made with another server key must go first.
      const old = await reg.pushManager.getSubscription();
      if (!old) throw e;
      await old.unsubscribe();
      sub = await within(reg.pushManager.subscribe(options), 10000, 'no answer within 10 seconds');
    }
    const subscription = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
    return { push: { channel: 'webpush', subscription }, ok: true, words: 'Notifications are on. We will let you know when it is time to answer.' };
  } catch (e) {
    return fail(`this browser could not reach its push service (${e.message || e.name}).`);
  }
}

export async function unsubscribe() {
  try { await (await (await navigator.serviceWorker?.getRegistration())?.pushManager.getSubscription())?.unsubscribe(); } catch { /* nothing to undo */ }
}
