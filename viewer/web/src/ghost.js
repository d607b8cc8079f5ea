// The input drawn as a ghost: the input animation's vertices at the current
// frame (GET /api/input, in the rig's vertex order) as a faint wireframe
// over the rig's triangles, so rig and input can be compared by eye.
import * as THREE from 'three';

export class Ghost {
  constructor(view) {
    this.view = view;
    this.mesh = null;
    this.visible = false;
    this.triangles = 0; // drawn, over every part of the mesh
    this.material = new THREE.MeshBasicMaterial({
      color: 0x9fe0ff, wireframe: true, transparent: true, opacity: 0.28, depthWrite: false,
    });
  }

  /** show draws positions (3·N float32, per rig vertex) over the triangles of every part. */
  show(model, positions) {
    if (!this.mesh || this.source !== model) {
      this.clear();
      this.source = model;
      const g = new THREE.BufferGeometry();
      g.setIndex(ghostIndex(model));
      this.triangles = g.index.count / 3;
      g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(positions.length), 3));
      this.mesh = new THREE.Mesh(g, this.material);
      this.mesh.frustumCulled = false;
      this.mesh.renderOrder = 5;
      this.view.scene.add(this.mesh);
    }
    const pos = this.mesh.geometry.attributes.position;
    if (pos.array.length === positions.length) {
      pos.array.set(positions);
      pos.needsUpdate = true;
    }
    this.mesh.visible = this.visible;
    this.view.invalidate();
  }

  setVisible(v) {
    this.visible = v;
    if (this.mesh) this.mesh.visible = v;
    this.view.invalidate();
  }

  clear() {
    if (!this.mesh) return;
    this.mesh.geometry.dispose();
    this.view.scene.remove(this.mesh);
    this.mesh = null;
  }
}

/**
 * ghostIndex returns every part's triangles over the rig's vertices: a
 * part's index points into its layer, whose seam copies map back to the rig
 * vertex they copy (a triangle touching an unmapped vertex is left out).
 */
function ghostIndex(model) {
  const out = [];
  for (const { mesh, layer } of model.parts) {
    const idx = mesh.geometry.index;
    if (!idx) continue;
    const rv = layer.rigVertex;
    for (let t = 0; t + 2 < idx.count; t += 3) {
      const a = rv[idx.getX(t)];
      const b = rv[idx.getX(t + 1)];
      const c = rv[idx.getX(t + 2)];
      if (a >= 0 && b >= 0 && c >= 0) out.push(a, b, c);
    }
  }
  return new THREE.BufferAttribute(model.vertexCount < 65536 ? new Uint16Array(out) : new Uint32Array(out), 1);
}
