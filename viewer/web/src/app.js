// The application: the server's State, the loaded model, the selection and
// the tool in use; every other module is driven from here.
import * as THREE from 'three';
import { api, latest } from './api.js';
import { View } from './scene.js';
import { loadModel } from './model.js';
import { SkeletonOverlay } from './skeleton.js';
import { Colors } from './colors.js';
import { Timeline } from './timeline.js';
import { ReportPanel } from './panel.js';
import { Gizmo } from './gizmo.js';
import { Ghost } from './ghost.js';

const $ = (id) => document.getElementById(id);

export class App {
  constructor() {
    this.state = null; // the server's last State
    this.model = null;
    this.loadedVersion = -1;
    this.selected = -1;
    this.tool = 'select'; // select | pose | move
    this.picking = null; // (joint) => void: the next joint click goes here (reparent)
    this.queue = Promise.resolve(); // server calls run one after another
    this.timings = {}; // ms since navigation start: module, webgl, state, glb, parsed, firstFrame
    this.view = new View($('view'));
    this.overlay = new SkeletonOverlay(this.view);
    this.colors = new Colors(this.view, { el: $('colorbar'), canvas: $('colorbar-ramp'), lo: $('colorbar-lo'), hi: $('colorbar-hi'), title: $('colorbar-title') });
    this.timeline = new Timeline(this.view, { clip: $('clip'), play: $('play'), scrub: $('scrub'), frame: $('frame'), speed: $('speed') });
    this.panel = new ReportPanel({ bones: $('r-bones'), rmse: $('r-rmse'), max: $('r-max'), worst: $('r-worst'), plot: $('r-plot') },
      (clip, frame) => this.seek(clip, frame));
    this.gizmo = new Gizmo(this.view);
    this.gizmo.onChange = () => this.overlay.update();
    this.ghost = new Ghost(this.view);
    this.errorFetch = latest();
    this.ghostFetch = latest();
    this.view.onTick.push(() => this.overlay.update());
    this.timeline.onFrame.push((clip, frame) => this.frameChanged(clip, frame));
    this.bindPicking();
  }

  /** run queues fn after the server calls already running; errors are shown and rethrown. */
  run(fn) {
    const p = this.queue.then(fn);
    this.queue = p.catch(() => {});
    return p.catch((e) => {
      this.toast(e.message || String(e), true);
      throw e;
    });
  }

  /** start loads the state and the rig; resolves once the first frame with the mesh is drawn. */
  async start() {
    const mark = (k) => { this.timings[k] = Math.round(performance.now()); };
    mark('webgl'); // the first WebGL context is up: SwiftShader takes ~1.3 s to start
    const st = await api.state();
    mark('state');
    this.onLoaded = mark; // reload() marks 'glb' and 'parsed' the first time
    await this.applyState(st);
    this.onLoaded = null;
    this.view.frame(this.model.box);
    const drawn = new Promise((resolve) => {
      const once = () => {
        this.view.onDrawn.splice(this.view.onDrawn.indexOf(once), 1);
        resolve(performance.now()); // after the draw, not the frame's start
      };
      this.view.onDrawn.push(once);
    });
    this.view.start();
    const ms = await drawn;
    this.timings.firstFrame = Math.round(ms);
    api.log('first-frame', Math.round(ms * 10) / 10);
    return ms;
  }

  /** applyState takes a State from the server, reloading the rig when its version changed. */
  async applyState(st, selectNew = false) {
    const before = this.state ? this.state.joints.length : 0;
    let sel = this.selected;
    if (st.map && sel >= 0) sel = sel < st.map.length ? st.map[sel] : -1;
    // After a split or an add, map's extra entry is the new joint: select it.
    if (selectNew && st.map && st.map.length === before + 1) sel = st.map[before];
    if (sel >= st.joints.length) sel = -1;
    this.state = st;
    if (st.version !== this.loadedVersion) await this.reload();
    this.select(sel ?? -1);
    this.updateChrome();
  }

  async reload() {
    const st = this.state;
    const glb = await api.rig(st.version);
    if (this.onLoaded) this.onLoaded('glb');
    const model = await loadModel(glb, st.vertices, st.copies || []);
    if (this.onLoaded) this.onLoaded('parsed');
    if (model.bones.length !== st.joints.length) {
      throw new Error(`rig.glb has ${model.bones.length} joints, the state ${st.joints.length}`);
    }
    this.gizmo.detach();
    const first = !this.model;
    if (this.model) this.model.dispose();
    this.model = model;
    this.loadedVersion = st.version;
    this.view.scene.add(model.root);
    model.setWireframe($('wireframe').checked);
    const material = document.querySelector('#color-mode option[value=material]');
    material.disabled = !model.hasMaterials;
    // A textured rig opens showing its texture; any other, its joints.
    if (first && model.hasTexture) {
      this.colors.mode = 'material';
      $('color-mode').value = 'material';
    }
    this.overlay.build(model, st.joints.map((j) => j.parent), st.diagonal || model.box.getSize(new THREE.Vector3()).length());
    this.colors.setModel(model);
    this.timeline.setModel(model, st.clips || []);
    this.overlay.update();
    this.timeline.notify();
    // The new mesh starts grey: colour it as the mode says (the error
    // mode's fetch was started by notify).
    if (this.colors.mode !== 'error') this.colors.paint(this.selected);
    this.view.invalidate();
  }

