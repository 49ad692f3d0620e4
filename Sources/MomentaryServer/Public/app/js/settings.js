// Signalling settings: the fields (shared with joining) and the settings screen.
import { h, heading, field, link, announce } from './ui.js';
import { api } from './api.js';
import { get, set } from './store.js';
import { t, useLanguage, languageName, formatNumber, chooseLanguage } from './i18n.js';
import { browserZone, knownZone, zoneInput } from './timezone.js';
import { participantSettings } from './hours-policy.js';

export { browserZone };

const pad = n => String(n).padStart(2, '0');
const quarterHours = () => Array.from({ length: 96 }, (_, i) => `${pad(i >> 2)}:${pad((i & 3) * 15)}`);
const minutesOf = time => { const [hh, mm] = String(time).split(':').map(Number); return hh * 60 + mm; };

// The times a participant may pick: every quarter hour, or for hours bounded by the study those
// from the earliest start to the latest end (which may run past midnight). The server judges the
// rest (the shortest window, the fit of the beeps) and says so next to the field.
export function offeredTimes(study) {
  const times = quarterHours();
  if (study?.hours_policy !== 'bounded' || !study.earliest_start || !study.latest_end) return times;
  const from = minutesOf(study.earliest_start);
  const span = (minutesOf(study.latest_end) - from + 1440) % 1440 || 1440;
  return times.filter(time => (minutesOf(time) - from + 1440) % 1440 <= span);
}
export const pollenName = type => ({ grass: t('pollen.grass'), tree: t('pollen.tree'), weed: t('pollen.weed') })[type] || type;

function select(id, values, current, label = v => v) {
  const s = h('select', { id, name: id }, values.map(v => h('option', { value: String(v), text: label(v) })));
  s.value = String(current);
  return s;
}

// study: the /studies/{slug} answer (or what was stored at join); values: {beeps_per_day, start, end, timezone}.
// Returns {el, read(), errors: {'beeps-per-day', 'start-time', 'end-time', 'timezone'}, onInput}.
export function settingsFields(study, values, onInput) {
  const range = study?.beeps_per_day || { min: 1, max: 5 };
  const counts = [];
  for (let n = range.min; n <= range.max; n++) counts.push(n);
  const fixed = study?.hours_policy === 'fixed';
  const times = offeredTimes(study);
  const beeps = select('beeps-per-day', counts, values.beeps_per_day, n => t('settings.beeps_a_day', { count: n }));
  const inRange = time => (times.includes(time) ? time : undefined);
  const start = select('start-time', times, inRange(values.start) ?? times[0]);
  const end = select('end-time', times, inRange(values.end) ?? times[times.length - 1]);
  const preset = study?.default_settings;
  const bounds = study?.hours_policy === 'bounded' && study.earliest_start && study.latest_end
    ? ' ' + (study.minimum_window_minutes
      ? t('settings.bounds_with_window', { from: study.earliest_start, to: study.latest_end, hours: formatNumber(Math.round(study.minimum_window_minutes / 60 * 10) / 10) })
      : t('settings.bounds', { from: study.earliest_start, to: study.latest_end }))
    : '';
  const { input: tz, list } = zoneInput(values.timezone || browserZone());
  const f = {
    'beeps-per-day': field(t('settings.beeps.label'), beeps),
    'start-time': field(t('settings.start.label'), start, t('settings.start.hint') + bounds),
    'end-time': field(t('settings.end.label'), end, t('settings.end.hint')),
    timezone: field(t('settings.timezone.label'), tz, t('settings.timezone.hint')),
  };
  // Hours fixed by the study are shown, not offered: everyone is asked within the same hours.
  const fixedHours = fixed
    ? h('p', { id: 'fixed-hours', class: 'note', text: t('settings.fixed_hours', { from: preset?.start ?? '?', to: preset?.end ?? '?' }) })
    : null;
  const shown = fixed ? [f['beeps-per-day'].el, fixedHours, f.timezone.el] : Object.values(f).map(x => x.el);
  const el = h('div', { class: 'fields' }, shown, list);
  const zone = () => knownZone(tz.value) || tz.value.trim();
  const read = () => fixed
    ? { beeps_per_day: Number(beeps.value), timezone: zone() }
    : { beeps_per_day: Number(beeps.value), start: start.value, end: end.value, timezone: zone() };
  el.addEventListener('input', () => { Object.values(f).forEach(x => x.err.show('')); onInput?.(read()); });
  // A name typed and left: said at once if no zone has it (an empty field waits for Continue).
  tz.addEventListener('change', () => {
    if (tz.value.trim() && !knownZone(tz.value)) f.timezone.err.show(t('settings.error.unknown_timezone', { zone: tz.value.trim() }));
  });
  el.addEventListener('change', () => onInput?.(read()));
  const errors = Object.fromEntries(Object.entries(f).map(([k, x]) => [k, x.err]));
  return { el, read, errors };
}

