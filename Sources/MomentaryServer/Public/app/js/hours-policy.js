// The settings a study lets a participant have, checked as MomentaryCore's
// StudySignallingRules.participantSettings checks them at registration and PUT /api/v1/settings:
// Tests/Shared/hours-policy-cases.json runs both, so the app refuses what the server would, with
// the same field and reason, before anything is sent.

const DELIVERY_MARGIN = 10; // beeps stop this many minutes before the end of the hours
const ALLOWED_BEEPS = [1, 24];

const minutesOf = time => {
  const match = /^(\d{2}):(\d{2})$/.exec(time ?? '');
  return match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
};
// Minutes from `from` forward to `to` on the 24-hour circle, 0…1439.
const forward = (from, to) => (to - from + 1440) % 1440;

// study: the app's study information (/api/v1/studies/{slug}): hours_policy, beeps_per_day {min, max},
// default_settings {start, end}, minimum_gap_minutes, earliest_start, latest_end, minimum_window_minutes.
// request: {beeps_per_day, start, end}, the hours left out where the study fixes them.
// Returns {settings: {beeps_per_day, start, end}} or {refused: {field, reason}} (field null for the
// settings as a whole), the first of the server's checks to fail.
export function participantSettings(study, request) {
  const refuse = (field, reason) => ({ refused: { field, reason } });
  const beeps = request.beeps_per_day;
  if (!(beeps >= study.beeps_per_day.min && beeps <= study.beeps_per_day.max)) return refuse('beeps_per_day', 'beeps_out_of_range');
  let { start, end } = request;
  if (study.hours_policy === 'fixed') {
    const own = study.default_settings;
    for (const [field, given, fixed] of [['start', start, own.start], ['end', end, own.end]]) {
      if (given != null && given !== fixed) return refuse(field, 'hours_fixed');
    }
    [start, end] = [own.start, own.end];
  } else {
    if (start == null) return refuse('start', 'hours_required');
    if (end == null) return refuse('end', 'hours_required');
  }
  const from = minutesOf(start), to = minutesOf(end);
  if (from % 15 !== 0) return refuse('start', 'not_on_quarter_hour');
  if (to % 15 !== 0) return refuse('end', 'not_on_quarter_hour');
  if (from === to) return refuse('end', 'same_start_and_end');
  const fault = boundsFault(study, from, to);
  if (fault) return refuse(fault.field, fault.reason);
  if (!(beeps >= ALLOWED_BEEPS[0] && beeps <= ALLOWED_BEEPS[1])) return refuse('beeps_per_day', 'beeps_out_of_range');
  const gap = study.minimum_gap_minutes;
  if (!(gap >= 0) || beeps * gap > forward(from, to) - DELIVERY_MARGIN) return refuse(null, 'does_not_fit');
  return { settings: { beeps_per_day: beeps, start, end } };
}

// For bounded hours: which end has to move, and why; null when the hours lie within the bounds
// and last at least the minimum window. Bounds and hours are read forward from the earliest start.
function boundsFault(study, from, to) {
  if (study.hours_policy !== 'bounded') return null;
  const earliest = minutesOf(study.earliest_start), latest = minutesOf(study.latest_end);
  if (Number.isNaN(earliest) || Number.isNaN(latest) || earliest === latest || earliest % 15 || latest % 15) return null;
  const span = forward(earliest, latest);
  const window = study.minimum_window_minutes ?? 15;
  const offset = forward(earliest, from), length = forward(from, to);
  const outside = offset >= span || offset + length > span;
  if (!outside && length >= window) return null;
  // After this start not even the shortest hours end in time, so the start has to move.
  return { field: offset > span - window ? 'start' : 'end', reason: outside ? 'outside_bounds' : 'window_too_short' };
}
