// Joining: consent (+ invitation code), registration survey, settings, notifications, register.
// The draft lives in sessionStorage, so a reload or a refusal from the server loses nothing typed.
// Device-scheduled studies join the same way: a browser cannot schedule local notifications, so
// the server pushes their beeps from the schedule it would hand to a native app.
import { h, add, heading, field, errorFor, announce } from './ui.js';
import { api, setCredentials } from './api.js';
import { get, set } from './store.js';
import { surveyView } from './survey-view.js';
import { settingsFields, localCheck, settingsField, browserZone } from './settings.js';
import { subscribe, insecure, isIOS, standalone } from './push.js';
import { uuid } from './answer.js';

export async function render(main, { params: [slug], go }) {
  const key = 'join:' + slug;
  const draft = JSON.parse(sessionStorage.getItem(key) || 'null') || {};
  const save = () => sessionStorage.setItem(key, JSON.stringify(draft));
  const code = new URLSearchParams(location.search).get('code');
  if (code && !draft.code) draft.code = code;

  let study;
  try {
    study = await api('GET', '/studies/' + encodeURIComponent(slug), { auth: false });
  } catch (e) {
    const words = e.status === 404 ? `There is no study called “${slug}”. Check the link the researchers sent you.` : e.message;
    main.append(h('section', { class: 'screen' }, heading('Cannot open this study'), h('p', { id: 'join-error', class: 'error', role: 'alert', text: words })));
    return;
  }
  const existing = await get('creds');
  const defaults = study.default_settings || {};
  draft.settings ||= { beeps_per_day: defaults.beeps_per_day ?? study.beeps_per_day?.default ?? 2, start: defaults.start || '08:00', end: defaults.end || '22:00', timezone: browserZone() };
  const reg = study.registration_survey;
  const steps = ['consent', reg?.document ? 'registration' : null, 'settings', 'notifications'].filter(Boolean);
  const titles = { consent: 'Consent', registration: 'About you', settings: 'When to ask you', notifications: 'Notifications' };

  function show(step, error) {
    draft.step = step;
    save();
    main.replaceChildren();
    document.title = `${titles[step]} · ${study.name}`;
    const section = h('section', { 'data-step': step, class: 'screen' });
    const n = steps.indexOf(step) + 1;
    const joinError = h('p', { id: 'join-error', class: 'error', role: 'alert', hidden: true });
    const general = msg => { joinError.textContent = msg; joinError.hidden = !msg; };
    section.append(h('p', { class: 'eyebrow', text: `${study.name} · step ${n} of ${steps.length}` }));
    main.append(section);
    ({ consent, registration, settings, notifications })[step](section, joinError, error, general);
    if (!section.contains(document.activeElement)) section.querySelector('h1')?.focus();
    announce(`${titles[step]}, step ${n} of ${steps.length}`);
  }
  const after = step => steps[steps.indexOf(step) + 1];
  const before = step => steps[steps.indexOf(step) - 1];

  function consent(section, joinError, error, general) {
    const box = h('input', { type: 'checkbox', id: 'consent-checkbox', checked: !!draft.consent, onchange: e => { draft.consent = e.target.checked; boxErr.show(''); save(); } });
    const boxErr = errorFor(box);
    let codeInput, codeField;
    if (study.invitation_only) {
      codeInput = h('input', { id: 'invitation-code', type: 'text', value: draft.code || '', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', oninput: e => { draft.code = e.target.value; codeField.err.show(''); save(); } });
      codeField = field('Invitation code', codeInput, 'The code the researchers gave you, such as ABCDE.');
    }
    if (study.ready === false) {
      add(section, heading(study.name, 'study-name'),
        h('p', { id: 'study-not-ready', class: 'note', role: 'status', text: 'This study is not open for participants yet. Please try again later, or ask the researchers who sent you the link.' }));
      return;
    }
    const paragraphs = String(study.consent_text || '').split(/\n\s*\n/).filter(p => p.trim());
    add(section,
      heading(study.name, 'study-name'),
      existing ? h('p', { class: 'note', text: `This device already takes part in “${existing.study?.name || 'a study'}”. Joining here replaces that on this device.` }) : null,
      isIOS() && !standalone() ? h('p', { class: 'note', text: 'On iPhone and iPad, notifications work only from the Home Screen: tap Share, then “Add to Home Screen”, open the app from there, and join.' }) : null,
      h('h2', { text: 'Please read before you join' }),
      h('div', { id: 'consent-text', class: 'consent' }, paragraphs.map(p => h('p', { text: p }))),
      codeField?.el,
      h('div', { class: 'check' }, box, h('label', { for: 'consent-checkbox', text: 'I have read this and agree to take part.' })), boxErr,
      joinError,
      h('div', { class: 'nav' }, h('button', {
        type: 'button', id: 'consent-next', text: 'Continue', onclick() {
          if (codeInput && !codeInput.value.trim()) { codeField.err.show('Please enter your invitation code.'); return codeInput.focus(); }
          if (!box.checked) { boxErr.show('Please tick the box to say you agree, or close this page if you do not want to take part.'); return box.focus(); }
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
      doc: reg.document, answers: draft.answers || {}, lastId: 'registration-next', lastText: 'Continue',
      onBack: () => show('consent'),
      onChange: a => { draft.answers = a; save(); },
      onSubmit: ({ answers }) => { draft.registration = answers; show(after('registration')); },
    });
    section.insertBefore(joinError, section.querySelector('#survey').nextSibling);
    if (error?.question_id) view.showError(error.question_id, error.message);
    else if (error) general(error.message);
  }

  function settings(section, joinError, error, general) {
    const f = settingsFields(study, draft.settings, v => { draft.settings = v; save(); });
    section.append(heading('When may we ask you?'),
      h('p', { text: `We will ask you a few short questions at random times, ${study.hours_policy === 'fixed' ? 'within the study\'s hours' : 'between the hours you choose'}${study.minimum_gap_minutes ? `, at least ${study.minimum_gap_minutes} minutes apart` : ''}.` }),
      f.el, joinError,
      h('div', { class: 'nav' },
        h('button', { type: 'button', id: 'survey-back-settings', class: 'secondary', text: 'Back', onclick: () => show(before('settings')) }),
        h('button', {
          type: 'button', id: 'settings-next', text: 'Continue', onclick() {
            draft.settings = f.read();
            const local = localCheck(draft.settings);
            if (local) { f.errors[local[0]].show(local[1]); return document.getElementById(local[0]).focus(); }
            show('notifications');
          },
        })));
    if (error?.field && f.errors[error.field]) { f.errors[error.field].show(error.message); document.getElementById(error.field).focus(); }
    else if (error) general(error.message);
  }

  function notifications(section, joinError, error, general) {
    const status = h('p', { id: 'push-status', role: 'status', class: draft.push?.channel === 'webpush' ? 'ok' : 'note' });
    status.textContent = draft.pushWords || (insecure() ? 'Notifications need a secure (https) address; this page is not served over https, so they cannot be turned on here.' : 'Notifications are not on yet.');
    const enable = h('button', {
      type: 'button', id: 'enable-notifications', class: 'secondary', text: 'Turn on notifications', async onclick() {
        enable.disabled = true;
        status.textContent = 'Asking your browser…';
        const r = await subscribe();
        draft.push = r.push;
        draft.pushWords = r.words;
        save();
        status.textContent = r.words;
        status.className = r.ok ? 'ok' : 'note';
        enable.disabled = false;
        enable.hidden = r.ok;
      },
    });
    enable.hidden = draft.push?.channel === 'webpush';
    const submit = h('button', { type: 'button', id: 'join-submit', text: 'Join the study', onclick: register });
    section.append(heading('Get a nudge when it is time'),
      h('p', { text: 'We send a notification when it is time to answer. Without notifications you can still take part: open this app now and then to see whether a question is waiting.' }),
      enable, status, joinError,
      h('div', { class: 'nav' }, h('button', { type: 'button', id: 'survey-back-notifications', class: 'secondary', text: 'Back', onclick: () => show('settings') }), submit));
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
      if (study.invitation_only || draft.code) body.invitation_code = (draft.code || '').trim();
      try {
        const r = await api('POST', '/participants', { body, auth: false });
        const creds = { participant_id: r.participant_id, secret: r.secret, study: r.study };
        await Promise.all([
          set('creds', creds), set('study', study), set('settings', { ...body.settings, timezone: body.timezone }),
          set('push', { channel: body.push.channel, words: draft.pushWords || '' }), set('status', null),
        ]);
        setCredentials(creds);
        sessionStorage.removeItem(key);
        go('/app', true);
      } catch (e) {
        submit.disabled = false;
        if (e.status === 0) return general('You seem to be offline. Nothing is lost: press “Join the study” again when you are connected.');
        refusal(e);
      }
    }
  }

  // A refusal goes back to the step of the field at fault, shown next to it.
  function refusal(e) {
    const f = e.field || '', c = e.code || '';
    const message = e.message;
    if (e.question_id && steps.includes('registration')) return show('registration', { question_id: e.question_id, message });
    if (f.startsWith('invitation') || c.startsWith('invitation_')) return show('consent', { field: study.invitation_only ? 'invitation-code' : null, message });
    if (f === 'consent' || c === 'consent_required') return show('consent', { field: 'consent-checkbox', message });
    if (f === 'timezone' || f.startsWith('settings')) {
      return show('settings', { field: settingsField(e) || 'beeps-per-day', message });
    }
    if (f.startsWith('registration') && steps.includes('registration')) return show('registration', { message });
    show(draft.step || 'notifications', { message });
  }

  show(steps.includes(draft.step) ? draft.step : 'consent');
}
