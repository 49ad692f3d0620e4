// The app's own words in the participant's language: one catalogue per language in /app/i18n/.
// Study texts (questions, consent) arrive from the server already translated; they are not here.
// Until a catalogue is loaded t() gives the key itself, so nothing breaks, but nothing reads well.

// The languages with a catalogue. Keep in step with MomentaryCore's AppLanguages.swift (a test
// compares both with the files in /app/i18n/).
export const SUPPORTED = ['en', 'de', 'fr', 'es', 'nl', 'zh-Hans', 'ar'];
const RIGHT_TO_LEFT = new Set(['ar']);
const FALLBACK = 'en';

let language = FALLBACK, words = {}, english = {};
const catalogues = new Map();

// The one rule for choosing a language, shared with MomentaryCore (Tests/Shared/language-cases.json,
// `choose`; Tests/Browser/test_languages.py runs its cases through this function): the tag of
// `available` that serves `preferences` (most preferred first). For each preference in turn: the
// same tag (any case), else the available tag that is its base language (de-AT → de), else the
// first available tag with that base (pt-PT → pt-BR, zh-CN → zh-Hans); when none matches, the
// first of `available` (the default). A study's language is chosen by this rule alone.
export function chooseLanguage(available, preferences) {
  const tags = (Array.isArray(available) ? available : []).filter(a => typeof a === 'string' && a);
  for (const preference of [preferences].flat()) {
    const found = serving(tags, preference);
    if (found) return found;
  }
  return tags[0] ?? null;
}

const baseOf = tag => tag.split('-')[0].toLowerCase();

// The tag of `tags` that serves one preference by the rule above, or null.
function serving(tags, preference) {
  if (typeof preference !== 'string' || !preference) return null;
  const wanted = preference.toLowerCase(), base = baseOf(preference);
  return tags.find(a => a.toLowerCase() === wanted) || tags.find(a => a.toLowerCase() === base)
    || tags.find(a => baseOf(a) === base) || null;
}

// The catalogue for a language tag, or null: the rule above among SUPPORTED (without its default,
// since an unmatched tag gives way to the next one, then to English), refined for catalogues only:
// a tag that is not a catalogue's own first tries its language with its likely script (zh-TW →
// zh-Hant, were there a zh-Hant catalogue beside zh-Hans). Study languages never get this step.
export function catalogueFor(tag) {
  if (typeof tag !== 'string' || !tag) return null;
  const exact = SUPPORTED.find(s => s.toLowerCase() === tag.toLowerCase());
  return exact || byScript(tag) || serving(SUPPORTED, tag);
}

function byScript(tag) {
  try {
    const locale = new Intl.Locale(tag).maximize();
    return SUPPORTED.find(s => s === `${locale.language}-${locale.script}`) || null;
  } catch { return null; }
}

// The first of `tags` that has a catalogue, else English.
export const pickLanguage = (...tags) => tags.flat().map(catalogueFor).find(Boolean) || FALLBACK;

export const currentLanguage = () => language;

function load(tag) {
  if (!catalogues.has(tag)) {
    catalogues.set(tag, fetch(`/app/i18n/${tag}.json`)
      .then(r => (r.ok ? r.json() : Promise.reject(new Error(`${tag}.json: ${r.status}`))))
      .catch(e => { catalogues.delete(tag); throw e; }));
  }
  return catalogues.get(tag);
}

// Shows the app in the language for `tag` (see catalogueFor); returns the catalogue tag used.
export async function useLanguage(tag) {
  let chosen = pickLanguage(tag);
  english = await load(FALLBACK).catch(() => english);
  words = chosen === FALLBACK ? english : await load(chosen).catch(() => { chosen = FALLBACK; return english; });
  language = chosen;
  const root = document.documentElement;
  root.lang = chosen;
  root.dir = RIGHT_TO_LEFT.has(chosen) ? 'rtl' : 'ltr';
  // The shell's static words (index.html) carry their key in data-i18n.
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-content]')) el.setAttribute('content', t(el.dataset.i18nContent));
  return chosen;
}

const numbers = () => new Intl.NumberFormat(language, { maximumFractionDigits: 20 });

// t('home.queue', {count: 2}): the catalogue's words with {placeholders} filled in; numbers are
// written the language's way. A value that is an object is a plural, chosen by params.count.
export function t(key, params = {}) {
  const own = Object.hasOwn(words, key);
  let text = own ? words[key] : english[key];
  if (text === undefined) return key;
  if (typeof text === 'object') {
    const rules = new Intl.PluralRules(own ? language : FALLBACK);
    text = text[rules.select(Number(params.count))] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = params[name];
    if (v === undefined || v === null) return whole;
    return typeof v === 'number' ? numbers().format(v) : String(v);
  });
}

export const formatNumber = (n, options) => new Intl.NumberFormat(language, options).format(n);

// A language's own name in itself ("Deutsch", "العربية"), for the language switches.
export function languageName(tag) {
  try { return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) || tag; } catch { return tag; }
}

// Clock time in the language's way, e.g. "09:12" or "9:12 AM".
export const formatTime = d => new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(d);
export const formatWeekday = d => new Intl.DateTimeFormat(language, { weekday: 'short' }).format(d);

// "12 minutes", "1 hour, 5 minutes": a span in the language's own unit words.
export function formatSpan({ hours = 0, minutes = 0, seconds = 0 }) {
  const part = (n, unit) => new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
  const parts = [hours && part(hours, 'hour'), minutes && part(minutes, 'minute'), seconds && part(seconds, 'second')].filter(Boolean);
  if (!parts.length) return part(0, 'minute');
  return new Intl.ListFormat(language, { type: 'unit', style: 'long' }).format(parts);
}
