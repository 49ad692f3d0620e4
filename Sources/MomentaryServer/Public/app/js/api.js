// The one way the app talks to /api/v1. Failures become an Error with status (0 = no network),
// code, message, field and question_id taken from the server's {"error": {...}} body.
import { t, currentLanguage } from './i18n.js';

let credentials = null;
export const setCredentials = c => { credentials = c; };
export const basic = c => 'Basic ' + btoa(`${c.participant_id}:${c.secret}`);

export class ApiError extends Error {
  constructor(status, e = {}) {
    // The server's own message when it gave one (in the study's language if it speaks it).
    super(e.message || (status ? t('error.server_status', { status: String(status) }) : t('error.offline')));
    Object.assign(this, { status, code: e.code || (status ? 'http_' + status : 'offline'), field: e.field, question_id: e.question_id });
  }
}

// accept: 'text/html' asks for a page the server renders (the feedback charts) and returns its text.
export async function api(method, path, { body, auth = true, creds = credentials, type, accept = 'application/json', headers: extra } = {}) {
  // The server words its refusals (and chooses a study's texts) in the language the app shows.
  const headers = { Accept: accept, 'Accept-Language': currentLanguage(), ...extra };
  if (auth && creds) headers.Authorization = basic(creds);
  if (body !== undefined) {
    headers['Content-Type'] = type || 'application/json';
    if (!type) body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch('/api/v1' + path, { method, headers, body, cache: 'no-store' });
  } catch {
    throw new ApiError(0);
  }
  const text = await res.text().catch(() => '');
  if (res.ok && accept === 'text/html') return text;
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: keep null */ }
  if (!res.ok) throw new ApiError(res.status, data?.error);
  return data;
}
