// IndexedDB: `kv` (credentials, study, last status, settings, cached surveys), `queue` (uploads,
// ordered by auto-increment seq), `dead` (uploads the server refused for good), `acks` (receipts of
// uploaded responses by idempotency key, so photos can find their response id).
const NAME = 'momentary';
let opening;

export function db() {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore('kv');
      d.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true });
      d.createObjectStore('dead', { keyPath: 'seq', autoIncrement: true });
      d.createObjectStore('acks', { keyPath: 'key' });
    };
    req.onsuccess = () => {
      // Another tab upgrading later must not be blocked by us.
      req.result.onversionchange = () => { req.result.close(); opening = null; };
      resolve(req.result);
    };
    req.onerror = () => { opening = null; reject(req.error); };
  });
  return opening;
}

// Runs fn(stores...) in one transaction; resolves with fn's result once the transaction commits.
export async function tx(names, mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(names, mode);
    let result;
    t.oncomplete = () => resolve(result);
    t.onerror = t.onabort = () => reject(t.error);
    Promise.resolve(fn(...[].concat(names).map(n => t.objectStore(n)))).then(r => { result = r; }, e => { t.abort(); reject(e); });
  });
}

export const req = r => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

export const get = key => tx('kv', 'readonly', s => req(s.get(key)));
export const set = (key, value) => tx('kv', 'readwrite', s => { s.put(value, key); });
export const del = key => tx('kv', 'readwrite', s => { s.delete(key); });
export const all = name => tx(name, 'readonly', s => req(s.getAll()));
export const clear = names => tx(names, 'readwrite', (...stores) => stores.forEach(s => s.clear()));
