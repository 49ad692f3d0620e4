// Sound level over a few seconds with the Web Audio API, in dBFS (0 = the loudest the microphone
// can record). Average is the energy mean (RMS over the whole time), peak the loudest sample.
import { t } from './i18n.js';

const FLOOR = -100;
const db = x => Math.max(FLOOR, Math.round(20 * Math.log10(x) * 10) / 10);

export async function measure(ms = 3000) {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error(t('sound.no_microphone'));
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const Ctx = window.AudioContext || window.webkitAudioContext;
  const ctx = new Ctx();
  try {
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 2048;
    ctx.createMediaStreamSource(stream).connect(analyser);
    const buf = new Float32Array(analyser.fftSize);
    let sum = 0, n = 0, peak = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      await new Promise(r => setTimeout(r, 40));
      analyser.getFloatTimeDomainData(buf);
      for (const v of buf) { sum += v * v; n++; if (Math.abs(v) > peak) peak = Math.abs(v); }
    }
    return { average_db: db(Math.sqrt(sum / Math.max(1, n))), peak_db: db(peak) };
  } finally {
    stream.getTracks().forEach(track => track.stop());
    ctx.close();
  }
}
