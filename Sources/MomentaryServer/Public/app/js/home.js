// Home: statistics, a waiting beep, "Tell us how you feel", the air and pollen where the
// participant last answered, uploads waiting, settings and leaving.
// Works offline from the last status it saw.
import { h, heading, link, when, timeLeft, closeExpiredNotifications } from './ui.js';
import { api } from './api.js';
import { get, set } from './store.js';
import { pending, enqueue } from './queue.js';
import { subscribe, isIOS, standalone } from './push.js';

export function duration(seconds) {
  if (seconds == null) return '—';
  const s = Math.round(seconds);
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} minutes`;
  const hours = Math.floor(m / 60), rest = m % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} min` : ''}`;
}

const SCALES = { us_epa: 'US EPA', european_eaqi: 'European EAQI', indian_naqi: 'Indian NAQI' };
const capital = text => text ? text[0].toUpperCase() + text.slice(1) : '—';

// The status's `environment`: what the server attached to the latest located answer of the day.
export function environmentFigures(e) {
  const t = e.temperature_c;
  return {
    air: e.air_quality ? `${e.air_quality}${e.aqi != null ? ` (AQI ${Math.round(e.aqi)}${SCALES[e.aqi_scale] ? `, ${SCALES[e.aqi_scale]}` : ''})` : ''}` : '—',
    pollen: capital(e.pollen_risk),
    temperature: t == null ? '—' : `${Math.round(t)} °C`,
    advice: [e.air_quality_advice, e.air_quality_concerned && `Who should take care: ${e.air_quality_concerned}`].filter(Boolean).join(' '),
  };
}

export async function render(main, { creds }) {
  const stat = (id, label) => h('li', { class: 'stat' }, h('span', { id: id + '-label', text: label }), h('strong', { id, text: '…' }));
  const environment = h('section', { id: 'environment', hidden: true, 'aria-labelledby': 'environment-title' },
    h('h2', { id: 'environment-title', text: 'Air and pollen where you last answered' }), h('p', { id: 'environment-when' }),
    h('ul', { class: 'stats' }, stat('environment-air', 'Air quality'), stat('environment-pollen', 'Pollen'), stat('environment-temperature', 'Temperature')),
    h('p', { id: 'environment-advice' }));
  const banner = h('section', { id: 'pending-banner', class: 'banner', hidden: true, 'aria-labelledby': 'pending-title' },
    h('h2', { id: 'pending-title', text: 'A question is waiting for you' }), h('p', { id: 'pending-when' }),
    h('a', { id: 'answer-now', class: 'button', 'data-link': '', href: '/app', text: 'Answer now' }));
  const offline = h('p', { id: 'offline-note', class: 'note', role: 'status', hidden: true });
  const message = h('p', { id: 'status-message', class: 'message', hidden: true });
  const queued = h('p', { id: 'queue-count', class: 'note', role: 'status', hidden: true });
  const pushWarning = h('div', { id: 'push-warning', class: 'warning', hidden: true });
  const iosHint = isIOS() && !standalone()
    ? h('p', { id: 'ios-install-hint', class: 'note', text: 'To get notifications on iPhone or iPad, add this app to your Home Screen: tap the Share button, then “Add to Home Screen”, and open it from there.' })
    : null;

  main.append(h('section', { id: 'home', class: 'screen' },
    h('p', { class: 'eyebrow', text: 'You are taking part in' }), heading(creds.study?.name || 'a Momentary study'),
    offline, banner,
    link('/app/answer', 'Tell us how you feel', { id: 'volunteer', class: 'button big' }),
    queued, message,
    h('h2', { text: 'Your answers so far' }),
    h('ul', { class: 'stats' }, stat('stat-responses', 'Answers'), stat('stat-rate', 'Response rate'), stat('stat-typical', 'Typical time to answer')),
    environment, pushWarning, iosHint,
    h('nav', { class: 'links', 'aria-label': 'More' },
      link('/app/settings', 'Settings', { id: 'settings-link' }),
      link('/app/my-happiness', 'My happiness', { id: 'my-happiness', hidden: true }),
      link('/app/my-data', 'My data', { id: 'my-data', hidden: true }),
      link('/app/leave', 'Leave the study', { id: 'leave-link' }))));

  let bannerTimer = 0;
  closeExpiredNotifications();

  function showStatus(s, at, isOffline) {
    if (!s) return;
    document.getElementById('stat-responses').textContent = String(s.responses ?? 0);
    document.getElementById('stat-rate').textContent = s.response_rate == null ? '—' : `${Math.round(s.response_rate * 100)}%`;
    document.getElementById('stat-typical').textContent = duration(s.typical_response_seconds);
    message.textContent = s.message || '';
    message.hidden = !s.message;
    document.getElementById('my-happiness').hidden = !s.feedback_available;
    document.getElementById('my-data').hidden = !s.data_download_available;
    const b = s.pending_beep;
    const left = b?.expires_at ? timeLeft(b.expires_at) : null;
    clearTimeout(bannerTimer);
    banner.hidden = !b || left === '';
    if (b && left !== '') {
      banner.querySelector('#answer-now').href = '/app/beep/' + encodeURIComponent(b.id);
      banner.querySelector('#pending-when').textContent = `Sent ${when(b.scheduled_at)}${left ? `; please answer within ${left} (before ${when(b.expires_at)})` : ''}.`;
      // The banner goes when the beep does, and with it the notification.
      if (left) bannerTimer = setTimeout(() => { banner.hidden = true; closeExpiredNotifications(); }, Math.min(Date.parse(b.expires_at) - Date.now() + 500, 2 ** 31 - 1));
    }
    showEnvironment(s.environment);
    offline.hidden = !isOffline;
    if (isOffline) offline.textContent = `You are offline. ${at ? `These figures are from ${when(at)}.` : ''} Your answers are kept on this device until you are back online.`;
  }

  function showEnvironment(e) {
    environment.hidden = !e;
    if (!e) return;
    const figures = environmentFigures(e);
    document.getElementById('environment-when').textContent = `For the hour from ${when(e.hour)}.`;
    document.getElementById('environment-air').textContent = figures.air;
    document.getElementById('environment-pollen-label').textContent = `Pollen (${e.pollen_type})`;
    document.getElementById('environment-pollen').textContent = figures.pollen;
    document.getElementById('environment-temperature').textContent = figures.temperature;
    const advice = document.getElementById('environment-advice');
    advice.textContent = figures.advice;
    advice.hidden = !figures.advice;
  }

  async function refreshQueue() {
    const n = await pending('response').catch(() => 0);
    queued.hidden = !n;
    queued.textContent = n === 1 ? '1 answer waiting to upload' : `${n} answers waiting to upload`;
  }

  async function showPush() {
    const p = await get('push');
    const perm = 'Notification' in window ? Notification.permission : 'unsupported';
    const off = !p || p.channel !== 'webpush' || perm !== 'granted';
    pushWarning.hidden = !off;
    if (!off) return;
    const words = h('p', { text: p?.words || 'Notifications are off, so we cannot tell you when it is time to answer. Open this app now and then: a waiting question shows here.' });
    const btn = h('button', {
      type: 'button', class: 'secondary', id: 'push-enable', text: 'Turn on notifications', async onclick() {
        btn.disabled = true;
        const r = await subscribe();
        words.textContent = r.words;
        btn.disabled = false;
        if (r.ok) {
          await set('push', { channel: 'webpush', words: r.words });
          await enqueue({ kind: 'push_token', creds, body: r.push });
          btn.hidden = true;
        }
      },
    });
    pushWarning.replaceChildren(words, btn);
  }

  const last = await get('status').catch(() => null);
  if (last) showStatus(last.data, last.at, !navigator.onLine);
  refreshQueue();
  showPush();
  addEventListener('queuechange', refreshQueue);
  const refresh = async () => {
    try {
      const s = await api('GET', '/status', { creds });
      const at = new Date().toISOString();
      await set('status', { data: s, at });
      showStatus(s, at, false);
      // Keep the survey on the device from the start, so "Tell us how you feel" works offline too.
      api('GET', '/survey', { creds }).then(survey => set('survey:/survey', survey)).catch(() => {});
    } catch (e) {
      if (e.status === 0) return showStatus(last?.data || { responses: 0 }, last?.at, true);
      message.hidden = false;
      message.textContent = e.status === 403 ? 'You can no longer take part in this study (' + e.message + ')' : 'The server could not give your figures: ' + e.message;
    }
  };
  refresh();
  // The service worker tells us when a beep arrives while home is open.
  addEventListener('momentary-beep', refresh);
  return () => { clearTimeout(bannerTimer); removeEventListener('queuechange', refreshQueue); removeEventListener('momentary-beep', refresh); };
}
