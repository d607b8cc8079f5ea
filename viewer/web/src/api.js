// The page's side of the HTTP contract (notes: viewer-api.md): every /api/ call
// carries the per-run token the page was opened with (?token=).

const token = new URLSearchParams(location.search).get('token') ?? '';

/** ApiError is a non-2xx answer: status and the server's one-line message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { 'X-Meshrig-Token': token } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (!res.ok) {
    let msg = `${res.status} ${res.statusText}`;
    try {
      const j = await res.json();
      if (j && j.error) msg = j.error;
    } catch { /* not JSON: keep the status line */ }
    throw new ApiError(res.status, msg);
  }
  return res;
}

const json = (r) => r.json();
const floats = async (r) => new Float32Array(await r.arrayBuffer());

export const api = {
  /** GET /api/state → State. */
  state: () => call('GET', '/api/state').then(json),
  /** GET /api/rig.glb → ArrayBuffer of the current rig (v busts caches). */
  rig: (version) => call('GET', `/api/rig.glb?v=${version}`).then((r) => r.arrayBuffer()),
  /** GET /api/error → Float32Array, per vertex error in % of d. */
  error: (clip, frame) => call('GET', `/api/error?clip=${clip}&frame=${frame}`).then(floats),
  /** GET /api/input → Float32Array of 3·N input positions. */
  input: (clip, frame) => call('GET', `/api/input?clip=${clip}&frame=${frame}`).then(floats),
  /** POST /api/edit → State with map. */
  edit: (op) => call('POST', '/api/edit', op).then(json),
  undo: () => call('POST', '/api/undo').then(json),
  redo: () => call('POST', '/api/redo').then(json),
  solveStart: () => call('POST', '/api/solve').then(json),
  solveStatus: () => call('GET', '/api/solve').then(json),
  solveCancel: () => call('DELETE', '/api/solve').then(json),
  /** POST /api/save → {path}. collada is "", "1.4.1" or "1.5". */
  save: (path, collada) => call('POST', '/api/save', collada ? { path, collada } : { path }).then(json),
  /** POST /api/log; failures are ignored (the page works without it). */
  log: (event, ms) => call('POST', '/api/log', { event, ms }).catch(() => {}),
};

/**
 * latest runs one request at a time and drops all but the newest waiting one,
 * so scrubbing the timeline never queues a fetch per frame.
 */
export function latest() {
  let running = false;
  let next = null;
  const pump = async () => {
    while (next) {
      const job = next;
      next = null;
      running = true;
      try {
        await job();
      } catch (e) {
        console.warn(e);
      }
      running = false;
    }
  };
  return (job) => {
    next = job;
    if (!running) pump();
  };
}