// Checks that need no server (an end before the start is fine: the hours then cross midnight):
// the study's rules for beeps and hours as the server applies them (hours-policy.js), then the zone.
// Returns [field id, message] or null.
export function localCheck(v, study) {
  if (v.start !== undefined && v.end === v.start) return ['end-time', t('settings.error.same_times')];
  const refusal = study?.beeps_per_day && study.default_settings
    ? participantSettings(study, { beeps_per_day: v.beeps_per_day, start: v.start ?? null, end: v.end ?? null }).refused
    : null;
  if (refusal) return [refusal.field === 'start' ? 'start-time' : refusal.field === 'end' ? 'end-time' : 'beeps-per-day', refusalText(refusal, study, v)];
  if (!v.timezone) return ['timezone', t('settings.error.no_timezone')];
  if (!knownZone(v.timezone)) return ['timezone', t('settings.error.unknown_timezone', { zone: v.timezone })];
  return null;
}

// A refusal of hours-policy.js in the participant's words.
function refusalText({ reason }, study, v) {
  const hours = formatNumber(Math.round((study.minimum_window_minutes ?? 15) / 60 * 10) / 10);
  switch (reason) {
    case 'beeps_out_of_range': return t('settings.error.beeps_out_of_range', { min: formatNumber(study.beeps_per_day.min), max: formatNumber(study.beeps_per_day.max) });
    case 'hours_required': return t('settings.error.hours_required');
    case 'hours_fixed': return t('settings.error.hours_fixed', { from: study.default_settings.start, to: study.default_settings.end });
    case 'not_on_quarter_hour': return t('settings.error.not_on_quarter_hour');
    case 'same_start_and_end': return t('settings.error.same_times');
    case 'outside_bounds': return t('settings.error.outside_bounds', { from: study.earliest_start, to: study.latest_end });
    case 'window_too_short': return t('settings.error.window_too_short', { hours });
    default: return t('settings.error.does_not_fit', { count: v.beeps_per_day, gap: formatNumber(study.minimum_gap_minutes) });
  }
}

// An API error about settings → the id of the field it concerns.
export function settingsField(e) {
  const f = e.field || '';
  if (f === 'timezone') return 'timezone';
  if (f.endsWith('start')) return 'start-time';
  if (f.endsWith('end')) return 'end-time';
  if (f.startsWith('settings')) return 'beeps-per-day';
  return null;
}

