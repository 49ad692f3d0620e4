// Answering a beep (/app/beep/<id>) or volunteering (/app/answer): fetch the survey (the last copy
// when offline), run it, queue the response and its photos with the key fixed at Submit, upload.
import { h, heading, link, announce, timeLeft } from './ui.js';
import { api } from './api.js';
import { get, set, del, all } from './store.js';
import { enqueue, stalled } from './queue.js';
import { surveyView } from './survey-view.js';
import { questionID } from './survey-logic.js';
import { watchLocation, gather, impetusFromURL } from './context.js';
import { t } from './i18n.js';

export const uuid = () => crypto.randomUUID?.() ||
  ([1e7] + -1e3 + -4e3 + -8e3 + -1e11).replace(/[018]/g, c => (c ^ crypto.getRandomValues(new Uint8Array(1))[0] & 15 >> c / 4).toString(16));

async function loadSurvey(beepId) {
  const path = beepId ? `/beeps/${encodeURIComponent(beepId)}/survey` : '/survey';
  try {
    const s = await api('GET', path);
    set('survey:' + path, s).catch(() => {});
    if (!beepId) set('survey:/survey', s).catch(() => {});
    return { s };
  } catch (e) {
    if (e.status !== 0) return { e };
    // Offline: this beep's survey if seen before, else the last survey for volunteering.
    const s = (await get('survey:' + path)) || (await get('survey:/survey'));
    return s ? { s: { ...s, beep_id: beepId || null }, offline: true } : { e };
  }
}

// The survey in progress (kv "progress"): answers, the question on screen, its timing events and
// started_at, saved as the participant goes, so a reload (or the phone dropping the page) takes it
// up where it was. One at a time; gone once submitted or once the beep's time is over. A
// volunteered survey left for more than an hour starts afresh. Photos are not kept (the picture
// itself is not stored until Submit), so a photo question is asked again.
const PROGRESS = 'progress';
const VOLUNTEER_KEEP_MS = 60 * 60 * 1000;

async function savedProgress(s, beepId) {
  const p = await get(PROGRESS).catch(() => null);
  if (!p || p.beep_id !== (beepId || null) || p.survey_id !== s.survey_id || p.version !== s.version) return null;
  if (!beepId && !(Date.now() - Date.parse(p.saved_at) < VOLUNTEER_KEEP_MS)) return null;
  return p;
}

// Saves in order, at most one write at a time, the latest state winning.
function progressKeeper(key) {
  let latest = null, writing = null, stopped = false;
  const flush = async () => {
    while (latest && !stopped) {
      const value = latest;
      latest = null;
      await set(PROGRESS, value).catch(() => {});
    }
    writing = null;
  };
  return {
    save(value) { if (stopped) return; latest = { ...key, ...value, saved_at: new Date().toISOString() }; writing ??= flush(); },
    async clear() { stopped = true; latest = null; await writing; await del(PROGRESS).catch(() => {}); },
  };
}

export async function closeNotification(beepId) {
  try {
    const reg = await navigator.serviceWorker?.getRegistration();
    (await reg?.getNotifications({ tag: beepId }))?.forEach(n => n.close());
  } catch { /* no notifications here */ }
}

