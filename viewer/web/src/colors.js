// Vertex colours on every part of the mesh: a colour per dominant joint,
// the selected joint's weights as a heat map, or the rig's per-vertex error
// against the input at the current frame (in % of the rest diagonal d),
// with a colour bar; or the rig's own materials and textures ("material",
// when rig.glb has materials).
import * as THREE from 'three';

/** Modes, in the order the C key cycles through them. */
export const MODES = ['joint', 'weights', 'error', 'material', 'plain'];

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
    this.error = null; // Float32Array per rig vertex for the current frame, or null
    this.errorTop = 1; // % of d at the top of the bar
  }

  setModel(model) {
    this.model = model;
    this.dominantCache = model.layers.map((l) => l.dominant());
  }

  /** available reports whether mode m can show the current rig. */
  available(m) {
    return m !== 'material' || (this.model !== null && this.model.hasMaterials);
  }

  /**
   * paint recolours every part of the mesh for the mode; selected is the
   * selected joint or -1. Values per rig vertex (the error) reach a part's
   * vertices through its layer's rigVertex map (seam copies included).
   */
  paint(selected) {
    const m = this.model;
    if (!m) return;
    const mode = this.available(this.mode) ? this.mode : 'joint';
    m.setLook(mode === 'material' ? 'material' : 'colors');
    const n = m.vertexCount;
    const showError = mode === 'error' && this.error && this.error.length === n;
    const top = this.errorTop > 0 ? this.errorTop : 1;
    const cache = new Map();
    m.layers.forEach((layer, li) => {
      const a = layer.color.array;
      const count = layer.count;
      if (mode === 'joint') {
        const dom = this.dominantCache[li];
        for (let i = 0; i < count; i++) {
          const j = dom[i];
          if (!cache.has(j)) cache.set(j, jointColor(j));
          const c = cache.get(j);
          a[3 * i] = c.r; a[3 * i + 1] = c.g; a[3 * i + 2] = c.b;
        }
      } else if (mode === 'weights' && selected >= 0) {
        const w = layer.weightOf(selected);
        for (let i = 0; i < count; i++) a.set(heat(w[i]), 3 * i);
      } else if (showError) {
        const rv = layer.rigVertex;
        for (let i = 0; i < count; i++) {
          if (rv[i] >= 0) a.set(heat(this.error[rv[i]] / top), 3 * i);
          else a.fill(0.78, 3 * i, 3 * i + 3);
        }
      } else {
        a.fill(0.78);
      }
      layer.color.needsUpdate = true;
    });
    if (mode === 'joint' || mode === 'material') {
      this.showBar(null);
    } else if (mode === 'weights' && selected >= 0) {
      this.showBar('weight of the selected joint', 0, 1, (v) => v.toFixed(1));
    } else if (showError) {
      this.showBar('error, % of d', 0, top, (v) => `${v === 0 ? '0' : v.toPrecision(3)}%`);
    } else {
      const why = { weights: 'select a joint to see its weights', error: 'error: no input, or the rest pose (pick a clip)' };
      this.showBar(why[mode] ?? null);
    }
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