  /** updateChrome shows what the State says outside the 3D view. */
  updateChrome() {
    const st = this.state;
    document.title = `${st.dirty ? '• ' : ''}${st.name} — meshrig view`;
    $('name').textContent = st.name;
    $('dirty').hidden = !st.dirty;
    $('summary').textContent = `${st.joints.length} joints · ${st.vertices} vertices${st.static ? ' · static' : ''}`;
    $('undo').disabled = !st.canUndo;
    $('redo').disabled = !st.canRedo;
    for (const el of document.querySelectorAll('.needs-input')) el.disabled = !st.hasInput;
    this.panel.setReport(st.report, st.joints.length);
    const sel = this.selected;
    $('joint-name').textContent = sel >= 0 ? `${st.joints[sel].name} (#${sel})` : 'no joint selected — click one';
    for (const el of document.querySelectorAll('.needs-joint')) el.disabled = sel < 0;
    if (sel >= 0) {
      const h = st.joints[sel].head;
      ['x', 'y', 'z'].forEach((k, i) => { $(`head-${k}`).value = Number(h[i].toPrecision(6)); });
      $('rename-to').value = st.joints[sel].name;
      $('parent-name').textContent = st.joints[sel].parent >= 0 ? st.joints[st.joints[sel].parent].name : '(root)';
    }
  }

  select(j) {
    this.selected = j;
    this.overlay.setSelected(j);
    this.applyTool();
    if (this.colors.mode === 'weights') this.colors.paint(j);
    if (this.state) this.updateChrome();
  }

  /** setTool picks what a drag on the selected joint does: nothing, rotate (pose) or move (edit). */
  setTool(t) {
    this.tool = t;
    for (const b of document.querySelectorAll('[data-tool]')) b.classList.toggle('on', b.dataset.tool === t);
    if (t === 'move') this.timeline.setClip(-1); // joints are moved in the rest pose
    if (t === 'pose') this.timeline.pause();
    this.applyTool();
  }

  applyTool() {
    const j = this.selected;
    if (j < 0 || !this.model || this.tool === 'select') {
      this.gizmo.detach();
      return;
    }
    if (this.tool === 'pose') {
      this.gizmo.rotate(this.model.bones[j]);
    } else {
      const h = this.state.joints[j].head;
      this.gizmo.translate(new THREE.Vector3(h[0], h[1], h[2]), (p) => this.edit({ kind: 'move', joint: j, head: [p.x, p.y, p.z] }).catch(() => this.applyTool()));
    }
  }

  /** resetPose puts the bones back where the clip (or the rest pose) has them. */
  resetPose() {
    this.timeline.reapply();
    this.overlay.update();
    this.view.invalidate();
  }

  seek(clip, frame) {
    const t = this.timeline;
    t.pause();
    if (clip !== t.clip) t.setClip(clip, frame);
    else t.seek(frame);
  }

  /** setColorMode switches the colouring; resolves once the new colours are on the mesh. */
  async setColorMode(m) {
    if (!this.colors.available(m)) throw new Error(`colour mode ${m}: the rig has no materials`);
    this.colors.mode = m;
    $('color-mode').value = m;
    if (m === 'error') await this.fetchError();
    this.colors.paint(this.selected);
  }

  frameChanged(clip, frame) {
    this.panel.setFrame(clip, frame);
    if (this.colors.mode === 'error') this.errorFetch(() => this.fetchError());
    if (this.ghost.visible) this.ghostFetch(() => this.fetchGhost());
  }

  async fetchError() {
    const st = this.state;
    const t = this.timeline;
    if (!st.hasInput || t.clip < 0) {
      this.colors.error = null;
    } else {
      this.colors.error = await api.error(t.clip, t.frame);
      this.colors.errorTop = st.report && st.report.max > 0 ? st.report.max : Math.max(...this.colors.error);
    }
    this.colors.paint(this.selected);
  }

  async fetchGhost() {
    const t = this.timeline;
    if (!this.state.hasInput || t.clip < 0) {
      this.ghost.setVisible(false);
      return;
    }
    this.ghost.show(this.model, await api.input(t.clip, t.frame));
  }

  setGhost(on) {
    $('ghost').checked = on;
    this.ghost.setVisible(on && this.state.hasInput);
    if (on) this.ghostFetch(() => this.fetchGhost());
  }

  setWireframe(on) {
    $('wireframe').checked = on;
    this.model.setWireframe(on);
    this.view.invalidate();
  }

  /** edit sends one skeleton edit and loads the rig it made. */
  edit(op) {
    return this.run(async () => {
      const st = await api.edit(op);
      await this.applyState(st, op.kind === 'add' || op.kind === 'split');
      this.toast(`${op.kind}: done`);
      return st;
    });
  }

  undo() {
    return this.run(async () => this.applyState(await api.undo()));
  }

  redo() {
    return this.run(async () => this.applyState(await api.redo()));
  }

  bindPicking() {
    const canvas = this.view.canvas;
    let down = null;
    canvas.addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY, gizmo: this.gizmo.busy() }; });
    canvas.addEventListener('pointerup', (e) => {
      if (!down || down.gizmo || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
      const j = this.overlay.pick(e.clientX, e.clientY);
      if (this.picking) {
        if (j >= 0) {
          const f = this.picking;
          this.picking = null;
          canvas.classList.remove('picking');
          f(j);
        }
        return;
      }
      this.select(j);
    });
  }

  /** pickJoint makes the next joint click call f (Esc cancels). */
  pickJoint(prompt, f) {
    this.picking = f;
    this.view.canvas.classList.add('picking');
    this.toast(prompt);
  }

  cancel() {
    if (this.picking) {
      this.picking = null;
      this.view.canvas.classList.remove('picking');
      this.toast('cancelled');
    } else {
      this.select(-1);
    }
  }

  toast(msg, error = false) {
    const el = $('toast');
    el.textContent = msg;
    el.classList.toggle('error', error);
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, error ? 8000 : 2500);
    if (error) this.lastError = msg;
  }
}
