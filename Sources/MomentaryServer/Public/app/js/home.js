// Home: statistics, a waiting beep, "Tell us how you feel", the air and pollen where the
// participant last answered, uploads waiting, settings and leaving.
// Works offline from the last status it saw.
import { h, heading, link, when, timeLeft, closeExpiredNotifications } from './ui.js';
import { api } from './api.js';
import { get, set } from './store.js';
import { pending, enqueue } from './queue.js';
import { subscribe, pushWords, isIOS, standalone } from './push.js';
import { t, formatSpan, formatNumber } from './i18n.js';

export function duration(seconds) {
  if (seconds == null) return '—';
  const s = Math.round(seconds);
  if (s < 90) return formatSpan({ seconds: s });
  const m = Math.round(s / 60);
  if (m < 90) return formatSpan({ minutes: m });
  return formatSpan({ hours: Math.floor(m / 60), minutes: m % 60 });
}

// Names of the air quality scales: proper names, the same in every language.
const SCALES = { us_epa: 'US EPA', european_eaqi: 'European EAQI', indian_naqi: 'Indian NAQI' };
// The server's pollen words (PollenRisk, PollenType) in the app's language.
// A pollen type inside a sentence ("Pollen (grass)"); settings list them as names.
const pollenKind = type => ({ grass: t('pollen.kind.grass'), tree: t('pollen.kind.tree'), weed: t('pollen.kind.weed') })[type] || type;
const pollenRisk = risk => ({ low: t('pollen.risk.low'), medium: t('pollen.risk.medium'), high: t('pollen.risk.high') })[risk] || risk || '—';

// The status's `environment`: what the server attached to the latest located answer of the day.
export function environmentFigures(e) {
  const celsius = e.temperature_c;
  return {
    air: e.air_quality ? (e.aqi == null ? e.air_quality
      : SCALES[e.aqi_scale] ? t('environment.air_with_scale', { category: e.air_quality, aqi: Math.round(e.aqi), scale: SCALES[e.aqi_scale] })
        : t('environment.air', { category: e.air_quality, aqi: Math.round(e.aqi) })) : '—',
    pollen: pollenRisk(e.pollen_risk),
    temperature: celsius == null ? '—' : t('environment.temperature', { degrees: Math.round(celsius) }),
    advice: [e.air_quality_advice, e.air_quality_concerned && t('environment.concerned', { who: e.air_quality_concerned })].filter(Boolean).join(' '),
  };
}

