// Skeleton edits from the panel: each is one POST /api/edit (notes:
// viewer-api.md lists the bodies), after which the app reloads the rig and
// keeps the selection through State.map.

const $ = (id) => document.getElementById(id);

/** Edits holds the operations the buttons, the keys and window.meshrig share. */
export class Edits {
  constructor(app) {
    this.app = app;
  }

  joint() {
    const j = this.app.selected;
    if (j < 0) throw new Error('select a joint first');
    return j;
  }

  head(j) {
    return this.app.state.joints[j].head;
  }

  /** move sets the selected joint's rest head to the typed coordinates. */
  moveTyped() {
    const head = ['x', 'y', 'z'].map((k) => Number($(`head-${k}`).value));
    if (head.some((v) => !Number.isFinite(v))) return Promise.reject(new Error('coordinates must be numbers'));
    return this.app.edit({ kind: 'move', joint: this.joint(), head });
  }

  /** split puts a new joint halfway along the bone that ends at the selected joint. */
  split() {
    const j = this.joint();
    if (this.app.state.joints[j].parent < 0) return this.fail('the root ends no bone: select a joint with a parent');
    return this.app.edit({ kind: 'split', joint: j, t: 0.5 });
  }

  /** addChild adds a joint under the selected one, half a bone further along its bone (or up from the root). */
  addChild() {
    const j = this.joint();
    const st = this.app.state;
    const h = this.head(j);
    const p = st.joints[j].parent;
    let dir = p >= 0 ? h.map((v, k) => 0.5 * (v - st.joints[p].head[k])) : [0, 0.05 * st.diagonal, 0];
    if (Math.hypot(...dir) < 1e-9 * st.diagonal) dir = [0, 0.05 * st.diagonal, 0];
    return this.app.edit({ kind: 'add', parent: j, head: h.map((v, k) => v + dir[k]) });
  }

  remove() {
    const j = this.joint();
    if (this.app.state.joints[j].parent < 0) return this.fail('the root cannot be removed: set another root first');
    return this.app.edit({ kind: 'remove', joint: j });
  }

  /** reparent waits for a click on the new parent. */
  reparent() {
    const j = this.joint();
    this.app.pickJoint(`click the new parent of ${this.app.state.joints[j].name} (Esc cancels)`,
      (p) => this.app.edit({ kind: 'reparent', joint: j, parent: p }).catch(() => {}));
    return Promise.resolve();
  }

  setRoot() {
    return this.app.edit({ kind: 'root', joint: this.joint() });
  }

  rename() {
    const name = $('rename-to').value.trim();
    if (!name) return this.fail('a joint needs a name');
    return this.app.edit({ kind: 'rename', joint: this.joint(), name });
  }

  fail(msg) {
    this.app.toast(msg, true);
    return Promise.reject(new Error(msg));
  }

  /** bind connects the panel's buttons. */
  bind() {
    const quiet = (f) => () => { try { f().catch(() => {}); } catch (e) { this.app.toast(e.message, true); } };
    $('move-apply').addEventListener('click', quiet(() => this.moveTyped()));
    $('split').addEventListener('click', quiet(() => this.split()));
    $('add-child').addEventListener('click', quiet(() => this.addChild()));
    $('remove').addEventListener('click', quiet(() => this.remove()));
    $('reparent').addEventListener('click', quiet(() => this.reparent()));
    $('set-root').addEventListener('click', quiet(() => this.setRoot()));
    $('rename').addEventListener('click', quiet(() => this.rename()));
    $('undo').addEventListener('click', quiet(() => this.app.undo()));
    $('redo').addEventListener('click', quiet(() => this.app.redo()));
  }
}
