// The time-zone picker, the same at joining and in settings: a text field over a list of IANA names
// (<input list> + <datalist>, which browsers filter as the participant types), the browser's zone
// preselected. A name the browser does not know is refused next to the field: the server would
// otherwise fall back to the study's zone without a word.

// For browsers without Intl.supportedValuesOf (Safari before 15.4, older Chromium): the zones most
// people live in, at least one per inhabited offset. Any other valid name typed is still accepted.
const FALLBACK = [
  'Africa/Abidjan', 'Africa/Accra', 'Africa/Addis_Ababa', 'Africa/Algiers', 'Africa/Cairo', 'Africa/Casablanca',
  'Africa/Johannesburg', 'Africa/Lagos', 'Africa/Nairobi', 'Africa/Tunis', 'America/Anchorage', 'America/Argentina/Buenos_Aires',
  'America/Bogota', 'America/Caracas', 'America/Chicago', 'America/Denver', 'America/Halifax', 'America/Havana',
  'America/Lima', 'America/Los_Angeles', 'America/Mexico_City', 'America/New_York', 'America/Phoenix', 'America/Santiago',
  'America/Sao_Paulo', 'America/St_Johns', 'America/Toronto', 'America/Vancouver', 'Asia/Almaty', 'Asia/Baghdad',
  'Asia/Bangkok', 'Asia/Dhaka', 'Asia/Dubai', 'Asia/Hong_Kong', 'Asia/Jakarta', 'Asia/Jerusalem', 'Asia/Karachi',
  'Asia/Kathmandu', 'Asia/Kolkata', 'Asia/Manila', 'Asia/Riyadh', 'Asia/Seoul', 'Asia/Shanghai', 'Asia/Singapore',
  'Asia/Taipei', 'Asia/Tehran', 'Asia/Tokyo', 'Asia/Yangon', 'Atlantic/Azores', 'Atlantic/Reykjavik',
  'Australia/Adelaide', 'Australia/Brisbane', 'Australia/Darwin', 'Australia/Perth', 'Australia/Sydney',
  'Europe/Amsterdam', 'Europe/Athens', 'Europe/Berlin', 'Europe/Brussels', 'Europe/Bucharest', 'Europe/Dublin',
  'Europe/Helsinki', 'Europe/Istanbul', 'Europe/Kyiv', 'Europe/Lisbon', 'Europe/London', 'Europe/Madrid',
  'Europe/Moscow', 'Europe/Paris', 'Europe/Rome', 'Europe/Stockholm', 'Europe/Vienna', 'Europe/Warsaw', 'Europe/Zurich',
  'Pacific/Auckland', 'Pacific/Fiji', 'Pacific/Honolulu', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC',
];

export const browserZone = () => { try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch { return ''; } };

let names;
// The names offered: the browser's own list (or the fallback), with the browser's zone in it.
export function zoneNames() {
  if (!names) {
    let list = [];
    try { list = Intl.supportedValuesOf?.('timeZone') || []; } catch { /* an older browser */ }
    if (!list.length) list = FALLBACK;
    const own = browserZone();
    names = own && !list.includes(own) ? [...list, own].sort() : list;
  }
  return names;
}

// The zone's name as the server should get it (the listed spelling when only the case differs),
// or null when no browser zone has that name.
export function knownZone(typed) {
  const name = String(typed || '').trim();
  if (!name) return null;
  const listed = zoneNames().find(z => z.toLowerCase() === name.toLowerCase());
  if (listed) return listed;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    // An alias the list leaves out (US/Eastern) is kept as typed; only its case is corrected.
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    return null;
  }
}

// The <input> and its <datalist> (each with its own id); put both on the page.
export function zoneInput(value, id = 'timezone') {
  const listId = id + '-names';
  const input = document.createElement('input');
  Object.assign(input, { id, name: id, type: 'text', value: value || browserZone(), autocomplete: 'off', spellcheck: false });
  input.setAttribute('autocapitalize', 'off');
  input.setAttribute('list', listId);
  const list = document.createElement('datalist');
  list.id = listId;
  list.append(...zoneNames().map(z => Object.assign(document.createElement('option'), { value: z })));
  return { input, list };
}
