// The input drawn as a ghost: the input animation's vertices at the current
// frame (GET /api/input, in the rig's vertex order) as a faint wireframe
// over the rig's triangles, so rig and input can be compared by eye.
import * as THREE from 'three';

export class Ghost {
  constructor(view) {
    this.view = view;
    this.mesh = null;
    this.visible = false;
    this.material = new THREE.MeshBasicMaterial({
      color: 0x9fe0ff, wireframe: true, transparent: true, opacity: 0.28, depthWrite: false,
    });
  }

  /** show draws positions (3·N float32) over the model's triangles. */
  show(model, positions) {
    if (!this.mesh || this.source !== model) {
      this.clear();
      this.source = model;
      const g = new THREE.BufferGeometry();
      // A copy: disposing a geometry frees its index's GPU buffer.
      g.setIndex(new THREE.BufferAttribute(model.mesh.geometry.index.array.slice(), 1));
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
