// The skeleton drawn over the mesh: a line per bone, a small pickable sphere
// per joint, the root as a larger diamond; drawn last and without depth test
// so it stays visible inside the body.
import * as THREE from 'three';

const boneColor = new THREE.Color(0xffe066);
const jointColor = new THREE.Color(0xf2f2f2);
const rootColor = new THREE.Color(0xff5a36);
const selectedColor = new THREE.Color(0x33d1ff);

export class SkeletonOverlay {
  constructor(view) {
    this.view = view;
    this.group = new THREE.Group();
    this.group.renderOrder = 10;
    view.scene.add(this.group);
    this.model = null;
    this.selected = -1;
    this.visible = true;
  }

  /** build draws model's joints; parents[j] is joint j's parent (-1 for the root), d the diagonal. */
  build(model, parents, d) {
    this.clear();
    this.model = model;
    this.parents = parents;
    const n = parents.length;
    const pairs = parents.filter((p) => p >= 0).length;
    const lineGeo = new THREE.BufferGeometry();
    lineGeo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(pairs, 1)), 3));
    lineGeo.setDrawRange(0, 2 * pairs);
    this.lines = new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({
      color: boneColor, depthTest: false, transparent: true, opacity: 0.9,
    }));
    this.lines.frustumCulled = false;
    this.lines.renderOrder = 10;
    this.group.add(this.lines);
    const r = 0.0065 * d;
    const sphere = new THREE.SphereGeometry(r, 12, 8);
    const diamond = new THREE.OctahedronGeometry(2.2 * r);
    this.joints = [];
    for (let j = 0; j < n; j++) {
      const root = parents[j] < 0;
      const m = new THREE.Mesh(root ? diamond : sphere, new THREE.MeshBasicMaterial({
        color: root ? rootColor : jointColor, depthTest: false, transparent: true,
      }));
      m.renderOrder = 11;
      m.userData.joint = j;
      this.joints.push(m);
      this.group.add(m);
    }
    this.setSelected(this.selected < n ? this.selected : -1);
    this.group.visible = this.visible;
    this.update();
  }

  clear() {
    for (const o of [...this.group.children]) {
      o.geometry.dispose();
      o.material.dispose();
      this.group.remove(o);
    }
    this.joints = [];
  }

  /** update moves the drawing to the bones' current world positions. */
  update() {
    if (!this.model) return;
    this.model.root.updateMatrixWorld(true);
    const heads = this.joints.map((m, j) => this.model.worldHead(j, m.position));
    const pos = this.lines.geometry.attributes.position;
    let k = 0;
    this.parents.forEach((p, j) => {
      if (p < 0) return;
      pos.setXYZ(k++, heads[p].x, heads[p].y, heads[p].z);
      pos.setXYZ(k++, heads[j].x, heads[j].y, heads[j].z);
    });
    pos.needsUpdate = true;
  }

  setSelected(j) {
    this.selected = j;
    this.joints.forEach((m, i) => {
      const root = this.parents[i] < 0;
      m.material.color.copy(i === j ? selectedColor : root ? rootColor : jointColor);
      m.scale.setScalar(i === j ? 1.6 : 1);
    });
    this.view.invalidate();
  }

  setVisible(v) {
    this.visible = v;
    this.group.visible = v;
    this.view.invalidate();
  }

  /**
   * pick returns the joint drawn nearest to client point (x, y) within
   * tolerance pixels, or -1: small spheres are hard to hit exactly.
   */
  pick(x, y, tolerance = 12) {
    if (!this.visible) return -1;
    this.update(); // the bones may have moved since the last drawn frame
    let best = -1;
    let bestD = tolerance * tolerance;
    this.joints.forEach((m, j) => {
      const s = this.view.toScreen(m.position);
      const d = (s.x - x) ** 2 + (s.y - y) ** 2;
      if (s.visible && d <= bestD) {
        best = j;
        bestD = d;
      }
    });
    return best;
  }
}