export async function render(main, { params: [beepId], creds, setActive }) {
  const section = h('section', { class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }));
  main.append(section);
  const [{ s, e, offline }, status] = await Promise.all([loadSurvey(beepId), get('status').catch(() => null)]);
  if (!s) {
    const gone = e.status === 409 || e.status === 404 || e.status === 410;
    if (beepId && (e.code === 'beep_expired' || e.code === 'beep_answered')) {
      closeNotification(beepId);
      if ((await get(PROGRESS).catch(() => null))?.beep_id === beepId) await del(PROGRESS).catch(() => {});
    }
    const title = e.code === 'beep_expired' ? t('answer.beep_passed') : e.code === 'beep_answered' ? t('answer.beep_answered') : t('answer.beep_closed');
    section.append(heading(gone ? title : t('answer.load_failed')),
      h('p', { id: 'survey-unavailable', class: 'error', role: 'alert', text: gone ? t('answer.still_volunteer', { reason: e.message }) : e.message }),
      link('/app/answer', t('home.volunteer'), { class: 'button' }));
    return;
  }
  document.title = (beepId ? t('title.beep') : t('title.volunteer')) + ' · Momentary';
  if (offline) section.append(h('p', { class: 'note', text: t('answer.offline') }));
  const watch = watchLocation();
  const impetus = beepId ? impetusFromURL() : 'button';
  const pendingBeep = status?.data?.pending_beep;
  const expires = beepId ? (s.expires_at || (pendingBeep?.id === beepId ? pendingBeep.expires_at : null)) : null;
  let expiryTimer = 0;
  const resumed = await savedProgress(s, beepId);
  const photoIds = new Set((Array.isArray(s.document?.content) ? s.document.content : []).filter(q => q.question_type === 'photo').map(questionID));
  const keeper = progressKeeper({ beep_id: beepId || null, survey_id: s.survey_id, version: s.version });
  if (resumed) section.append(h('p', { id: 'survey-resumed', class: 'note', role: 'status', text: t('answer.resumed') }));

  const view = surveyView(section, {
    doc: s.document, lastId: 'survey-submit', lastText: t('survey.submit'),
    answers: resumed?.answers, current: resumed?.current, timings: resumed?.timings, startAt: resumed?.started_at,
    order: resumed?.order, variables: s.variables,
    onProgress({ answers, current, timings, started_at, order }) {
      const kept = Object.fromEntries(Object.entries(answers).filter(([id]) => !photoIds.has(id)));
      keeper.save({ answers: kept, current, timings, started_at, order });
    },
    async onSubmit({ answers, timings, photos, sound, started_at, order }) {
      const submitted_at = new Date().toISOString();
      const key = uuid();
      clearTimeout(expiryTimer);
      const context = await gather(watch, impetus, sound);
      const body = {
        idempotency_key: key, beep_id: beepId || null, survey_id: s.survey_id, survey_version: s.version,
        started_at, submitted_at, answers, context, timings,
      };
      if (order) body.presented_order = order;
      const items = [{ kind: 'response', creds, body }];
      for (const p of Object.values(photos)) items.push({ kind: 'photo', creds, response_key: key, jpeg: await p.blob.arrayBuffer() });
      await enqueue(...items);
      await keeper.clear();
      if (beepId) closeNotification(beepId);
      done(main, key);
    },
  });
  setActive({ beepId: beepId || null, get closed() { return view.closed; } });
  if (expires && timeLeft(expires)) {
    section.insertBefore(h('p', { id: 'time-left', class: 'note', role: 'status', text: t('answer.within', { left: timeLeft(expires) }) }), section.children[1]);
  }
  if (expires) {
    const left = Date.parse(expires) - Date.now();
    const note = () => { view.expire(); keeper.clear(); section.insertBefore(h('p', { class: 'note', role: 'status', text: t('answer.time_up') }), section.children[1]); };
    if (left <= 0) note(); else expiryTimer = setTimeout(note, Math.min(left, 2 ** 31 - 1));
  }
  return () => { clearTimeout(expiryTimer); watch.stop(); view.close(); setActive(null); };
}

function done(main, key) {
  const state = h('p', { id: 'upload-state', role: 'status', text: t('done.uploading') });
  main.replaceChildren(h('section', { id: 'survey-done', class: 'screen' }, heading(t('done.title')), state,
    link('/app', t('done.home'), { id: 'done-home', class: 'button' })));
  document.title = `${t('done.document_title')} · Momentary`;
  main.querySelector('h1').focus();
  announce(t('done.announced'));
  const update = async () => {
    const waiting = (await all('queue')).some(i => i.kind === 'response' && i.body.idempotency_key === key);
    state.textContent = !waiting ? t('done.sent')
      : navigator.onLine && !stalled() ? t('done.uploading') : t('done.waiting_online');
    if (!waiting) removeEventListener('queuechange', update);
  };
  addEventListener('queuechange', update);
  update();
  if (!navigator.onLine) state.textContent = t('done.waiting_online');
}
