// Sensor context sent with a response, each part only where the browser offers it and the
// participant allowed it.
const GOOD_ENOUGH_M = 100, WAIT_MS = 5000;

// Starts watching the position when a survey opens, so a fix is usually ready by Submit.
export function watchLocation() {
  const started = Date.now();
  let best = null, id = null, wake = null;
  if ('geolocation' in navigator) {
    try {
      id = navigator.geolocation.watchPosition(p => {
        if (!best || p.coords.accuracy <= best.coords.accuracy) best = p;
        if (best.coords.accuracy <= GOOD_ENOUGH_M) wake?.();
      }, () => { id = null; wake?.(); }, { enableHighAccuracy: true, maximumAge: 60000 });
    } catch { id = null; }
  }
  const stop = () => { if (id != null) navigator.geolocation.clearWatch(id); id = null; };
  // Waits until a fix of 100 m or better, or until 5 s after the watch began, then gives the best fix.
  async function fix() {
    if (id != null && !(best && best.coords.accuracy <= GOOD_ENOUGH_M)) {
      const left = WAIT_MS - (Date.now() - started);
      if (left > 0) await new Promise(r => { wake = r; setTimeout(r, left); });
    }
    stop();
    if (!best) return undefined;
    const c = best.coords;
    return {
      latitude: c.latitude, longitude: c.longitude, altitude: c.altitude ?? null,
      horizontal_accuracy: c.accuracy ?? null, vertical_accuracy: c.altitudeAccuracy ?? null,
      timestamp: new Date(best.timestamp).toISOString(),
    };
  }
  return { fix, stop };
}

export async function gather(watch, impetus, sound) {
  const ctx = { impetus };
  const loc = await watch?.fix();
  if (loc) ctx.location = loc;
  if (sound) ctx.sound = sound;
  try {
    if (navigator.getBattery) ctx.battery = Math.round((await navigator.getBattery()).level * 100) / 100;
  } catch { /* not allowed here */ }
  const type = navigator.connection?.type;
  if (!navigator.onLine) ctx.connection = 'none';
  else if (type === 'wifi' || type === 'cellular') ctx.connection = type;
  return ctx;
}

export const impetusFromURL = () => new URLSearchParams(location.search).get('via') === 'notification' ? 'notification' : 'button';
