// One question per screen, for beeps, volunteered answers and the registration survey. Keeps the
// answers as the participant goes (Back loses nothing), applies skip logic and validation from
// survey-logic.js, and records Beiwe's timing events (present, unpresent, changed, submitted, expired).
// Texts name earlier answers and the participant's variables (survey-piping.js); groups of
// questions marked `randomize_groups` are shown in an order drawn once per survey and kept.
import * as L from './survey-logic.js';
import * as P from './survey-piping.js';
import { h } from './ui.js';
import { scaleToJPEG } from './photo.js';
import { measure } from './sound.js';
import { t, formatNumber } from './i18n.js';

const iso = () => new Date().toISOString();
// A slider's end for screen readers: the number, and the study's label for it when it has one.
const endLabel = (n, label) => (label ? t('survey.slider.end_with_label', { value: n, label }) : formatNumber(n));
const questions = doc => (Array.isArray(doc?.content) ? doc.content : []);

// opts: {doc, answers?, onBack?, onChange?(answers), onSubmit({answers, timings, photos, sound}),
//        lastId ('survey-submit' | 'registration-next'), lastText, startAt?, variables? (name → value),
//        current?, timings? and order? (a survey taken up again where it was left),
//        onProgress?({answers, current, timings, started_at, order}) (after every answer and question shown)}
// onSubmit also receives `order`: the question ids in the order shown, when groups were shuffled.
export function surveyView(root, opts) {
  const { doc } = opts;
  const answers = { ...(opts.answers || {}) };
  const photos = {}; // question id → JPEG Blob
  const timings = Array.isArray(opts.timings) ? [...opts.timings] : [];
  let sound = null, current = null, slideTimer = 0, slidePending = null, closed = false;
  const byId = id => questions(doc).find(q => L.questionID(q) === id);
  // Shuffled groups depend on no question of their own (checked when the survey is saved), so
  // which questions are shown does not depend on the order; only the sequence does.
  const order = P.isPresentableOrder(doc, opts.order) ? opts.order
    : (P.randomizedGroups(doc).length > 0 ? P.presentationOrder(doc) : null);
  const variables = opts.variables || {};
  const visible = () => {
    const ids = L.visibleQuestionIDs(doc, answers, variables);
    return order ? order.filter(id => ids.includes(id)) : ids;
  };
  const event = (question_id, name, answer) => {
    const e = { question_id, event: name, at: iso() };
    if (answer !== undefined && answer !== null) e.answer = answer;
    timings.push(e);
  };
  const flushSlide = () => { if (slidePending) timings.push(slidePending); slidePending = null; clearTimeout(slideTimer); };

  const progress = h('p', { id: 'survey-progress', class: 'progress' });
  const holder = h('div');
  const back = h('button', { type: 'button', id: 'survey-back', class: 'secondary', text: t('survey.back'), onclick: goBack });
  const next = h('button', { type: 'button', id: 'survey-next', onclick: goNext });
  const section = h('section', { id: 'survey', class: 'survey' }, progress, holder, h('div', { class: 'nav' }, back, next));
  root.append(section);
  let errorEl = null;

  function updateNav() {
    const ids = visible();
    const at = ids.indexOf(current);
    // Only the question's number: the count of questions shown changes as skip logic hides some.
    progress.textContent = t('survey.progress', { n: at + 1 });
    const last = at === ids.length - 1;
    next.id = last ? opts.lastId || 'survey-submit' : 'survey-next';
    next.textContent = last ? opts.lastText || t('survey.submit') : t('survey.next');
    back.hidden = at === 0 && !opts.onBack;
  }

  function set(id, value, slider) {
    answers[id] = value;
    errorEl?.show('');
    const e = { question_id: id, event: 'changed', at: iso() };
    if (value !== undefined && value !== null) e.answer = value;
    // Sliders and typing send many input events: one `changed` per resting value (0.25 s).
    if (slider) { if (slidePending?.question_id !== id) flushSlide(); slidePending = e; clearTimeout(slideTimer); slideTimer = setTimeout(flushSlide, 250); }
    else { flushSlide(); timings.push(e); }
    opts.onChange?.(answers);
    updateNav();
    progressed();
  }

  function progressed() {
    opts.onProgress?.({ answers: { ...answers }, current, timings: [...timings, ...(slidePending ? [slidePending] : [])], started_at: startedAt, order });
  }

  function show(id, focus = true) {
    if (current) { flushSlide(); event(current, 'unpresent', answers[current]); }
    current = id;
    const q = P.pipedQuestion(doc, byId(id), L.acceptedAnswers(doc, answers, variables), variables);
    const titleId = 'q-title';
    const err = h('p', { 'data-error-for': id, id: 'q-error', class: 'error', role: 'alert', hidden: true });
    const controls = render(q, titleId, (v, typing) => set(id, v, typing || q.question_type === 'slider'), err);
    // Extra controls (Clear, add a token) go after the fieldset, so it groups only the choices.
    const all = [controls].flat().filter(Boolean);
    // A long information text reads better as a paragraph under a short heading.
    const text = q.question_text || '', long = q.question_type === 'info_text_box' && text.length > 90;
    const fs = h('fieldset', {}, h('legend', {}, h('h1', { id: titleId, tabindex: '-1', text: long ? t('survey.please_read') : text })),
      long ? text.split(/\n\s*\n/).map(part => h('p', { text: part })) : null, all.filter(c => !c.classList?.contains('after')));
    holder.replaceChildren(h('div', { 'data-question-id': id, class: 'question' }, fs, all.filter(c => c.classList?.contains('after')), err));
    errorEl = Object.assign(err, {
      show(msg) {
        err.textContent = msg || '';
        err.hidden = !msg;
        for (const c of holder.querySelectorAll('input,textarea')) {
          if (msg) c.setAttribute('aria-invalid', 'true'); else c.removeAttribute('aria-invalid');
        }
      },
    });
    for (const c of holder.querySelectorAll('input,textarea')) c.setAttribute('aria-describedby', 'q-error');
    event(id, 'present', answers[id]);
    updateNav();
    progressed();
    if (focus) document.getElementById(titleId).focus();
  }

  function fail(id, message) {
    if (id !== current) show(id);
    errorEl.show(message);
    (holder.querySelector('input:not([type=hidden]),textarea,button') || next).focus();
  }

  function check(id) {
    const q = byId(id), v = answers[id];
    if (q.question_type === 'location' && v && v.place && v.latitude === undefined) {
      return t('survey.location.locate_first', { button: t('survey.location.use') });
    }
    const r = L.checkAnswer(q, v);
    return r.error ? r.error.message : null;
  }

  function goNext() {
    if (closed) return;
    if (!current) return submit();
    const message = check(current);
    if (message) return fail(current, message);
    const ids = visible();
    const at = ids.indexOf(current);
    if (at < ids.length - 1) return show(ids[at + 1]);
    submit();
  }

  function goBack() {
    const ids = visible();
    const at = ids.indexOf(current);
    if (at > 0) show(ids[at - 1]);
    else opts.onBack?.();
  }

  async function submit() {
    // Every question of the survey in order: the checked answer, or null (skipped, hidden, info).
    // Answers kept for questions that skip logic hid since are dropped here.
    const ids = visible();
    const list = questions(doc).map(q => { const id = L.questionID(q); return { question_id: id, answer: ids.includes(id) ? answers[id] ?? null : null }; });
    const result = L.validateAnswers(doc, list, variables);
    const firstError = result.errors[0];
    if (firstError) return ids.includes(firstError.question_id) ? fail(firstError.question_id, firstError.message) : fail(current, firstError.message);
    const final = result.results.map(r => ({ question_id: r.question_id, answer: r.status === L.ANSWERED ? r.value : null }));
    flushSlide();
    if (current) event(current, 'unpresent', answers[current]);
    event(null, 'submitted');
    closed = true;
    next.disabled = back.disabled = true;
    const kept = {};
    for (const a of final) if (photos[a.question_id] && a.answer) kept[a.question_id] = { ref: a.answer, blob: photos[a.question_id] };
    const soundUsed = final.some(a => a.answer !== null && byId(a.question_id).question_type === 'sound_level');
    try {
      await opts.onSubmit({ answers: final, timings, photos: kept, sound: soundUsed ? sound : null, started_at: startedAt, order });
    } catch (e) {
      // Not saved: reopen the survey with everything kept.
      closed = false;
      next.disabled = back.disabled = false;
      timings.splice(timings.length - (current ? 2 : 1));
      const last = current;
      current = null;
      if (last) { show(last); errorEl.show(e.message); }
    }
  }

  function render(q, titleId, put, err) {
    const id = L.questionID(q), v = answers[id], type = q.question_type;
    const named = { name: id, 'aria-labelledby': titleId };
    // Optional single answers can be taken back (a radio button cannot be unticked by itself).
    const clearer = (visible, reset) => h('button', { type: 'button', class: 'link after', hidden: !visible, text: t('survey.clear'), onclick(e) { reset(); put(null); e.target.hidden = true; } });
    switch (type) {
      case 'info_text_box': return null;
      case 'slider': return slider(q, v, put, titleId, clearer);
      case 'radio_button': case 'yes_no': {
        const opts = type === 'yes_no' ? [{ key: true, text: t('survey.yes') }, { key: false, text: t('survey.no') }] : L.choiceOptions(q);
        const box = h('div', { class: 'choices' });
        const clr = clearer(v != null && !q.required, () => box.querySelectorAll('input').forEach(i => { i.checked = false; }));
        box.append(...opts.map(o => h('label', { class: 'choice' },
          h('input', { type: 'radio', name: id, value: String(o.key), checked: v === o.key, onchange: () => { put(o.key); clr.hidden = !!q.required; } }),
          h('span', { text: o.text }))));
        return [box, clr];
      }
      case 'checkbox': case 'people': {
        const box = h('div', { class: 'choices' }, L.choiceOptions(q).map(o => h('label', { class: 'choice' },
          h('input', { type: 'checkbox', name: id, value: o.key, checked: Array.isArray(v) && v.includes(o.key), onchange: () => put(checkedValues(box)) }),
          h('span', { text: o.text }))));
        return box;
      }
      case 'tokens': return tokens(q, v, put);
      case 'free_response': {
        const kind = L.textFieldType(q);
        if (kind === 'NUMERIC') return numberInput(q, v, put, named, {});
        if (kind === 'MULTI_LINE_TEXT') return h('textarea', { ...named, rows: 5, value: v ?? '', oninput: e => put(e.target.value, true) });
        return h('input', { ...named, type: 'text', value: v ?? '', autocomplete: 'off', oninput: e => put(e.target.value, true) });
      }
      case 'number': return numberInput(q, v, put, named, L.numberRange(q));
      case 'date': case 'time': case 'date_time':
        return h('input', { ...named, type: type === 'date_time' ? 'datetime-local' : type, value: v ?? '', oninput: e => put(e.target.value || null) });
      case 'location': return locationInput(q, v, put, err);
      case 'photo': return photoInput(q, v, put, err);
      case 'sound_level': return soundInput(q, v, put, err);
      case 'audio_recording': return h('p', { class: 'note', text: t('survey.audio_unsupported') });
      default: return h('p', { class: 'note', text: t('survey.type_unsupported') });
    }
  }

  const startedAt = opts.startAt || iso();
  const ids = visible();
  if (ids.length) show(ids.includes(opts.current) ? opts.current : ids[0]);
  else {
    // Nothing to ask (all hidden or none): one screen to send the empty answer set.
    holder.replaceChildren(h('h1', { tabindex: '-1', text: t('survey.nothing_to_ask') }));
    back.hidden = !opts.onBack;
    progress.hidden = true;
    next.id = opts.lastId || 'survey-submit';
    next.textContent = opts.lastText || t('survey.submit');
  }
  // For the benchmark of notification tap → first question visible.
  performance.mark?.('momentary-first-question');

  return {
    timings, answers,
    get closed() { return closed; },
    showError(questionId, message) { fail(questionId, message); },
    expire() { flushSlide(); event(null, 'expired'); },
    close() { flushSlide(); closed = true; },
  };

  function checkedValues(box) {
    return [...box.querySelectorAll('input[type=checkbox]:checked')].map(i => i.value);
  }

  function numberInput(q, v, put, named, range) {
    return h('input', {
      ...named, type: 'number', inputmode: 'decimal', value: v ?? '', step: range.step ?? 'any', min: range.min, max: range.max,
      // A half-typed number is not blank: keep it as text so the check says "a number, please".
      oninput: e => put(e.target.value === '' ? (e.target.validity.badInput ? 'not a number' : null) : Number(e.target.value), true),
    });
  }

  function slider(q, v, put, titleId, clearer) {
    const s = L.sliderScale(q);
    const min = s.min ?? 0, max = s.max ?? 100;
    const untouched = typeof v !== 'number';
    // A phone has no arrow keys to mention.
    const touchOnly = window.matchMedia?.('(hover: none) and (pointer: coarse)').matches;
    const hint = touchOnly ? t('survey.slider.untouched_touch') : t('survey.slider.untouched');
    const out = h('output', { class: untouched ? 'value unset' : 'value', 'aria-live': 'polite', text: untouched ? hint : formatNumber(v) });
    const input = h('input', {
      type: 'range', name: L.questionID(q), min, max, step: s.step, value: untouched ? (min + max) / 2 : v, 'aria-labelledby': titleId,
      class: untouched ? 'untouched' : '', 'aria-valuetext': untouched ? t('survey.slider.not_answered_value') : null,
    });
    const take = () => {
      const n = Number(input.value);
      input.classList.remove('untouched');
      out.classList.remove('unset');
      input.removeAttribute('aria-valuetext');
      out.textContent = formatNumber(n);
      clr.hidden = !!q.required;
      if (answers[L.questionID(q)] !== n) put(n);
    };
    input.addEventListener('input', take);
    input.addEventListener('change', take);
    // A tap on the thumb where it already is changes nothing, but is an answer all the same.
    input.addEventListener('pointerup', take);
    const clr = clearer(!untouched && !q.required, () => {
      input.classList.add('untouched');
      out.classList.add('unset');
      input.setAttribute('aria-valuetext', t('survey.slider.not_answered_value'));
      out.textContent = t('survey.slider.cleared');
    });
    const labels = Array.isArray(q.labels) && q.labels.length ? q.labels : [q.min_label, q.max_label].filter(x => typeof x === 'string');
    return [h('div', { class: 'slider' }, input, labels.length ? h('div', { class: 'scale', 'aria-hidden': 'true' }, labels.map(label => h('span', { text: label }))) : null),
      labels.length ? h('p', { class: 'sr-only', text: t('survey.slider.range', { min: endLabel(min, q.min_label), max: endLabel(max, q.max_label) }) }) : null,
      out, clr];
  }

  function tokens(q, v, put) {
    const list = L.tokenList(q), id = L.questionID(q);
    const chosen = Array.isArray(v) ? v : [];
    const box = h('div', { class: 'choices' });
    const add = (token, checked) => box.append(h('label', { class: 'choice' },
      h('input', { type: 'checkbox', name: id, value: token, checked, onchange: () => put(checkedValues(box)) }), h('span', { text: token })));
    for (const s of list.suggestions) add(s, chosen.includes(s));
    for (const s of chosen) if (!list.suggestions.includes(s)) add(s, true);
    if (!list.allowsFreeEntry) return box;
    const entry = h('input', { type: 'text', name: `${id}-new`, id: `${id}-new`, autocomplete: 'off', enterkeyhint: 'done' });
    const addIt = () => {
      const s = entry.value.trim();
      if (!s) return;
      const existing = [...box.querySelectorAll('input')].find(i => i.value === s);
      if (existing) existing.checked = true; else add(s, true);
      entry.value = '';
      put(checkedValues(box));
      entry.focus();
    };
    entry.addEventListener('keydown', e => { if (e.key === 'Enter') { e.preventDefault(); addIt(); } });
    return [box, h('div', { class: 'add-row after' }, h('label', { for: entry.id, text: t('survey.tokens.add_own') }), h('div', { class: 'row' }, entry,
      h('button', { type: 'button', class: 'secondary', 'data-action': 'add-token', text: t('survey.tokens.add'), onclick: addIt })))];
  }

  function locationInput(q, v, put, err) {
    const id = L.questionID(q);
    let coords = v && typeof v.latitude === 'number' ? { latitude: v.latitude, longitude: v.longitude } : null;
    const status = h('p', { class: 'note', 'aria-live': 'polite', text: coords ? t('survey.location.found_at', { latitude: formatNumber(coords.latitude, { maximumFractionDigits: 4 }), longitude: formatNumber(coords.longitude, { maximumFractionDigits: 4 }) }) : t('survey.location.none') });
    const place = h('input', { type: 'text', name: `${id}-place`, id: `${id}-place`, value: v?.place ?? '', autocomplete: 'off', oninput: () => update(true) });
    function update(typing) {
      const p = place.value.trim();
      put(coords ? { ...coords, ...(p ? { place: p } : {}) } : (p ? { place: p } : null), typing);
    }
    const btn = h('button', {
      type: 'button', class: 'secondary', 'data-action': 'locate', text: t('survey.location.use'), onclick() {
        if (!navigator.geolocation) { errorEl.show(t('survey.location.unsupported')); return; }
        status.textContent = t('survey.location.finding');
        navigator.geolocation.getCurrentPosition(p => {
          coords = { latitude: p.coords.latitude, longitude: p.coords.longitude };
          status.textContent = t('survey.location.found_within', { metres: Math.round(p.coords.accuracy) });
          update();
        }, e => {
          status.textContent = t('survey.location.none');
          errorEl.show(e.code === 1 ? t('survey.location.not_allowed') : t('survey.location.failed'));
        }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 30000 });
      },
    });
    return [btn, status, h('label', { for: place.id, text: t('survey.location.place') }), place];
  }

  function photoInput(q, v, put) {
    const id = L.questionID(q);
    const n = questions(doc).filter(x => x.question_type === 'photo').indexOf(q) + 1;
    const preview = h('img', { class: 'preview', alt: t('survey.photo.alt'), hidden: !photos[id] });
    if (photos[id]) preview.src = URL.createObjectURL(photos[id]);
    const input = h('input', { type: 'file', name: id, id: `${id}-file`, accept: 'image/jpeg', capture: 'environment', class: 'file' });
    const status = h('p', { class: 'note', 'aria-live': 'polite' });
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      if (!file) return;
      status.textContent = t('survey.photo.preparing');
      try {
        const { blob } = await scaleToJPEG(file);
        photos[id] = blob;
        preview.src = URL.createObjectURL(blob);
        preview.hidden = false;
        status.textContent = t('survey.photo.ready', { size: formatNumber(blob.size / 1024, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }) });
        put(`photo:${n}`);
      } catch (e) {
        status.textContent = '';
        errorEl.show(e.message ? t('survey.photo.failed', { reason: e.message }) : t('survey.photo.failed_unknown'));
      }
    });
    const label = h('label', { for: input.id, class: 'button secondary', text: photos[id] ? t('survey.photo.again') : t('survey.photo.take') });
    input.addEventListener('change', () => { label.textContent = t('survey.photo.again'); });
    return [input, label, status, preview];
  }

  function soundInput(q, v, put) {
    const result = h('p', { class: 'note', 'aria-live': 'polite', text: typeof v === 'number' && sound ? describe(sound) : t('survey.sound.none') });
    // Levels are negative: formatNumber writes a true minus sign where the language uses one.
    const describe = s => t('survey.sound.result', { average: formatNumber(s.average_db), peak: formatNumber(s.peak_db) });
    const btn = h('button', {
      type: 'button', class: 'secondary', 'data-action': 'measure', text: t('survey.sound.measure', { seconds: 3 }), async onclick() {
        btn.disabled = true;
        result.textContent = t('survey.sound.listening', { count: 3 });
        try {
          sound = await measure(3000);
          result.textContent = describe(sound);
          put(sound.average_db);
        } catch (e) {
          result.textContent = t('survey.sound.none');
          errorEl.show(e.name === 'NotAllowedError' ? t('survey.sound.not_allowed') : t('survey.sound.failed', { reason: e.message || e.name }));
        } finally {
          btn.disabled = false;
        }
      },
    });
    return [h('p', { class: 'hint', text: t('survey.sound.hint') }), btn, result];
  }
}