export async function render(main, { creds }, justSaved = false) {
  const study = await get('study');
  const saved = (await get('settings')) || study?.default_settings || { beeps_per_day: 2, start: '08:00', end: '22:00' };
  const fields = settingsFields(study, { ...saved, timezone: saved.timezone || browserZone() });
  // Pollen sensitivity is the app's own setting (not asked at joining); home's pollen risk follows it.
  const status = await get('status');
  const pollen = select('pollen-sensitivity', ['grass', 'tree', 'weed'], saved.pollen_sensitivity || status?.data?.environment?.pollen_type || 'grass',
    pollenName);
  const pollenField = field(t('settings.pollen.label'), pollen, t('settings.pollen.hint'));
  pollen.addEventListener('change', () => pollenField.err.show(''));
  // Only where the study collects environment data: the server has given this participant's
  // answers one, or the participant chose a sensitivity before.
  const collectsEnvironment = Boolean(status?.data?.environment || saved.pollen_sensitivity);
  const done = h('p', { id: 'settings-saved', class: 'ok', role: 'status', hidden: true });
  const general = h('p', { id: 'settings-error', class: 'error', role: 'alert', hidden: true });
  const button = h('button', { type: 'submit', id: 'settings-save', text: t('settings.save') });
  const languageField = languageSwitch(study, await get('language'));
  const form = h('form', { novalidate: true }, fields.el, h('div', { class: 'fields' }, collectsEnvironment ? pollenField.el : null, languageField?.el), general, button, done);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    done.hidden = general.hidden = true;
    const v = fields.read();
    const local = localCheck(v, study);
    if (local) { fields.errors[local[0]].show(local[1]); document.getElementById(local[0]).focus(); return; }
    button.disabled = true;
    try {
      // The time zone rides along so a server that accepts it can follow a participant who moved.
      const body = { beeps_per_day: v.beeps_per_day, timezone: v.timezone };
      if (collectsEnvironment) body.pollen_sensitivity = pollen.value;
      if (v.start !== undefined) Object.assign(body, { start: v.start, end: v.end });
      if (saved.sound) body.sound = saved.sound;
      const language = languageField?.select.value;
      const changedLanguage = language && language !== (await get('language'));
      if (changedLanguage) body.language = language;
      const result = await api('PUT', '/settings', { body, creds });
      await set('settings', { ...result, timezone: v.timezone, pollen_sensitivity: collectsEnvironment ? pollen.value : saved.pollen_sensitivity });
      if (changedLanguage) {
        await switchLanguage(language, creds);
        // The screen again, in the new language, saying it saved.
        main.replaceChildren();
        await render(main, { creds }, true);
        return;
      }
      done.textContent = t('settings.saved');
      done.hidden = false;
      announce(done.textContent);
    } catch (err) {
      const id = err.field === 'pollen_sensitivity' ? 'pollen-sensitivity' : settingsField(err);
      const msg = err.status === 0 ? t('settings.error.offline') : err.message;
      if (err.field === 'language' && languageField) { languageField.err.show(msg); languageField.select.focus(); } else if (id === 'pollen-sensitivity') { pollenField.err.show(msg); pollen.focus(); } else if (id) { fields.errors[id].show(msg); document.getElementById(id).focus(); } else { general.textContent = msg; general.hidden = false; }
    } finally {
      button.disabled = false;
    }
  });
  main.append(h('section', { class: 'screen' }, link('/app', t('nav.home'), { class: 'back' }), heading(t('title.settings')),
    h('p', { text: t('settings.intro') }), form));
  if (justSaved) {
    done.textContent = t('settings.saved');
    done.hidden = false;
    document.title = `${t('title.settings')} · Momentary`;
    announce(done.textContent);
  }
}

// The study's languages, by their own names; null when the study has only one (or the server
// does not say). `study.languages` is what the server sent at joining.
function languageSwitch(study, current) {
  const languages = Array.isArray(study?.languages) ? study.languages : [];
  if (languages.length < 2) return null;
  const chosen = chooseLanguage(languages, [current, study.language]);
  const s = h('select', { id: 'language-select', name: 'language' }, languages.map(tag => h('option', { value: tag, lang: tag, text: languageName(tag) })));
  s.value = chosen;
  const f = field(t('language.label'), s);
  s.addEventListener('change', () => f.err.show(''));
  return { el: f.el, err: f.err, select: s };
}

// After the server took a new language: the app's words, the study's texts and the survey in it.
async function switchLanguage(language, creds) {
  await set('language', language);
  await useLanguage(language);
  const slug = creds.study?.slug;
  const [study, survey] = await Promise.all([
    slug ? api('GET', `/studies/${encodeURIComponent(slug)}?lang=${encodeURIComponent(language)}`, { auth: false }).catch(() => null) : null,
    api('GET', '/survey', { creds }).catch(() => null),
  ]);
  // The study's name shows on home and in notifications: in the new language too.
  if (study) await Promise.all([set('study', study), study.name && set('creds', { ...creds, study: { ...creds.study, name: study.name } })]);
  if (survey) await set('survey:/survey', survey);
}
