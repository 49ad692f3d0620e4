// Joining: consent (+ invitation code), registration survey, settings, notifications, register.
// The draft lives in sessionStorage, so a reload or a refusal from the server loses nothing typed.
// Each step is an entry in the browser's history ({join: slug, step}): Back and Forward move
// between the steps, and a reload stays on the step it was on.
// Device-scheduled studies join the same way: a browser cannot schedule local notifications, so
// the server pushes their beeps from the schedule it would hand to a native app.
import { h, add, heading, field, errorFor, announce } from './ui.js';
import { api, setCredentials } from './api.js';
import { get, set, del } from './store.js';
import { surveyView } from './survey-view.js';
import { settingsFields, localCheck, settingsField, browserZone } from './settings.js';
import { subscribe, pushWords, insecure, isIOS, standalone } from './push.js';
import { uuid } from './answer.js';
import { t, useLanguage, languageName, chooseLanguage } from './i18n.js';

export async function render(main, ctx, focusLanguage = false) {
  const { params: [slug], go } = ctx;
  const key = 'join:' + slug;
  const draft = JSON.parse(sessionStorage.getItem(key) || 'null') || {};
  const save = () => sessionStorage.setItem(key, JSON.stringify(draft));
  const code = new URLSearchParams(location.search).get('code');
  if (code && !draft.code) draft.code = code;
  // A code in the link is shown (and checked) even where the study does not require one.
  if (code) draft.codeShown = true;
  pointManifestAt(slug, code);

  // The server picks the study's language from the browser's Accept-Language, unless the
  // participant chose one here (?lang=).
  let study;
  try {
    study = await api('GET', '/studies/' + encodeURIComponent(slug) + (draft.language ? '?lang=' + encodeURIComponent(draft.language) : ''), { auth: false });
  } catch (e) {
    const words = e.status === 404 ? t('join.no_such_study', { slug }) : e.message;
    main.append(h('section', { class: 'screen' }, heading(t('join.cannot_open')), h('p', { id: 'join-error', class: 'error', role: 'alert', text: words })));
    return;
  }
  // A server without `languages` speaks one language: English.
  const languages = Array.isArray(study.languages) && study.languages.length ? study.languages : null;
  const language = languages ? chooseLanguage(languages, [study.language]) : null;
  await useLanguage(language || 'en');
  const existing = await get('creds');
  const defaults = study.default_settings || {};
  draft.settings ||= { beeps_per_day: defaults.beeps_per_day ?? study.beeps_per_day?.default ?? 2, start: defaults.start || '08:00', end: defaults.end || '22:00', timezone: browserZone() };
  const reg = study.registration_survey;
  const steps = ['consent', reg?.document ? 'registration' : null, 'settings', 'notifications'].filter(Boolean);
  const titles = { consent: t('join.title.consent'), registration: t('join.title.registration'), settings: t('join.title.settings'), notifications: t('join.title.notifications') };

  // how: 'push' a new history entry (a button), 'replace' the current one, or 'none' (Back/Forward
  // already moved the history).
  function show(step, error, how = 'push') {
    draft.step = step;
    save();
    const was = history.state?.join === slug ? history.state : null;
    if (how === 'push' && was && was.step !== step) history.pushState({ join: slug, step, from: was.step }, '', location.href);
    else if (how !== 'none') history.replaceState({ join: slug, step, from: was?.from }, '', location.href);
    main.replaceChildren();
    document.title = `${titles[step]} · ${study.name}`;
    const section = h('section', { 'data-step': step, class: 'screen' });
    const n = steps.indexOf(step) + 1;
    const joinError = h('p', { id: 'join-error', class: 'error', role: 'alert', hidden: true });
    const general = msg => { joinError.textContent = msg; joinError.hidden = !msg; };
    section.append(h('p', { class: 'eyebrow', text: t('join.step_of', { study: study.name, step: n, count: steps.length }) }));
    main.append(section);
    ({ consent, registration, settings, notifications })[step](section, joinError, error, general);
    if (focusLanguage && step === 'consent') document.getElementById('language-select')?.focus();
    focusLanguage = false;
    if (!section.contains(document.activeElement)) section.querySelector('h1')?.focus();
    announce(t('join.step_announced', { title: titles[step], step: n, count: steps.length }));
  }
  const after = step => steps[steps.indexOf(step) + 1];
  const before = step => steps[steps.indexOf(step) - 1];
  const codeRequired = () => !!study.invitation_only;
  // Whether a step was completed, so Forward (or a reload) cannot skip a step left unfinished.
  const done = {
    consent: () => !!draft.consent && (!codeRequired() || !!String(draft.code || '').trim()),
    registration: () => Array.isArray(draft.registration),
    settings: () => !localCheck(draft.settings, study),
  };
  // `step`, or the first step before it that is not done.
  // The app's own Back is the browser's when the step came from there, so both walk one history.
  const back = step => (history.state?.join === slug && history.state.from === step ? history.back() : show(step));
  const reachable = step => steps.slice(0, Math.max(0, steps.indexOf(step))).find(s => !done[s]()) || step;
  ctx.onPop?.(state => {
    const wanted = state?.join === slug && steps.includes(state.step) ? state.step : 'consent';
    const shown = reachable(wanted);
    show(shown, null, shown === wanted ? 'none' : 'replace');
  });

  function consent(section, joinError, error, general) {
    const box = h('input', { type: 'checkbox', id: 'consent-checkbox', checked: !!draft.consent, onchange: e => { draft.consent = e.target.checked; boxErr.show(''); save(); } });
    const boxErr = errorFor(box);
    let codeInput, codeField;
    if (codeRequired() || draft.codeShown) {
      codeInput = h('input', { id: 'invitation-code', type: 'text', value: draft.code || '', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', oninput: e => { draft.code = e.target.value; codeField.err.show(''); save(); } });
      codeField = field(t('join.code.label'), codeInput, t('join.code.hint'));
    }
    if (study.ready === false) {
      add(section, heading(study.name, 'study-name'),
        h('p', { id: 'study-not-ready', class: 'note', role: 'status', text: study.archived ? t('join.archived') : t('join.not_ready') }));
      return;
    }
    const paragraphs = String(study.consent_text || '').split(/\n\s*\n/).filter(p => p.trim());
    add(section,
      heading(study.name, 'study-name'),
      languageSwitch(),
      existing ? h('p', { class: 'note', text: existing.study?.name ? t('join.already_in', { study: existing.study.name }) : t('join.already_in_unnamed') }) : null,
      isIOS() && !standalone() ? h('p', { class: 'note', text: t('join.ios_home_screen') }) : null,
      h('h2', { text: t('join.consent.read_first') }),
      h('div', { id: 'consent-text', class: 'consent' }, paragraphs.map(p => h('p', { text: p }))),
      codeField?.el,
      h('div', { class: 'check' }, box, h('label', { for: 'consent-checkbox', text: t('join.consent.agree') })), boxErr,
      joinError,
      h('div', { class: 'nav' }, h('button', {
        type: 'button', id: 'consent-next', text: t('join.continue'), async onclick(e) {
          const code = codeInput?.value.trim() || '';
          if (codeInput && codeRequired() && !code) { codeField.err.show(t('join.code.missing')); return codeInput.focus(); }
          if (!box.checked) { boxErr.show(t('join.consent.missing')); return box.focus(); }
          // The code is asked about now, not after every step: the server's words go beside it
          // (not valid, used, too many tries). Offline, it is checked again at joining.
          if (code) {
            const button = e.currentTarget;
            button.disabled = true;
            try {
              await api('GET', `/studies/${encodeURIComponent(slug)}/invitations/${encodeURIComponent(code)}`, { auth: false });
            } catch (err) {
              if (err.status !== 0) { codeField.err.show(err.message); return codeInput.focus(); }
            } finally {
              button.disabled = false;
            }
          }
          show(after('consent'));
        },
      })));
    if (error?.field === 'invitation-code' && codeField) { codeField.err.show(error.message); codeInput.focus(); }
    else if (error?.field === 'consent-checkbox') { boxErr.show(error.message); box.focus(); }
    else if (error) general(error.message);
  }

  function registration(section, joinError, error, general) {
    section.append(joinError);
    const view = surveyView(section, {
      doc: reg.document, answers: draft.answers || {}, lastId: 'registration-next', lastText: t('join.continue'),
      onBack: () => back('consent'),
      onChange: a => { draft.answers = a; save(); },
      onSubmit: ({ answers }) => { draft.registration = answers; show(after('registration')); },
    });
    section.insertBefore(joinError, section.querySelector('#survey').nextSibling);
    if (error?.question_id) view.showError(error.question_id, error.message);
    else if (error) general(error.message);
  }

  function settings(section, joinError, error, general) {
    const f = settingsFields(study, draft.settings, v => { draft.settings = v; save(); });
    const gap = study.minimum_gap_minutes;
    section.append(heading(t('join.settings.title')),
      h('p', { text: study.hours_policy === 'fixed' ? t('join.settings.intro_fixed_hours') : t('join.settings.intro_chosen_hours') }),
      gap ? h('p', { text: t('join.settings.gap', { count: gap }) }) : null,
      f.el, joinError,
      h('div', { class: 'nav' },
        h('button', { type: 'button', id: 'survey-back-settings', class: 'secondary', text: t('join.back'), onclick: () => back(before('settings')) }),
        h('button', {
          type: 'button', id: 'settings-next', text: t('join.continue'), onclick() {
            draft.settings = f.read();
            const local = localCheck(draft.settings, study);
            if (local) { f.errors[local[0]].show(local[1]); return document.getElementById(local[0]).focus(); }
            show('notifications');
          },
        })));
    if (error?.field && f.errors[error.field]) { f.errors[error.field].show(error.message); document.getElementById(error.field).focus(); }
    else if (error) general(error.message);
  }

  function notifications(section, joinError, error, general) {
    const status = h('p', { id: 'push-status', role: 'status', class: draft.push?.channel === 'webpush' ? 'ok' : 'note' });
    status.textContent = draft.pushResult ? pushWords(draft.pushResult) : insecure() ? t('push.needs_https') : t('push.not_on_yet');
    const enable = h('button', {
      type: 'button', id: 'enable-notifications', class: 'secondary', text: t('push.turn_on'), async onclick() {
        enable.disabled = true;
        status.textContent = t('push.asking');
        const r = await subscribe();
        draft.push = r.push;
        draft.pushResult = { reason: r.reason, detail: r.detail };
        save();
        status.textContent = pushWords(r);
        status.className = r.ok ? 'ok' : 'note';
        enable.disabled = false;
        enable.hidden = r.ok;
      },
    });
    enable.hidden = draft.push?.channel === 'webpush';
    const submit = h('button', { type: 'button', id: 'join-submit', text: t('join.submit'), onclick: register });
    section.append(heading(t('join.notifications.title')),
      h('p', { text: t('join.notifications.text') }),
      enable, status, joinError,
      h('div', { class: 'nav' }, h('button', { type: 'button', id: 'survey-back-notifications', class: 'secondary', text: t('join.back'), onclick: () => back('settings') }), submit));
    if (error) general(error.message);

    async function register() {
      submit.disabled = true;
      general('');
      const s = draft.settings;
      // One key for this join, kept with the draft: pressing Join again after a lost reply finds the
      // participant the first press made instead of making a second.
      if (!draft.registrationKey) { draft.registrationKey = uuid(); save(); }
      const body = {
        study: slug, consent: true, timezone: s.timezone || browserZone(), idempotency_key: draft.registrationKey,
        settings: { beeps_per_day: s.beeps_per_day, start: s.start, end: s.end, ...(defaults.sound ? { sound: defaults.sound } : {}) },
        push: draft.push || { channel: 'none' },
        registration_answers: draft.registration || [],
        device: { model: `${(isIOS() ? 'iPhone or iPad' : navigator.userAgentData?.platform || navigator.platform || 'unknown')} web browser`.slice(0, 200), os: navigator.userAgent.slice(0, 200), app_version: 'momentary-web 1' },
      };
      if (language) body.language = language;
      if (study.invitation_only || draft.code) body.invitation_code = (draft.code || '').trim();
      try {
        const r = await api('POST', '/participants', { body, auth: false });
        const creds = { participant_id: r.participant_id, secret: r.secret, study: r.study };
        await Promise.all([
          set('creds', creds), set('study', study), set('settings', { ...body.settings, timezone: body.timezone }),
          set('push', { channel: body.push.channel, ...draft.pushResult }), set('status', null),
          language ? set('language', language) : del('language'),
        ]);
        setCredentials(creds);
        sessionStorage.removeItem(key);
        go('/app', true);
      } catch (e) {
        submit.disabled = false;
        if (e.status === 0) return general(t('join.offline', { button: t('join.submit') }));
        refusal(e);
      }
    }
  }

  // A refusal goes back to the step of the field at fault, shown next to it.
  function refusal(e) {
    const f = e.field || '', c = e.code || '';
    const message = e.message;
    if (e.question_id && steps.includes('registration')) return show('registration', { question_id: e.question_id, message });
    if (f.startsWith('invitation') || c.startsWith('invitation_')) return show('consent', { field: codeRequired() || draft.codeShown ? 'invitation-code' : null, message });
    if (f === 'consent' || c === 'consent_required') return show('consent', { field: 'consent-checkbox', message });
    if (f === 'timezone' || f.startsWith('settings')) {
      return show('settings', { field: settingsField(e) || 'beeps-per-day', message });
    }
    if (f.startsWith('registration') && steps.includes('registration')) return show('registration', { message });
    show(draft.step || 'notifications', { message });
  }

  // The study's languages, each by its own name; choosing one fetches the study in it and
  // shows the page again, the switch keeping the focus.
  function languageSwitch() {
    if (!languages || languages.length < 2) return null;
    const select = h('select', { id: 'language-select', name: 'language', onchange() {
      draft.language = select.value;
      save();
      main.replaceChildren();
      render(main, ctx, true);
    } }, languages.map(tag => h('option', { value: tag, lang: tag, text: languageName(tag) })));
    select.value = language;
    return h('div', { class: 'field language' }, h('label', { for: select.id, text: t('language.label') }), select);
  }

  // A reload shows the step this history entry was on (else the draft's), if it can be reached.
  const here = history.state?.join === slug && steps.includes(history.state.step) ? history.state.step : draft.step;
  show(reachable(steps.includes(here) ? here : 'consent'), null, 'replace');
}

// The page came from /app (a link pasted there) rather than from the server with this join link's
// manifest: point the manifest at the join link, so adding the page to the home screen installs an
// app that opens it (docs/iphone.md).
function pointManifestAt(slug, code) {
  const link = document.querySelector('link[rel=manifest]');
  const href = `/join/${encodeURIComponent(slug)}/manifest.webmanifest` + (code ? '?code=' + encodeURIComponent(code) : '');
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}