export async function render(main, { creds }) {
  const stat = (id, label) => h('li', { class: 'stat' }, h('span', { id: id + '-label', text: label }), h('strong', { id, text: '…' }));
  const environment = h('section', { id: 'environment', hidden: true, 'aria-labelledby': 'environment-title' },
    h('h2', { id: 'environment-title', text: t('environment.title') }), h('p', { id: 'environment-when' }),
    h('ul', { class: 'stats' }, stat('environment-air', t('environment.air_label')), stat('environment-pollen', t('environment.pollen_label')), stat('environment-temperature', t('environment.temperature_label'))),
    h('p', { id: 'environment-advice' }));
  const banner = h('section', { id: 'pending-banner', class: 'banner', hidden: true, 'aria-labelledby': 'pending-title' },
    h('h2', { id: 'pending-title', text: t('home.pending.title') }), h('p', { id: 'pending-when' }),
    h('a', { id: 'answer-now', class: 'button', 'data-link': '', href: '/app', text: t('home.pending.answer_now') }));
  const offline = h('p', { id: 'offline-note', class: 'note', role: 'status', hidden: true });
  // The server's own words may be in another script than the app's: dir=auto lays them out by their own.
  const message = h('p', { id: 'status-message', class: 'message', dir: 'auto', hidden: true });
  const queued = h('p', { id: 'queue-count', class: 'note', role: 'status', hidden: true });
  const pushWarning = h('div', { id: 'push-warning', class: 'warning', hidden: true });
  const iosHint = isIOS() && !standalone()
    ? h('p', { id: 'ios-install-hint', class: 'note', text: t('home.ios_home_screen') })
    : null;

  main.append(h('section', { id: 'home', class: 'screen' },
    h('p', { class: 'eyebrow', text: t('home.taking_part_in') }), heading(creds.study?.name || t('home.unnamed_study')),
    offline, banner,
    link('/app/answer', t('home.volunteer'), { id: 'volunteer', class: 'button big' }),
    queued, message,
    h('h2', { text: t('home.stats.title') }),
    h('ul', { class: 'stats' }, stat('stat-responses', t('home.stats.answers')), stat('stat-rate', t('home.stats.rate')), stat('stat-typical', t('home.stats.typical'))),
    environment, pushWarning, iosHint,
    h('nav', { class: 'links', 'aria-label': t('home.more') },
      link('/app/messages', t('home.messages'), { id: 'messages-link' }),
      link('/app/settings', t('title.settings'), { id: 'settings-link' }),
      link('/app/my-happiness', t('title.my_happiness'), { id: 'my-happiness', hidden: true }),
      link('/app/my-data', t('title.my_data'), { id: 'my-data', hidden: true }),
      link('/app/leave', t('title.leave'), { id: 'leave-link' }))));

  let bannerTimer = 0;
  closeExpiredNotifications();

  function showStatus(s, at, isOffline) {
    if (!s) return;
    document.getElementById('stat-responses').textContent = formatNumber(s.responses ?? 0);
    document.getElementById('stat-rate').textContent = s.response_rate == null ? '—' : formatNumber(Math.round(s.response_rate * 100) / 100, { style: 'percent' });
    document.getElementById('stat-typical').textContent = duration(s.typical_response_seconds);
    message.textContent = s.message || '';
    message.hidden = !s.message;
    document.getElementById('my-happiness').hidden = !s.feedback_available;
    document.getElementById('my-data').hidden = !s.data_download_available;
    const unread = s.unread_messages || 0;
    document.getElementById('messages-link').textContent = unread ? t('home.messages_unread', { count: unread }) : t('home.messages');
    const b = s.pending_beep;
    const left = b?.expires_at ? timeLeft(b.expires_at) : null;
    clearTimeout(bannerTimer);
    banner.hidden = !b || left === '';
    if (b && left !== '') {
      banner.querySelector('#answer-now').href = '/app/beep/' + encodeURIComponent(b.id);
      banner.querySelector('#pending-when').textContent = left
        ? t('home.pending.sent_until', { sent: when(b.scheduled_at), left, until: when(b.expires_at) })
        : t('home.pending.sent', { sent: when(b.scheduled_at) });
      // The banner goes when the beep does, and with it the notification.
      if (left) bannerTimer = setTimeout(() => { banner.hidden = true; closeExpiredNotifications(); }, Math.min(Date.parse(b.expires_at) - Date.now() + 500, 2 ** 31 - 1));
    }
    showEnvironment(s.environment);
    offline.hidden = !isOffline;
    if (isOffline) offline.textContent = at ? t('home.offline_since', { when: when(at) }) : t('home.offline');
  }

  function showEnvironment(e) {
    environment.hidden = !e;
    if (!e) return;
    const figures = environmentFigures(e);
    document.getElementById('environment-when').textContent = t('environment.hour', { when: when(e.hour) });
    document.getElementById('environment-air').textContent = figures.air;
    document.getElementById('environment-pollen-label').textContent = e.pollen_type ? t('environment.pollen_of', { type: pollenKind(e.pollen_type) }) : t('environment.pollen_label');
    document.getElementById('environment-pollen').textContent = figures.pollen;
    document.getElementById('environment-temperature').textContent = figures.temperature;
    const advice = document.getElementById('environment-advice');
    advice.textContent = figures.advice;
    advice.hidden = !figures.advice;
  }

  async function refreshQueue() {
    const n = await pending('response').catch(() => 0);
    queued.hidden = !n;
    queued.textContent = t('home.queue', { count: n });
  }

  async function showPush() {
    const p = await get('push');
    const perm = 'Notification' in window ? Notification.permission : 'unsupported';
    const off = !p || p.channel !== 'webpush' || perm !== 'granted';
    pushWarning.hidden = !off;
    if (!off) return;
    const words = h('p', { text: p?.reason && p.reason !== 'on' ? pushWords(p) : t('push.off_home') });
    const btn = h('button', {
      type: 'button', class: 'secondary', id: 'push-enable', text: t('push.turn_on'), async onclick() {
        btn.disabled = true;
        const r = await subscribe();
        words.textContent = pushWords(r);
        btn.disabled = false;
        if (r.ok) {
          await set('push', { channel: 'webpush', reason: r.reason });
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
      // The server keeps the participant's language; the app's next screen follows it.
      if (s.language) await set('language', s.language);
      showStatus(s, at, false);
      // Keep the survey on the device from the start, so "Tell us how you feel" works offline too.
      api('GET', '/survey', { creds }).then(survey => set('survey:/survey', survey)).catch(() => {});
    } catch (e) {
      if (e.status === 0) return showStatus(last?.data || { responses: 0 }, last?.at, true);
      message.hidden = false;
      message.textContent = e.status === 403 ? t('home.no_longer', { reason: e.message }) : t('home.status_failed', { reason: e.message });
    }
  };
  refresh();
  // The service worker tells us when a beep arrives while home is open.
  addEventListener('momentary-beep', refresh);
  addEventListener('momentary-message', refresh);
  return () => {
    clearTimeout(bannerTimer);
    removeEventListener('queuechange', refreshQueue);
    removeEventListener('momentary-beep', refresh);
    removeEventListener('momentary-message', refresh);
  };
}
