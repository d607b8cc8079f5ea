// Entry point: builds the app, wires the visible controls and the keys, and
// exposes window.meshrig so a test can drive the page without hunting pixels.
import { App } from './app.js';
import { Edits } from './edit.js';
import { Solver } from './solve.js';
import { Saver } from './save.js';
import { MODES } from './colors.js';
import { bindKeys } from './keys.js';

const $ = (id) => document.getElementById(id);

const loaded = Math.round(performance.now()); // the bundle parsed and running
const app = new App();
app.timings.module = loaded;
const edits = new Edits(app);
const solver = new Solver(app);
const saver = new Saver(app);
edits.bind();
solver.bind();
saver.bind();

$('color-mode').addEventListener('change', () => app.setColorMode($('color-mode').value).catch((e) => app.toast(e.message, true)));
$('wireframe').addEventListener('change', () => app.setWireframe($('wireframe').checked));
$('skeleton').addEventListener('change', () => app.overlay.setVisible($('skeleton').checked));
$('ghost').addEventListener('change', () => app.setGhost($('ghost').checked));
$('frame-all').addEventListener('click', () => app.view.frame(app.model.box));
$('reset-pose').addEventListener('click', () => app.resetPose());
for (const b of document.querySelectorAll('[data-tool]')) b.addEventListener('click', () => app.setTool(b.dataset.tool));
const help = () => { $('help').hidden = !$('help').hidden; };
$('help-open').addEventListener('click', help);
$('help-close').addEventListener('click', help);
window.addEventListener('beforeunload', (e) => {
  if (app.state && app.state.dirty) e.preventDefault(); // unsaved edits: let the browser ask
});

bindKeys({
  togglePlay: () => app.timeline.toggle(),
  step: (d) => { app.timeline.pause(); app.timeline.seek(app.timeline.frame + d); },
  nextColor: () => {
    let i = MODES.indexOf(app.colors.mode);
    do i = (i + 1) % MODES.length; while (!app.colors.available(MODES[i]));
    return app.setColorMode(MODES[i]);
  },
  toggleWireframe: () => app.setWireframe(!$('wireframe').checked),
  toggleSkeleton: () => { $('skeleton').checked = !$('skeleton').checked; app.overlay.setVisible($('skeleton').checked); },
  toggleGhost: () => app.setGhost(!$('ghost').checked),
  frame: () => app.view.frame(app.model.box),
  tool: (t) => app.setTool(t),
  resetPose: () => app.resetPose(),
  remove: () => edits.remove(),
  split: () => edits.split(),
  addChild: () => edits.addChild(),
  reparent: () => edits.reparent(),
  setRoot: () => edits.setRoot(),
  undo: () => app.undo(),
  redo: () => app.redo(),
  solve: () => solver.solve(),
  save: () => { saver.suggest(); return saver.fromForm(); },
  cancel: () => { if (!$('help').hidden) help(); else app.cancel(); },
  help,
  error: (e) => app.toast(e.message || String(e), true),
});

let readyFlag = false;
const ready = app.start().then((ms) => {
  readyFlag = true;
  saver.suggest();
  return ms;
}, (e) => {
  app.toast(`could not load the rig: ${e.message}`, true);
  throw e;
});

/** window.meshrig: the page's handle for tests and the console. */
window.meshrig = {
  ready,
  get isReady() { return readyFlag; },
  jointCount: () => (app.model ? app.model.bones.length : 0),
  selectJoint: (i) => app.select(i),
  removeSelected: () => edits.remove(),
  solve: () => solver.solve(),
  save: (path, collada = '') => saver.save(path, collada),
  setColorMode: (m) => app.setColorMode(m),
  play: () => app.timeline.play(),
  pause: () => app.timeline.pause(),
  seek: (clip, frame) => app.seek(clip, frame),
  /** jointScreen gives joint i's page coordinates, to click it as a person would. */
  jointScreen: (i) => app.view.toScreen(app.model.worldHead(i)),
  /** partPoints gives, per part of the mesh, page points inside its triangles (to test its pixels). */
  partPoints: (max = 200) => app.model.partPoints((p) => app.view.toScreen(p), max),
  frameTimes: () => app.timeline.frameTimes.slice(),
  state: () => ({
    ...app.state,
    ui: {
      selected: app.selected, colorMode: app.colors.mode, clip: app.timeline.clip, frame: app.timeline.frame,
      playing: app.timeline.playing, tool: app.tool, loadedVersion: app.loadedVersion, lastError: app.lastError ?? null,
      ghostTriangles: app.ghost.visible ? app.ghost.triangles : 0, renderer: app.view.glName, antialias: app.view.antialias, timings: app.timings,
    },
  }),
};
