// Vertex colours: a colour per dominant joint, the selected joint's weights
// as a heat map, or the rig's per-vertex error against the input at the
// current frame (in % of the rest diagonal d), with a colour bar.
import * as THREE from 'three';

/** Modes, in the order the C key cycles through them. */
export const MODES = ['joint', 'weights', 'error', 'plain'];

const stops = [ // a perceptually ordered ramp: dark blue → cyan → green → yellow → red
  [0.18, 0.2, 0.55], [0.1, 0.65, 0.85], [0.3, 0.8, 0.35], [0.98, 0.85, 0.2], [0.85, 0.12, 0.1],
];

/** heat maps t in [0, 1] to an RGB triple. */
export function heat(t) {
  const x = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  return stops[i].map((a, k) => a + f * (stops[i + 1][k] - a));
}

/** jointColor is joint j's colour: hues spread by the golden angle so neighbours differ. */
export function jointColor(j) {
  return new THREE.Color().setHSL((j * 0.381966) % 1, 0.6, 0.55);
}

export class Colors {
  constructor(view, bar) {
    this.view = view;
    this.bar = bar; // {el, canvas, lo, hi, title}
    this.mode = 'joint';
    this.model = null;
    this.error = null; // Float32Array for the current frame, or null
    this.errorTop = 1; // % of d at the top of the bar
  }

  setModel(model) {
    this.model = model;
    this.dominantCache = model.dominant();
  }

  /** paint recolours the mesh for the mode; selected is the selected joint or -1. */
  paint(selected) {
    const m = this.model;
    if (!m) return;
    const col = m.mesh.geometry.attributes.color;
    const a = col.array;
    const n = m.vertexCount;
    if (this.mode === 'joint') {
      const cache = new Map();
      for (let i = 0; i < n; i++) {
        const j = this.dominantCache[i];
        if (!cache.has(j)) cache.set(j, jointColor(j));
        const c = cache.get(j);
        a[3 * i] = c.r; a[3 * i + 1] = c.g; a[3 * i + 2] = c.b;
      }
      this.showBar(null);
    } else if (this.mode === 'weights' && selected >= 0) {
      const w = m.weightOf(selected);
      for (let i = 0; i < n; i++) a.set(heat(w[i]), 3 * i);
      this.showBar('weight of the selected joint', 0, 1, (v) => v.toFixed(1));
    } else if (this.mode === 'error' && this.error && this.error.length === n) {
      const top = this.errorTop > 0 ? this.errorTop : 1;
      for (let i = 0; i < n; i++) a.set(heat(this.error[i] / top), 3 * i);
      this.showBar('error, % of d', 0, top, (v) => `${v === 0 ? '0' : v.toPrecision(3)}%`);
    } else {
      a.fill(0.78);
      const why = { weights: 'select a joint to see its weights', error: 'error: no input, or the rest pose (pick a clip)' };
      this.showBar(why[this.mode] ?? null);
    }
    col.needsUpdate = true;
    this.view.invalidate();
  }

  showBar(title, lo, hi, fmt) {
    const b = this.bar;
    if (!title) {
      b.el.hidden = true;
      return;
    }
    b.el.hidden = false;
    b.title.textContent = title;
    const ctx = b.canvas.getContext('2d');
    const w = b.canvas.width;
    for (let x = 0; x < w; x++) {
      const [r, g, bl] = heat(x / (w - 1));
      ctx.fillStyle = `rgb(${255 * r},${255 * g},${255 * bl})`;
      ctx.fillRect(x, 0, 1, b.canvas.height);
    }
    b.lo.textContent = lo === undefined ? '' : fmt(lo);
    b.hi.textContent = hi === undefined ? '' : fmt(hi);
  }
}
