// Photos are scaled in the browser to a JPEG of at most 1600 px on the long side before they
// are queued: smaller uploads on a phone network, and no full-resolution picture leaves the phone.
import { t } from './i18n.js';

const LONG_SIDE = 1600, QUALITY = 0.85;

export async function scaleToJPEG(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => createImageBitmap(file));
  const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * scale)), h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  canvas.getContext('2d').drawImage(bitmap, 0, 0, w, h);
  bitmap.close?.();
  const blob = await new Promise(r => canvas.toBlob(r, 'image/jpeg', QUALITY));
  if (!blob) throw new Error(t('photo.no_jpeg'));
  return { blob, width: w, height: h };
}
